// Custom headers from tool parameters (spec 2026-07-28 server/tools#x-mcp-header and
// basic/transports/streamable-http#custom-headers-from-tool-parameters; SEP-2243). A tool's
// inputSchema may mark a property with `x-mcp-header: "Region"`; over Streamable HTTP the client
// then mirrors that argument into `Mcp-Param-Region`, and a server that reads the body rejects
// any disagreement with HeaderMismatch (-32020). This module is the pure part: the annotations'
// validity rules, the value encoding, extraction for clients and the check for servers.
import { isObject } from '../internal/json.js';

/** One `x-mcp-header` annotation of a tool's inputSchema. */
export interface ParamHeader {
  /** The full header name, `Mcp-Param-{annotation}`. */
  readonly header: string;
  /** The header name in lower case (how node:http and Fetch's Headers key it). */
  readonly key: string;
  /** The property path from the arguments object to the value. */
  readonly path: readonly string[];
  /** The JSON type of the annotated property. */
  readonly type: 'string' | 'integer' | 'boolean';
}

/** The annotations of a schema, or why the tool definition is invalid. */
export type ParamHeaderScan =
  | { readonly ok: true; readonly headers: readonly ParamHeader[] }
  | { readonly ok: false; readonly problem: string };

/** The prefix of every custom parameter header. */
export const PARAM_HEADER_PREFIX = 'Mcp-Param-';

const ANNOTATION = 'x-mcp-header';
/** RFC 9110 §5.6.2 token: 1*tchar. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVES: ReadonlySet<string> = new Set(['string', 'integer', 'boolean']);
const NONE: ParamHeaderScan = { ok: true, headers: [] };

/** Keywords whose value is one subschema. */
const SCHEMA_KEYWORDS = [
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
];
/** Keywords whose value is an array of subschemas. */
const SCHEMA_ARRAY_KEYWORDS = ['prefixItems', 'allOf', 'anyOf', 'oneOf'];
/** Keywords whose value maps names to subschemas (`properties` aside). */
const SCHEMA_MAP_KEYWORDS = ['patternProperties', 'dependentSchemas', '$defs', 'definitions'];

/**
 * Finds and validates the `x-mcp-header` annotations of `inputSchema`. An annotation is valid
 * when it is a non-empty HTTP token, unique among the schema's annotations ignoring case, on a
 * property of type string, integer or boolean (optionally also null), and reachable from the
 * root through `properties` alone (at any depth; not under `items`, a composition, a conditional
 * or `$defs`). A single invalid annotation makes the whole definition invalid.
 */
export function scanParamHeaders(inputSchema: unknown): ParamHeaderScan {
  if (!isObject(inputSchema) || !JSON.stringify(inputSchema).includes(`"${ANNOTATION}"`)) {
    return NONE;
  }
  const found: ParamHeader[] = [];
  const problem = visit(inputSchema, { path: [], reachable: true }, found);
  return problem === undefined ? { ok: true, headers: found } : { ok: false, problem };
}

/** Where a subschema sits: its property path, and whether `properties` alone lead to it. */
interface Place {
  readonly path: readonly string[];
  readonly reachable: boolean;
}

function visit(node: unknown, place: Place, found: ParamHeader[]): string | undefined {
  if (!isObject(node)) return undefined;
  if (ANNOTATION in node) {
    const problem = annotate(node, place, found);
    if (problem !== undefined) return problem;
  }
  const properties = node['properties'];
  if (isObject(properties)) {
    for (const [name, child] of Object.entries(properties)) {
      const inner = { path: [...place.path, name], reachable: place.reachable };
      const problem = visit(child, inner, found);
      if (problem !== undefined) return problem;
    }
  }
  for (const child of subschemas(node)) {
    const problem = visit(child, { path: place.path, reachable: false }, found);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** The subschemas of `node` other than its `properties`. */
function subschemas(node: Record<string, unknown>): unknown[] {
  const children: unknown[] = [];
  for (const keyword of SCHEMA_KEYWORDS) if (keyword in node) children.push(node[keyword]);
  for (const keyword of SCHEMA_ARRAY_KEYWORDS) {
    const value = node[keyword];
    if (Array.isArray(value)) children.push(...(value as unknown[]));
  }
  for (const keyword of SCHEMA_MAP_KEYWORDS) {
    const value = node[keyword];
    if (isObject(value)) children.push(...Object.values(value));
  }
  return children;
}

function annotate(
  node: Record<string, unknown>,
  where: Place,
  found: ParamHeader[],
): string | undefined {
  const name = node[ANNOTATION];
  const shown = typeof name === 'string' ? JSON.stringify(name) : String(name);
  if (typeof name !== 'string' || name === '') return `x-mcp-header ${shown} must not be empty`;
  if (!TOKEN.test(name)) return `x-mcp-header ${shown} is not an HTTP token`;
  if (!where.reachable || where.path.length === 0) {
    return `x-mcp-header ${shown} is not on a property reachable through "properties" alone`;
  }
  const type = primitiveType(node['type']);
  if (type === undefined) {
    return `x-mcp-header ${shown} is on a property of type ${JSON.stringify(node['type'])} (string, integer or boolean only)`;
  }
  const key = `${PARAM_HEADER_PREFIX}${name}`.toLowerCase();
  if (found.some((h) => h.key === key)) return `x-mcp-header ${shown} is not unique`;
  found.push({ header: `${PARAM_HEADER_PREFIX}${name}`, key, path: where.path, type });
  return undefined;
}

/** The primitive a `type` keyword allows: one of string/integer/boolean, possibly with null. */
function primitiveType(type: unknown): ParamHeader['type'] | undefined {
  const types: unknown[] = Array.isArray(type)
    ? (type as unknown[]).filter((t) => t !== 'null')
    : [type];
  const only = types[0];
  if (types.length !== 1 || typeof only !== 'string' || !PRIMITIVES.has(only)) return undefined;
  return only as ParamHeader['type'];
}

/** The value at `path` in `args`, or undefined when a step is missing or not an object. */
function valueAt(args: unknown, path: readonly string[]): unknown {
  let value = args;
  for (const step of path) {
    if (!isObject(value)) return undefined;
    value = value[step];
  }
  return value;
}

/** The header text of an argument value, or undefined when it cannot be mirrored. */
function headerText(value: unknown, type: ParamHeader['type']): string | undefined {
  if (type === 'string') return typeof value === 'string' ? value : undefined;
  if (type === 'boolean') return typeof value === 'boolean' ? String(value) : undefined;
  return typeof value === 'number' && Number.isInteger(value) ? String(value) : undefined;
}

/**
 * The `Mcp-Param-*` headers of a tools/call with `args`: one per annotation whose argument has a
 * value of the annotated type, encoded with `encodeHeaderValue`. Null, absent and mistyped
 * arguments send no header (the server's input validation answers the latter).
 */
export function paramHeaderValues(
  headers: readonly ParamHeader[],
  args: unknown,
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const h of headers) {
    const text = headerText(valueAt(args, h.path), h.type);
    if (text !== undefined) values[h.header] = encodeHeaderValue(text);
  }
  return values;
}

/**
 * Checks the `Mcp-Param-*` headers of a tools/call against its `args`; returns the
 * HeaderMismatch message, or undefined when they agree. `get` reads a header by lower-case name.
 * An argument with a value of the annotated type needs its header, equal after decoding
 * (integers compare as numbers); a null or absent argument must come without one. A mistyped
 * argument is left to input validation.
 */
export function checkParamHeaders(
  headers: readonly ParamHeader[],
  args: unknown,
  get: (key: string) => string | undefined,
): string | undefined {
  for (const h of headers) {
    const value = valueAt(args, h.path);
    const raw = get(h.key);
    const where = `arguments.${h.path.join('.')}`;
    if (value === undefined || value === null) {
      if (raw !== undefined) return `${h.header} header is present but ${where} has no value`;
      continue;
    }
    const text = headerText(value, h.type);
    if (text === undefined) continue;
    if (raw === undefined) return `missing ${h.header} header (${where} has a value)`;
    const decoded = decodeHeaderValue(raw.trim());
    if (decoded === undefined) return `malformed ${h.header} header`;
    const same =
      h.type === 'integer'
        ? /^\s*-?\d+(?:\.0*)?\s*$/.test(decoded) && Number(decoded) === value
        : decoded === text;
    if (!same) return `${h.header} header does not match ${where}`;
  }
  return undefined;
}

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** What may travel without the sentinel: visible ASCII with inner spaces only. */
const PLAIN = /^(?:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)?$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Encodes a value for an `Mcp-Name` or `Mcp-Param-*` header. Visible ASCII with inner spaces is
 * sent as is; anything else (non-ASCII, control characters, leading or trailing whitespace, or a
 * value that itself looks like the sentinel) as `=?base64?{Base64 of its UTF-8}?=`.
 */
export function encodeHeaderValue(value: string): string {
  const plain =
    PLAIN.test(value) && !(value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX));
  return plain ? value : `${SENTINEL_PREFIX}${base64Utf8(value)}${SENTINEL_SUFFIX}`;
}

/**
 * Decodes a header value that may use the Base64 sentinel (`=?base64?…?=`, case-sensitive); a
 * value without the exact wrapper is literal. Undefined when the value holds characters a header
 * may not, or the Base64 (alphabet, padding) or its UTF-8 is malformed.
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (!isFieldValue(value)) return undefined;
  if (!value.startsWith(SENTINEL_PREFIX) || !value.endsWith(SENTINEL_SUFFIX)) return value;
  if (value.length < SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length) return value;
  const encoded = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
  if (!BASE64.test(encoded)) return undefined;
  const binary = atob(encoded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined; // not UTF-8: cannot equal any body string
  }
}

/**
 * True when `value` holds only visible ASCII, space and tab: what a plain header value may hold
 * (RFC 9110 §5.5). A loop, not a regular expression: values are short, and a test of one costs
 * several times as much as reading a few characters.
 */
function isFieldValue(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code > 0x7e || (code < 0x20 && code !== 0x09)) return false;
  }
  return true;
}

function base64Utf8(value: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
