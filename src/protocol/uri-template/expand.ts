// Expansion of a parsed template (RFC 6570 section 3 and appendix A).
import { codePointLength, encode, isTriplet } from './encoding.js';
import type { Expression, OperatorSpec, Part, VarSpec } from './syntax.js';
import { OPERATORS } from './syntax.js';

/** A value that {@link UriTemplate.expand} substitutes for one variable; `undefined` skips it. */
export type UriTemplateValue =
  string | number | boolean | readonly string[] | Readonly<Record<string, string>> | undefined;

/** The variables passed to {@link UriTemplate.expand}, by variable name. */
export type UriTemplateVariables = Readonly<Record<string, UriTemplateValue>>;

/** Expands the parts of a template; see {@link UriTemplate.expand}. */
export function expandTemplate(parts: readonly Part[], variables: UriTemplateVariables): string {
  let out = '';
  for (const part of parts) {
    out += typeof part === 'string' ? encode(part, true) : expandExpression(part, variables);
  }
  return out;
}

type Normalized =
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'list'; readonly items: readonly string[] }
  | { readonly kind: 'map'; readonly entries: readonly (readonly [string, string])[] };

function expandExpression(expr: Expression, variables: UriTemplateVariables): string {
  const spec = OPERATORS[expr.op];
  const pieces: string[] = [];
  for (const v of expr.vars) {
    const value = normalize(Object.hasOwn(variables, v.name) ? variables[v.name] : undefined);
    if (value !== undefined) pieces.push(expandValue(spec, v, value));
  }
  return pieces.length === 0 ? '' : spec.first + pieces.join(spec.sep);
}

function expandValue(spec: OperatorSpec, v: VarSpec, value: Normalized): string {
  const enc = (text: string): string => encode(text, spec.allowReserved);
  const named = (name: string, encoded: string): string =>
    spec.named ? `${name}${encoded === '' ? spec.ifEmpty : '='}${encoded}` : encoded;
  if (value.kind === 'string') {
    const text = v.prefix === undefined ? value.value : truncate(value.value, v.prefix, spec);
    return named(v.name, enc(text));
  }
  if (!v.explode) {
    const joined =
      value.kind === 'list'
        ? value.items.map(enc).join(',')
        : value.entries.map(([key, item]) => `${enc(key)},${enc(item)}`).join(',');
    return named(v.name, joined);
  }
  if (value.kind === 'list')
    return value.items.map((item) => named(v.name, enc(item))).join(spec.sep);
  return value.entries
    .map(([key, item]) => (spec.named ? named(enc(key), enc(item)) : `${enc(key)}=${enc(item)}`))
    .join(spec.sep);
}

/** Classifies a value; undefined means "skip" (RFC 6570 2.3: undefined, empty list, empty map). */
function normalize(value: unknown): Normalized | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) {
    const items = (value as readonly unknown[]).filter((x) => x !== undefined && x !== null);
    return items.length === 0 ? undefined : { kind: 'list', items: items.map(scalar) };
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, x]) => x !== undefined && x !== null)
      .map(([key, x]) => [key, scalar(x)] as const);
    return entries.length === 0 ? undefined : { kind: 'map', entries };
  }
  return { kind: 'string', value: scalar(value) };
}

function scalar(value: unknown): string {
  return typeof value === 'string' ? value : String(value);
}

/** The first `max` characters (code points; a pct-encoded triplet counts as one under U+R). */
function truncate(text: string, max: number, spec: OperatorSpec): string {
  let i = 0;
  for (let count = 0; count < max && i < text.length; count++) {
    i += spec.allowReserved && isTriplet(text, i) ? 3 : codePointLength(text, i);
  }
  return text.slice(0, i);
}
