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
