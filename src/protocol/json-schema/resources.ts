// The schema document's own resources and anchors, and `$ref` resolution against them. `$id`
// changes the base URI of a subschema (embedded resources); `$anchor`, `$dynamicAnchor` and the
// draft-07 `"$id": "#name"` form name a subschema. Nothing is ever fetched: a `$ref` to any other
// document is a SchemaError.
import { isObject } from '../../internal/json.js';
import { SchemaError } from './errors.js';
import { escapeToken, evaluatePointer } from './pointer.js';
import { resolveUri, splitFragment } from './uri.js';

/** Place is where a schema sits: the base URI its `$id` resolves against, and its pointer. */
export interface Place {
  base: string;
  pointer: string;
}

/** Registry indexes one schema document. */
export interface Registry {
  readonly legacy: boolean;
  /** Schema resources by absolute URI (no fragment); the root is always one. */
  readonly resources: Map<string, unknown>;
  /** Anchored schemas by `uri#name`. */
  readonly anchors: Map<string, unknown>;
  /** Where every schema reachable through known keywords sits. */
  readonly places: Map<object, Place>;
}

const SINGLE = [
  'additionalProperties',
  'propertyNames',
  'items',
  'additionalItems',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
];
const MAPS = [
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
];
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];

/**
 * The base URI inside `schema`: its `$id` resolved against `base`. A draft-07 `$id` next to a
 * `$ref` is ignored (the `$ref` overrides its siblings), as is a fragment-only `$id` (an anchor).
 */
export function ownBase(schema: Record<string, unknown>, base: string, legacy: boolean): string {
  const id = schema['$id'];
  if (typeof id !== 'string' || id.startsWith('#') || (legacy && schema['$ref'] !== undefined)) {
    return base;
  }
  return splitFragment(resolveUri(base, id)).uri;
}

function anchorsOf(schema: Record<string, unknown>): string[] {
  const names: string[] = [];
  for (const keyword of ['$anchor', '$dynamicAnchor']) {
    const name = schema[keyword];
    if (typeof name === 'string') names.push(name);
  }
  const id = schema['$id'];
  if (typeof id === 'string' && id.startsWith('#') && id.length > 1) names.push(id.slice(1));
  return names;
}

function children(schema: Record<string, unknown>): [string, unknown][] {
  const found: [string, unknown][] = [];
  for (const keyword of SINGLE) found.push([keyword, schema[keyword]]);
  for (const keyword of MAPS) {
    const map = schema[keyword];
    if (!isObject(map)) continue;
    for (const key of Object.keys(map)) found.push([`${keyword}/${escapeToken(key)}`, map[key]]);
  }
  for (const keyword of LISTS) {
    const list = schema[keyword];
    if (!Array.isArray(list)) continue;
    for (const [index, item] of list.entries()) found.push([`${keyword}/${index}`, item]);
  }
  return found;
}

function walk(registry: Registry, node: unknown, place: Place): void {
  if (!isObject(node) || registry.places.has(node)) return;
  registry.places.set(node, place);
  const base = ownBase(node, place.base, registry.legacy);
  if (base !== place.base || place.pointer === '') registry.resources.set(base, node);
  for (const name of anchorsOf(node)) registry.anchors.set(`${base}#${name}`, node);
  for (const [path, child] of children(node)) {
    walk(registry, child, { base, pointer: `${place.pointer}/${path}` });
  }
}

/** Indexes the resources, anchors and places of a schema document. */
export function buildRegistry(root: unknown, legacy: boolean): Registry {
  const registry: Registry = {
    legacy,
    resources: new Map(),
    anchors: new Map(),
    places: new Map(),
  };
  registry.resources.set('', root);
  walk(registry, root, { base: '', pointer: '' });
  return registry;
}

/** A resolved `$ref`: the target schema and where it sits. */
export interface Resolved extends Place {
  schema: unknown;
}

/** Resolves `ref`, found at `from`, to a schema in the document; throws SchemaError otherwise. */
export function resolveRef(registry: Registry, from: Place, ref: string): Resolved {
  const { uri, fragment } = splitFragment(resolveUri(from.base, ref));
  const fail = (why: string): SchemaError => new SchemaError(`$ref "${ref}" ${why}`, from.pointer);
  const resource = registry.resources.get(uri);
  if (resource === undefined) {
    throw fail(`points outside this schema (${uri}); remote references are not supported`);
  }
  let name: string;
  try {
    name = decodeURIComponent(fragment);
  } catch {
    throw fail('has a malformed percent-encoded fragment');
  }
  let target: unknown;
  if (name === '' || name.startsWith('/')) {
    const found = evaluatePointer(resource, name);
    if (!found.found) throw fail('points to nothing: no schema at that location');
    target = found.value;
  } else {
    target = registry.anchors.get(`${uri}#${name}`);
    if (target === undefined) throw fail(`names an unknown anchor "${name}"`);
  }
  const place = isObject(target) ? registry.places.get(target) : undefined;
  if (place !== undefined) return { schema: target, ...place };
  const resourcePlace = isObject(resource) ? registry.places.get(resource) : undefined;
  return { schema: target, base: uri, pointer: `${resourcePlace?.pointer ?? ''}${name}` };
}
