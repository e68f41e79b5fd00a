// HTTP middleware: what runs in front of the Streamable HTTP endpoint. The endpoint is one
// HttpHandle; the Host/Origin guard, CORS, the health endpoint, the protected resource metadata,
// the bearer gate and a user's own middleware are HttpMiddleware composed in front of it.
import type { Answer, HttpExchange } from './exchange.js';

/**
 * Handles an exchange: answers it through `answer`, exactly once (at once or later). It must not
 * throw after answering.
 */
export type HttpHandle = (exchange: HttpExchange, answer: Answer) => void;

/**
 * HttpMiddleware runs in front of a handle. It either answers the exchange itself (a refusal, a
 * probe, a document) or calls `next` once, with the same `answer` or one that changes the reply
 * on its way out (a header added). It may set `exchange.auth` for the handles after it (a
 * custom authentication); it must not read the body (the endpoint reads it, once). A synchronous
 * throw before anything answered is answered 500 and reported to `onError`.
 */
export type HttpMiddleware = (exchange: HttpExchange, answer: Answer, next: HttpHandle) => void;

/**
 * Composes middleware into one, run in the order given: the first sees the exchange first and
 * the reply last. `compose()` is a pass-through.
 */
export function compose(...middleware: readonly HttpMiddleware[]): HttpMiddleware {
  for (const step of middleware) {
    if (typeof step !== 'function') throw new TypeError('middleware must be functions');
  }
  if (middleware.length === 1) return middleware[0] as HttpMiddleware;
  // The chain in front of a `next` is built once for it (a composed middleware's `next` is the
  // same function on every exchange).
  let last: HttpHandle | undefined;
  let built: HttpHandle | undefined;
  return (exchange, answer, next) => {
    if (next !== last || built === undefined) {
      last = next;
      built = chain(middleware, next);
    }
    built(exchange, answer);
  };
}

/**
 * The handle that runs `middleware` in order in front of `handle`. Built once (no work per
 * exchange beyond the calls themselves).
 */
export function chain(middleware: readonly HttpMiddleware[], handle: HttpHandle): HttpHandle {
  let next = handle;
  for (let i = middleware.length - 1; i >= 0; i--) {
    const step = middleware[i] as HttpMiddleware;
    const after = next;
    next = (exchange, answer) => {
      step(exchange, answer, after);
    };
  }
  return next;
}
