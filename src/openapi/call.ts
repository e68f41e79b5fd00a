// A tool call as the HTTP request its operation describes, and the answer as a tool result:
// JSON to structuredContent and compact text, text as text, images as images, other bytes
// described; HTTP errors as isError results with the status and the API's own message.
import { compileJsonSchema } from '../protocol/index.js';
import type { Authenticator } from './auth.js';
import { isJsonMediaType } from './generate.js';
import type { HttpResponse, SendOptions } from './http.js';
import { HttpFailure, send } from './http.js';
import { ArgumentError, base64, filePart } from './files.js';
import type { SliceLink, Slices } from './slices.js';
import { fitStructured } from './slices.js';
import { cookiePairs, headerValue, pathValue, queryPairs } from './serialize.js';
import type { ToolPlan } from './types.js';

/** How calls reach the API. */
export interface CallSettings {
  readonly baseUrl: URL;
  readonly auth: Authenticator;
  readonly http: Omit<SendOptions, 'credentialed' | 'signal' | 'trustedHost'>;
  /** Most characters of text in one result; the rest is cut with a note. */
  readonly maxTextChars: number;
  /** Where cut answers are kept, readable in slices; absent: the rest is dropped. */
  readonly slices?: Slices;
  /** Headers sent with every request (configuration, never the model). */
  readonly headers: Readonly<Record<string, string>>;
}

/** A tool result (the server's `ToolResult` shape, structured or not). */
export interface CallResult {
  content: (
    { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string } | SliceLink
  )[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

type Json = Record<string, unknown>;

/** Header names that carry credentials (`Authorization`, `Private-Token`, `X-Api-Key`, …). */
const SECRET = /auth|cookie|token|key|secret|session|signature|password|credential/i;

const checks = new WeakMap<object, ReturnType<typeof compileJsonSchema>>();

/**
 * Calls the operation of `plan` with `args`; failures come back as isError results. A 401 to a
 * request that carried an OAuth token (revoked, say, before it expired) drops the token and tries
 * once more with a new one.
 */
export async function callOperation(
  plan: ToolPlan,
  args: Json,
  { settings, signal }: { settings: CallSettings; signal?: AbortSignal | undefined },
): Promise<CallResult> {
  const values = { ...args, ...plan.fixed };
  let response: HttpResponse;
  try {
    const first = await request(plan, values, { settings, signal });
    response = first.response;
    if (response.status === 401 && first.oauth.length > 0) {
      await settings.auth.forget(first.oauth);
      response = (await request(plan, values, { settings, signal })).response;
    }
  } catch (error) {
    if (error instanceof HttpFailure || error instanceof ArgumentError)
      return failure(error.message);
    throw error;
  }
  return toResult(plan, response, settings);
}

/** Builds and sends one request; also says which OAuth schemes' tokens it carried. */
async function request(
  plan: ToolPlan,
  values: Json,
  { settings, signal }: { settings: CallSettings; signal?: AbortSignal | undefined },
): Promise<{ response: HttpResponse; oauth: readonly string[] }> {
  const url = buildUrl(plan, values, settings.baseUrl);
  const applied = await settings.auth.apply(plan, url);
  for (const pair of applied.query) url.search += `${url.search === '' ? '' : '&'}${pair}`;
  const headers: Record<string, string> = {
    accept: 'application/json, */*;q=0.8',
    ...settings.headers,
    ...paramHeaders(plan, values, applied.cookies),
    ...applied.headers,
  };
  const http = { ...settings.http, trustedHost: settings.baseUrl.host, signal };
  const body = await buildBody(plan, values, { headers, http });
  // Configured headers never leave the API's origin; one that looks like a credential (or
  // the scheme's credentials) stops a redirect to another origin altogether.
  const credentialed =
    applied.credentialed || Object.keys(settings.headers).some((name) => SECRET.test(name));
  const privateHeaders = [...Object.keys(settings.headers), ...Object.keys(applied.headers)];
  const response = await send(
    {
      method: plan.operation.method,
      url,
      headers,
      privateHeaders,
      ...(body === undefined ? {} : { body }),
    },
    { ...settings.http, credentialed, trustedHost: settings.baseUrl.host, signal },
  );
  return { response, oauth: applied.oauth };
}

function failure(text: string): CallResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function buildUrl(plan: ToolPlan, values: Json, baseUrl: URL): URL {
  let path = plan.operation.path;
  const query: string[] = [];
  for (const parameter of plan.parameters) {
    const value = values[parameter.key];
    if (parameter.in === 'path') {
      if (value === undefined) throw new ArgumentError(`"${parameter.key}" is required`);
      path = path.split(`{${parameter.name}}`).join(pathValue(parameter, value));
    } else if (parameter.in === 'query' && value !== undefined) {
      query.push(...queryPairs(parameter, value));
    }
  }
  const base = baseUrl.href.replace(/\/+$/, '');
  const url = new URL(`${base}${path}`);
  if (query.length > 0) url.search = query.join('&');
  return url;
}

function paramHeaders(plan: ToolPlan, values: Json, authCookies: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  const cookies = [...authCookies];
  for (const parameter of plan.parameters) {
    const value = values[parameter.key];
    if (value === undefined) continue;
    if (parameter.in === 'header')
      headers[parameter.name.toLowerCase()] = headerValue(parameter, value);
    if (parameter.in === 'cookie') cookies.push(...cookiePairs(parameter, value));
  }
  if (cookies.length > 0) headers['cookie'] = cookies.join('; ');
  return headers;
}

async function buildBody(
  plan: ToolPlan,
  values: Json,
  { headers, http }: { headers: Record<string, string>; http: Omit<SendOptions, 'credentialed'> },
): Promise<Uint8Array | undefined> {
  const body = plan.body;
  if (body === undefined) return undefined;
  const value = values[body.key];
  if (value === undefined) return undefined;
  const { mediaType } = body;
  if (isJsonMediaType(mediaType)) {
    headers['content-type'] = mediaType;
    return Buffer.from(JSON.stringify(value));
  }
  if (mediaType === 'application/x-www-form-urlencoded') {
    headers['content-type'] = mediaType;
    return Buffer.from(new URLSearchParams(formEntries(value)).toString());
  }
  if (mediaType === 'multipart/form-data') {
    const form = new FormData();
    for (const [field, given] of Object.entries(isObject(value) ? value : {})) {
      // An array is a part per item (files and values alike), as multipart repeats a name.
      for (const item of Array.isArray(given) ? given : [given]) {
        if (body.files.includes(field)) {
          const file = await filePart(item, field, http);
          const blob = new Blob(
            [new Uint8Array(file.bytes)],
            file.type === undefined ? {} : { type: file.type },
          );
          form.append(field, blob, file.name);
        } else form.append(field, typeof item === 'string' ? item : JSON.stringify(item));
      }
    }
    const encoded = new Response(form);
    headers['content-type'] = encoded.headers.get('content-type') ?? mediaType;
    return new Uint8Array(await encoded.arrayBuffer());
  }
  headers['content-type'] = mediaType;
  if (mediaType.startsWith('text/')) return Buffer.from(scalar(value));
  return base64(scalar(value), body.key);
}

function formEntries(value: unknown): [string, string][] {
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([key, item]): [string, string][] =>
    Array.isArray(item)
      ? item.map((one): [string, string] => [key, scalar(one)])
      : item === undefined
        ? []
        : [[key, scalar(item)]],
  );
}

function scalar(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mediaTypeOf(response: HttpResponse): string {
  const header = response.headers['content-type'] ?? '';
  return (header.split(';')[0] ?? '').trim().toLowerCase();
}

type Limits = Pick<CallSettings, 'maxTextChars' | 'slices'>;

/** `text` within the limit: cut with a note, the rest kept in slices when it can be. */
function cut(text: string, limits: Limits, truncated: boolean): CallResult['content'] {
  const max = limits.maxTextChars;
  if (text.length <= max && !truncated) return [{ type: 'text', text }];
  const kept = text.slice(0, max);
  if (truncated) {
    return [
      {
        type: 'text',
        text: `${kept}\n… [cut: the answer was larger than allowed; ask for less, e.g. a smaller page or narrower filters]`,
      },
    ];
  }
  const more = `${String(text.length - max)} more characters`;
  if (limits.slices === undefined) {
    return [
      {
        type: 'text',
        text: `${kept}\n… [cut: ${more}; ask for less, e.g. a smaller page or narrower filters]`,
      },
    ];
  }
  const link = limits.slices.keep(text);
  return [
    {
      type: 'text',
      text: `${kept}\n… [cut: ${more}; read them from ${link.uri}, or ask for less]`,
    },
    link,
  ];
}

function textOf(content: CallResult['content']): string {
  const [first] = content;
  return first?.type === 'text' ? first.text : '';
}

function toResult(plan: ToolPlan, response: HttpResponse, limits: Limits): CallResult {
  const type = mediaTypeOf(response);
  if (response.status >= 400) return failure(errorText(response, type));
  if (isJsonMediaType(type) && !response.truncated) {
    const text = response.body.toString('utf8');
    let data: unknown;
    try {
      data = text.trim() === '' ? null : JSON.parse(text);
    } catch {
      return { content: cut(text, limits, false) };
    }
    return jsonResult(plan, data, limits);
  }
  if (type.startsWith('image/') && !response.truncated) {
    return { content: [{ type: 'image', data: response.body.toString('base64'), mimeType: type }] };
  }
  const textual = type === '' || type.startsWith('text/') || /xml|json|yaml|csv/.test(type);
  const described = `${String(response.body.byteLength)}${response.truncated ? '+' : ''} bytes of ${type || 'data'} (HTTP ${String(response.status)})`;
  const content = textual
    ? cut(response.body.toString('utf8'), limits, response.truncated)
    : [{ type: 'text' as const, text: described }];
  if (textOf(content) === '') {
    content[0] = { type: 'text', text: `HTTP ${String(response.status)} ${response.statusText}` };
  }
  return noStructure(plan, content);
}

/**
 * A success without JSON. A tool with an output schema must answer structured content: an
 * empty one where the schema allows it, else the text as an error (the API broke its word).
 */
function noStructure(plan: ToolPlan, content: CallResult['content']): CallResult {
  const schema = plan.outputSchema;
  if (schema === undefined) return { content };
  const empty = plan.output?.wrapped === true ? { result: null } : {};
  if (checkOf(schema)(empty).valid) return { content, structuredContent: empty };
  return failure(`The API answered without the JSON its description promises: ${textOf(content)}`);
}

function checkOf(schema: object): ReturnType<typeof compileJsonSchema> {
  let check = checks.get(schema);
  if (check === undefined) {
    check = compileJsonSchema(schema as Json);
    checks.set(schema, check);
  }
  return check;
}

function jsonResult(plan: ToolPlan, data: unknown, limits: Limits): CallResult {
  const content = cut(JSON.stringify(data), limits, false);
  const text = textOf(content);
  const schema = plan.outputSchema;
  if (schema === undefined) return { content };
  const structured = plan.output?.wrapped === true ? { result: data } : data;
  const checked = checkOf(schema)(structured);
  if (!isObject(structured) || !checked.valid) {
    const why = checked.issues[0]?.message ?? 'not an object';
    return failure(
      `The API answered, but not as its description says (${why}), so there is no structured result. Its answer: ${text}`,
    );
  }
  // A cut answer's structured content is cut too (the same budget), else it carries it all.
  const fitted = fitStructured(structured, {
    wrapped: plan.output?.wrapped === true,
    maxChars: limits.maxTextChars,
  });
  if (fitted !== structured && !checkOf(schema)(fitted).valid) {
    return failure(`The answer is too large for a structured result; its start: ${text}`);
  }
  return { content, structuredContent: fitted };
}

/** "HTTP 404 Not Found: <the API's message>". */
function errorText(response: HttpResponse, type: string): string {
  const head = `HTTP ${String(response.status)}${response.statusText === '' ? '' : ` ${response.statusText}`}`;
  const text = response.body.toString('utf8');
  if (isJsonMediaType(type) || /problem\+json/.test(type)) {
    try {
      const data = JSON.parse(text) as unknown;
      const message = isObject(data) ? messageOf(data) : undefined;
      if (message !== undefined) return `${head}: ${message}`;
    } catch {
      // not JSON after all: the text below
    }
  }
  const trimmed = text.replace(/\s+/g, ' ').trim().slice(0, 1000);
  return trimmed === '' ? head : `${head}: ${trimmed}`;
}

function messageOf(data: Json): string | undefined {
  const parts: string[] = [];
  for (const key of ['message', 'error_description', 'error', 'detail', 'title']) {
    const value = data[key];
    if (typeof value === 'string' && value !== '') {
      parts.push(value);
      break;
    }
    if (isObject(value) && typeof value['message'] === 'string') {
      parts.push(value['message']);
      break;
    }
  }
  if (Array.isArray(data['errors']) && data['errors'].length > 0) {
    parts.push(JSON.stringify(data['errors']).slice(0, 800));
  }
  return parts.length === 0 ? JSON.stringify(data).slice(0, 1000) : parts.join(' ');
}
