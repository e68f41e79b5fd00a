// The resource server's two middleware (`auth` option): the protected resource metadata
// document, and the bearer gate that admits a request only with a verified access token, then
// checks a 2026-07-28 call's scopes from its standard headers before its body is read.
import type { MaybePromise } from '../../../internal/maybe.js';
import { isPromise } from '../../../internal/maybe.js';
import type { Connectable } from '../../../protocol/connectable.js';
import type { ResolvedAuth } from './auth.js';
import { authenticate, earlyScopeRefusal, metadataReply, scopedTarget } from './auth.js';
import type { Answer, HttpExchange, HttpReply } from './exchange.js';
import { joined, pathOf, refusedReply } from './exchange.js';
import type { HttpHandle, HttpMiddleware } from './middleware.js';

/**
 * Serves the protected resource metadata at its paths: public, so only the Host is checked and
 * any origin may read it. Other paths go on.
 */
export function metadataDocument(
  auth: ResolvedAuth,
  guard: (host: string | undefined, origin: undefined) => string | undefined,
): HttpMiddleware {
  return (exchange, answer, next) => {
    if (!auth.metadataPaths.has(pathOf(exchange.url))) {
      next(exchange, answer);
      return;
    }
    const refused = guard(joined(exchange.headers['host']), undefined);
    answer(
      refused === undefined
        ? metadataReply(auth, exchange.method)
        : refusedReply(403, `forbidden: ${refused}`),
    );
  };
}

/**
 * The servers the gate took from the factory for its early scope check, handed on to the
 * endpoint so that a request uses the server its scopes were checked with (one factory call).
 */
export class EarlyServers {
  readonly #factory: (exchange: HttpExchange) => MaybePromise<Connectable>;
  readonly #given = new WeakMap<HttpExchange, MaybePromise<Connectable>>();

  constructor(factory: (exchange: HttpExchange) => MaybePromise<Connectable>) {
    this.#factory = factory;
  }

  /** The factory's server for `exchange`, kept for {@link serverOf}; throws when the factory does. */
  take(exchange: HttpExchange): MaybePromise<Connectable> {
    const server = this.#factory(exchange);
    this.#given.set(exchange, server);
    return server;
  }

  /** The server taken for `exchange`, once, else the factory's. */
  readonly serverOf = (exchange: HttpExchange): MaybePromise<Connectable> => {
    const given = this.#given.get(exchange);
    if (given === undefined) return this.#factory(exchange);
    this.#given.delete(exchange);
    return given;
  };
}

/** What the bearer gate needs of its handler. */
export interface GateHooks {
  readonly report: (error: unknown, where: string) => void;
  /** The 500 of an exchange whose serving failed. */
  readonly failed: (error: unknown, exchange: HttpExchange) => HttpReply;
  readonly early: EarlyServers;
}

/**
 * The bearer gate: a request without a valid token is refused (401/403 with the challenge), an
 * admitted one carries its principal in `exchange.auth`; a 2026-07-28 call whose headers name a
 * tool, resource or prompt the principal lacks the scopes for gets the 403 step-up at once.
 */
export function bearerGate(auth: ResolvedAuth, hooks: GateHooks): HttpMiddleware {
  return (exchange, answer, next) => {
    const admitted = authenticate(auth, exchange, hooks.report);
    if (!isPromise(admitted)) {
      if (admitted === undefined) checkScopes({ auth, hooks, next }, exchange, answer);
      else answer(admitted);
      return;
    }
    admitted.then(
      (refused) => {
        if (refused === undefined) checkScopes({ auth, hooks, next }, exchange, answer);
        else answer(refused);
      },
      (error: unknown) => {
        answer(hooks.failed(error, exchange));
      },
    );
  };
}

/** Goes on with an admitted exchange, after the early scope check of a 2026-07-28 call. */
function checkScopes(
  gate: { auth: ResolvedAuth; hooks: GateHooks; next: HttpHandle },
  exchange: HttpExchange,
  answer: Answer,
): void {
  const { auth, hooks, next } = gate;
  const target = scopedTarget(exchange);
  if (target === undefined) {
    next(exchange, answer);
    return;
  }
  let server: MaybePromise<Connectable>;
  try {
    server = hooks.early.take(exchange);
  } catch (error) {
    answer(hooks.failed(error, exchange));
    return;
  }
  const check = (given: Connectable): void => {
    const refused = earlyScopeRefusal(auth, exchange, { target, server: given });
    if (refused === undefined) next(exchange, answer);
    else answer(refused);
  };
  if (!isPromise(server)) {
    check(server);
    return;
  }
  server.then(check, (error: unknown) => {
    answer(hooks.failed(error, exchange));
  });
}
