// Short renderings of values for issue messages. Instance values are shown briefly (a model reads
// them): strings quoted and cut to about 40 characters, objects and arrays by kind only. Schema
// values (const, enum members) are shown as compact JSON, also cut.

const MAX_STRING = 40;
const MAX_JSON = 60;

/** The JSON type name of a value (`integer` is never returned), or its `typeof` if not JSON. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Quotes a string as JSON, cut to `max` UTF-16 units without splitting a surrogate pair. */
export function quote(text: string, max: number = MAX_STRING): string {
  if (text.length <= max) return JSON.stringify(text);
  const code = text.charCodeAt(max - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return `${JSON.stringify(text.slice(0, end)).slice(0, -1)}…"`;
}

/** Shows an instance value without its type: `"k"`, `5`, `true`, `null`, `object`, `array`. */
export function showValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'object':
      return typeName(value);
    case 'undefined':
    case 'function':
    case 'symbol':
      return typeof value;
  }
}

/** Describes an instance value with its type: `string "oops"`, `number 5`, `null`, `object`. */
export function describeValue(value: unknown): string {
  const type = typeof value;
  const primitive =
    type === 'string' || type === 'number' || type === 'boolean' || type === 'bigint';
  return primitive ? `${type} ${showValue(value)}` : showValue(value);
}

/** Shows a value taken from a schema (a const or enum member) as compact JSON, cut when long. */
export function showSchemaValue(value: unknown): string {
  if (typeof value === 'string') return quote(value);
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined; // cyclic or too deep (only possible in a schema built in JavaScript)
  }
  if (json === undefined) return typeName(value);
  return json.length <= MAX_JSON ? json : `${json.slice(0, MAX_JSON)}…`;
}
