// RFC 6570 URI templates (levels 1-4) for MCP resource templates: parsing with precise errors,
// expansion, and matching a concrete URI back to its variables for `resources/read` dispatch.
// Spec 2025-11-25 server/resources#resource-templates; RFC 6570 (https://www.rfc-editor.org/rfc/rfc6570).
//
// Matching inverts expansion where RFC 6570 allows it (the RFC itself notes it is not always
// possible). The rules, in short:
// - Variables in path position (`{var}`, `{.var}`, `{/var}`, `{;var}`) never yield a `/`, not even
//   a percent-encoded one, so a value cannot walk out of its segment. `{+var}` and `{#var}` can.
// - A trailing run of `{?…}` / `{&…}` expressions matches query parameters in any order; every one
//   is optional and unknown parameters are ignored.
// - Values are percent-decoded; malformed percent-encoding makes the URI not match (never throws).
// - Earlier variables take the shortest text that lets the rest of the template match; in a
//   multi-variable expression (`{x,y}`) only trailing variables may be missing.
// - Non-exploded lists come back as one string (`{list}` gives "red,green,blue"); records
//   (`{keys*}`) do not round-trip; a `+` in a query value stays a `+` (RFC 3986, not forms).
// - Matching is linear in the URI's length (no RegExp, so no ReDoS); see `run`.

/** A value that {@link UriTemplate.expand} substitutes for one variable; `undefined` skips it. */
export type UriTemplateValue =
  string | number | boolean | readonly string[] | Readonly<Record<string, string>> | undefined;

/** The variables passed to {@link UriTemplate.expand}, by variable name. */
export type UriTemplateVariables = Readonly<Record<string, UriTemplateValue>>;

/** The variables extracted by {@link UriTemplate.match}: a string, or a list for explode (`*`). */
export type UriTemplateMatch = Record<string, string | string[]>;

type Operator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

interface OperatorSpec {
  /** Text before the first expanded variable. */
  readonly first: string;
  /** Text between expanded variables (and exploded items). */
  readonly sep: string;
  /** Whether variables are written as `name=value`. */
  readonly named: boolean;
  /** What follows a name whose value is empty. */
  readonly ifEmpty: string;
  /** Whether reserved characters and pct-encoded triplets pass through unencoded (U+R). */
  readonly allowReserved: boolean;
  /** Characters a matched value can never contain raw (they end the value). */
  readonly stops: string;
  /** Whether a matched value must be non-empty. */
  readonly nonEmpty: boolean;
  /** Whether a decoded value must not contain `/` (path positions). */
  readonly noSlash: boolean;
}

// RFC 6570 appendix A, plus the matching columns (stops, nonEmpty, noSlash).
const PLAIN = { named: false, ifEmpty: '', allowReserved: false, nonEmpty: false, noSlash: false };
const OPERATORS: Readonly<Record<Operator, OperatorSpec>> = {
  '': { ...PLAIN, first: '', sep: ',', stops: '/?#', nonEmpty: true, noSlash: true },
  '+': { ...PLAIN, first: '', sep: ',', stops: '?#', allowReserved: true, nonEmpty: true },
  '#': { ...PLAIN, first: '#', sep: ',', stops: '', allowReserved: true },
  '.': { ...PLAIN, first: '.', sep: '.', stops: '/?#', noSlash: true },
  '/': { ...PLAIN, first: '/', sep: '/', stops: '/?#', noSlash: true },
  ';': { ...PLAIN, first: ';', sep: ';', stops: ';/?#', named: true, noSlash: true },
  '?': { ...PLAIN, first: '?', sep: '&', stops: '&#', named: true, ifEmpty: '=' },
  '&': { ...PLAIN, first: '&', sep: '&', stops: '&#', named: true, ifEmpty: '=' },
};

/** One `varspec` of an expression: `name`, `name*` or `name:prefix`. */
interface VarSpec {
  readonly name: string;
  readonly explode: boolean;
  readonly prefix: number | undefined;
}

interface Expression {
  readonly op: Operator;
  readonly vars: readonly VarSpec[];
}

/** A template is literals (strings) and expressions, in order. */
type Part = string | Expression;

/** How one captured span of the URI becomes a variable value. */
interface Capture {
  readonly spec: OperatorSpec;
  readonly v: VarSpec;
  /** `value`: plain; `named`: `name[=value]`; `list`: sep-joined; `named-list`: `name=v` items. */
  readonly kind: 'value' | 'named' | 'list' | 'named-list';
}

interface Matcher {
  readonly program: readonly Inst[];
  /** Capture i spans slots 2i and 2i+1; the query string, when present, is the last pair. */
  readonly captures: readonly Capture[];
  /** The variables of the trailing query expressions, matched by name in any order. */
  readonly query: readonly VarSpec[];
}

/**
 * UriTemplate is a parsed RFC 6570 URI template (levels 1-4). It expands variables into a URI
 * and matches a URI back to variables. Instances are immutable and safe to share.
 */
export class UriTemplate {
  /** The template text, as given to {@link UriTemplate.parse}. */
  readonly template: string;
  /** The distinct variable names, in order of first appearance. */
  readonly variableNames: readonly string[];
  readonly #parts: readonly Part[];
  readonly #matcher: Matcher;

  private constructor(template: string, parts: readonly Part[]) {
    this.template = template;
    this.#parts = parts;
    const names = parts.flatMap((part) => (typeof part === 'string' ? [] : part.vars));
    this.variableNames = Object.freeze([...new Set(names.map((v) => v.name))]);
    this.#matcher = compile(parts);
  }

  /**
   * Parses a template. Throws a TypeError naming the position (a 0-based index into the template)
   * and the reason when the template is invalid: an unclosed or nested brace, a stray `}`, an
   * empty expression, a reserved or unknown operator, a bad variable name, or a prefix modifier
   * outside 1..9999.
   */
  static parse(template: string): UriTemplate {
    return new UriTemplate(template, parseTemplate(template));
  }

  /**
   * Expands the template (RFC 6570 section 3). Missing and `undefined` variables, empty lists and
   * empty records are skipped. A prefix modifier (`:n`) applies to string values only.
   */
  expand(variables: UriTemplateVariables): string {
    let out = '';
    for (const part of this.#parts) {
      out += typeof part === 'string' ? encode(part, true) : expandExpression(part, variables);
    }
    return out;
  }

  /**
   * Matches a whole URI against the template and returns the decoded variables, or undefined when
   * it does not match. Variables absent from the URI are absent from the result. An exploded
   * variable (`{/path*}`, `{?tag*}`) yields a string[]; every other variable yields a string.
   * Runs in O(template x URI length); URIs longer than 64 KiB (65,536 code units) never match.
   */
  match(uri: string): UriTemplateMatch | undefined {
    if (uri.length > MAX_MATCH_LENGTH) return undefined;
    const { program, captures, query } = this.#matcher;
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

  /** Returns the template text. */
  toString(): string {
    return this.template;
  }
}

/** Reports whether `s` is a valid URI template with at least one expression. */
export function isUriTemplate(s: string): boolean {
  try {
    return UriTemplate.parse(s).variableNames.length > 0;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Parsing (RFC 6570 section 2)

function fail(template: string, index: number, reason: string): never {
  throw new TypeError(
    `invalid URI template ${JSON.stringify(template)}: ${reason} at position ${index}`,
  );
}

function parseTemplate(template: string): Part[] {
  const parts: Part[] = [];
  let literal = '';
  let i = 0;
  while (i < template.length) {
    const ch = template.charAt(i);
    if (ch === '}') fail(template, i, "unmatched '}'");
    if (ch !== '{') {
      literal += ch;
      i++;
      continue;
    }
    if (literal !== '') parts.push(literal);
    literal = '';
    const close = findClose(template, i);
    parts.push(parseExpression(template, i, close));
    i = close + 1;
  }
  if (literal !== '') parts.push(literal);
  return parts;
}

function findClose(template: string, open: number): number {
  for (let j = open + 1; j < template.length; j++) {
    const ch = template.charAt(j);
    if (ch === '}') return j;
    if (ch === '{') fail(template, j, "nested '{' inside an expression");
  }
  return fail(template, open, "unclosed expression (missing '}')");
}

const OPERATOR_CHARS = '+#./;?&';
const RESERVED_OPERATOR_CHARS = '=,!@|';

function parseExpression(template: string, open: number, close: number): Expression {
  if (close === open + 1) fail(template, open, 'empty expression');
  let start = open + 1;
  const first = template.charAt(start);
  let operator: Operator = '';
  if (OPERATOR_CHARS.includes(first)) {
    operator = first as Operator;
    start++;
  } else if (RESERVED_OPERATOR_CHARS.includes(first)) {
    fail(template, start, `reserved operator '${first}'`);
  } else if (!isVarChar(first) && first !== '%') {
    fail(template, start, `invalid operator '${charAt(template, start)}'`);
  }
  const vars: VarSpec[] = [];
  let from = start;
  for (let j = start; j <= close; j++) {
    if (j === close || template.charAt(j) === ',') {
      vars.push(parseVarSpec(template, from, j));
      from = j + 1;
    }
  }
  return { op: operator, vars };
}

function isVarChar(ch: string): boolean {
  return /^[A-Za-z0-9_]$/.test(ch);
}

function isHex(ch: string): boolean {
  return ch.length === 1 && '0123456789ABCDEFabcdef'.includes(ch);
}

function parseVarSpec(template: string, start: number, end: number): VarSpec {
  let j = start;
  let afterDot = false;
  while (j < end) {
    const ch = template.charAt(j);
    if (isVarChar(ch)) {
      j++;
    } else if (ch === '%') {
      if (!isHex(template.charAt(j + 1)) || !isHex(template.charAt(j + 2)) || j + 2 >= end) {
        fail(template, j, 'invalid percent-encoding in variable name');
      }
      j += 3;
    } else if (ch === '.') {
      if (j === start) fail(template, j, "variable name starts with '.'");
      if (afterDot) fail(template, j, "'..' in variable name");
      j++;
      afterDot = true;
      continue;
    } else {
      break;
    }
    afterDot = false;
  }
  if (j === start) {
    fail(
      template,
      j,
      j === end
        ? 'empty variable name'
        : `invalid character '${charAt(template, j)}' in variable name`,
    );
  }
  if (afterDot) fail(template, j - 1, "variable name ends with '.'");
  const name = template.slice(start, j);
  if (j === end) return { name, explode: false, prefix: undefined };
  const modifier = template.charAt(j);
  if (modifier === '*') {
    if (j + 1 < end) fail(template, j + 1, `unexpected '${charAt(template, j + 1)}' after '*'`);
    return { name, explode: true, prefix: undefined };
  }
  if (modifier !== ':') {
    fail(template, j, `invalid character '${charAt(template, j)}' in variable name`);
  }
  const digits = template.slice(j + 1, end);
  if (!/^[0-9]+$/.test(digits)) {
    fail(template, j + 1, 'prefix modifier is not a number from 1 to 9999');
  }
  const prefix = Number(digits);
  if (digits.startsWith('0') || prefix > 9999) {
    fail(template, j + 1, `prefix modifier ${digits} is out of range (1..9999)`);
  }
  return { name, explode: false, prefix };
}

/** The character at `index`, a whole code point, for messages. */
function charAt(text: string, index: number): string {
  return String.fromCodePoint(text.codePointAt(index) ?? 0);
}

// ---------------------------------------------------------------------------------------------
// Expansion (RFC 6570 section 3 and appendix A)

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

function isTriplet(text: string, i: number): boolean {
  return text.charAt(i) === '%' && isHex(text.charAt(i + 1)) && isHex(text.charAt(i + 2));
}

function codePointLength(text: string, i: number): number {
  return (text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
}

function codePointCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += codePointLength(text, i)) count++;
  return count;
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const RESERVED = /^[:/?#[\]@!$&'()*+,;=]$/;

/** Pct-encodes everything outside U (unreserved), or outside U+R keeping triplets. */
function encode(text: string, allowReserved: boolean): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (allowReserved && isTriplet(text, i)) {
      out += text.slice(i, i + 3);
      i += 3;
      continue;
    }
    const ch = text.charAt(i);
    if (UNRESERVED.test(ch) || (allowReserved && RESERVED.test(ch))) {
      out += ch;
    } else {
      out += pctEncode(text.codePointAt(i) ?? 0);
    }
    i += codePointLength(text, i);
  }
  return out;
}

/** UTF-8 pct-encoding of one code point; a lone surrogate becomes U+FFFD. */
function pctEncode(codePoint: number): string {
  const cp = codePoint >= 0xd800 && codePoint <= 0xdfff ? 0xfffd : codePoint;
  const bytes =
    cp < 0x80
      ? [cp]
      : cp < 0x800
        ? [0xc0 | (cp >> 6), 0x80 | (cp & 0x3f)]
        : cp < 0x10000
          ? [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)]
          : [
              0xf0 | (cp >> 18),
              0x80 | ((cp >> 12) & 0x3f),
              0x80 | ((cp >> 6) & 0x3f),
              0x80 | (cp & 0x3f),
            ];
  return bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

// ---------------------------------------------------------------------------------------------
// Matching: compiled once, at parse, into a small program (a backtracking NFA). It runs with a
// visited set over (instruction, position), RE2's "BitState": each pair is explored at most once,
// so matching is O(program length x URI length) whatever the template. A RegExp would backtrack
// exponentially on templates like `{a}{b}{c}` (the official TS SDK's UriTemplate had such a ReDoS).

/** URIs longer than this never match: it bounds the visited set (program x length bits). */
const MAX_MATCH_LENGTH = 65_536;

/** One instruction; `split` tries `a` first, then `b` (that order gives lazy or greedy). */
type Inst =
  | { readonly k: 'lit'; readonly text: string }
  | { readonly k: 'unit'; readonly stops: string }
  | { readonly k: 'rest' }
  | { k: 'split'; a: number; b: number }
  | { k: 'jmp'; to: number }
  | { readonly k: 'save'; readonly slot: number }
  | { readonly k: 'end' };

function compile(parts: readonly Part[]): Matcher {
  let tail = parts.length;
  for (let p = parts[tail - 1]; p !== undefined && isQuery(p); p = parts[tail - 1]) tail--;
  const head = parts.slice(0, tail);
  const program: Inst[] = [];
  const captures: Capture[] = [];
  for (const part of head) {
    if (typeof part === 'string') emitLiteral(program, part);
    else emitExpression(program, part, captures);
  }
  const query = parts.slice(tail).flatMap((part) => (typeof part === 'string' ? [] : part.vars));
  if (query.length > 0) emitQuery(program, queryStart(head, parts[tail]), 2 * captures.length);
  program.push({ k: 'end' });
  return { program, captures, query };
}

function isQuery(part: Part): boolean {
  return typeof part !== 'string' && (part.op === '?' || part.op === '&');
}

/** Emits `body` as optional, preferring to take it: `(?:body)?`. */
function optional(program: Inst[], body: () => void): void {
  const split: Inst = { k: 'split', a: program.length + 1, b: -1 };
  program.push(split);
  body();
  split.b = program.length;
}

/** Emits `body` zero or more times, greedy: `(?:body)*`. */
function star(program: Inst[], body: () => void): void {
  const top = program.length;
  const split: Inst = { k: 'split', a: top + 1, b: -1 };
  program.push(split);
  body();
  program.push({ k: 'jmp', to: top });
  split.b = program.length;
}

/** Emits one character of a value, any number of times but as few as possible: `unit*?`. */
function lazyUnits(program: Inst[], stops: string, min: 0 | 1): void {
  if (min === 1) program.push({ k: 'unit', stops });
  const top = program.length;
  program.push({ k: 'split', a: top + 3, b: top + 1 }, { k: 'unit', stops }, { k: 'jmp', to: top });
}

/** A literal matches itself; a character that expansion would pct-encode also matches encoded. */
function emitLiteral(program: Inst[], literal: string): void {
  let plain = '';
  let i = 0;
  while (i < literal.length) {
    const size = isTriplet(literal, i) ? 3 : codePointLength(literal, i);
    const text = literal.slice(i, i + size);
    const encoded = encode(text, true);
    i += size;
    if (encoded === text) {
      plain += text;
      continue;
    }
    emitText(program, plain);
    plain = '';
    const split: Inst = { k: 'split', a: program.length + 1, b: program.length + 3 };
    program.push(split, { k: 'lit', text }, { k: 'jmp', to: program.length + 4 });
    program.push({ k: 'lit', text: encoded });
  }
  emitText(program, plain);
}

/** Emits a `lit` instruction unless `text` is empty. */
function emitText(program: Inst[], text: string): void {
  if (text !== '') program.push({ k: 'lit', text });
}

function emitExpression(program: Inst[], expr: Expression, captures: Capture[]): void {
  const spec = OPERATORS[expr.op];
  // Later variables may be omitted (undefined) only from the end: `a(?:,b(?:,c)?)?`.
  const emitFrom = (index: number): void => {
    const v = expr.vars[index];
    if (v === undefined) return;
    emitText(program, index === 0 ? spec.first : spec.sep);
    const separated = expr.vars.length > 1 || v.explode;
    const stops = separated ? spec.stops + spec.sep : spec.stops;
    const slot = 2 * captures.length;
    captures.push({ spec, v, kind: captureKind(spec, v) });
    program.push({ k: 'save', slot });
    emitVar(program, { spec, v, stops });
    program.push({ k: 'save', slot: slot + 1 });
    if (index + 1 < expr.vars.length) {
      optional(program, () => {
        emitFrom(index + 1);
      });
    }
  };
  if (spec.first === '') emitFrom(0);
  else {
    optional(program, () => {
      emitFrom(0);
    });
  }
}

function captureKind(spec: OperatorSpec, v: VarSpec): Capture['kind'] {
  if (v.explode) return spec.named ? 'named-list' : 'list';
  return spec.named ? 'named' : 'value';
}

/** Emits one variable: `value`, `name[=value]`, or items joined by the separator. */
function emitVar(
  program: Inst[],
  { spec, v, stops }: { spec: OperatorSpec; v: VarSpec; stops: string },
): void {
  const value = (): void => {
    lazyUnits(program, stops, spec.nonEmpty ? 1 : 0);
  };
  const item = (): void => {
    if (!spec.named) {
      value();
      return;
    }
    program.push({ k: 'lit', text: v.name });
    const assigned = (): void => {
      program.push({ k: 'lit', text: '=' });
      value();
    };
    // `;x` for an empty value (ifEmpty ''), else `x=`: a value always follows `=`.
    if (spec.ifEmpty === '') optional(program, assigned);
    else assigned();
  };
  item();
  if (v.explode) {
    star(program, () => {
      program.push({ k: 'lit', text: spec.sep });
      item();
    });
  }
}

/**
 * How the query string after the head starts: with `?`, or with `&` when the head already opened
 * the query (`/search?q=x{&page}`), or bare ('') after a literal ending in `?` or `&`.
 */
function queryStart(head: readonly Part[], firstTail: Part | undefined): '' | '?' | '&' {
  const last = head.at(-1);
  if (typeof last === 'string' && /[?&]$/.test(last)) return '';
  const opened = head.some((p) => (typeof p === 'string' ? p.includes('?') : p.op === '?'));
  return opened || (typeof firstTail !== 'string' && firstTail?.op === '&') ? '&' : '?';
}

/** Emits the capture of the query string; its parameters are matched by {@link matchQuery}. */
function emitQuery(program: Inst[], start: '' | '?' | '&', slot: number): void {
  const rest = (): void => {
    program.push({ k: 'save', slot }, { k: 'rest' }, { k: 'save', slot: slot + 1 });
  };
  if (start === '') {
    rest();
    return;
  }
  optional(program, () => {
    program.push({ k: 'lit', text: start });
    rest();
  });
}

/** How many characters `inst` consumes at `sp`, or -1 when it cannot. */
function consume(inst: Inst, input: string, sp: number): number {
  switch (inst.k) {
    case 'lit':
      return input.startsWith(inst.text, sp) ? inst.text.length : -1;
    case 'unit': {
      if (isTriplet(input, sp)) return 3;
      const ch = input.charAt(sp);
      return ch === '' || ch === '%' || inst.stops.includes(ch) ? -1 : 1;
    }
    case 'rest':
      return input.includes('#', sp) ? -1 : input.length - sp;
    case 'split':
    case 'jmp':
    case 'save':
    case 'end':
      return -1;
  }
}

let scratchBuffer = new Uint8Array(1024);

/** A zeroed byte buffer, reused across calls: {@link run} is synchronous and never re-entered. */
function scratch(size: number): Uint8Array {
  if (scratchBuffer.length < size)
    scratchBuffer = new Uint8Array(Math.max(size, 2 * scratchBuffer.length));
  scratchBuffer.fill(0, 0, size);
  return scratchBuffer;
}

/**
 * Runs `program` against the whole of `input`, trying alternatives in priority order, and returns
 * the capture slots of the first success (-1 for unset), or undefined.
 */
function run(program: readonly Inst[], input: string, slotCount: number): number[] | undefined {
  const width = input.length + 1;
  const visited = scratch(Math.ceil((program.length * width) / 8));
  const slots: number[] = new Array<number>(slotCount).fill(-1);
  // Jobs, three numbers each: [0, pc, sp] explores; [1, slot, old] restores a capture slot.
  const jobs: number[] = [0, 0, 0];
  while (jobs.length > 0) {
    const b = jobs.pop() ?? 0;
    const a = jobs.pop() ?? 0;
    if (jobs.pop() === 1) {
      slots[a] = b;
      continue;
    }
    let pc = a;
    let sp = b;
    for (;;) {
      const bit = pc * width + sp;
      const at = Math.floor(bit / 8);
      const mask = 1 << (bit % 8);
      const byte = visited[at] ?? 0;
      if ((byte & mask) !== 0) break;
      visited[at] = byte | mask;
      const inst = program[pc];
      if (inst === undefined) break;
      if (inst.k === 'end') {
        if (sp === input.length) return slots;
        break;
      }
      if (inst.k === 'split') {
        jobs.push(0, inst.b, sp);
        pc = inst.a;
      } else if (inst.k === 'jmp') {
        pc = inst.to;
      } else if (inst.k === 'save') {
        jobs.push(1, inst.slot, slots[inst.slot] ?? -1);
        slots[inst.slot] = sp;
        pc++;
      } else {
        const n = consume(inst, input, sp);
        if (n < 0) break;
        sp += n;
        pc++;
      }
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Decoding matched text

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
