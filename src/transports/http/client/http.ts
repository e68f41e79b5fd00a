// What the HTTP client transports share: fetch options, media types, HTTP failures turned into
// JSON-RPC errors, and reconnection timing. Runtime-neutral (fetch, Headers, AbortSignal): no
// Node APIs, so the client transports also run in browsers, Deno and Workers.
import type { HeaderFields } from './headers.js';
import { decodeValue } from '../../../jsonrpc/codec.js';
import type { WireError } from '../../../jsonrpc/errors.js';
import { JsonRpcError, LocalError, LocalErrorCode } from '../../../jsonrpc/errors.js';
import type { ErrorResponse, Message, Request, RequestId } from '../../../jsonrpc/message.js';
import { readBodyPrefix } from '../../../internal/body.js';
import { noop } from '../../../internal/noop.js';
import { AuthorizationError } from '../../../protocol/auth.js';

/** The fetch function the client transports call; the global `fetch` fits. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/**
 * What cancels a request without an AbortSignal (each costs microseconds to make on Node 20):
 * `follow` calls `listener` once, with the reason, when it aborts (at once when it has), and
 * returns what removes the listener.
 */
export interface FetchCancellation {
  readonly aborted: boolean;
  readonly reason: unknown;
  follow(listener: (reason: unknown) => void): () => void;
}

/**
 * The key of a fetch init's {@link FetchCancellation}, and of the mark a fetch bears when it
 * reads one (`fetch[FETCH_CANCELLATION] === true`, as `createNodeFetch`'s does): the client
 * transports then give it the cancellation in the init instead of a `signal`, so that a request
 * makes no AbortSignal unless it is cancelled. Any other fetch gets a `signal`.
 */
export const FETCH_CANCELLATION: unique symbol = Symbol('mcpkit.fetchCancellation');

/** A fetch init that may carry a {@link FetchCancellation}. */
export interface CancellableInit extends RequestInit {
  [FETCH_CANCELLATION]?: FetchCancellation;
}

/** Whether `fetchFn` reads a {@link FetchCancellation} from its init (see FETCH_CANCELLATION). */
export function followsCancellation(fetchFn: FetchLike): boolean {
  return (fetchFn as { [FETCH_CANCELLATION]?: unknown })[FETCH_CANCELLATION] === true;
}

/** Custom request headers: a fixed record, or a function called before every request. */
export type HeadersOption =
  | Readonly<Record<string, string>>
  | (() => Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>);

/**
 * The JSON-RPC error codes the HTTP client transports use for failures the server did not
 * describe with a JSON-RPC error of its own. Such errors carry {@link HttpErrorData} as `data`.
 */
export const HttpErrorCode = {
  /** The server answered with an HTTP error status (`data.status`). */
  HttpStatus: -32000,
  /** The session expired: HTTP 404 to a request that carried an `Mcp-Session-Id`. */
  SessionExpired: -32001,
  /**
   * The response stream ended before the response arrived, and could not be resumed. (-32003 is
   * the server's "insufficient scope", `INSUFFICIENT_SCOPE` of `mcpkit/protocol`.)
   */
  StreamEnded: -32004,
} as const;

/** The `data` of an error with one of the {@link HttpErrorCode} codes. */
export interface HttpErrorData {
  /** The HTTP status, when the server sent one. */
  status?: number;
  /** The reason phrase (the standard one when the server sent none). */
  statusText?: string;
  /** The `WWW-Authenticate` header of a 401 or 403, for the authorization layer. */
  wwwAuthenticate?: string;
  /** The start of the response body, when it was not a JSON-RPC error (at most 4 KiB). */
  body?: string;
  /** The server's own JSON-RPC error, when it sent one that could not be delivered as is. */
  error?: WireError;
  /** Why the fallback to the HTTP+SSE transport failed, when one was tried. */
  fallback?: string;
}

const REASON_PHRASES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The reason phrase of a response: the server's, else the standard one, else empty. */
export function reasonPhrase(response: Response): string {
  return response.statusText !== '' ? response.statusText : (REASON_PHRASES[response.status] ?? '');
}

/** "HTTP 401 Unauthorized". */
export function statusLine(response: Response): string {
  const reason = reasonPhrase(response);
  return reason === '' ? `HTTP ${response.status}` : `HTTP ${response.status} ${reason}`;
}

/**
 * The media type of a response (`type/subtype`, lower case, parameters dropped), or undefined.
 * Media types are compared after parsing, never by substring (`application/json-seq` is not JSON).
 */
export function mediaTypeOf(response: Response): string | undefined {
  const header = response.headers.get('content-type');
  if (header === null) return undefined;
  const semicolon = header.indexOf(';'); // not split: a runtime call, thousands of instructions
  const type = (semicolon < 0 ? header : header.slice(0, semicolon)).trim().toLowerCase();
  return type === '' ? undefined : type;
}

/** True when the response carries an SSE stream. */
export function isEventStream(response: Response): boolean {
  return mediaTypeOf(response) === 'text/event-stream';
}

/** True when the response carries a JSON document. */
export function isJson(response: Response): boolean {
  return mediaTypeOf(response) === 'application/json';
}

/**
 * The custom headers option as fresh header fields (lower-case names): at once for a record, a
 * promise for a function. Throws (or rejects) a TypeError for a header that is not valid.
 */
export function customHeaders(
  option: HeadersOption | undefined,
): HeaderFields | Promise<HeaderFields> {
  if (option === undefined) return {};
  if (typeof option !== 'function') return fieldsOf(option);
  return Promise.resolve(option()).then(fieldsOf);
}

function fieldsOf(record: Readonly<Record<string, string>>): HeaderFields {
  const fields: HeaderFields = {};
  // No headers, nothing to check: a Headers object per POST costs more than the rest of them.
  if (isEmptyRecord(record)) return fields;
  // Headers checks each name and value as fetch would.
  new Headers(record).forEach((value, name) => {
    fields[name] = value;
  });
  return fields;
}

function isEmptyRecord(record: Readonly<Record<string, string>>): boolean {
  for (const name in record) if (Object.hasOwn(record, name)) return false;
  return true;
}

const MAX_ERROR_BODY_BYTES = 64 * 1024;
const MAX_BODY_IN_DATA_CHARS = 4096;

/**
 * Reads at most 64 KiB of a body as text, then cancels the rest, so that a huge or endless
 * error body costs nothing. Never throws: a failed read gives what was read.
 */
export async function readBodyText(response: Response): Promise<string> {
  return (await readBodyPrefix(response, MAX_ERROR_BODY_BYTES)).text;
}

/** Drops a body we do not read, releasing the connection. Never throws. */
export async function discardBody(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // Nothing to release.
  }
}

/**
 * The JSON-RPC error responses in an HTTP error body, or undefined when the body is not one
 * (or an array of them). This is the "recognized JSON-RPC error" of the spec's backward
 * compatibility rules: a server that sends one speaks MCP at this URL.
 */
export function jsonRpcErrorsIn(text: string): ErrorResponse[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const decoded = decodeValue(value, { allowBatch: true });
  const messages: Message[] =
    decoded.kind === 'message'
      ? [decoded.message]
      : decoded.kind === 'batch'
        ? decoded.items.flatMap((item) => ('message' in item ? [item.message] : []))
        : [];
  const errors = messages.filter((m): m is ErrorResponse => 'error' in m && !('method' in m));
  return errors.length > 0 && errors.length === messages.length ? errors : undefined;
}

/** An error response for `id` with one of the {@link HttpErrorCode} codes. */
export function errorFor(
  id: RequestId,
  error: { code: number; message: string; data: HttpErrorData },
): ErrorResponse {
  return {
    jsonrpc: '2.0',
    id,
    error: { code: error.code, message: error.message, data: error.data },
  };
}

/** The HttpErrorData of a failed response whose body was `text`. */
export function httpErrorData(response: Response, text: string): HttpErrorData {
  const data: HttpErrorData = { status: response.status, statusText: reasonPhrase(response) };
  const challenge = response.headers.get('www-authenticate');
  if (challenge !== null) data.wwwAuthenticate = challenge;
  const errors = jsonRpcErrorsIn(text);
  if (errors?.[0] !== undefined) data.error = errors[0].error;
  else if (text !== '') data.body = text.slice(0, MAX_BODY_IN_DATA_CHARS);
  return data;
}

/** Outcome of a POST the server refused: responses to deliver, or the error a send rejects with. */
export interface RefusedPost {
  /** One error response per request the POST carried. */
  responses: ErrorResponse[];
  /** The error for a POST without requests (notifications, responses): the send rejects with it. */
  error: JsonRpcError;
}

/**
 * Turns an HTTP error to a POST into JSON-RPC errors for the requests it carried, so that each
 * call rejects with a JsonRpcError. The server's own JSON-RPC errors are kept when they answer
 * a request of this POST (or have a null id and the POST carried one request), except for 401
 * and 403, which always become {@link HttpErrorCode.HttpStatus} errors carrying the status and
 * `WWW-Authenticate` (the authorization layer needs them).
 */
export function refusedPost(
  response: Response,
  text: string,
  requestIds: readonly RequestId[],
): RefusedPost {
  const http = { code: HttpErrorCode.HttpStatus, message: statusLine(response) };
  const data = httpErrorData(response, text);
  const auth = response.status === 401 || response.status === 403;
  const own = auth ? undefined : jsonRpcErrorsIn(text);
  const single = requestIds.length === 1;
  const responses = requestIds.map((id): ErrorResponse => {
    const match =
      own?.find((e) => e.id === id) ?? (single ? own?.find((e) => e.id === null) : undefined);
    return match === undefined ? errorFor(id, { ...http, data }) : { ...match, id };
  });
  const first = own?.[0];
  const error =
    first === undefined
      ? new JsonRpcError(http.code, http.message, data)
      : JsonRpcError.fromWire(first.error);
  return { responses, error };
}

/** The error of a request sent with a session the server no longer knows (HTTP 404). */
export function sessionExpired(response: Response, text: string): JsonRpcError {
  return new JsonRpcError(
    HttpErrorCode.SessionExpired,
    'session expired (HTTP 404): reconnect to start a new session',
    httpErrorData(response, text),
  );
}

/**
 * The LocalError for a fetch that failed without a response (refused, reset, DNS); an
 * AuthorizationError (the authorization flow failed) is kept as it is.
 */
export function unreachable(url: string, error: unknown): LocalError | AuthorizationError {
  if (error instanceof AuthorizationError) return error;
  const reason = error instanceof Error ? describeFetchError(error) : String(error);
  return new LocalError(LocalErrorCode.NotConnected, `cannot reach ${url}: ${reason}`, {
    cause: error,
  });
}

function describeFetchError(error: Error): string {
  // undici reports "fetch failed" and keeps the useful part (ECONNREFUSED…) in `cause`.
  const cause: unknown = error.cause;
  if (cause instanceof Error && cause.message !== '') return cause.message;
  return error.message;
}

/** The LocalError a transport rejects with after close. */
export function closedError(): LocalError {
  return new LocalError(LocalErrorCode.ConnectionClosed, 'transport closed');
}

/** How a client transport reconnects a broken SSE stream. Every field is optional. */
export interface ReconnectOptions {
  /** Consecutive failed attempts tolerated before giving up. Default 3. */
  maxRetries?: number;
  /** The first delay, doubled after each failure, when the server sent no `retry`. Default 1000. */
  initialDelayMs?: number;
  /** The longest delay between attempts. Default 30000. */
  maxDelayMs?: number;
  /**
   * The shortest delay between attempts, whatever the server's `retry` says (a `retry: 0` on a
   * stream that ends at once would otherwise reconnect in a tight loop). Default 250.
   */
  minDelayMs?: number;
}

/** ReconnectOptions with the defaults filled in. */
export type ReconnectPolicy = Readonly<Required<ReconnectOptions>>;

/** Fills in the defaults; throws a TypeError for a negative or non-finite value. */
export function reconnectPolicy(options: ReconnectOptions = {}): ReconnectPolicy {
  const policy = {
    maxRetries: options.maxRetries ?? 3,
    initialDelayMs: options.initialDelayMs ?? 1000,
    maxDelayMs: options.maxDelayMs ?? 30_000,
    minDelayMs: options.minDelayMs ?? 250,
  };
  for (const [name, value] of Object.entries(policy)) {
    if (!Number.isFinite(value) || value < 0) {
      throw new TypeError(`reconnect.${name} must be a non-negative number, got ${String(value)}`);
    }
  }
  return policy;
}

/**
 * The delay before reconnection attempt number `failures` (0 for the first): the server's
 * `retry` hint when it sent one (Spec 2025-11-25 basic/transports: the client MUST respect it),
 * else exponential backoff from `initialDelayMs`, capped at `maxDelayMs`; never less than
 * `minDelayMs`. After `empties` connections in a row that brought no message, the delay
 * doubles `empties - 1` times (up to `maxDelayMs`), so a stream that ends at once is not hammered.
 */
export function reconnectDelay(
  policy: ReconnectPolicy,
  attempt: { failures: number; retryMs: number | undefined; empties?: number },
): number {
  const { failures, retryMs, empties = 0 } = attempt;
  const base = retryMs ?? Math.min(policy.initialDelayMs * 2 ** failures, policy.maxDelayMs);
  const floored = Math.max(base, policy.minDelayMs);
  // One stream that ends without a message is normal (a server closing a stream to be polled):
  // its reconnect waits the retry as given. Each further one in a row doubles the wait.
  if (empties <= 1) return floored;
  return Math.max(floored, Math.min(floored * 2 ** Math.min(empties - 1, 16), policy.maxDelayMs));
}

/** Waits `ms` milliseconds; resolves false at once if `signal` aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The ids of the requests in a message or batch. */
export function requestIdsOf(message: Message | readonly Message[]): RequestId[] {
  if (!Array.isArray(message)) {
    const single = message as Message;
    return 'method' in single && 'id' in single ? [single.id] : [];
  }
  const ids: RequestId[] = [];
  for (const m of message as readonly Message[]) if ('method' in m && 'id' in m) ids.push(m.id);
  return ids;
}

/**
 * Sends the DELETE that ends a session (Spec 2025-11-25 basic/transports#session-management),
 * giving up after `timeoutMs`. 404 and 405 are fine. Resolves with the problem to report, if any;
 * never rejects.
 */
export async function deleteSession(
  fetchFn: FetchLike,
  url: string,
  init: { headers: HeaderFields; timeoutMs: number },
): Promise<Error | undefined> {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort();
  }, init.timeoutMs);
  try {
    const response = await fetchFn(url, {
      method: 'DELETE',
      headers: init.headers,
      signal: controller.signal,
    });
    await discardBody(response);
    if (response.ok || response.status === 404 || response.status === 405) return undefined;
    return new LocalError(
      LocalErrorCode.ProtocolViolation,
      `session DELETE failed: ${statusLine(response)}`,
    );
  } catch (error) {
    const reason = controller.signal.aborted
      ? `no answer within ${init.timeoutMs} ms`
      : unreachable(url, error).message;
    return new LocalError(LocalErrorCode.NotConnected, `session DELETE failed: ${reason}`);
  } finally {
    clearTimeout(timer);
  }
}

/** True for an `initialize` request (legacy revisions open a session with it). */
export function isInitialize(message: Message | undefined): message is Request {
  return (
    message !== undefined &&
    'method' in message &&
    'id' in message &&
    message.method === 'initialize'
  );
}

/** True for the `notifications/initialized` notification that ends a legacy handshake. */
export function isInitialized(message: Message | undefined): boolean {
  return (
    message !== undefined &&
    'method' in message &&
    !('id' in message) &&
    message.method === 'notifications/initialized'
  );
}

/** Calls `onAbort` with the reason when `signal` aborts (at once if it has); returns the unlink. */
export function linkSignal(
  signal: AbortSignal | undefined,
  onAbort: (reason: unknown) => void,
): () => void {
  if (signal === undefined) return noop;
  const listener = (): void => {
    onAbort(signal.reason);
  };
  if (signal.aborted) {
    listener();
    return noop;
  }
  signal.addEventListener('abort', listener, { once: true });
  return () => {
    signal.removeEventListener('abort', listener);
  };
}
