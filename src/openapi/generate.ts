// One tool per operation: a model-valid unique name, a description within a budget, an input
// schema merging the path, query, header and cookie parameters and the body (each property
// marked with `x-in`, where it goes; the plan keeps how to write it), an output schema from the
// success response's JSON, and annotations from the method.
import { compileJsonSchema } from '../protocol/index.js';
import { FILE_FIELD_SCHEMA } from './files.js';
import { NameRegistry, baseName } from './names.js';
import type { ConvertOptions } from './schema.js';
import { isObjectSchema, toJsonSchema } from './schema.js';
import { describeOperation, trimText } from './text.js';
import type {
  OpenApiDocument,
  ParameterLocation,
  PlannedBody,
  PlannedParameter,
  ToolPlan,
} from './types.js';
import { messageOf } from '../internal/message-of.js';

/** How tools are generated; every field optional. */
export interface GenerateOptions {
  /** Most characters of a tool's description. Default 300. */
  readonly descriptionChars?: number;
  /** Most characters of a parameter's or property's description (0 drops them). Default 120. */
  readonly parameterChars?: number;
  /** Nesting depth of input schemas; deeper parts accept any value. Default 8. */
  readonly inputDepth?: number;
  /**
   * Output schemas from success responses: their nesting depth (1: the top-level fields of the
   * answer, or of a list's items, with their types alone), or 0 for none. Default 1.
   */
  readonly outputDepth?: number;
  /**
   * Most characters of an output schema (compact JSON); a larger one is left out (the answer
   * still comes as JSON text). Default 1200, about 300 tokens.
   */
  readonly outputChars?: number;
}

/** An operation of the document, where it is. */
export interface OperationRef {
  readonly method: string;
  readonly path: string;
  readonly operation: Readonly<Record<string, unknown>>;
  readonly pathItem: Readonly<Record<string, unknown>>;
}

/** What generation made: the tools, and the operations left out with why. */
export interface Generated {
  readonly tools: ToolPlan[];
  readonly skipped: { readonly method: string; readonly path: string; readonly reason: string }[];
}

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
/** Header parameters the spec says are ignored (the client sets them). */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every operation of the document, in document order. */
export function operationsOf(document: OpenApiDocument): OperationRef[] {
  const found: OperationRef[] = [];
  for (const [path, pathItem] of Object.entries(document.paths ?? {})) {
    if (!isObject(pathItem)) continue;
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (isObject(operation)) found.push({ method, path, operation, pathItem });
    }
  }
  return found;
}

/** Generates a tool for each operation (or those `filter` keeps). */
export function generateTools(
  document: OpenApiDocument,
  options: GenerateOptions = {},
  operations: readonly OperationRef[] = operationsOf(document),
): Generated {
  const names = namesOf(document);
  const generated: Generated = { tools: [], skipped: [] };
  for (const ref of operations) {
    const name = names.get(ref.operation) ?? claimName(new NameRegistry(), ref);
    try {
      generated.tools.push(planOperation(document, ref, { name, options }));
    } catch (error) {
      const reason = messageOf(error);
      generated.skipped.push({ method: ref.method, path: ref.path, reason });
    }
  }
  return generated;
}

/**
 * Every operation's name, claimed in document order over the whole document, so that a tool's
 * name does not depend on which others were picked.
 */
function namesOf(document: OpenApiDocument): Map<object, string> {
  const registry = new NameRegistry();
  const names = new Map<object, string>();
  for (const ref of operationsOf(document)) names.set(ref.operation, claimName(registry, ref));
  return names;
}

function claimName(registry: NameRegistry, ref: OperationRef): string {
  const last = /\{([^}]+)\}[^{]*$/.exec(ref.path)?.[1];
  return registry.claim(baseName(ref.method, ref.path, stringOf(ref.operation['operationId'])), [
    ...(last === undefined ? [] : [`by_${last}`]),
    ref.method,
  ]);
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function planOperation(
  document: OpenApiDocument,
  ref: OperationRef,
  { name, options }: { name: string; options: GenerateOptions },
): ToolPlan {
  const { operation } = ref;
  const paramChars = options.parameterChars ?? 120;
  const input: ConvertOptions = {
    role: 'input',
    maxDepth: options.inputDepth ?? 8,
    descriptionChars: paramChars,
  };
  const keys = new Set<string>();
  const properties: Json = {};
  const required: string[] = [];
  const parameters: PlannedParameter[] = [];
  for (const parameter of parametersOf(ref)) {
    const planned = planParameter(parameter, keys, { options: input, path: ref.path });
    if (planned === undefined) continue;
    parameters.push(planned.plan);
    properties[planned.plan.key] = planned.schema;
    if (parameter['required'] === true || planned.plan.in === 'path')
      required.push(planned.plan.key);
  }
  const body = planBody(operation['requestBody'], keys, input);
  if (body !== undefined) {
    properties[body.plan.key] = body.schema;
    if (body.required) required.push(body.plan.key);
  }
  const inputSchema: Json = {
    type: 'object',
    properties,
    required,
    additionalProperties: false,
  };
  const output = planOutput(operation['responses'], {
    maxDepth: options.outputDepth ?? 1,
    maxChars: options.outputChars ?? 1200,
  });
  const plan: ToolPlan = {
    name,
    description: describeOperation(
      stringOf(operation['summary']),
      stringOf(operation['description']),
      { max: options.descriptionChars ?? 300, method: ref.method, path: ref.path },
    ),
    inputSchema: compilable(inputSchema),
    ...(output === undefined
      ? {}
      : { outputSchema: compilable(output.schema), output: { wrapped: output.wrapped } }),
    annotations: annotationsOf(ref.method),
    operation: {
      method: ref.method.toUpperCase(),
      path: ref.path,
      ...(typeof operation['operationId'] === 'string'
        ? { operationId: operation['operationId'] }
        : {}),
      tags: Array.isArray(operation['tags'])
        ? operation['tags'].filter((t): t is string => typeof t === 'string')
        : [],
      security: (Array.isArray(operation['security'])
        ? operation['security']
        : (document.security ?? [])) as ToolPlan['operation']['security'],
    },
    parameters,
    ...(body === undefined ? {} : { body: body.plan }),
    fixed: {},
  };
  return plan;
}

/** The path item's parameters overridden by the operation's (same name and location). */
function parametersOf(ref: OperationRef): Json[] {
  const merged = new Map<string, Json>();
  for (const list of [ref.pathItem['parameters'], ref.operation['parameters']]) {
    if (!Array.isArray(list)) continue;
    for (const parameter of list) {
      if (!isObject(parameter) || typeof parameter['name'] !== 'string') continue;
      merged.set(`${String(parameter['in'])} ${parameter['name']}`, parameter);
    }
  }
  return [...merged.values()];
}

/** A property name for `wanted`, unique in `keys`: `in_name` on a clash. */
function claimKey(keys: Set<string>, wanted: string, where: string): string {
  const clean = wanted.replace(/[^a-zA-Z0-9_.-]+/g, '_').slice(0, 64) || where;
  let key = keys.has(clean) ? `${where}_${clean}`.slice(0, 64) : clean;
  for (let n = 2; keys.has(key); n++) key = `${clean.slice(0, 60)}_${String(n)}`;
  keys.add(key);
  return key;
}

const DEFAULT_STYLE: Record<ParameterLocation, string> = {
  path: 'simple',
  query: 'form',
  header: 'simple',
  cookie: 'form',
};

function planParameter(
  parameter: Json,
  keys: Set<string>,
  { options, path }: { options: ConvertOptions; path: string },
): { plan: PlannedParameter; schema: Json } | undefined {
  const where = parameter['in'];
  const name = parameter['name'] as string;
  if (where !== 'path' && where !== 'query' && where !== 'header' && where !== 'cookie') return;
  if (where === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) return;
  const content = isObject(parameter['content'])
    ? Object.values(parameter['content'])[0]
    : undefined;
  const source = isObject(content) ? content['schema'] : parameter['schema'];
  const schema = toJsonSchema(source, options);
  if (options.descriptionChars > 0) {
    const text =
      typeof parameter['description'] === 'string'
        ? trimText(parameter['description'], options.descriptionChars)
        : '';
    if (text !== '') schema['description'] = text;
    else schema['description'] ??= placeholder(name, where, { path, schema });
  }
  schema['x-in'] = where;
  const style = typeof parameter['style'] === 'string' ? parameter['style'] : DEFAULT_STYLE[where];
  const plan: PlannedParameter = {
    key: claimKey(keys, name, where),
    name,
    in: where,
    style,
    explode: typeof parameter['explode'] === 'boolean' ? parameter['explode'] : style === 'form',
    allowReserved: parameter['allowReserved'] === true,
    json: isObject(content),
  };
  return { plan, schema };
}

/**
 * What a parameter the document leaves undescribed is, from where it goes: "The name in
 * …/labels/{name}." for a path parameter, "The collab query parameter (boolean)." for others.
 */
function placeholder(
  name: string,
  where: ParameterLocation,
  { path, schema }: { path: string; schema: Json },
): string {
  if (where === 'path') {
    const segments = path.split('/');
    const at = segments.findIndex((segment) => segment.includes(`{${name}}`));
    const around = segments.slice(Math.max(1, at - 1), at + 1).join('/');
    return `The ${name} in …/${around}.`;
  }
  const type = typeof schema['type'] === 'string' ? ` (${schema['type']})` : '';
  return `The ${name} ${where} parameter${type}.`;
}

/** Whether a media type is JSON (`application/json`, `application/*+json`), parsed, not matched. */
export function isJsonMediaType(mediaType: string): boolean {
  const essence = (mediaType.split(';')[0] ?? '').trim().toLowerCase();
  const [type, subtype = ''] = essence.split('/');
  return type === 'application' && (subtype === 'json' || subtype.endsWith('+json'));
}

const BODY_PREFERENCE = [
  isJsonMediaType,
  (type: string) => type === 'application/x-www-form-urlencoded',
  (type: string) => type === 'multipart/form-data',
  () => true,
];

const FILE_SCHEMA: Json = {
  type: 'string',
  contentEncoding: 'base64',
  description: 'the file, base64-encoded',
};

function planBody(
  requestBody: unknown,
  keys: Set<string>,
  options: ConvertOptions,
): { plan: PlannedBody; schema: Json; required: boolean } | undefined {
  if (!isObject(requestBody) || !isObject(requestBody['content'])) return undefined;
  const types = Object.keys(requestBody['content']);
  const mediaType = BODY_PREFERENCE.map((test) => types.find((type) => test(type))).find(
    (type) => type !== undefined,
  );
  if (mediaType === undefined) return undefined;
  const media = requestBody['content'][mediaType];
  const source = isObject(media) ? media['schema'] : undefined;
  const files: string[] = [];
  let schema: Json;
  if (isJsonMediaType(mediaType) || mediaType === 'application/x-www-form-urlencoded') {
    schema = toJsonSchema(source, options);
  } else if (mediaType === 'multipart/form-data') {
    schema = toJsonSchema(source, options);
    const properties = isObject(schema['properties']) ? schema['properties'] : {};
    for (const [field, sub] of Object.entries(properties)) {
      if (!isObject(sub)) continue;
      if (isBinary(sub)) {
        files.push(field);
        properties[field] = { ...FILE_FIELD_SCHEMA };
      } else if (isObject(sub['items']) && isBinary(sub['items'])) {
        files.push(field);
        properties[field] = { ...sub, items: { ...FILE_FIELD_SCHEMA } };
      }
    }
  } else if (mediaType.startsWith('text/')) {
    schema = { type: 'string' };
  } else {
    schema = { ...FILE_SCHEMA, description: `the ${mediaType} body, base64-encoded` };
  }
  if (options.descriptionChars > 0) {
    const text =
      typeof requestBody['description'] === 'string'
        ? trimText(requestBody['description'], options.descriptionChars)
        : '';
    schema['description'] = text === '' ? `The request body (${mediaType}).` : text;
  }
  schema['x-in'] = 'body';
  const key = claimKey(keys, keys.has('body') ? 'requestBody' : 'body', 'request');
  return { plan: { key, mediaType, files }, schema, required: requestBody['required'] === true };
}

function isBinary(schema: Json): boolean {
  return (
    schema['format'] === 'binary' ||
    schema['format'] === 'base64' ||
    schema['contentEncoding'] !== undefined ||
    schema['contentMediaType'] !== undefined
  );
}

function planOutput(
  responses: unknown,
  { maxDepth, maxChars }: { maxDepth: number; maxChars: number },
): { schema: Json; wrapped: boolean } | undefined {
  const output = outputOf(responses, maxDepth);
  return output === undefined || JSON.stringify(output.schema).length > maxChars
    ? undefined
    : output;
}

function outputOf(
  responses: unknown,
  maxDepth: number,
): { schema: Json; wrapped: boolean } | undefined {
  if (maxDepth <= 0 || !isObject(responses)) return undefined;
  const status = Object.keys(responses)
    .filter((code) => /^2(\d\d|XX)$/i.test(code))
    .sort()[0];
  const response = status === undefined ? undefined : responses[status];
  if (!isObject(response) || !isObject(response['content'])) return undefined;
  const entry = Object.entries(response['content']).find(([type]) => isJsonMediaType(type));
  if (entry === undefined || !isObject(entry[1]) || !isObject(entry[1]['schema'])) return undefined;
  const schema = toJsonSchema(entry[1]['schema'], {
    role: 'output',
    maxDepth,
    descriptionChars: 0,
  });
  if (isObjectSchema(schema) && !Array.isArray(schema['type'])) return { schema, wrapped: false };
  return {
    schema: { type: 'object', properties: { result: schema }, required: ['result'] },
    wrapped: true,
  };
}

function annotationsOf(method: string): ToolPlan['annotations'] {
  switch (method) {
    case 'get':
    case 'head':
    case 'options':
      return { readOnlyHint: true, openWorldHint: true };
    case 'delete':
      // HTTP's DELETE is idempotent (RFC 9110 section 9.2.2), as PUT is.
      return {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: true,
      };
    case 'put':
      return { readOnlyHint: false, idempotentHint: true, openWorldHint: true };
    default:
      return { readOnlyHint: false, openWorldHint: true };
  }
}

/**
 * `schema` as the built-in validator compiles it; a `pattern` it cannot compile (not ECMAScript)
 * is dropped, so the API checks that value instead. Throws when the schema still fails.
 */
function compilable(schema: Json): Json {
  try {
    compileJsonSchema(schema);
    return schema;
  } catch {
    const stripped = JSON.parse(JSON.stringify(schema), (key, value: unknown) =>
      key === 'pattern' && typeof value === 'string' ? undefined : value,
    ) as Json;
    compileJsonSchema(stripped);
    return stripped;
  }
}
