// Tool input schemas as both model APIs take them. Anthropic's `input_schema` and OpenAI's
// function `parameters` must be a JSON Schema object with `type: "object"` at the top, and
// neither takes `oneOf`, `anyOf`, `allOf`, `not` or `enum` there (Anthropic answers "input_schema
// does not support oneOf, allOf, or anyOf at the top level"). MCP requires `type: "object"` but
// not the rest, so servers send such schemas.
import { isObject } from '../internal/json.js';

/** The top-level keywords the APIs refuse. */
const TOP_LEVEL_REFUSED = ['oneOf', 'anyOf', 'allOf', 'not', 'enum'] as const;

/**
 * A schema both APIs take. Contracts: the result has `type: "object"` and a `properties` object;
 * a top-level `oneOf`/`anyOf`/`allOf` is merged away (the properties of every branch become
 * optional properties; `allOf` branches' `required` stay required), `not` and `enum` are dropped;
 * `$schema` and `$id` are dropped; everything else (nested schemas, `$defs`) is kept as given.
 * The input is not changed.
 */
export function adaptInputSchema(schema: unknown): Record<string, unknown> {
  const source = isObject(schema) ? schema : {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === '$schema' || key === '$id') continue;
    if ((TOP_LEVEL_REFUSED as readonly string[]).includes(key)) continue;
    out[key] = value;
  }
  out['type'] = 'object';
  const properties: Record<string, unknown> = isObject(source['properties'])
    ? { ...source['properties'] }
    : {};
  const required = new Set(stringList(source['required']));
  for (const keyword of ['oneOf', 'anyOf', 'allOf'] as const) {
    const branches = source[keyword];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) {
      if (!isObject(branch)) continue;
      if (isObject(branch['properties'])) {
        for (const [name, value] of Object.entries(branch['properties'])) {
          properties[name] ??= value;
        }
      }
      if (keyword === 'allOf')
        for (const name of stringList(branch['required'])) required.add(name);
    }
  }
  out['properties'] = properties;
  if (required.size > 0) out['required'] = [...required];
  else delete out['required'];
  return out;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
