// POSTs without a session: 2026-07-28 requests (spec 2026-07-28 transports/streamable-http: no
// sessions) and legacy stateless mode. Each request is handed to the factory's server with
// Connectable.serveRequest, the pipeline every request takes, with no transport or connection
// made for it; what it sends before its response (progress, log messages) goes on its POST's
// reply, which turns into an SSE stream when the client accepts one. The client going away, or
// the handler closing, cancels it: its `ctx.signal` aborts.
import type { MaybePromise } from '../../../internal/maybe.js';
import { isPromise } from '../../../internal/maybe.js';
import type { LiveEntry } from '../../../internal/live-set.js';
import { MAX_BATCH_ANSWER_BYTES, serveBatchElements } from '../../../jsonrpc/batch.js';
import type { BatchItem } from '../../../jsonrpc/codec.js';
import { ErrorCode, LocalError, LocalErrorCode } from '../../../jsonrpc/errors.js';
import type {
  ErrorResponse,
  Message,
  Notification,
  Params,
  Request,
  Response,
} from '../../../jsonrpc/message.js';
import { isRequest } from '../../../jsonrpc/message.js';
import type { Peer } from '../../../jsonrpc/serve.js';
import { ServedRequest } from '../../../jsonrpc/serve.js';
import type { Connectable, ConnectOptions } from '../../../protocol/connectable.js';
import { McpErrorCode, modernHttpStatus } from '../../../protocol/errors.js';
import type { HttpContext, Payload } from './context.js';
import { ACCEPTED, headersInfo, invalidOf } from './context.js';
import type { HttpExchange, HttpReply } from './exchange.js';
import { errorReply, jsonReply } from './exchange.js';
import type { Acceptable } from './media-type.js';
import { PostReply, REQUEST_CLOSED, closedBeforeAnswer, firstJsonReply } from './reply.js';
import { headerMismatch } from './standard-headers.js';
import { plainStream } from './streams.js';

/** What a request the handler's close cut while it was answered on its POST's stream is told. */
const SERVER_CLOSED = 'server closed before the request was answered';

/** The HTTP status of a 2026-07-28 response answered as JSON (see modernHttpStatus). */
function modernStatus(response: Response): number {
  return 'error' in response ? modernHttpStatus(response.error) : 200;
}

/**
 * Serves a 2026-07-28 POST: checks that its standard headers agree with its body (the
 * transport's part: the server checks the body), then serves it without a session.
 */
export function serveModern(
  ctx: HttpContext,
  exchange: HttpExchange,
  post: { accept: Acceptable; message: Message; version: unknown; id: string | number | null },
): MaybePromise<HttpReply> {
  const { message, version } = post;
  // A version that is not a string is the server's -32602 to give.
  if (typeof version === 'string' && 'method' in message) {
    const required = 'id' in message;
    const mismatch = headerMismatch(exchange.headers, message, { revision: version, required });
    if (mismatch !== undefined) {
      const error = { code: McpErrorCode.HeaderMismatch, message: mismatch, id: post.id };
      return errorReply(400, error);
    }
  }
  const payload: Payload = { kind: 'message', message };
  return serveSessionless(ctx, exchange, {
    payload,
    accept: post.accept,
    options: undefined,
    status: modernStatus,
  });
}

/** How the requests of a POST without a session are served and answered. */
export interface SessionlessPost {
  /** What the POST holds. */
  readonly payload: Payload;
  readonly accept: Acceptable;
  /** What the server is told (the revision of legacy stateless mode). */
  readonly options: ConnectOptions | undefined;
  /** The HTTP status of a final response answered as JSON; 200 when undefined. */
  readonly status: ((response: Response) => number) | undefined;
}

/**
 * Serves a POST without a session: each request on its own, synchronously when the server
 * answers at once. Notifications and responses have nothing to reach (no session keeps any
 * state for them, and no request of this server waits for an answer): 202.
 */
export function serveSessionless(
  ctx: HttpContext,
  exchange: HttpExchange,
  how: SessionlessPost,
): MaybePromise<HttpReply> {
  const { payload } = how;
  if (payload.kind === 'batch') return serveBatch(ctx, exchange, { payload, how });
  const { message } = payload;
  if (!isRequest(message)) return ACCEPTED;
  const server = ctx.server(exchange);
  if (isPromise(server)) {
    return server.then((ready) => new PostRequests(ctx, exchange, how).serve(ready, message));
  }
  return new PostRequests(ctx, exchange, how).serve(server, message);
}

/** Serves a batch (legacy stateless 2025-03-26): its requests, answered together. */
async function serveBatch(
  ctx: HttpContext,
  exchange: HttpExchange,
  batch: { payload: Payload & { kind: 'batch' }; how: SessionlessPost },
): Promise<HttpReply> {
  const { payload, how } = batch;
  const requests = payload.items.map(requestOf).filter((r): r is Request => r !== undefined);
  if (requests.length === 0) {
    const invalid = invalidOf(payload);
    return invalid.length > 0 ? jsonReply(200, invalid) : ACCEPTED;
  }
  const server = await ctx.server(exchange);
  return new PostRequests(ctx, exchange, how).serveBatch(server, {
    requests,
    invalid: payload.invalid,
  });
}

function requestOf(item: BatchItem): Request | undefined {
  return 'message' in item && isRequest(item.message) ? item.message : undefined;
}

/**
 * PostRequests is the peer of the requests of one POST served without a session: what they send
 * goes on the POST's reply, which is made only when needed (a request answered at once with
 * nothing sent before its response, most tool calls, gets its JSON reply directly). A request
 * still pending is watched for the client leaving and closes with the handler.
 */
class PostRequests implements Peer {
  readonly #ctx: HttpContext;
  readonly #exchange: HttpExchange;
  readonly #how: SessionlessPost;
  #reply: PostReply | undefined;
  /** What is being served: one request, or all of a batch's (none answered before the reply is). */
  #served: ServedRequest | readonly ServedRequest[] | undefined;
  #unwatch: (() => void) | undefined;
  /** Its entry in the handler's open requests, while it is pending. */
  #open: LiveEntry<{ close(): Promise<void> }> | undefined;
  #done = false;

  constructor(ctx: HttpContext, exchange: HttpExchange, how: SessionlessPost) {
    this.#ctx = ctx;
    this.#exchange = exchange;
    this.#how = how;
  }

  notify(method: string, params?: Params): Promise<void> {
    if (this.#done) {
      return Promise.reject(new LocalError(LocalErrorCode.ConnectionClosed, 'request closed'));
    }
    const message: Notification =
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    // Not pushed when the client accepts only JSON: the response alone answers the POST.
    this.#postReply().push(message);
    return Promise.resolve();
  }

  request(method: string): Promise<unknown> {
    // Its answer would come on another POST, which nothing routes back here (no session).
    const why = `cannot send ${method} to the client: the request has no session to get the answer on`;
    return Promise.reject(new LocalError(LocalErrorCode.NotConnected, why));
  }

  /**
   * Closes with the handler: what is served is cancelled. A POST still waiting is answered 503;
   * one answering on its stream is sent an error response for each request it carries (none will
   * be answered), then ends, so that its client does not wait for an answer that cannot come.
   */
  close(): Promise<void> {
    this.#cancel(new LocalError(LocalErrorCode.ConnectionClosed, 'request closed'));
    const served = this.#served;
    const errorOf = (each: ServedRequest): ErrorResponse =>
      closedBeforeAnswer(each.id, SERVER_CLOSED);
    if (served === undefined) this.#postReply().abandon(REQUEST_CLOSED);
    else if (served instanceof ServedRequest) {
      this.#postReply().abandon(REQUEST_CLOSED, errorOf(served));
    }
    // A batch's responses go together, so all of them are unanswered.
    else this.#postReply().abandon(REQUEST_CLOSED, served.map(errorOf));
    return Promise.resolve();
  }

  /**
   * Serves one request: a response at hand is answered at once, with nothing to watch; a pending
   * one is watched for the client leaving and the handler closing.
   */
  serve(server: Connectable, request: Request): MaybePromise<HttpReply> {
    const served = new ServedRequest(this, request.id, headersInfo(this.#exchange));
    this.#served = served;
    const response = server.serveRequest(request, served, this.#how.options);
    if (!isPromise(response)) {
      const reply = this.#reply;
      if (reply === undefined) {
        this.#finish();
        return this.#jsonReply(response);
      }
      reply.final(response);
      return reply.reply;
    }
    const reply = this.#pending();
    response.then(
      (answered) => {
        reply.final(answered);
      },
      (error: unknown) => {
        this.#broken(reply, error);
      },
    );
    return reply.reply;
  }

  /**
   * Serves a batch's requests and answers their responses together, after the invalid ones'. An
   * element not started yet when the POST closes is cancelled with the others, and not started.
   */
  serveBatch(
    server: Connectable,
    batch: { requests: readonly Request[]; invalid: readonly ErrorResponse[] | undefined },
  ): MaybePromise<HttpReply> {
    const info = headersInfo(this.#exchange);
    const served = batch.requests.map((request) => new ServedRequest(this, request.id, info));
    this.#served = served;
    const reply = this.#pending(batch.invalid);
    const options = this.#how.options;
    const serve = (request: Request, index: number): MaybePromise<Response | undefined> => {
      const context = served[index] as ServedRequest;
      return context.cancelled ? undefined : server.serveRequest(request, context, options);
    };
    serveBatchElements(batch.requests, serve, MAX_BATCH_ANSWER_BYTES).then(
      (responses) => {
        reply.final(responses);
      },
      (error: unknown) => {
        this.#broken(reply, error);
      },
    );
    return reply.reply;
  }

  /** The reply of requests that wait: watched for the client leaving, closed with the handler. */
  #pending(invalid?: readonly ErrorResponse[]): PostReply {
    const reply = this.#postReply(invalid);
    this.#open = this.#ctx.open.add(this);
    this.#unwatch = this.#exchange.onClose(() => {
      this.#cancel(new Error('client disconnected'));
      reply.abandon(REQUEST_CLOSED);
    });
    return reply;
  }

  /** A server that broke serveRequest's contract (it rejected): the POST is answered all the same. */
  #broken(reply: PostReply, error: unknown): void {
    this.#ctx.options.onError(error, 'serveRequest');
    reply.abandon(errorReply(500, { code: ErrorCode.InternalError, message: 'internal error' }));
  }

  /** The reply to a response that came first and at once, as PostReply would answer it. */
  #jsonReply(response: Response): HttpReply {
    const json = firstJsonReply(response, {
      accept: this.#how.accept,
      mode: this.#ctx.options.responseMode,
      status: this.#how.status,
      challenge: this.#ctx.options.auth?.challenge,
    });
    if (json !== undefined) return json;
    // An SSE-only client (or SSE preferred): the response goes on a stream of its own.
    const reply = this.#postReply();
    reply.final(response);
    return reply.reply as HttpReply;
  }

  #postReply(invalid?: readonly ErrorResponse[]): PostReply {
    return (this.#reply ??= new PostReply({
      accept: this.#how.accept,
      mode: this.#ctx.options.responseMode,
      exchange: this.#exchange,
      open: plainStream(this.#ctx.options.keepAliveMs),
      status: this.#how.status,
      challenge: this.#ctx.options.auth?.challenge,
      invalid,
      done: () => {
        this.#finish();
      },
    }));
  }

  #cancel(reason: unknown): void {
    const served = this.#served;
    if (served instanceof ServedRequest) served.cancel(reason);
    else for (const each of served ?? []) each.cancel(reason);
  }

  #finish(): void {
    this.#done = true;
    if (this.#unwatch === undefined) return; // answered at once: nothing was registered
    if (this.#open !== undefined) this.#ctx.open.delete(this.#open);
    this.#unwatch();
  }
}
