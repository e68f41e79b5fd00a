// Scope is what a keyword compiler sees of the schema object being compiled, plus readers that
// validate keyword values so a malformed schema fails at compile time with a clear SchemaError.
import { isObject } from '../../internal/json.js';
import { SchemaError } from './errors.js';
import { compileRegExp } from './formats.js';
import { escapeToken } from './pointer.js';
import type { Check } from './state.js';
import type { JsonSchema } from './types.js';

/** Scope is one schema object under compilation. */
export interface Scope {
  readonly schema: JsonSchema;
  /** JSON Pointer of this schema in the document, for error messages. */
  readonly pointer: string;
  /** Draft-04/06/07 semantics (`$ref` overrides siblings, `prefixItems` unknown). */
  readonly legacy: boolean;
  /** Whether known formats are asserted. */
  readonly assertFormats: boolean;
  /**
   * Compiles the subschema at `path` below this schema. `inPlace` says it applies to the same
   * instance (allOf, not, if, …) rather than to a child; in-place edges are checked for cycles.
   */
  sub(path: readonly (string | number)[], inPlace: boolean): Check;
}

/** Builds a SchemaError located at `keyword` of `scope` (or deeper). */
export function schemaError(scope: Scope, keyword: string, message: string): SchemaError {
  return new SchemaError(`"${keyword}" ${message}`, `${scope.pointer}/${escapeToken(keyword)}`);
}

/** Reads a number keyword; undefined when absent. */
export function readNumber(scope: Scope, keyword: string): number | undefined {
  const value = scope.schema[keyword];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw schemaError(scope, keyword, 'must be a number');
  }
  return value;
}

/** Reads a non-negative integer keyword (minLength, maxItems, …); undefined when absent. */
export function readCount(scope: Scope, keyword: string): number | undefined {
  const value = readNumber(scope, keyword);
  if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
    throw schemaError(scope, keyword, 'must be a non-negative integer');
  }
  return value;
}

/** Reads an array of strings (required, dependentRequired members); undefined when absent. */
export function readStrings(scope: Scope, keyword: string, value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw schemaError(scope, keyword, 'must be an array of strings');
  }
  return value;
}

/** Reads a keyword whose value is an object of subschemas; undefined when absent. */
export function readObject(scope: Scope, keyword: string): Record<string, unknown> | undefined {
  const value = scope.schema[keyword];
  if (value === undefined) return undefined;
  if (!isObject(value)) throw schemaError(scope, keyword, 'must be an object');
  return value;
}

/** Reads a keyword whose value is a non-empty array of subschemas; undefined when absent. */
export function readArray(scope: Scope, keyword: string): unknown[] | undefined {
  const value = scope.schema[keyword];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0) {
    throw schemaError(scope, keyword, 'must be a non-empty array of schemas');
  }
  const list: unknown[] = value;
  return list;
}

/** Compiles a pattern (`pattern`, a `patternProperties` key) or throws a SchemaError. */
export function readRegExp(scope: Scope, keyword: string, source: unknown): RegExp {
  if (typeof source !== 'string') throw schemaError(scope, keyword, 'must be a string');
  const regexp = compileRegExp(source);
  if (regexp === undefined) {
    throw schemaError(scope, keyword, `is not a valid regular expression: ${source}`);
  }
  return regexp;
}

/** Compiles a keyword holding a schema, keeping `false` apart (it forbids rather than checks). */
export function subOrFalse(scope: Scope, keyword: string): Check | false | undefined {
  const value = scope.schema[keyword];
  if (value === undefined) return undefined;
  return value === false ? false : scope.sub([keyword], false);
}
