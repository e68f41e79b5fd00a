// OpenAPI Schema Objects (3.0 and 3.1, dereferenced, possibly cyclic) to JSON Schema 2020-12 as
// MCP tools carry it: 3.0's `nullable` and boolean exclusive bounds rewritten, read-only fields
// left out of inputs and write-only ones out of outputs, prose trimmed, annotations for people
// (examples, xml, discriminator, extensions) dropped, cycles and depth cut to "any value".
import { trimText } from './text.js';

/** How a schema is converted. */
export interface ConvertOptions {
  readonly role: 'input' | 'output';
  /** Nesting depth kept; deeper subschemas become `{}` (any value). */
  readonly maxDepth: number;
  /** Most characters of each description; 0 drops them. */
  readonly descriptionChars: number;
}

type Json = Record<string, unknown>;

const COPIED = [
  'type',
  'enum',
  'const',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'default',
  'contentMediaType',
  'contentEncoding',
] as const;

const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;

/** Converts `schema`; never throws (what cannot be read becomes `{}`). */
export function toJsonSchema(schema: unknown, options: ConvertOptions): Json {
  return convert(schema, options, { stack: [], depth: 0 });
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function convert(
  schema: unknown,
  options: ConvertOptions,
  { stack, depth }: { stack: object[]; depth: number },
): Json {
  if (!isObject(schema) || depth > options.maxDepth || stack.includes(schema)) return {};
  stack.push(schema);
  try {
    const out: Json = {};
    for (const key of COPIED) if (schema[key] !== undefined) out[key] = schema[key];
    bounds(schema, out);
    if (options.descriptionChars > 0 && typeof schema['description'] === 'string') {
      const text = trimText(schema['description'], options.descriptionChars);
      if (text !== '') out['description'] = text;
    }
    const next = (sub: unknown): Json => convert(sub, options, { stack, depth: depth + 1 });
    properties(schema, out, { hidden: options.role === 'input' ? 'readOnly' : 'writeOnly', next });
    if (schema['items'] !== undefined) {
      out['items'] = typeof schema['items'] === 'boolean' ? schema['items'] : next(schema['items']);
    }
    if (typeof schema['additionalProperties'] === 'boolean') {
      out['additionalProperties'] = schema['additionalProperties'];
    } else if (isObject(schema['additionalProperties'])) {
      out['additionalProperties'] = next(schema['additionalProperties']);
    }
    for (const key of SUBSCHEMA_LISTS) {
      const list = schema[key];
      if (Array.isArray(list) && list.length > 0) out[key] = list.map(next);
    }
    if (isObject(schema['not'])) out['not'] = next(schema['not']);
    if (schema['nullable'] === true) nullable(out);
    return Object.fromEntries(Object.entries(out).filter(([, value]) => value !== undefined));
  } finally {
    stack.pop();
  }
}

/** 3.0's boolean `exclusiveMinimum`/`exclusiveMaximum` to 2020-12's numbers. */
function bounds(schema: Json, out: Json): void {
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    const value = schema[exclusive];
    if (typeof value === 'number') out[exclusive] = value;
    else if (value === true && typeof schema[bound] === 'number') {
      out[exclusive] = schema[bound];
      out[bound] = undefined;
    }
  }
}

function properties(
  schema: Json,
  out: Json,
  { hidden, next }: { hidden: string; next: (sub: unknown) => Json },
): void {
  if (!isObject(schema['properties'])) return;
  const kept: Json = {};
  for (const [name, sub] of Object.entries(schema['properties'])) {
    if (isObject(sub) && sub[hidden] === true) continue;
    kept[name] = next(sub);
  }
  out['properties'] = kept;
  if (Array.isArray(schema['required'])) {
    const required = schema['required'].filter(
      (name): name is string => typeof name === 'string' && name in kept,
    );
    if (required.length > 0) out['required'] = required;
  }
}

/** 3.0's `nullable: true`: null joins the types (and the enum, if any). */
function nullable(out: Json): void {
  const type: unknown = out['type'];
  if (typeof type === 'string') out['type'] = [type, 'null'];
  else if (Array.isArray(type) && !type.includes('null'))
    out['type'] = [...(type as unknown[]), 'null'];
  const values: unknown = out['enum'];
  if (Array.isArray(values) && !values.includes(null))
    out['enum'] = [...(values as unknown[]), null];
}

/** True when `schema` (converted) surely describes an object. */
export function isObjectSchema(schema: Json): boolean {
  return schema['type'] === 'object';
}
