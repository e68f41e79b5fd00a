// Matching a concrete URI against a compiled template (compile.ts), and decoding the captured text
// into variables; the rules are listed in uri-template.ts.
import type { Capture, Matcher } from './compile.js';
import { codePointCount } from './encoding.js';
import { run } from './machine.js';
import type { VarSpec } from './syntax.js';

/** The variables extracted by {@link UriTemplate.match}: a string, or a list for explode (`*`). */
export type UriTemplateMatch = Record<string, string | string[]>;

/** URIs longer than this never match: it bounds the visited set (program x length bits). */
const MAX_MATCH_LENGTH = 65_536;

/** Matches `uri` against a compiled template; see {@link UriTemplate.match}. */
export function matchUri(matcher: Matcher, uri: string): UriTemplateMatch | undefined {
  if (uri.length > MAX_MATCH_LENGTH) return undefined;
  const { program, captures, query } = matcher;
  const slots = run(program, uri, 2 * captures.length + 2);
  if (slots === undefined) return undefined;
  const span = (i: number): string | undefined => {
    const start = slots[2 * i] ?? -1;
    const end = slots[2 * i + 1] ?? -1;
    return start < 0 || end < 0 ? undefined : uri.slice(start, end);
  };
  const found = new Map<string, string | string[]>();
  for (const [index, capture] of captures.entries()) {
    const raw = span(index);
    if (raw === undefined) continue;
    const value = decodeCapture(capture, raw);
    if (value === undefined || !assign(found, capture.v.name, value)) return undefined;
  }
  const rawQuery = span(captures.length);
  if (rawQuery !== undefined && !matchQuery(rawQuery, query, found)) return undefined;
  return Object.fromEntries(found);
}

/** Percent-decodes, or returns undefined for malformed or non-UTF-8 encoding. */
function decode(text: string): string | undefined {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** Decodes one matched value; undefined when it is malformed or breaks an operator rule. */
function decodeValue(capture: Capture, raw: string): string | undefined {
  const value = decode(raw);
  if (value === undefined || (capture.spec.noSlash && value.includes('/'))) return undefined;
  const { prefix } = capture.v;
  return prefix !== undefined && codePointCount(value) > prefix ? undefined : value;
}

/** Strips `name` and an optional `=` from a named item (`;x=1`, `;x`, `x=1`). */
function stripName(name: string, item: string): string {
  return item.slice(name.length + (item.charAt(name.length) === '=' ? 1 : 0));
}

function decodeCapture(capture: Capture, raw: string): string | string[] | undefined {
  const { spec, v } = capture;
  switch (capture.kind) {
    case 'value':
      return decodeValue(capture, raw);
    case 'named':
      return decodeValue(capture, stripName(v.name, raw));
    case 'list':
    case 'named-list': {
      const items: string[] = [];
      for (const item of raw.split(spec.sep)) {
        const value = decodeValue(
          capture,
          capture.kind === 'list' ? item : stripName(v.name, item),
        );
        if (value === undefined) return undefined;
        items.push(value);
      }
      return items;
    }
  }
}

/** Records a variable; a name seen twice (`{a}/{a}`) must have the same value both times. */
function assign(
  found: Map<string, string | string[]>,
  name: string,
  value: string | string[],
): boolean {
  const previous = found.get(name);
  if (previous !== undefined) return JSON.stringify(previous) === JSON.stringify(value);
  found.set(name, value);
  return true;
}

/** Matches query parameters by name, in any order; unknown parameters are ignored. */
function matchQuery(
  raw: string,
  vars: readonly VarSpec[],
  found: Map<string, string | string[]>,
): boolean {
  const params = new Map<string, string[]>();
  for (const piece of raw.split('&')) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    const name = decode(eq < 0 ? piece : piece.slice(0, eq));
    if (name === undefined) continue; // not one of ours: unknown parameters are ignored
    const values = params.get(name) ?? [];
    values.push(eq < 0 ? '' : piece.slice(eq + 1));
    params.set(name, values);
  }
  for (const v of vars) {
    const values = params.get(decode(v.name) ?? v.name);
    if (values === undefined) continue;
    const decoded = (v.explode ? values : values.slice(0, 1)).map(decode);
    if (!decoded.every((x): x is string => x !== undefined)) return false;
    if (!assign(found, v.name, v.explode ? decoded : (decoded[0] ?? ''))) return false;
  }
  return true;
}
