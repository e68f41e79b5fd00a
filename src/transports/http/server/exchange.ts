// The neutral shape of one HTTP exchange, between the runtime faces (node.ts, fetch.ts) and the
// Streamable HTTP core (handler.ts): plain data in, plain data out, no runtime types.
import { errorResponse } from '../../../jsonrpc/codec.js';
import { ErrorCode } from '../../../jsonrpc/errors.js';
import type { ErrorResponse, RequestId } from '../../../jsonrpc/message.js';

/** Request headers by lower-case name, as node:http's `IncomingHttpHeaders` holds them. */
export type HeaderMap = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Limits a face applies while reading a request body. */
export interface BodyLimits {
  /** The most bytes accepted; a longer body fails with status 413. */
  readonly maxBytes: number;
  /** The most milliseconds reading may take; a slower body fails with status 408. */
  readonly timeoutMs: number;
}

/**
 * HttpExchange is one incoming HTTP request as the core sees it. Faces (node.ts, fetch.ts) build
 * one per request; `readBody` is called at most once.
 */
export interface HttpExchange {
  /** The method, upper-case (`POST`). */
  readonly method: string;
  /** The request target: path and query (`/mcp?x=1`). */
  readonly url: string;
  /** The request headers, lower-case names. */
  readonly headers: HeaderMap;
  /**
   * Reads the whole body and calls `done` once, with the bytes or with the {@link BodyError} that
   * ended the read (413 too large, 408 too slow, 400 broken off). A callback rather than a
   * promise: where the runtime reads by events (node:http) no promise is made per request.
   */
  readBody(limits: BodyLimits, done: BodyDone): void;
  /**
   * Calls `listener` once when the client goes away before the reply ended (at once, in a
   * microtask, when it already has), and returns a function that stops listening.
   */
  onClose(listener: () => void): () => void;
  /**
   * Authentication a middleware attached, or the principal the `auth` gate verified (handlers
   * see it as `ctx.transport.auth`, and the gate's as `ctx.auth`).
   */
  auth?: unknown;
}

/** Receives a body read by {@link HttpExchange.readBody}: the bytes, or why reading failed. */
export type BodyDone = (body: Uint8Array | BodyError) => void;

/** Receives the reply to an exchange, once (see StreamableHttpHandler.serve). */
export type Answer = (reply: HttpReply) => void;

/**
 * A signal that aborts when the client of `exchange` goes away: what an SSE stream watches.
 * Made per call (an AbortSignal is costly; JSON replies never need one).
 */
export function closeSignal(exchange: HttpExchange): AbortSignal {
  const controller = new AbortController();
  exchange.onClose(() => {
    controller.abort(new Error('client disconnected'));
  });
  return controller.signal;
}

/**
 * The body of an {@link HttpReply}: `null` for none, an async iterable of SSE text chunks
 * ({@link SseChunk}) for an event stream, or any other value, which is sent as JSON.
 */
export type HttpReplyBody = unknown;

/**
 * One chunk of an SSE reply body: text, or text as UTF-8 bytes (what a large message's escaped
 * text is made into, issue #44). A face writes bytes as they are and encodes strings.
 */
export type SseChunk = string | Uint8Array;

/** HttpReply is what the core answers an {@link HttpExchange} with. */
export interface HttpReply {
  /** The status code. */
  readonly status: number;
  /** The response headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** See {@link HttpReplyBody}. */
  readonly body: HttpReplyBody;
}

/** BodyError is a failure to read a request body, with the status code to answer it. */
export class BodyError extends Error {
  /** 413 (too large), 408 (too slow) or 400 (aborted, malformed). */
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'BodyError';
    this.status = status;
  }
}

/** True when a reply body is an SSE stream (an async iterable), not JSON. */
export function isStreamBody(body: unknown): body is AsyncIterable<SseChunk> {
  return typeof body === 'object' && body !== null && Symbol.asyncIterator in body;
}

/**
 * A header's value as a single string (repeated headers are joined with ", "). Read with the
 * name written where it is read, `joined(headers['name'])`: one shared read of many names goes
 * megamorphic in V8 (bench/RESULTS.md, "Sixth round").
 */
export function joined(value: string | readonly string[] | undefined): string | undefined {
  if (value === undefined || typeof value === 'string') return value;
  return value.join(', ');
}

/** The path of a request target, without its query. */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** Headers of a JSON reply (shared, never mutated). */
export const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json',
});

/** Headers of an empty reply (shared, never mutated). */
export const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** Headers that open an SSE reply: no caching, no proxy buffering (spec 2026-07-28 transports). */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
});

/** A JSON reply. */
export function jsonReply(
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = JSON_HEADERS,
): HttpReply {
  return { status, headers, body };
}

/** An empty reply. */
export function emptyReply(
  status: number,
  headers: Readonly<Record<string, string>> = NO_HEADERS,
): HttpReply {
  return { status, headers, body: null };
}

/**
 * A reply whose body is a JSON-RPC error response: `id` null unless the request's id is known.
 * `extra` headers are merged in (for example `allow` on a 405).
 */
export function errorReply(
  status: number,
  error: { code: number; message: string; id?: RequestId | null },
  extra?: Readonly<Record<string, string>>,
): HttpReply {
  const response: ErrorResponse = errorResponse(error.code, error.message);
  if (error.id !== undefined) response.id = error.id;
  const headers = extra === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...extra };
  return { status, headers, body: response };
}

/** The reply to a request that is not JSON-RPC at all (framing, headers): -32600 with `status`. */
export function refusedReply(
  status: number,
  message: string,
  extra?: Readonly<Record<string, string>>,
): HttpReply {
  return errorReply(status, { code: ErrorCode.InvalidRequest, message }, extra);
}
