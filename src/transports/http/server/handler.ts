// createStreamableHttpHandler: the runtime-neutral Streamable HTTP server. Its one entry, `serve`,
// takes an HttpExchange and answers an HttpReply; node.ts and fetch.ts adapt it to their runtimes.
// Every request passes the Host and Origin checks first, then goes to its verb's handler.
import type { MaybePromise } from '../../../internal/maybe.js';
import { isPromise } from '../../../internal/maybe.js';
import { ErrorCode } from '../../../jsonrpc/errors.js';
import type { Connectable } from '../../../protocol/connectable.js';
import type { HttpContext } from './context.js';
import { bodyFailed } from './context.js';
import { handleDelete } from './delete.js';
import type { Answer, HttpExchange, HttpReply } from './exchange.js';
import {
  BodyError,
  emptyReply,
  errorReply,
  joined,
  jsonReply,
  pathOf,
  refusedReply,
} from './exchange.js';
import { SseWriter } from './sse-writer.js';
import { OpenStreams, keptOnClose } from './streams.js';
import { handleGet, notAllowed } from './get.js';
import { openLegacySse, postLegacySse } from './legacy-sse.js';
import { onSessionEvent, resumeSession, sharedHooks } from './legacy-session.js';
import type { CloseOptions, ResolvedOptions, StreamableHttpOptions } from './options.js';
import { resolveOptions } from './options.js';
import { handlePost } from './post.js';
import { authenticate, earlyScopeRefusal, metadataReply, scopedTarget } from './auth.js';
import { corsHeaders, createGuard, preflightHeaders } from './security.js';
import { SessionTable } from './sessions.js';

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

const NOT_FOUND: HttpReply = emptyReply(404);
const INTERNAL: HttpReply = errorReply(500, {
  code: ErrorCode.InternalError,
  message: 'internal error',
});
const CLOSED: HttpReply = errorReply(
  503,
  { code: ErrorCode.InternalError, message: 'server closed' },
  { 'retry-after': '1' },
);

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
  const report = resolved.onError;
  const sessions = new SessionTable(
    { max: resolved.maxSessions, idleMs: resolved.sessionIdleMs },
    report,
  );
  const guard = createGuard(resolved);
  let closed = false;
  let closing: Promise<void> | undefined;
  /** Exchanges routed and not answered yet, and the SSE replies given (for a graceful close). */
  let pending = 0;
  const streams = new OpenStreams();
  // With the auth gate, a 2026-07-28 call's scopes are checked from its headers with the server
  // the factory gives for the exchange; the request then uses that same server (one call).
  const early =
    resolved.auth === undefined
      ? undefined
      : new WeakMap<HttpExchange, MaybePromise<Connectable>>();
  const serverOf: ConnectableFactory =
    early === undefined
      ? factory
      : (exchange) => {
          const given = early.get(exchange);
          if (given === undefined) return factory(exchange);
          early.delete(exchange);
          return given;
        };
  const ctx: HttpContext = {
    options: resolved,
    sessions,
    open: new Set(),
    settings: {
      // Sessions that live on in a session store keep their events when this handler closes.
      store:
        resolved.sessionStore === undefined || resolved.eventStore === undefined
          ? resolved.eventStore
          : keptOnClose(resolved.eventStore, () => closed),
      retryMs: resolved.retryMs,
      keepAliveMs: resolved.keepAliveMs,
      report,
      shared:
        resolved.sessionStore === undefined
          ? undefined
          : sharedHooks(resolved.sessionStore, report),
      touched: (id) => {
        sessions.touch(id);
      },
    },
    server: serverOf,
    failed(error, exchange) {
      report(error, `${exchange.method} ${pathOf(exchange.url)}`);
      return INTERNAL;
    },
    settle(exchange, reply, answer) {
      if (!isPromise(reply)) {
        answer(reply);
        return;
      }
      reply.then(answer, (error: unknown) => {
        answer(ctx.failed(error, exchange));
      });
    },
    withBody(exchange, next, answer) {
      exchange.readBody(resolved.body, (body) => {
        let reply: MaybePromise<HttpReply>;
        try {
          reply = body instanceof BodyError ? bodyFailed(body) : next(body);
        } catch (error) {
          reply = ctx.failed(error, exchange);
        }
        ctx.settle(exchange, reply, answer);
      });
    },
  };

  /**
   * Hands an exchange on a served path to its verb's handler, which answers it; a session this
   * process does not hold is first resumed from the session store, when there is one.
   */
  function route(exchange: HttpExchange, path: string, answer: Answer): void {
    const id =
      resolved.sessionStore === undefined ? undefined : joined(exchange.headers['mcp-session-id']);
    if (id !== undefined && path === resolved.path && !sessions.knows(id)) {
      resumeSession(ctx, exchange, id).then(
        () => {
          routeHeld(exchange, path, answer);
        },
        (error: unknown) => {
          report(error, 'session store');
          answer(storeUnavailable());
        },
      );
      return;
    }
    const refreshing = id === undefined ? undefined : refresh(id);
    if (refreshing === undefined) {
      routeHeld(exchange, path, answer);
      return;
    }
    refreshing.then(
      () => {
        routeHeld(exchange, path, answer);
      },
      (error: unknown) => {
        // The store is unreachable: the copy held here still serves.
        report(error, 'session store');
        routeHeld(exchange, path, answer);
      },
    );
  }

  // What other processes publish about sessions held here: client messages for requests sent
  // or running here, messages for a GET stream held here, the GET stream taken elsewhere, the
  // client's changes, the end of a session.
  const unsubscribe = resolved.sessionStore?.subscribe?.((id, event) => {
    onSessionEvent(ctx, id, event);
  });

  /** When each stored session's expiry was last extended (at most once a minute each). */
  const refreshed = new Map<string, number>();
  const refreshMs = Math.min(60_000, (resolved.sessionStore?.ttlMs ?? 120_000) / 2);
  /**
   * Extends the expiry of stored session `id` when due (at most once a minute, or every half
   * TTL when that is shorter): a promise then,
   * after which a session whose record is gone (expired, deleted) is no longer held here.
   */
  function refresh(id: string): Promise<void> | undefined {
    const store = resolved.sessionStore;
    const now = Date.now();
    if (store?.touch === undefined || now - (refreshed.get(id) ?? 0) < refreshMs) return undefined;
    if (!sessions.knows(id)) return undefined;
    if (refreshed.size > resolved.maxSessions) refreshed.clear();
    refreshed.set(id, now);
    return store.touch(id).then((alive) => {
      if (alive === false) gone(id);
    });
  }

  /** Drops stored session `id`, whose record is gone, here and on every other process. */
  function gone(id: string): void {
    refreshed.delete(id);
    sessions.delete(id);
    resolved.sessionStore?.publish?.(id, { type: 'ended' }).catch((error: unknown) => {
      report(error, 'session store');
    });
  }

  // A session held here may see no request while its record expires (its only activity an open
  // GET stream): every refreshMs, the sessions not extended since are looked up, and those whose
  // record is gone are dropped (their streams end; 404 from then on). Unref'd: it keeps no
  // process alive.
  const expiryCheck =
    resolved.sessionStore === undefined
      ? undefined
      : setInterval(() => {
          void dropExpired();
        }, refreshMs).unref();

  async function dropExpired(): Promise<void> {
    const store = resolved.sessionStore;
    if (store === undefined) return;
    const now = Date.now();
    const due = [...sessions.ids()].filter((id) => now - (refreshed.get(id) ?? 0) >= refreshMs);
    for (const id of due) {
      try {
        if ((await store.load(id)) === undefined && sessions.knows(id)) gone(id);
      } catch (error) {
        // The store is unreachable: the copies held here still serve.
        report(error, 'session store');
        return;
      }
    }
  }

  /** {@link route}, for a session this process holds (or none). */
  function routeHeld(exchange: HttpExchange, path: string, answer: Answer): void {
    const { method } = exchange;
    if (path === resolved.path) {
      switch (method) {
        case 'POST':
          handlePost(ctx, exchange, answer);
          return;
        case 'GET':
          ctx.settle(exchange, handleGet(ctx, exchange), answer);
          return;
        case 'DELETE':
          ctx.settle(exchange, handleDelete(ctx, exchange), answer);
          return;
        default:
          answer(notAllowed(ctx));
          return;
      }
    }
    const legacy = resolved.legacySse;
    if (legacy !== undefined && path === legacy.ssePath && method === 'GET') {
      ctx.settle(exchange, openLegacySse(ctx, exchange), answer);
    } else if (legacy !== undefined && path === legacy.messagesPath && method === 'POST') {
      postLegacySse(ctx, exchange, answer);
    } else {
      answer(emptyReply(405, { allow: path === legacy?.ssePath ? 'GET' : 'POST' }));
    }
  }

  function served(path: string): boolean {
    const legacy = resolved.legacySse;
    return (
      path === resolved.path ||
      (legacy !== undefined && (path === legacy.ssePath || path === legacy.messagesPath))
    );
  }

  function serve(exchange: HttpExchange, answer: Answer): void {
    const path = pathOf(exchange.url);
    const health = resolved.health;
    if (health !== undefined && path === health.path) {
      // A probe, not MCP: no Host, Origin or token check (a load balancer probes by IP).
      void healthReply(closed ? shuttingDown : health.check, exchange.method).then(answer);
      return;
    }
    const auth = resolved.auth;
    if (auth?.metadataPaths.has(path) === true) {
      // Public metadata: the Host check only, any origin may read it.
      const refused = guard(joined(exchange.headers['host']), undefined);
      answer(
        refused === undefined
          ? metadataReply(auth, exchange.method)
          : refusedReply(403, `forbidden: ${refused}`),
      );
      return;
    }
    const origin = joined(exchange.headers['origin']);
    const refused = refusal(exchange, path, origin);
    if (refused !== undefined) {
      answer(refused);
      return;
    }
    const cors = corsOf(origin);
    const done = tracked(
      exchange.method,
      cors === undefined
        ? answer
        : (reply: HttpReply) => {
            answer(cors(reply));
          },
    );
    if (auth === undefined) {
      routeSafely(exchange, path, done);
      return;
    }
    const admitted = authenticate(auth, exchange, report);
    if (!isPromise(admitted)) {
      if (admitted === undefined) routeScoped(exchange, path, done);
      else done(admitted);
      return;
    }
    admitted.then(
      (refused) => {
        if (refused === undefined) routeScoped(exchange, path, done);
        else done(refused);
      },
      (error: unknown) => {
        done(ctx.failed(error, exchange));
      },
    );
  }

  /** Routes an admitted exchange, after the early scope check of a 2026-07-28 call. */
  function routeScoped(exchange: HttpExchange, path: string, done: Answer): void {
    const auth = resolved.auth;
    const target = scopedTarget(exchange);
    if (auth === undefined || early === undefined || target === undefined) {
      routeSafely(exchange, path, done);
      return;
    }
    let server: MaybePromise<Connectable>;
    try {
      server = factory(exchange);
    } catch (error) {
      done(ctx.failed(error, exchange));
      return;
    }
    early.set(exchange, server);
    const check = (given: Connectable) => {
      const refused = earlyScopeRefusal(auth, exchange, { target, server: given });
      if (refused === undefined) routeSafely(exchange, path, done);
      else done(refused);
    };
    if (!isPromise(server)) {
      check(server);
      return;
    }
    server.then(check, (error: unknown) => {
      done(ctx.failed(error, exchange));
    });
  }

  function routeSafely(exchange: HttpExchange, path: string, done: Answer): void {
    try {
      route(exchange, path, done);
    } catch (error) {
      // Only a verb handler's synchronous throw before it answered lands here.
      done(ctx.failed(error, exchange));
    }
  }

  /** The reply that ends an exchange before routing (path, Host/Origin, preflight, shutdown). */
  function refusal(
    exchange: HttpExchange,
    path: string,
    origin: string | undefined,
  ): HttpReply | undefined {
    if (!served(path)) return NOT_FOUND;
    const refused = guard(joined(exchange.headers['host']), origin);
    if (refused !== undefined) return refusedReply(403, `forbidden: ${refused}`);
    const cors = resolved.cors;
    if (exchange.method === 'OPTIONS' && cors !== undefined && origin !== undefined) {
      const requested = joined(exchange.headers['access-control-request-headers']);
      return emptyReply(204, preflightHeaders(cors, origin, requested));
    }
    if (closed) return CLOSED;
    sessions.sweep();
    return undefined;
  }

  /**
   * `answer`, counting the exchange as in flight until it is called and remembering an SSE reply
   * (for close). Once closing with a session store, a 404 of a session this process ended is a
   * 503: the session lives on in the store, and the client should retry elsewhere.
   */
  function tracked(method: string, answer: Answer): Answer {
    pending++;
    return (reply) => {
      pending--;
      const { body } = reply;
      if (body instanceof SseWriter) streams.add(body, method === 'GET');
      const handedOver = closed && reply.status === 404 && resolved.sessionStore !== undefined;
      answer(handedOver && method !== 'DELETE' ? CLOSED : reply);
    };
  }

  /** True while a request is in flight: unanswered, or answering on an SSE stream. */
  function busy(): boolean {
    return pending > 0 || ctx.open.size > 0 || streams.posting;
  }

  /** Lets requests in flight finish, for up to `graceMs`. */
  async function drain(graceMs: number): Promise<void> {
    const deadline = Date.now() + graceMs;
    while (busy()) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(left, 20)));
    }
  }

  /** What adds the CORS headers to a reply, when CORS is on and the request has an Origin. */
  function corsOf(origin: string | undefined): ((reply: HttpReply) => HttpReply) | undefined {
    const cors = resolved.cors;
    if (cors === undefined || origin === undefined) return undefined;
    return (reply) => {
      const headers = Object.assign({}, reply.headers, corsHeaders(cors, origin));
      return { status: reply.status, headers, body: reply.body };
    };
  }

  return {
    serve,
    close(options = {}) {
      const graceMs = options.graceMs ?? 0;
      if (!(graceMs >= 0)) return Promise.reject(new TypeError('graceMs must be at least 0'));
      closing ??= (async () => {
        closed = true;
        // GET streams carry no request: their clients reconnect at once (elsewhere).
        streams.end(resolved.retryMs, false);
        if (graceMs > 0) await drain(graceMs);
        streams.end(resolved.retryMs, true);
        const open = [...ctx.open];
        ctx.open.clear();
        unsubscribe?.();
        clearInterval(expiryCheck);
        await Promise.all([sessions.closeAll(), ...open.map((t) => t.close())]);
      })();
      return closing;
    },
    get sessionCount() {
      return sessions.size;
    },
    options: resolved,
  };
}

/** The health check of a closing handler: a load balancer stops sending it requests. */
function shuttingDown(): never {
  throw new Error('shutting down');
}

/**
 * The health endpoint's answer: 200 with the check's details, or 503 when it throws (with the
 * `details` object of the error, when it has one: `redis: 'unreachable'`, say).
 */
async function healthReply(check: (() => unknown) | undefined, method: string): Promise<HttpReply> {
  if (method !== 'GET' && method !== 'HEAD') return emptyReply(405, { allow: 'GET, HEAD' });
  const headers = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  try {
    const details: unknown = await check?.();
    const extra = typeof details === 'object' && details !== null ? details : {};
    return jsonReply(200, { status: 'ok', ...extra }, headers);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const found = (error as { details?: unknown } | null)?.details;
    const extra = typeof found === 'object' && found !== null ? found : {};
    return jsonReply(503, { status: 'unavailable', ...extra, error: message }, headers);
  }
}

/**
 * The answer when the session store cannot be reached: 503 with a JSON-RPC error that says so,
 * at once (the client may retry; the process recovers when the store does).
 */
export function storeUnavailable(): HttpReply {
  return errorReply(503, {
    code: ErrorCode.InternalError,
    message: 'the session store is unavailable; try again shortly',
    id: null,
  });
}
