// SchemaError, thrown at compile time for a schema the validator cannot use, and formatIssues, the
// text a server returns to the model when tool arguments fail their input schema
// (Spec 2025-11-25 server/tools#error-handling; SEP-1303).
import { renderPath } from './pointer.js';
import type { ValidationIssue } from './types.js';

/**
 * SchemaError reports a schema that cannot be compiled: not an object or boolean, a malformed
 * keyword value, a bad regular expression, an unknown or remote `$ref`, or a `$ref` cycle that
 * never descends into the value. It is a TypeError, like other registration mistakes.
 */
export class SchemaError extends TypeError {
  /** JSON Pointer into the schema where the problem was found (`""` for the root). */
  readonly schemaPointer: string;

  constructor(message: string, schemaPointer = '') {
    super(`invalid JSON Schema at #${schemaPointer}: ${message}`);
    this.name = 'SchemaError';
    this.schemaPointer = schemaPointer;
  }
}

/**
 * Formats issues as text for a person or a model: one line per issue, `path: message`, e.g.
 * `a: expected number, received string "oops"` or `(root): missing required property "b"`.
 */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => `${renderPath(issue.path)}: ${issue.message}`).join('\n');
}
