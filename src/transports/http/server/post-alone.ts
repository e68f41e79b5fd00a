// A request served alone: the single request of a 2026-07-28 or stateless POST, handed to the
// server's `serveRequest` (Connectable) with no transport, session or connection made for it. What
// it sends before its response (progress, log messages) goes on the POST's reply, which turns into
// an SSE stream when the client accepts one, exactly as on a per-POST connection.
import type { RequestContext } from '../../../jsonrpc/connection.js';
import { LocalError, LocalErrorCode } from '../../../jsonrpc/errors.js';
import type { Notification, Params, Request, Response } from '../../../jsonrpc/message.js';
import type { MessageInfo } from '../../../jsonrpc/transport.js';
import { LazySignal } from '../../../internal/abort.js';
import { isPromise } from '../../../internal/maybe.js';
import type { Connectable, ConnectOptions } from '../../../protocol/connectable.js';
import type { HttpContext } from './context.js';
import { headersInfo } from './context.js';
import type { HttpExchange, HttpReply } from './exchange.js';
import { JSON_HEADERS, errorReply, watchClose } from './exchange.js';
import type { Acceptable } from './media-type.js';
import { PostReply, REQUEST_CLOSED, answersJson } from './post-reply.js';
import type { OpenStream } from './streams.js';
import { PlainStream } from './streams.js';
import { SseWriter } from './sse-writer.js';

/** How the request is to be answered. */
export interface AloneRequest {
  /** The factory's server for the exchange. */
  readonly server: Connectable;
  readonly accept: Acceptable;
  readonly request: Request;
  readonly options: ConnectOptions | undefined;
  readonly status: ((response: Response) => number) | undefined;
}

/**
 * Serves `how.request` with `how.server.serveRequest`: the HTTP reply, at once when the server
 * answered synchronously, else a promise of it. Undefined, having started nothing, when the
 * server has no `serveRequest` or declines the method: connect instead.
 */
export function serveAlone(
  ctx: HttpContext,
  exchange: HttpExchange,
  how: AloneRequest,
): HttpReply | Promise<HttpReply> | undefined {
  const { server } = how;
  if (server.serveRequest === undefined) return undefined;
  const alone = new Alone(ctx, exchange, how);
  const served = server.serveRequest(how.request, alone, how.options);
  if (served === undefined) return undefined;
  return alone.start(served);
}

/**
 * The RequestContext of a request served alone, and what closes it with the handler. Its signal
 * follows the exchange (the client going away cancels the request) and the handler's shutdown.
 * The PostReply is made only when needed: a request answered at once with nothing sent before
 * its response (most tool calls) gets its JSON reply directly.
 */
class Alone implements RequestContext {
  readonly id: Request['id'];
  readonly info: MessageInfo;
  readonly #ctx: HttpContext;
  readonly #exchange: HttpExchange;
  readonly #how: AloneRequest;
  #reply: PostReply | undefined;
  #unwatch: (() => void) | undefined;
  #stop: LazySignal | undefined;
  #done = false;

  constructor(ctx: HttpContext, exchange: HttpExchange, how: AloneRequest) {
    this.id = how.request.id;
    this.info = headersInfo(exchange);
    this.#ctx = ctx;
    this.#exchange = exchange;
    this.#how = how;
  }

  /** Made on first read: an AbortSignal is costly on Node 20 and most handlers never read it. */
  get signal(): AbortSignal {
    return this.#linked().signal;
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

  /** Closes the request with the handler: it is cancelled and its POST answered 503. */
  close(): Promise<void> {
    this.#linked().abort(new LocalError(LocalErrorCode.ConnectionClosed, 'request closed'));
    this.#postReply().abandon(REQUEST_CLOSED);
    return Promise.resolve();
  }

  /**
   * Answers with what the server served: a response at hand is final at once, with nothing to
   * watch; a pending one is watched for the client leaving and the handler closing.
   */
  start(served: Response | Promise<Response>): HttpReply | Promise<HttpReply> {
    if (!isPromise(served)) {
      const reply = this.#reply;
      if (reply === undefined) {
        this.#finish();
        return this.#jsonReply(served);
      }
      reply.final(served);
      return reply.reply;
    }
    const reply = this.#postReply();
    this.#ctx.open.add(this);
    this.#unwatch = watchClose(this.#exchange, () => {
      reply.abandon(REQUEST_CLOSED);
    });
    served.then(
      (response) => {
        reply.final(response);
      },
      (error: unknown) => {
        // serveRequest never rejects; a server that does gets its POST answered all the same.
        this.#ctx.options.onError(error, 'serveRequest');
        reply.abandon(errorReply(500, { code: -32603, message: 'internal error' }));
      },
    );
    return reply.reply;
  }

  /** The reply to a response that came first and at once, as PostReply would answer it. */
  #jsonReply(response: Response): HttpReply {
    const { accept, status: statusOf } = this.#how;
    const status = statusOf?.(response) ?? 200;
    if (answersJson(accept, this.#ctx.options.responseMode, status)) {
      return { status, headers: JSON_HEADERS, body: response };
    }
    // An SSE-only client (or SSE preferred): the response goes on a stream of its own.
    const reply = this.#postReply();
    reply.final(response);
    return reply.reply as HttpReply;
  }

  #postReply(): PostReply {
    return (this.#reply ??= new PostReply({
      accept: this.#how.accept,
      mode: this.#ctx.options.responseMode,
      exchange: this.#exchange,
      open: plainStream(this.#ctx.options.keepAliveMs),
      status: this.#how.status,
      done: () => {
        this.#finish();
      },
    }));
  }

  /** The request's signal: the exchange's, and aborted on close; linked on first use. */
  #linked(): LazySignal {
    return (this.#stop ??= new LazySignal(() => [this.#exchange.signal]));
  }

  #finish(): void {
    this.#done = true;
    this.#stop?.release();
    if (this.#unwatch === undefined) return; // answered at once: nothing was registered
    this.#ctx.open.delete(this);
    this.#unwatch();
  }
}

/** Opens a plain (not resumable) SSE stream for a reply; one function per keep-alive length. */
export function plainStream(keepAliveMs: number): OpenStream {
  let open = openers.get(keepAliveMs);
  if (open === undefined) {
    open = (signal) => {
      const writer = new SseWriter(signal, keepAliveMs);
      return { sink: new PlainStream(writer), body: writer };
    };
    openers.set(keepAliveMs, open);
  }
  return open;
}

const openers = new Map<number, OpenStream>();
