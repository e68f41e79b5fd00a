// createStreamableHttpHandler: the runtime-neutral Streamable HTTP server, a chain of HTTP
// middleware in front of the MCP endpoint (endpoint.ts), which routes by verb. node.ts and
// fetch.ts adapt its one entry, `serve`, to their runtimes. The chain: docs/transports.md.
import type { MaybePromise } from '../../../internal/maybe.js';
import type { Connectable } from '../../../protocol/connectable.js';
import { bearerGate, metadataDocument } from './auth-gate.js';
import { createContext, mcpEndpoint, servedPaths } from './endpoint.js';
import type { Answer, HttpExchange } from './exchange.js';
import { healthEndpoint } from './health.js';
import { Lifecycle } from './lifecycle.js';
import type { HttpMiddleware } from './middleware.js';
import { chain } from './middleware.js';
import type { CloseOptions, ResolvedOptions, StreamableHttpOptions } from './options.js';
import { resolveOptions } from './options.js';
import { corsMiddleware, createGuard, hostOriginGuard } from './security.js';
import { StoredSessions } from './stored-sessions.js';

/**
 * Returns the server that serves an exchange: usually one shared McpServer (it serves any number
 * of sessions). Called once per legacy session and once per stateless or 2026-07-28 POST.
 */
export type ConnectableFactory = (exchange: HttpExchange) => MaybePromise<Connectable>;

/** StreamableHttpHandler is the Streamable HTTP server transport, before a runtime face. */
export interface StreamableHttpHandler {
  /**
   * Answers one exchange through `answer`, called exactly once, never with a failure: a failure
   * is a 500, reported to `onError`. Answered before `serve` returns when no step had to wait (a
   * POST whose body is at hand and whose tool answers synchronously); never throws.
   */
  serve(exchange: HttpExchange, answer: Answer): void;
  /**
   * Closes every session and open stream; later requests get 503 (and the health endpoint 503).
   * With `graceMs`, requests in flight first get that long to finish, while GET streams end at
   * once with a `retry` hint (see {@link CloseOptions}). With a session store, the sessions and
   * their streams' events stay in the stores, for other processes to resume. Idempotent: later
   * calls return the first call's promise.
   */
  close(options?: CloseOptions): Promise<void>;
  /** The number of live legacy sessions. */
  readonly sessionCount: number;
  /** The resolved options. */
  readonly options: ResolvedOptions;
}

/**
 * Creates the Streamable HTTP server transport for every MCP revision: 2026-07-28 requests
 * (stateless, checked standard headers), legacy sessions with resumable SSE streams, legacy
 * stateless mode, and optionally the deprecated HTTP+SSE transport. See docs/transports.md.
 */
export function createStreamableHttpHandler(
  factory: ConnectableFactory,
  options: StreamableHttpOptions = {},
): StreamableHttpHandler {
  const resolved = resolveOptions(options);
  const { auth, health, cors, sessionStore } = resolved;
  const life = new Lifecycle();
  const ctx = createContext(resolved, factory, () => life.closed);
  const stored = sessionStore === undefined ? undefined : new StoredSessions(ctx, sessionStore);
  const guard = createGuard(resolved);
  const steps: HttpMiddleware[] = [];
  if (health !== undefined) steps.push(healthEndpoint(health, () => life.closed));
  if (auth !== undefined) steps.push(metadataDocument(auth, guard));
  steps.push(servedPaths(resolved), hostOriginGuard(guard));
  if (cors !== undefined) steps.push(corsMiddleware(cors));
  steps.push(life.middleware(ctx));
  const own = resolved.middleware;
  if (own !== undefined) {
    steps.push((exchange, answer, next) => {
      try {
        own(exchange, answer, next);
      } catch (error) {
        answer(ctx.failed(error, exchange));
      }
    });
  }
  if (auth !== undefined) {
    const failed = (error: unknown, exchange: HttpExchange) => ctx.failed(error, exchange);
    steps.push(bearerGate(auth, { report: resolved.onError, failed }));
  }
  if (stored !== undefined) steps.push(stored.middleware);
  const serve = chain(steps, mcpEndpoint(ctx));
  return {
    serve,
    close(closeOptions = {}) {
      return life.close(ctx, closeOptions, () => {
        stored?.stop();
      });
    },
    get sessionCount() {
      return ctx.sessions.size;
    },
    options: resolved,
  };
}
