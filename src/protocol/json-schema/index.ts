/**
 * mcpkit's JSON Schema validator for MCP tool schemas: `inputSchema` checks tool arguments before
 * a handler runs, `outputSchema` checks `structuredContent` (Spec 2025-11-25 server/tools;
 * SEP-1303 returns input failures to the model as an isError result, via {@link formatIssues}).
 * Compile once, validate per call. Pure and runtime-neutral: no I/O, no eval, no Node APIs.
 *
 * Dialects: 2020-12 by default; draft-04/06/07 when `$schema` names them (`$ref` then overrides
 * its siblings and `prefixItems` is unknown). 2019-09 is read as 2020-12.
 *
 * Keywords: type, enum, const, properties, required, additionalProperties, patternProperties,
 * propertyNames, minProperties, maxProperties, dependentRequired, dependentSchemas, dependencies,
 * prefixItems, items (schema or draft-07 tuple), additionalItems, contains, minContains,
 * maxContains, minItems, maxItems, uniqueItems, minLength, maxLength (code points), pattern,
 * format, minimum, maximum, exclusiveMinimum, exclusiveMaximum (number or draft-04 boolean),
 * multipleOf (decimal-safe), allOf, anyOf, oneOf, not, if/then/else, $ref, $defs, definitions,
 * $id, $anchor, unevaluatedProperties, unevaluatedItems (full annotation tracking), boolean
 * schemas. Annotations (title, description, default, examples, deprecated, readOnly, content*,
 * …) and unknown keywords are ignored.
 *
 * Known limits:
 * - `$ref` resolves within the document only (its `$id` resources and anchors); a reference to
 *   any other document, including a metaschema, is a SchemaError. `$dynamicRef` and
 *   `$recursiveRef` resolve statically, like `$ref`.
 * - Subschemas compile when reachable from the root: a bad pattern in an unused `$defs` entry is
 *   not reported.
 * - Lenient on purpose, for schemas published without `$schema`: an array `items` in a 2020-12
 *   schema is a draft-07 tuple (with additionalItems), `dependencies` works in 2020-12, and the
 *   2019-09+ keywords (dependentRequired, minContains, unevaluated*, $anchor) work in draft-07.
 * - Formats are regex-level checks of: date-time, date, time, email, hostname, ipv4, ipv6, uri,
 *   uri-reference, uuid, regex, byte, json-pointer, relative-json-pointer, duration. Others
 *   (idn-email, iri, uri-template, …) are not asserted.
 * - `pattern` runs on the platform RegExp engine, with no guard against catastrophic
 *   backtracking: compile schemas from untrusted peers with that in mind.
 * - Values nested more than 512 levels deep fail with `value nested too deeply`.
 * - A schema that reaches itself without descending into the value (`{"$ref": "#"}`,
 *   `{"anyOf": [{"$ref": "#"}]}`) is a SchemaError: it could never finish.
 *
 * @module
 */
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
