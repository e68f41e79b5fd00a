// Keywords for any instance type: `type`, `enum`, `const`, and the `false` schema.
import { isObject } from '../../internal/json.js';
import { describeValue, showSchemaValue, showValue } from './describe.js';
import { deepEqual } from './json.js';
import { schemaError, type Scope } from './scope.js';
import { expectation, report, type Check, type State } from './state.js';

const BITS = {
  null: 1,
  boolean: 2,
  object: 4,
  array: 8,
  number: 16,
  string: 32,
  integer: 64,
} as const;

type TypeName = keyof typeof BITS;

function isTypeName(name: unknown): name is TypeName {
  return typeof name === 'string' && Object.hasOwn(BITS, name);
}

/** The type bits of a value; an integral number is both `number` and `integer`. */
function bitsOf(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return BITS.string;
    case 'number':
      return Number.isInteger(value) ? BITS.number | BITS.integer : BITS.number;
    case 'boolean':
      return BITS.boolean;
    case 'object':
      if (value === null) return BITS.null;
      return Array.isArray(value) ? BITS.array : BITS.object;
    case 'bigint':
    case 'function':
    case 'symbol':
    case 'undefined':
      return 0;
  }
}

/** The `false` schema: no value is valid. */
export const FALSE: Check = (_value, state) =>
  state.issues !== null && report(state, { keyword: 'false', message: 'no value is allowed here' });

/** A direct test for each single type, so the common `type: "string"` costs one typeof. */
const SINGLE: { [name in TypeName]: (value: unknown) => boolean } = {
  null: (value) => value === null,
  boolean: (value) => typeof value === 'boolean',
  object: isObject,
  array: (value) => Array.isArray(value),
  number: (value) => typeof value === 'number',
  string: (value) => typeof value === 'string',
  integer: (value) => Number.isInteger(value),
};

/** Compiles `type` (a name or an array of names). */
export function compileType(scope: Scope): Check | undefined {
  const type = scope.schema['type'];
  if (type === undefined) return undefined;
  const names: unknown[] = Array.isArray(type) ? type : [type];
  let mask = 0;
  for (const name of names) {
    if (!isTypeName(name)) throw schemaError(scope, 'type', `has an unknown type ${String(name)}`);
    mask |= BITS[name];
  }
  const expected = names.join(' or ');
  const fail = (value: unknown, state: State): boolean =>
    state.issues !== null && report(state, expectation('type', expected, describeValue(value)));
  const [name] = names;
  if (names.length === 1 && isTypeName(name)) {
    const test = SINGLE[name];
    return (value, state) => test(value) || fail(value, state);
  }
  return (value, state) => (bitsOf(value) & mask) !== 0 || fail(value, state);
}

const MAX_LISTED = 20;

function listValues(values: readonly unknown[]): string {
  if (values.length === 1) return showSchemaValue(values[0]);
  const shown = values.slice(0, MAX_LISTED).map(showSchemaValue).join(', ');
  return values.length > MAX_LISTED
    ? `one of ${shown}, … (${values.length} values)`
    : `one of ${shown}`;
}

/** Compiles `enum`: primitives go in a Set, objects and arrays are compared deeply. */
export function compileEnum(scope: Scope): Check | undefined {
  const values = scope.schema['enum'];
  if (values === undefined) return undefined;
  if (!Array.isArray(values)) throw schemaError(scope, 'enum', 'must be an array');
  const primitives = new Set<unknown>();
  const composites: unknown[] = [];
  for (const member of values) {
    if (typeof member === 'object' && member !== null) composites.push(member);
    else primitives.add(member);
  }
  const expected = listValues(values);
  const matchesComposite = (value: unknown): boolean => {
    if (typeof value !== 'object' || value === null) return false;
    for (const member of composites) if (deepEqual(member, value)) return true;
    return false;
  };
  return (value, state) =>
    primitives.has(value) ||
    (composites.length > 0 && matchesComposite(value)) ||
    (state.issues !== null && report(state, expectation('enum', expected, showValue(value))));
}

/** Compiles `const` (deep equality). */
export function compileConst(scope: Scope): Check | undefined {
  if (!Object.hasOwn(scope.schema, 'const')) return undefined;
  const constant = scope.schema['const'];
  const expected = showSchemaValue(constant);
  const composite = typeof constant === 'object' && constant !== null;
  return (value, state) =>
    value === constant ||
    (composite && deepEqual(constant, value)) ||
    (state.issues !== null && report(state, expectation('const', expected, showValue(value))));
}
