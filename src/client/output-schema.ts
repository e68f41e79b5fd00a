// Checks a tool's structured result against its `outputSchema`, as the spec asks clients to
// (Spec 2025-06-18 server/tools#output-schema). Definitions come from listings the client has
// seen, or from one listing fetched on demand; each schema is compiled once and cached.
import { LocalError, LocalErrorCode } from '../jsonrpc/errors.js';
import type { JsonSchemaValidator, Validate } from '../protocol/json-schema/index.js';
import { formatIssues } from '../protocol/json-schema/index.js';
import type { CallToolResult } from './types.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** OutputSchemas remembers tools' output schemas and checks results against them. */
export class OutputSchemas {
  readonly #validator: JsonSchemaValidator;
  /** Every listed tool, with its output schema or undefined. */
  readonly #schemas = new Map<string, Record<string, unknown> | undefined>();
  readonly #compiled = new WeakMap<object, Validate>();
  #fetched = false;

  constructor(validator: JsonSchemaValidator) {
    this.#validator = validator;
  }

  /** Remembers the output schemas of listed tools. */
  remember(tools: readonly unknown[]): void {
    for (const tool of tools) {
      if (!isObject(tool) || typeof tool['name'] !== 'string') continue;
      const schema = tool['outputSchema'];
      this.#schemas.set(tool['name'], isObject(schema) ? schema : undefined);
    }
  }

  /** Forgets every tool (the tool list changed); the next check may fetch the listing again. */
  forget(): void {
    this.#schemas.clear();
    this.#fetched = false;
  }

  /**
   * Throws a LocalError('PROTOCOL_VIOLATION') when a successful result of tool `name` breaks
   * its output schema or lacks `structuredContent`. An unknown tool triggers `fetch` (a full
   * listing) once per tool list; a tool without output schema is not checked.
   */
  async check(name: string, result: CallToolResult, fetch: () => Promise<void>): Promise<void> {
    if (result.isError === true) return;
    if (!this.#schemas.has(name) && !this.#fetched) {
      this.#fetched = true;
      await fetch();
    }
    const schema = this.#schemas.get(name);
    if (schema === undefined) return;
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

  #compile(name: string, schema: Record<string, unknown>): Validate {
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
