// Compiles a tool's input or output schema once, at registration: the JSON Schema to list and a
// validator to run per call. Standard Schemas validate through their own library; raw JSON Schema
// through the configured JsonSchemaValidator (the built-in one needs no eval).
import { messageOf } from '../internal/message-of.js';
import type { JsonSchemaValidator } from '../protocol/json-schema/index.js';
import { formatIssues } from '../protocol/json-schema/index.js';
import type { StandardSchemaV1 } from './standard-schema.js';
import { formatStandardIssues, isStandardSchema } from './standard-schema.js';
import type { JsonSchemaObject, SchemaInput } from './types.js';

/** The outcome of validating one value. */
export type Checked = { ok: true; value: unknown } | { ok: false; message: string };

/** A schema ready to serve: its JSON form for listings and its validator. */
export interface CompiledSchema {
  /** The JSON Schema as listed in `tools/list`. */
  readonly json: JsonSchemaObject;
  /** Validates a value; Standard Schemas may transform it (defaults, coercions). */
  check(value: unknown): Checked | Promise<Checked>;
}

const DEFAULT_DIALECTS = new Set([
  'https://json-schema.org/draft/2020-12/schema',
  'https://json-schema.org/draft/2020-12/schema#',
]);

/**
 * Compiles `schema` for `role`. Throws TypeError when the schema cannot serve: not an object,
 * a Standard Schema without JSON Schema conversion, or a schema the validator rejects.
 */
export function compileSchema(
  schema: SchemaInput,
  role: 'input' | 'output',
  options: { validator: JsonSchemaValidator; where: string },
): CompiledSchema {
  if (isStandardSchema(schema)) return compileStandard(schema, role, options.where);
  if (typeof schema !== 'object' || Array.isArray(schema)) {
    throw new TypeError(
      `${options.where}: a schema must be a JSON Schema object or a Standard Schema`,
    );
  }
  const shaped = Object.keys(schema).find((key) => isStandardSchema(schema[key]));
  if (shaped !== undefined) {
    // The official SDK's raw shape (`{ a: z.number() }`); here a schema is one object.
    throw new TypeError(
      `${options.where}: "${shaped}" is a schema, so this looks like a raw shape; pass one schema object instead: z.strictObject({ ${shaped}: …, … })`,
    );
  }
  let validate;
  try {
    validate = options.validator.compile(schema);
  } catch (error) {
    const reason = messageOf(error);
    throw new TypeError(`${options.where}: invalid JSON Schema: ${reason}`, { cause: error });
  }
  return {
    json: schema,
    check: (value) => {
      const result = validate(value);
      return result.valid
        ? { ok: true, value }
        : { ok: false, message: formatIssues(result.issues) };
    },
  };
}

function compileStandard(
  schema: StandardSchemaV1,
  role: 'input' | 'output',
  where: string,
): CompiledSchema {
  const props = schema['~standard'];
  const converter = props.jsonSchema;
  if (converter === undefined) {
    throw new TypeError(
      `${where}: this ${props.vendor} schema cannot be converted to JSON Schema (it does not implement ` +
        "Standard JSON Schema); pass raw JSON Schema or use the library's Standard JSON Schema wrapper",
    );
  }
  let json: JsonSchemaObject;
  try {
    json = { ...converter[role]({ target: 'draft-2020-12' }) };
  } catch (error) {
    const reason = messageOf(error);
    throw new TypeError(`${where}: JSON Schema conversion failed: ${reason}`, { cause: error });
  }
  // 2020-12 is MCP's default dialect: naming it costs tokens on every turn and says nothing.
  if (typeof json['$schema'] === 'string' && DEFAULT_DIALECTS.has(json['$schema']))
    delete json['$schema'];
  const toChecked = (result: Awaited<ReturnType<typeof props.validate>>): Checked =>
    result.issues === undefined
      ? { ok: true, value: result.value }
      : { ok: false, message: formatStandardIssues(result.issues) };
  return {
    json,
    check: (value) => {
      const result = props.validate(value);
      return result instanceof Promise ? result.then(toChecked) : toChecked(result);
    },
  };
}

/** Throws unless `json` describes an object (the spec requires `type: "object"` for tool schemas). */
export function requireObjectSchema(json: JsonSchemaObject, where: string): void {
  if (json['type'] !== 'object') {
    throw new TypeError(`${where}: must describe an object (type: "object")`);
  }
}
