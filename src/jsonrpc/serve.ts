// Serving one incoming request: the one pipeline every request takes, whoever received it (a
// Connection, or a transport that serves a request on its own, like a Streamable HTTP POST
// without a session). It runs the handler, classifies a failure where it arises and makes the
// response, without a promise when the handler answered at once.
import { LazySignal } from '../internal/abort.js';
import type { MaybePromise } from '../internal/maybe.js';
import { isPromise } from '../internal/maybe.js';
import { ErrorCode, JsonRpcError, toJsonRpcError } from './errors.js';
import type { Params, Request, RequestId, Response, SuccessResponse } from './message.js';
import type { MessageInfo, SendOptions } from './transport.js';

/** Options for one outgoing request. */
export interface CallOptions {
  /** Aborts the call: it rejects with `signal.reason` and its response is ignored. */
  signal?: AbortSignal;
  /** Aborts the call as `signal` does, from a {@link Cancellation} (no AbortSignal made). */
  cancellation?: Cancellation;
  /** Overrides the connection's default timeout; `touch(id)` restarts it. */
  timeoutMs?: number;
  /** The id to use; must not be in flight. Default: the next number. */
  id?: RequestId;
  /** Routing hint for the transport (see SendOptions). */
  relatedRequestId?: RequestId;
  /** Extra transport headers for this request (see SendOptions). */
  headers?: Readonly<Record<string, string>>;
}

/**
 * What cancels a call without an AbortSignal (each costs microseconds to make on Node 20, and
 * gives V8 new hidden classes): `follow` calls `listener` once, with the reason, when it aborts
 * (at once when it has), and returns what removes the listener. A server handler's
 * `ctx.cancellation` is one: a gateway forwards its requests' cancellation through it.
 */
export interface Cancellation {
  follow(listener: (reason: unknown) => void): () => void;
}

/** What a request handler knows about the request it serves. */
export interface RequestContext {
  /** The request's id. */
  readonly id: RequestId;
  /** Aborted when the request is cancelled or the connection closes. */
  readonly signal: AbortSignal;
  /** What the transport knows about the request (headers, auth). */
  readonly info: MessageInfo | undefined;
  /** Sends a notification related to this request. */
  notify(method: string, params?: Params): Promise<void>;
  /** Sends a request related to this request and awaits its result. */
  request(method: string, params?: Params, options?: CallOptions): Promise<unknown>;
}

/**
 * Serves one incoming request. The returned value (or what a returned promise resolves with) is
 * sent as `result`; a thrown or rejected JsonRpcError is sent as `error` unchanged; any other
 * failure is sent as -32603 and reported to `onError`.
 */
export type RequestHandler = (request: Request, ctx: RequestContext) => unknown;

/** What serves requests: the handler side of {@link serveRequest}. Every field is optional. */
export interface RequestHandlers {
  /** Serves incoming requests. Default: every request gets -32601. */
  onRequest?: RequestHandler;
  /**
   * Makes the success response of a served request from its result (`null` for none). Default:
   * a plain object. What a server uses to give its responses their own encoding (JSON_TEXT).
   */
  respond?: (request: Request, result: unknown) => SuccessResponse;
  /** Reports problems that have no caller to reject: handler crashes, unknown response ids. */
  onError?: (error: Error) => void;
}

/**
 * Serves `request` with `handlers`: the response to send, at once when the handler answered
 * synchronously, else a promise that never rejects. Never throws. A failure is classified here,
 * where it arises: a JsonRpcError goes out as is, anything else as -32603 `internal error`, the
 * original to `onError` and never to the wire. Handlers are called as methods (`this` is
 * `handlers`).
 */
export function serveRequest(
  handlers: RequestHandlers,
  request: Request,
  ctx: RequestContext,
): MaybePromise<Response> {
  if (handlers.onRequest === undefined) {
    return errorFor(request.id, ErrorCode.MethodNotFound, `method not found: ${request.method}`);
  }
  let result: unknown;
  try {
    result = handlers.onRequest(request, ctx);
  } catch (error) {
    return failed(handlers, request, error);
  }
  if (!isPromise(result)) return succeeded(handlers, request, result);
  return result.then(
    (value) => succeeded(handlers, request, value),
    (error: unknown) => failed(handlers, request, error),
  );
}

function succeeded(handlers: RequestHandlers, request: Request, result: unknown): Response {
  const value = result ?? null;
  if (handlers.respond === undefined) return { jsonrpc: '2.0', id: request.id, result: value };
  try {
    return handlers.respond(request, value);
  } catch (error) {
    return failed(handlers, request, error);
  }
}

function failed(handlers: RequestHandlers, request: Request, error: unknown): Response {
  if (!(error instanceof JsonRpcError)) {
    handlers.onError?.(error instanceof Error ? error : new Error(String(error)));
  }
  return { jsonrpc: '2.0', id: request.id, error: toJsonRpcError(error).toWire() };
}

function errorFor(id: RequestId, code: number, message: string): Response {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/**
 * Where a request being served sends what relates to it: the peer it came from. A Connection
 * is one; a transport that serves requests on their own gives its own.
 */
export interface Peer {
  /** Sends a notification; `options.relatedRequestId` names the request it relates to. */
  notify(method: string, params?: Params, options?: SendOptions): Promise<void>;
  /** Sends a request and resolves with its result; `options.relatedRequestId` as for notify. */
  request(method: string, params?: Params, options?: CallOptions): Promise<unknown>;
}

function noSources(): readonly AbortSignal[] {
  return [];
}

/**
 * ServedRequest is the RequestContext of one request being served, for any {@link Peer}. Its
 * signal is made on first read (an AbortSignal is costly on Node 20 and most handlers never read
 * it) and aborts on {@link ServedRequest.cancel}; a cancelled request's response is not to be
 * sent. It follows no other signal, so there is nothing to release when it is done. A class, not an object literal: a literal with a getter is made by a slow runtime path
 * (bench/RESULTS.md).
 */
export class ServedRequest extends LazySignal implements RequestContext {
  readonly id: RequestId;
  readonly info: MessageInfo | undefined;
  /** True once cancelled: its response, if any, is dropped. */
  cancelled = false;
  readonly #peer: Peer;

  constructor(peer: Peer, id: RequestId, info: MessageInfo | undefined) {
    super(noSources);
    this.#peer = peer;
    this.id = id;
    this.info = info;
  }

  /** Cancels the request: its signal aborts with `reason` and its response is dropped. */
  cancel(reason: unknown): void {
    this.cancelled = true;
    this.abort(reason);
  }

  notify(method: string, params?: Params): Promise<void> {
    return this.#peer.notify(method, params, { relatedRequestId: this.id });
  }

  request(method: string, params?: Params, options?: CallOptions): Promise<unknown> {
    return this.#peer.request(method, params, { relatedRequestId: this.id, ...options });
  }
}
