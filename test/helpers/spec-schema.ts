// Validates values and whole JSON-RPC messages against the official JSON Schema of a revision
// (spec/<rev>/schema.json, the repository's copy). Use it to check every message a test sees:
//
//   assertValidMessage('2025-11-25', response, { method: 'tools/call' });
//   expect(validateAgainstSpec('2026-07-28', 'Tool', tool).errors).toBe('');
//
// One Ajv instance per revision (draft-07 for 2024-11-05…2025-06-18, 2020-12 after), built on
// first use; each definition's validator is compiled once and cached.
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import type { ErrorObject, Options as AjvOptions, ValidateFunction } from 'ajv';
import type AjvCore from 'ajv/dist/core.js';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { isObject } from '../../src/internal/json.js';
import { METHODS, isMethod, isInputRequest, methodExists } from '../../src/protocol/methods.js';
import type { MethodInfo } from '../../src/protocol/methods.js';
import type {
  Spec20241105,
  Spec20250326,
  Spec20250618,
  Spec20251125,
  Spec20260728,
} from '../../src/protocol/schema/index.js';
import type { ProtocolRevision } from '../../src/protocol/version.js';

/** The repository's copy of the spec. */
export const SPEC_DIR: URL = new URL('../../spec/', import.meta.url);

/** The generated definitions of each revision, for typed names and type guards. */
export interface SpecDefinitions {
  '2024-11-05': Spec20241105.Definitions;
  '2025-03-26': Spec20250326.Definitions;
  '2025-06-18': Spec20250618.Definitions;
  '2025-11-25': Spec20251125.Definitions;
  '2026-07-28': Spec20260728.Definitions;
}

/** A definition name of `TRevision`'s schema (`CallToolRequest`, `JSONRPCResultResponse`, …). */
export type SpecTypeName<TRevision extends ProtocolRevision> = keyof SpecDefinitions[TRevision] &
  string;

/** The outcome of a validation: `errors` is empty when valid, else one line per problem. */
export interface SpecValidation {
  valid: boolean;
  errors: string;
}

/** A JSON Schema document as this helper reads it. */
export interface SpecSchema {
  $schema: string;
  definitions?: Record<string, SchemaNode>;
  $defs?: Record<string, SchemaNode>;
}

/** One (sub)schema of a spec document. */
export type SchemaNode = Record<string, unknown>;

interface Loaded {
  schema: SpecSchema;
  defs: Record<string, SchemaNode>;
  pointer: string;
}

interface Compiled {
  ajv: AjvCore.default;
  validators: Map<string, ValidateFunction>;
}

const loaded = new Map<ProtocolRevision, Loaded>();
const compiled = new Map<ProtocolRevision, Compiled>();

function load(revision: ProtocolRevision): Loaded {
  let entry = loaded.get(revision);
  if (entry === undefined) {
    const text = readFileSync(new URL(`${revision}/schema.json`, SPEC_DIR), 'utf8');
    const schema = JSON.parse(text) as SpecSchema;
    const key = schema.$defs ? '$defs' : 'definitions';
    entry = { schema, defs: schema[key] ?? {}, pointer: `#/${key}` };
    loaded.set(revision, entry);
  }
  return entry;
}

/** Parses spec/<revision>/schema.json (cached; do not mutate). */
export function loadSpecSchema(revision: ProtocolRevision): SpecSchema {
  return load(revision).schema;
}

/** The definitions of a revision's schema, by name (cached; do not mutate). */
export function specDefinitions(revision: ProtocolRevision): Record<string, SchemaNode> {
  return load(revision).defs;
}

/** A new Ajv instance for `schema`'s dialect, with formats (`uri`, `byte`, …). */
export function createSpecAjv(schema: SpecSchema, options: AjvOptions = {}): AjvCore.default {
  const all: AjvOptions = { strict: false, allErrors: true, ...options };
  const ajv: AjvCore.default = schema.$schema.includes('2020-12')
    ? new Ajv2020.default(all)
    : new Ajv.default(all);
  addFormats.default(ajv);
  return ajv;
}

function compiledFor(revision: ProtocolRevision): Compiled {
  let entry = compiled.get(revision);
  if (entry === undefined) {
    const { schema } = load(revision);
    // The official schemas are trusted: skipping meta-validation saves ~150 ms per revision
    // (test/corpus checks them against their meta-schema once).
    const ajv = createSpecAjv(schema, { validateSchema: false });
    ajv.addSchema(schema, revision);
    entry = { ajv, validators: new Map() };
    compiled.set(revision, entry);
  }
  return entry;
}

function validatorFor(revision: ProtocolRevision, typeName: string): ValidateFunction {
  const entry = compiledFor(revision);
  let validate = entry.validators.get(typeName);
  if (validate === undefined) {
    const { defs, pointer } = load(revision);
    if (!Object.hasOwn(defs, typeName)) {
      throw new Error(`spec ${revision} has no definition ${typeName}`);
    }
    validate = entry.ajv.getSchema(`${revision}${pointer}/${typeName}`);
    if (validate === undefined) throw new Error(`cannot compile ${revision} ${typeName}`);
    entry.validators.set(typeName, validate);
  }
  return validate;
}

const formatErrors = (errors: ErrorObject[] | null | undefined): string =>
  (errors ?? [])
    .map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`)
    .join('\n');

/** Validates `value` against definition `typeName` of `revision`'s schema. */
export function validateAgainstSpec<TRevision extends ProtocolRevision>(
  revision: TRevision,
  typeName: SpecTypeName<TRevision>,
  value: unknown,
): SpecValidation {
  const validate = validatorFor(revision, typeName);
  const valid = validate(value);
  return { valid, errors: valid ? '' : formatErrors(validate.errors) };
}

/** True when `value` is valid against definition `typeName`; narrows it to the generated type. */
export function isSpecValid<
  TRevision extends ProtocolRevision,
  TName extends SpecTypeName<TRevision>,
>(
  revision: TRevision,
  typeName: TName,
  value: unknown,
): value is SpecDefinitions[TRevision][TName] {
  return validatorFor(revision, typeName)(value);
}

/** Throws an Error naming the revision, type and every problem unless `value` is valid. */
export function assertValidAgainstSpec<TRevision extends ProtocolRevision>(
  revision: TRevision,
  typeName: SpecTypeName<TRevision>,
  value: unknown,
): void {
  check(revision, typeName, value);
}

function check(revision: ProtocolRevision, typeName: string, value: unknown, what = 'value'): void {
  const validate = validatorFor(revision, typeName);
  if (!validate(value)) {
    throw new Error(
      `${what} is not a valid ${revision} ${typeName}:\n${formatErrors(validate.errors)}\n` +
        `${what}: ${JSON.stringify(value)}`,
    );
  }
}

/** Options for {@link assertValidMessage}. */
export interface MessageCheckOptions {
  /** For a response: the method of the request it answers, so the result is checked too. */
  method?: string;
}

/** The first of `names` that `revision` defines (names change between revisions). */
function firstDefined(revision: ProtocolRevision, names: string[]): string {
  const defs = specDefinitions(revision);
  const name = names.find((n) => Object.hasOwn(defs, n));
  if (name === undefined) throw new Error(`spec ${revision} defines none of ${names.join(', ')}`);
  return name;
}

/**
 * Error definitions by code: `response` ones describe a whole error response (2026-07-28's
 * UnsupportedProtocolVersionError), `error` ones the `error` member only (InvalidParamsError).
 */
const errorTypes = new Map<ProtocolRevision, Map<number, { name: string; whole: boolean }>>();

function errorTypeFor(revision: ProtocolRevision, code: unknown) {
  let byCode = errorTypes.get(revision);
  if (byCode === undefined) {
    byCode = new Map();
    for (const [name, def] of Object.entries(specDefinitions(revision))) {
      const props = def['properties'] as Record<string, SchemaNode> | undefined;
      const whole = (props?.['error']?.['allOf'] as SchemaNode[] | undefined)?.find(
        (s) => isObject(s['properties']) && isObject(s['properties']['code']),
      );
      const codeSchema = whole
        ? (whole['properties'] as Record<string, SchemaNode>)['code']
        : props?.['code'];
      const value = codeSchema?.['const'];
      if (typeof value === 'number') byCode.set(value, { name, whole: whole !== undefined });
    }
    errorTypes.set(revision, byCode);
  }
  return typeof code === 'number' ? byCode.get(code) : undefined;
}

/**
 * Asserts that `message` is a valid JSON-RPC message of `revision`, by shape:
 * - a request or notification: the envelope (JSONRPCRequest / JSONRPCNotification) and the method's
 *   own type from the method table (a `tools/call` request against CallToolRequest); a method the
 *   revision does not define, or a 2026-07-28 input request sent as a request, fails;
 * - a result response: the envelope (JSONRPCResultResponse, JSONRPCResponse before 2025-11-25)
 *   and, when `options.method` names the request, the result against the method's result type
 *   (InputRequiredResult when `resultType` is `input_required`);
 * - an error response: the envelope (JSONRPCErrorResponse, JSONRPCError before 2025-11-25) and
 *   the code's own definition when the schema has one (UnsupportedProtocolVersionError, …).
 * Throws an Error that names the failing type and lists the problems.
 */
export function assertValidMessage(
  revision: ProtocolRevision,
  message: unknown,
  options: MessageCheckOptions = {},
): void {
  if (!isObject(message)) throw new Error(`message is not an object: ${JSON.stringify(message)}`);
  if ('method' in message) {
    checkCall(revision, message);
  } else if ('error' in message) {
    check(revision, firstDefined(revision, ['JSONRPCErrorResponse', 'JSONRPCError']), message);
    const specific = errorTypeFor(revision, isObject(message['error']) && message['error']['code']);
    if (specific?.whole === true) check(revision, specific.name, message);
    if (specific?.whole === false) check(revision, specific.name, message['error'], 'error');
  } else {
    check(revision, firstDefined(revision, ['JSONRPCResultResponse', 'JSONRPCResponse']), message);
    if (options.method !== undefined) checkResult(revision, options.method, message['result']);
  }
}

function checkCall(revision: ProtocolRevision, message: Record<string, unknown>): void {
  const method = message['method'];
  const isRequest = 'id' in message;
  check(revision, isRequest ? 'JSONRPCRequest' : 'JSONRPCNotification', message);
  if (!isMethod(method) || !methodExists(method, revision)) {
    throw new Error(`method ${JSON.stringify(method)} is not defined in ${revision}`);
  }
  const entry = METHODS[method];
  if ((entry.kind === 'request') !== isRequest) {
    throw new Error(`${method} is a ${entry.kind} in ${revision}, but the message is not`);
  }
  if (isInputRequest(method, revision)) {
    throw new Error(`${method} is never a JSON-RPC request in ${revision}: it is an input request`);
  }
  check(revision, entry.type, message);
}

function checkResult(revision: ProtocolRevision, method: string, result: unknown): void {
  if (!isMethod(method) || !methodExists(method, revision)) {
    throw new Error(`method ${JSON.stringify(method)} is not defined in ${revision}`);
  }
  const entry: MethodInfo = METHODS[method];
  if (entry.result === undefined) throw new Error(`${method} is a notification: it has no result`);
  const inputRequired = isObject(result) && result['resultType'] === 'input_required';
  check(revision, inputRequired ? 'InputRequiredResult' : entry.result, result, 'result');
}
