// compileJsonSchema, the entry point, and builtinValidator, the JsonSchemaValidator a server
// uses unless given another. A call runs the compiled tree once in silent mode (no allocation
// when the value is valid) and, only if that fails, again in collect mode for the issues.
import { isObject } from '../../internal/json.js';
import { compileDocument } from './compile.js';
import { SchemaError } from './errors.js';
import { createState, resetState, type Check, type State } from './state.js';
import type {
  CompileOptions,
  JsonSchema,
  JsonSchemaValidator,
  ValidationIssue,
  ValidationResult,
  Validate,
} from './types.js';

const NO_ISSUES: ValidationIssue[] = [];
Object.freeze(NO_ISSUES);

/** The result of every valid call: shared and frozen. */
const VALID: ValidationResult = Object.freeze({ valid: true, issues: NO_ISSUES });

function rootIssue(keyword: string, message: string): ValidationIssue {
  return { path: [], pointer: '', keyword, message };
}

function runChecked(root: Check, value: unknown, state: State): ValidationResult {
  if (root(value, state)) return VALID;
  resetState(state);
  const issues: ValidationIssue[] = [];
  state.issues = issues;
  root(value, state);
  if (issues.length === 0) issues.push(rootIssue('schema', 'value does not match the schema'));
  return { valid: false, issues };
}

function run(root: Check, value: unknown, state: State): ValidationResult {
  try {
    return runChecked(root, value, state);
  } catch (error) {
    // TooDeepError from the depth guard, or a real stack overflow on an unusually deep stack.
    if (!(error instanceof RangeError)) throw error;
    return { valid: false, issues: [rootIssue('maxDepth', 'value nested too deeply')] };
  }
}

function readMaxIssues(options: CompileOptions | undefined): number {
  const maxIssues = options?.maxIssues ?? 10;
  if (!Number.isInteger(maxIssues) || maxIssues < 1) {
    throw new TypeError('maxIssues must be a positive integer');
  }
  return maxIssues;
}

/**
 * Compiles a JSON Schema (2020-12 by default, draft-07 when `$schema` says so) into a Validate
 * function. Do this once per schema, e.g. at tool registration; throws SchemaError for a schema
 * it cannot use (non-object schema, malformed keyword, bad regex, unknown or remote `$ref`).
 */
export function compileJsonSchema(
  schema: JsonSchema | boolean,
  options?: CompileOptions,
): Validate {
  const maxIssues = readMaxIssues(options);
  if (typeof schema !== 'boolean' && !isObject(schema)) {
    throw new SchemaError('a schema must be an object or a boolean');
  }
  let root: Check;
  try {
    root = compileDocument(schema, { assertFormats: options?.formats !== 'annotate' });
  } catch (error) {
    if (error instanceof RangeError) throw new SchemaError('schema nested too deeply');
    throw error;
  }
  // One state is reused across calls; a re-entrant call (possible only through a Proxy or getter
  // in a non-JSON value) gets its own.
  let spare: State | undefined = createState(maxIssues);
  return (value) => {
    const state = spare ?? createState(maxIssues);
    spare = undefined;
    try {
      return run(root, value, state);
    } finally {
      resetState(state);
      spare = state;
    }
  };
}

/** builtinValidator is mcpkit's own JsonSchemaValidator, with default options. */
export const builtinValidator: JsonSchemaValidator = {
  compile: (schema) => compileJsonSchema(schema),
};
