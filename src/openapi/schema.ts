// OpenAPI Schema Objects (3.0 and 3.1, dereferenced, possibly cyclic) to JSON Schema 2020-12 as
// MCP tools carry it: 3.0's `nullable` and boolean exclusive bounds rewritten, read-only fields
// left out of inputs and write-only ones out of outputs, prose trimmed, annotations for people
// (examples, xml, discriminator, extensions) dropped, cycles and depth cut to "any value".
// Inputs are made strict for models: an object with properties says which are required (an empty
// list when none) and refuses undeclared ones (unless it is composed or says otherwise), and a
// property without a description takes one from its alternatives or its title. Outputs are lean:
// names and types only (a model reads the answer; a client checks it against the schema, so
// fewer constraints mean fewer answers refused for an API's small deviations from its document).
import { trimText } from './text.js';

/** How a schema is converted. */
export interface ConvertOptions {
  readonly role: 'input' | 'output';
  /** Nesting depth kept; deeper subschemas become `{}` (any value). */
  readonly maxDepth: number;
  /** Most characters of each description; 0 drops them. */
  readonly descriptionChars: number;
}

/** Keywords of an output schema: its shape, no constraints (see the file's comment). */
const OUTPUT_KEPT = new Set(['type', 'properties', 'items', 'anyOf', 'oneOf', 'allOf']);
const COMPOSED = ['allOf', 'anyOf', 'oneOf', 'not', 'if'] as const;

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
    const output = options.role === 'output';
    if (!output && options.descriptionChars > 0) {
      const text = describedBy(schema, options.descriptionChars);
      if (text !== undefined) out['description'] = text;
    }
    // An output's last level keeps its type, not its insides; an array's items are one level
    // with the array (a list answer shows the fields of its items).
    const inner = !output || depth < options.maxDepth;
    const next = (sub: unknown, step = 1): Json =>
      convert(sub, options, { stack, depth: depth + step });
    if (inner) {
      properties(schema, out, {
        hidden: output ? 'writeOnly' : 'readOnly',
        describe: !output && options.descriptionChars > 0,
        next,
      });
      if (schema['items'] !== undefined) {
        out['items'] =
          typeof schema['items'] === 'boolean' ? schema['items'] : next(schema['items'], 0);
      }
      if (typeof schema['additionalProperties'] === 'boolean') {
        out['additionalProperties'] = schema['additionalProperties'];
      } else if (isObject(schema['additionalProperties'])) {
        out['additionalProperties'] = next(schema['additionalProperties']);
      }
      for (const key of SUBSCHEMA_LISTS) {
        const list = schema[key];
        if (Array.isArray(list) && list.length > 0) out[key] = list.map((sub) => next(sub, 0));
      }
      if (isObject(schema['not'])) out['not'] = next(schema['not']);
    }
    if (schema['nullable'] === true) nullable(out);
    if (output) return lean(out);
    strict(out);
    return Object.fromEntries(Object.entries(out).filter(([, value]) => value !== undefined));
  } finally {
    stack.pop();
  }
}

/** A schema's description, else its title, else the first of its alternatives'. */
function describedBy(schema: Json, max: number): string | undefined {
  const candidates = [schema['description'], schema['title']];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) {
      for (const sub of list) if (isObject(sub)) candidates.push(sub['description'], sub['title']);
    }
  }
  for (const candidate of candidates) {
    if (typeof candidate !== 'string') continue;
    const text = trimText(candidate, max);
    if (text !== '') return text;
  }
  return undefined;
}

/** An input object with properties: `required` always said, undeclared properties refused. */
function strict(out: Json): void {
  if (!isObject(out['properties']) || Object.keys(out['properties']).length === 0) return;
  out['required'] ??= [];
  const composed = COMPOSED.some((key) => out[key] !== undefined);
  if (!composed && out['additionalProperties'] === undefined) out['additionalProperties'] = false;
}

/** An output schema's shape alone. */
function lean(out: Json): Json {
  const kept = Object.fromEntries(
    Object.entries(out).filter(([key, value]) => OUTPUT_KEPT.has(key) && value !== undefined),
  );
  // `items: {}` and `properties` of nothing say nothing.
  if (isObject(kept['items']) && Object.keys(kept['items']).length === 0) delete kept['items'];
  return kept;
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

/**
 * The properties of `schema`, but the `hidden` ones; with `describe`, one the document leaves
 * undescribed says its name and type (so a model is not left to guess from the name alone).
 */
function properties(
  schema: Json,
  out: Json,
  { hidden, describe, next }: { hidden: string; describe: boolean; next: (sub: unknown) => Json },
): void {
  if (!isObject(schema['properties'])) return;
  const kept: Json = {};
  for (const [name, sub] of Object.entries(schema['properties'])) {
    if (isObject(sub) && sub[hidden] === true) continue;
    const converted = next(sub);
    if (describe && converted['description'] === undefined) {
      const type = typeof converted['type'] === 'string' ? ` (${converted['type']})` : '';
      converted['description'] = `The ${name}${type}.`;
    }
    kept[name] = converted;
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
