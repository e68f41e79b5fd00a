// mcpkit's JSON Schema validator for MCP tool schemas: compile once, validate per call. Pure and
// runtime-neutral (no I/O, no eval). See validator.ts for the entry point.
export { SchemaError, formatIssues } from './errors.js';
export { builtinValidator, compileJsonSchema } from './validator.js';
export type {
  CompileOptions,
  JsonSchema,
  JsonSchemaValidator,
  ValidationIssue,
  ValidationResult,
  Validate,
} from './types.js';
