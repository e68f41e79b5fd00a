// mcpkit/validators/ajv: the faster, code-generating JSON Schema validator, as a plug-in. Ajv
// compiles schemas with `new Function`, so it is for Node and not for Workers; the built-in
// validator (src/protocol/json-schema) stays the default. `ajv` (and optionally `ajv-formats`)
// are the caller's dependencies: pass the classes in, mcpkit imports neither.
import type {
  JsonSchema,
  JsonSchemaValidator,
  Validate,
  ValidationIssue,
  ValidationResult,
} from '../protocol/json-schema/index.js';

/** The part of an Ajv error this adapter reads (ajv's `ErrorObject`). */
export interface AjvErrorLike {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
  data?: unknown;
}

/** The part of an Ajv instance this adapter uses. */
export interface AjvLike {
  compile(schema: object | boolean): ((data: unknown) => boolean) & {
    errors?: AjvErrorLike[] | null;
  };
}

/** Options of {@link createAjvValidator}. */
export interface AjvValidatorOptions {
  /** The Ajv instance for 2020-12 schemas (`new Ajv2020(...)` from `ajv/dist/2020`). */
  draft2020: AjvLike;
  /** The Ajv instance for draft-07 schemas (`new Ajv(...)` from `ajv`). Default: draft2020. */
  draft07?: AjvLike;
}

const VALID: ValidationResult = Object.freeze({ valid: true, issues: [] });
const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;

/**
 * Creates a JsonSchemaValidator on Ajv. Create the instances with `allErrors: true`,
 * `verbose: true` (so messages can show the received value) and `strict: false` (tolerance of
 * the extra keywords MCP schemas carry).
 */
export function createAjvValidator(options: AjvValidatorOptions): JsonSchemaValidator {
  return {
    compile(schema: JsonSchema | boolean): Validate {
      const draft07 =
        typeof schema === 'object' &&
        typeof schema['$schema'] === 'string' &&
        DRAFT_07.test(schema['$schema']);
      const ajv = draft07 ? (options.draft07 ?? options.draft2020) : options.draft2020;
      const check = ajv.compile(schema);
      return (value) =>
        check(value) ? VALID : { valid: false, issues: (check.errors ?? []).map(toIssue) };
    },
  };
}

function toIssue(error: AjvErrorLike): ValidationIssue {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => {
      const key = segment.replace(/~1/g, '/').replace(/~0/g, '~');
      return /^\d+$/.test(key) ? Number(key) : key;
    });
  const missing = error.params['missingProperty'];
  const extra = error.params['additionalProperty'];
  let message = error.message ?? error.keyword;
  if (typeof missing === 'string') message = `missing required property "${missing}"`;
  if (typeof extra === 'string') message = `unexpected property "${extra}"`;
  if (error.keyword === 'type')
    message = `expected ${String(error.params['type'])}, received ${describe(error.data)}`;
  return { path, pointer: error.instancePath, keyword: error.keyword, message };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string')
    return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number' || typeof value === 'boolean')
    return `${typeof value} ${String(value)}`;
  return typeof value;
}
