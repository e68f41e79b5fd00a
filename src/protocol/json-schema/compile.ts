// Compiles a schema document into a tree of Check closures, once. All analysis happens here:
// dialect, `$ref` resolution, regular expressions, keyword values; validation only runs closures.
// Each schema object compiles once; a `$ref` to a schema still being compiled (recursion) goes
// through a cell that is filled when its compilation ends.
import { isObject } from '../../internal/json.js';
import { compileApplicators, every } from './applicators.js';
import { compileArrayKeywords } from './arrays.js';
import { typeName } from './describe.js';
import { SchemaError } from './errors.js';
import { compileConst, compileEnum, compileType, FALSE } from './generic.js';
import { compileObjectKeywords } from './objects.js';
import { escapeToken } from './pointer.js';
import { buildRegistry, ownBase, resolveRef, type Place, type Registry } from './resources.js';
import { compileNumberKeywords, compileStringKeywords } from './scalars.js';
import { schemaError, type Scope } from './scope.js';
import { TRUE, type Check } from './state.js';
import { withUnevaluated } from './unevaluated.js';

/** Options that shape compilation. */
export interface CompileSettings {
  assertFormats: boolean;
}

interface Cell {
  check: Check;
}

interface Context {
  readonly registry: Registry;
  readonly legacy: boolean;
  readonly assertFormats: boolean;
  readonly cells: Map<object, Cell>;
  /** In-place edges (same instance): allOf/anyOf/…/$ref. A cycle here never terminates. */
  readonly edges: Map<object, object[]>;
  readonly pointers: Map<object, string>;
}

const PENDING: Check = () => {
  throw new Error('mcpkit json-schema: schema used before its compilation finished');
};

// Draft-04/06/07 by `$schema`; anything else (2019-09, 2020-12, none) is 2020-12.
const LEGACY_DIALECT = /^https?:\/\/json-schema\.org\/draft-0[4-7]\/schema#?$/;

/** Whether a root schema declares draft-04, -06 or -07. */
export function isLegacyDialect(schema: unknown): boolean {
  const declared = isObject(schema) ? schema['$schema'] : undefined;
  return typeof declared === 'string' && LEGACY_DIALECT.test(declared);
}

function addEdge(context: Context, from: object, to: unknown): void {
  if (!isObject(to)) return;
  const list = context.edges.get(from);
  if (list === undefined) context.edges.set(from, [to]);
  else list.push(to);
}

function childAt(container: unknown, segment: string | number): unknown {
  if (typeof container !== 'object' || container === null) return undefined;
  return Object.hasOwn(container, segment)
    ? (container as Record<string, unknown>)[String(segment)]
    : undefined;
}

function compileRefs(context: Context, scope: Scope, from: Place): Check[] {
  const checks: Check[] = [];
  for (const keyword of ['$ref', '$dynamicRef', '$recursiveRef']) {
    const ref = scope.schema[keyword];
    if (ref === undefined) continue;
    if (typeof ref !== 'string') throw schemaError(scope, keyword, 'must be a string');
    const target = resolveRef(context.registry, from, ref);
    addEdge(context, scope.schema, target.schema);
    checks.push(compileSchema(context, target.schema, target));
  }
  return checks;
}

function makeScope(context: Context, schema: Record<string, unknown>, inner: Place): Scope {
  return {
    schema,
    pointer: inner.pointer,
    legacy: context.legacy,
    assertFormats: context.assertFormats,
    sub(path, inPlace) {
      let value: unknown = schema;
      for (const segment of path) value = childAt(value, segment);
      if (inPlace) addEdge(context, schema, value);
      const pointer = inner.pointer + path.map((s) => `/${escapeToken(String(s))}`).join('');
      return compileSchema(context, value, { base: inner.base, pointer });
    },
  };
}

function buildNode(context: Context, schema: Record<string, unknown>, place: Place): Check {
  const inner: Place = {
    base: ownBase(schema, place.base, context.legacy),
    pointer: place.pointer,
  };
  const scope = makeScope(context, schema, inner);
  // `$ref` resolves against the schema's own `$id` (ownBase ignores it next to a draft-07 $ref).
  const refs = compileRefs(context, scope, inner);
  // Draft-07: "All other properties in a "$ref" object MUST be ignored."
  if (context.legacy && schema['$ref'] !== undefined) return every(refs);
  const type = compileType(scope);
  const rest = every(
    [
      compileEnum(scope),
      compileConst(scope),
      ...compileStringKeywords(scope),
      ...compileNumberKeywords(scope),
      ...compileObjectKeywords(scope),
      ...compileArrayKeywords(scope),
      ...refs,
      ...compileApplicators(scope),
    ].filter((check) => check !== undefined),
  );
  // A value of the wrong type gets one issue, not one per keyword that cannot apply to it.
  const node: Check =
    type === undefined
      ? rest
      : rest === TRUE
        ? type
        : (value, state) => type(value, state) && rest(value, state);
  return withUnevaluated(scope, node);
}

function compileSchema(context: Context, schema: unknown, place: Place): Check {
  if (schema === true) return TRUE;
  if (schema === false) return FALSE;
  if (!isObject(schema)) {
    throw new SchemaError(
      `expected a schema (an object or a boolean), found ${typeName(schema)}`,
      place.pointer,
    );
  }
  const cell = context.cells.get(schema);
  if (cell !== undefined) {
    return cell.check === PENDING ? (value, state) => cell.check(value, state) : cell.check;
  }
  const fresh: Cell = { check: PENDING };
  context.cells.set(schema, fresh);
  context.pointers.set(schema, place.pointer);
  fresh.check = buildNode(context, schema, place);
  return fresh.check;
}

/** Throws SchemaError if some schema reaches itself through in-place keywords only. */
function rejectCycles(context: Context): void {
  const done = new Set<object>();
  const active = new Set<object>();
  const visitNode = (node: object): void => {
    if (done.has(node)) return;
    if (active.has(node)) {
      const message =
        'infinite recursion: this schema reaches itself through $ref or allOf/anyOf/oneOf/not/if ' +
        'without descending into the value';
      throw new SchemaError(message, context.pointers.get(node) ?? '');
    }
    active.add(node);
    for (const next of context.edges.get(node) ?? []) visitNode(next);
    active.delete(node);
    done.add(node);
  };
  for (const node of context.edges.keys()) visitNode(node);
}

/** Compiles a whole schema document into its root Check. Throws SchemaError. */
export function compileDocument(schema: unknown, settings: CompileSettings): Check {
  const legacy = isLegacyDialect(schema);
  const context: Context = {
    registry: buildRegistry(schema, legacy),
    legacy,
    assertFormats: settings.assertFormats,
    cells: new Map(),
    edges: new Map(),
    pointers: new Map(),
  };
  const root = compileSchema(context, schema, { base: '', pointer: '' });
  rejectCycles(context);
  return root;
}
