// Public types of mcpkit's JSON Schema validator: the shapes tool servers and clients see when they
// validate tool arguments and structured results (Spec 2025-11-25 server/tools; SEP-1303).

/** JsonSchema is a JSON Schema document or subschema, kept as a plain JSON object. */
export type JsonSchema = { [key: string]: unknown };

/**
 * ValidationIssue is one reason a value failed its schema, phrased so a model can fix its call.
 * `path` locates the offending value (property names and array indexes, root = `[]`).
 */
export interface ValidationIssue {
  /** Location of the value in the instance: property names and array indexes. */
  path: (string | number)[];
  /** The same location as an RFC 6901 JSON Pointer (`""` for the root). */
  pointer: string;
  /** The schema keyword that failed (`type`, `required`, `anyOf`, …). */
  keyword: string;
  /** A short lower-case sentence without the path: `expected number, received string "oops"`. */
  message: string;
  /** What the schema wanted, when that is a short phrase (`number`, `one of "c", "f"`). */
  expected?: string;
  /** What the value was, shown short (`string "oops"`, `object`, `3 items`). */
  received?: string;
}

/**
 * ValidationResult is the outcome of one validation; `issues` is empty exactly when it is valid.
 * A valid result is a shared, frozen object: callers must not mutate it.
 */
export interface ValidationResult {
  valid: boolean;
  issues: ValidationIssue[];
}

/**
 * Validate checks one value against a compiled schema. It never throws for JSON data (hostile
 * nesting becomes an issue), keeps no state between calls, and may be called from any number of
 * callers, including re-entrantly.
 */
export type Validate = (value: unknown) => ValidationResult;

/** CompileOptions tunes {@link compileJsonSchema}. Every field is optional. */
export interface CompileOptions {
  /**
   * `assert` (the default) makes the formats this validator knows (`date-time`, `email`, `uri`, …)
   * fail values that do not match; `annotate` treats every `format` as an annotation only.
   * Unknown formats are always ignored.
   */
  formats?: 'assert' | 'annotate';
  /** The most issues one call reports. Default 10; validation stops early once it is reached. */
  maxIssues?: number;
}

/**
 * JsonSchemaValidator is the pluggable validator a server or client takes. `compile` runs once per
 * schema (at tool registration) and throws SchemaError for a schema it cannot use; the returned
 * Validate is then called once per request.
 */
export interface JsonSchemaValidator {
  compile(schema: JsonSchema | boolean): Validate;
}
