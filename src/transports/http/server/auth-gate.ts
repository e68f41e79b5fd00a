// The resource server's two middleware (`auth` option): the protected resource metadata
// document, and the bearer gate that admits a request only with a verified access token. Scopes
// of a tool, resource or prompt are not decided here: the server refuses the call
// (INSUFFICIENT_SCOPE) and the reply turns that into the 403 step-up (auth.ts `challenge`).
import { isPromise } from '../../../internal/maybe.js';
import type { ResolvedAuth } from './auth.js';
import { authenticate, metadataReply } from './auth.js';
import type { HttpExchange, HttpReply } from './exchange.js';
import { joined, pathOf, refusedReply } from './exchange.js';
import type { HttpMiddleware } from './middleware.js';

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

/** What the bearer gate needs of its handler. */
export interface GateHooks {
  readonly report: (error: unknown, where: string) => void;
  /** The 500 of an exchange whose serving failed. */
  readonly failed: (error: unknown, exchange: HttpExchange) => HttpReply;
}

/**
 * The bearer gate: a request without a valid token, or whose token lacks the endpoint's
 * `requiredScopes`, is refused (401/403 with the challenge); an admitted one carries its
 * principal in `exchange.auth` and goes on.
 */
export function bearerGate(auth: ResolvedAuth, hooks: GateHooks): HttpMiddleware {
  return (exchange, answer, next) => {
    const admitted = authenticate(auth, exchange, hooks.report);
    if (!isPromise(admitted)) {
      if (admitted === undefined) next(exchange, answer);
      else answer(admitted);
      return;
    }
    admitted.then(
      (refused) => {
        if (refused === undefined) next(exchange, answer);
        else answer(refused);
      },
      (error: unknown) => {
        answer(hooks.failed(error, exchange));
      },
    );
  };
}
