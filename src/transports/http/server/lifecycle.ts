// Close and drain: what a handler's `close` ends, and the middleware that counts the exchanges
// in flight (for a graceful close) and answers 503 once closing.
import { ErrorCode } from '../../../jsonrpc/errors.js';
import type { HttpContext } from './context.js';
import type { Answer, HttpExchange, HttpReply } from './exchange.js';
import { errorReply, pathOf } from './exchange.js';
import type { HttpMiddleware } from './middleware.js';
import type { CloseOptions } from './options.js';
import { SseWriter } from './sse-writer.js';
import { OpenStreams } from './streams.js';

/**
 * How long a close waits for the event store to take the last events (the errors of requests it
 * cut) before it ends their streams anyway: a store that stalls never holds a close.
 */
const LAST_WRITES_MS = 2_000;

const CLOSED: HttpReply = errorReply(
  503,
  { code: ErrorCode.InternalError, message: 'server closed' },
  { 'retry-after': '1' },
);

/** A handler's open/closing state. Made before its context, which asks it whether it closed. */
export class Lifecycle {
  /** Exchanges routed and not answered yet. */
  #pending = 0;
  #closed = false;
  #closing: Promise<void> | undefined;
  /** The SSE replies given, ended on close. */
  readonly #streams = new OpenStreams();

  /** True once `close` was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * The middleware in front of the endpoint: 503 once closing; otherwise it sweeps idle sessions
   * and counts the exchange as in flight until answered, remembering an SSE reply (but the
   * HTTP+SSE stream, which its session ends when it closes). Once closing with a session store,
   * a 404 of a session this process ended is a 503: the session lives on in the store, and the
   * client should retry elsewhere.
   */
  middleware(ctx: HttpContext): HttpMiddleware {
    const stored = ctx.options.sessionStore !== undefined;
    const legacySsePath = ctx.options.legacySse?.ssePath;
    return (exchange, answer, next) => {
      if (this.#closed) {
        answer(CLOSED);
        return;
      }
      ctx.sessions.sweep();
      const { method } = exchange;
      this.#pending++;
      const tracked: Answer = (reply) => {
        this.#pending--;
        const { body } = reply;
        if (body instanceof SseWriter && !opensLegacySse(exchange, legacySsePath)) {
          this.#streams.add(body, method === 'GET');
        }
        const handedOver = this.#closed && reply.status === 404 && stored;
        answer(handedOver && method !== 'DELETE' ? CLOSED : reply);
      };
      next(exchange, tracked);
    };
  }

  /**
   * Closes: new exchanges get 503, GET streams end at once with a `retry` hint, requests in
   * flight get `graceMs` to finish, then `stop` ends the rest: the sessions and the requests
   * without one close (a request still answering on its POST's stream, or on an HTTP+SSE
   * session's stream, is sent an error response there, stored first in a legacy session's event
   * store, for up to 2 s), and the streams left end with a `retry` hint. Idempotent.
   */
  close(ctx: HttpContext, options: CloseOptions, stop: () => void): Promise<void> {
    const graceMs = options.graceMs ?? 0;
    if (!(graceMs >= 0)) return Promise.reject(new TypeError('graceMs must be at least 0'));
    const { retryMs } = ctx.options;
    this.#closing ??= (async () => {
      this.#closed = true;
      // GET streams carry no request: their clients reconnect at once (elsewhere).
      this.#streams.end(retryMs, false);
      if (graceMs > 0) await this.#drain(ctx, graceMs);
      const open = ctx.open.clear();
      stop();
      // Sessions first, awaited: their requests' errors go out on the POST streams (once the
      // event store took them, which may answer asynchronously) before these end.
      await withinLastWrites(Promise.all([ctx.sessions.closeAll(), ...open.map((t) => t.close())]));
      this.#streams.end(retryMs, true);
    })();
    return this.#closing;
  }

  /** Lets requests in flight (unanswered, or answering on an SSE stream) finish, for up to `graceMs`. */
  async #drain(ctx: HttpContext, graceMs: number): Promise<void> {
    const deadline = Date.now() + graceMs;
    while (this.#pending > 0 || ctx.open.size > 0 || this.#streams.posting) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(left, 20)));
    }
  }
}

/** True when `exchange` opens an HTTP+SSE stream (`ssePath` is undefined when it is off). */
function opensLegacySse(exchange: HttpExchange, ssePath: string | undefined): boolean {
  return ssePath !== undefined && exchange.method === 'GET' && pathOf(exchange.url) === ssePath;
}

/**
 * `closed`, or nothing after {@link LAST_WRITES_MS}: what settles later is left to settle (a
 * failure then has no one to tell).
 */
function withinLastWrites(closed: Promise<unknown>): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, LAST_WRITES_MS);
    timer.unref();
  });
  closed.catch(() => undefined);
  return Promise.race([closed, late]).finally(() => {
    clearTimeout(timer);
  });
}
