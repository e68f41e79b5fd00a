// Checks a tool's structured result against its `outputSchema`, as the spec asks clients to
// (Spec 2025-06-18 server/tools#output-schema); the schema comes from KnownTools. Each schema is
// compiled once and cached.
import { LocalError, LocalErrorCode } from '../jsonrpc/errors.js';
import type { JsonSchemaValidator, Validate } from '../protocol/json-schema/index.js';
import { formatIssues } from '../protocol/json-schema/index.js';
import type { CallToolResult } from './types.js';

/** OutputSchemas checks results against output schemas, each compiled once. */
export class OutputSchemas {
  readonly #validator: JsonSchemaValidator;
  readonly #compiled = new WeakMap<object, Validate>();

  constructor(validator: JsonSchemaValidator) {
    this.#validator = validator;
  }

  /**
   * Throws a LocalError('PROTOCOL_VIOLATION') when a successful result of tool `name` breaks
   * `schema` or lacks `structuredContent`. Without a schema, or for an `isError` result, nothing
   * is checked.
   */
  check(
    name: string,
    result: CallToolResult,
    schema: Readonly<Record<string, unknown>> | undefined,
  ): void {
    if (result.isError === true || schema === undefined) return;
    if (result.structuredContent === undefined) {
      throw violation(`tool "${name}" has an outputSchema but returned no structuredContent`);
    }
    const checked = this.#compile(name, schema)(result.structuredContent);
    if (!checked.valid) {
      throw violation(
        `tool "${name}" returned structuredContent that does not match its outputSchema:\n${formatIssues(checked.issues)}`,
      );
    }
  }

  #compile(name: string, schema: Readonly<Record<string, unknown>>): Validate {
    let validate = this.#compiled.get(schema);
    if (validate === undefined) {
      try {
        validate = this.#validator.compile(schema);
      } catch (error) {
        throw new LocalError(
          LocalErrorCode.ProtocolViolation,
          `tool "${name}" has an outputSchema the client cannot use`,
          { cause: error },
        );
      }
      this.#compiled.set(schema, validate);
    }
    return validate;
  }
}

function violation(message: string): LocalError {
  return new LocalError(LocalErrorCode.ProtocolViolation, message);
}
