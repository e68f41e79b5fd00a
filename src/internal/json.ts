// Tests on parsed JSON values, shared by every layer.

/**
 * True when `value` is a JSON object: not null and not an array (what `JSON.parse` makes of
 * `{…}`). Other non-null objects (a Map, a class instance) pass too: the test is for values that
 * came from JSON, where nothing else occurs. It narrows to `Record<string, unknown>`; a caller that
 * wants a more specific record type casts at the call site.
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` when it is a JSON object ({@link isObject}), else undefined. */
export function asObject(value: unknown): Record<string, unknown> | undefined {
  return isObject(value) ? value : undefined;
}

/** The JSON object `text` holds, or undefined when it is not JSON or not an object. */
export function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    return asObject(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/**
 * `value` when it is a JSON object of strings only (`headers`, `env` of a config); undefined (the
 * value is absent) gives `{}`; anything else gives undefined.
 */
export function stringRecord(value: unknown): Record<string, string> | undefined {
  if (value === undefined) return {};
  const entries = asObject(value);
  if (entries === undefined) return undefined;
  return Object.values(entries).every((v) => typeof v === 'string')
    ? (entries as Record<string, string>)
    : undefined;
}

/**
 * The JSON text of a parsed JSON value with every object's keys in sorted order (code-unit order,
 * as RFC 8785 sorts them; arrays keep theirs): two values equal as JSON give the same text,
 * whatever order their keys came in. Numbers and strings are written as JSON.stringify writes them.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map((item: unknown) => canonicalJson(item ?? null)).join(',')}]`;
  }
  if (isObject(value)) {
    const keys = Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
  }
  // JSON.stringify gives undefined for undefined (and functions): JSON has only null for them.
  const text = JSON.stringify(value) as string | undefined;
  return text ?? 'null';
}

/**
 * True when `text` is short and its JSON text is itself in quotes (no control character, `"`,
 * `\\` or surrogate to escape): then it can be written without `JSON.stringify`, whose call
 * costs more than reading a few hundred characters.
 */
export function isPlainJsonString(text: string): boolean {
  if (text.length > 256) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) {
      return false;
    }
  }
  return true;
}
