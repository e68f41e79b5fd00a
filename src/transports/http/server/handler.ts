// createStreamableHttpHandler: the runtime-neutral Streamable HTTP server. It takes an
// HttpExchange and answers an HttpReply; node.ts and fetch.ts adapt it to their runtimes.
// Every request passes the Host and Origin checks first, then goes to its verb's handler.
import { isPromise } from '../../../internal/maybe.js';
import type { Connectable } from '../../../protocol/connectable.js';
import type { HttpContext } from './context.js';
import { handleDelete } from './delete.js';
import type { Answer, HttpExchange, HttpReply } from './exchange.js';
import { emptyReply, errorReply, joined, pathOf } from './exchange.js';
import { handleGet, notAllowed } from './get.js';
import { openLegacySse, postLegacySse } from './legacy-sse.js';
import type { ResolvedOptions, StreamableHttpOptions } from './options.js';
import { resolveOptions } from './options.js';
import { answerPost, handlePost } from './post.js';
import { corsHeaders, createGuard, preflightHeaders } from './security.js';
import { SessionTable } from './sessions.js';

/**
 * Returns the server that serves an exchange: usually one shared McpServer (it serves any number
 * of sessions). Called once per legacy session and once per stateless or 2026-07-28 POST.
 */
export type ConnectableFactory = (exchange: HttpExchange) => Connectable | Promise<Connectable>;

/** StreamableHttpHandler is the Streamable HTTP server transport, before a runtime face. */
export interface StreamableHttpHandler {
  /** Answers one exchange. Never rejects: failures become 500 (reported to `onError`). */
  handle(exchange: HttpExchange): Promise<HttpReply>;
  /**
   * As `handle`, but answers the reply itself when no step had to wait (a tool that answers
   * synchronously). The runtime faces call it when it is there, to spare a promise and a
   * microtask per request; a handler of one's own may leave it out.
   */
  respond?(exchange: HttpExchange): HttpReply | Promise<HttpReply>;
  /**
   * As `respond`, but answers through `answer` (called once, never with a failure: that is a
   * 500): with an exchange that has `readBody`, a request answered at once makes no promise.
   * What the node face calls when it is there.
   */
  readonly serve?: (exchange: HttpExchange, answer: Answer) => void;
  /** Closes every session and open stream; later requests get 503. Idempotent. */
  close(): Promise<void>;
  /** The number of live legacy sessions. */
  readonly sessionCount: number;
  /** The resolved options. */
  readonly options: ResolvedOptions;
}

const NOT_FOUND: HttpReply = emptyReply(404);
const INTERNAL: HttpReply = errorReply(500, { code: -32603, message: 'internal error' });
const CLOSED: HttpReply = errorReply(503, { code: -32603, message: 'server closed' });

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
  const ctx: HttpContext = {
    options: resolved,
    sessions,
    open: new Set(),
    settings: {
      store: resolved.eventStore,
      retryMs: resolved.retryMs,
      keepAliveMs: resolved.keepAliveMs,
      report,
      touched: (id) => {
        sessions.touch(id);
      },
    },
    server: factory,
    failed(error, exchange) {
      report(error, `${exchange.method} ${pathOf(exchange.url)}`);
      return INTERNAL;
    },
  };

  /** The reply of a served path; may throw synchronously (handle catches both). */
  function route(exchange: HttpExchange, path: string): Promise<HttpReply> | HttpReply {
    const { method } = exchange;
    if (path === resolved.path) {
      switch (method) {
        case 'POST':
          return handlePost(ctx, exchange);
        case 'GET':
          return handleGet(ctx, exchange);
        case 'DELETE':
          return handleDelete(ctx, exchange);
        default:
          return notAllowed(ctx);
      }
    }
    const legacy = resolved.legacySse;
    if (legacy !== undefined && path === legacy.ssePath) {
      return method === 'GET' ? openLegacySse(ctx, exchange) : emptyReply(405, { allow: 'GET' });
    }
    if (legacy !== undefined && path === legacy.messagesPath) {
      return method === 'POST' ? postLegacySse(ctx, exchange) : emptyReply(405, { allow: 'POST' });
    }
    return NOT_FOUND;
  }

  function served(path: string): boolean {
    const legacy = resolved.legacySse;
    return (
      path === resolved.path ||
      (legacy !== undefined && (path === legacy.ssePath || path === legacy.messagesPath))
    );
  }

  /**
   * The reply to an exchange: at hand when it was answered without waiting, else a promise that
   * never rejects (a failure becomes a 500 reported to `onError`).
   */
  function respond(exchange: HttpExchange): HttpReply | Promise<HttpReply> {
    const path = pathOf(exchange.url);
    const origin = joined(exchange.headers['origin']);
    const refused = refusal(exchange, path, origin);
    if (refused !== undefined) return refused;
    let routed: HttpReply | Promise<HttpReply>;
    try {
      routed = route(exchange, path);
    } catch (error) {
      routed = ctx.failed(error, exchange);
    }
    const cors = corsOf(origin);
    if (!isPromise(routed)) return cors === undefined ? routed : cors(routed);
    const failure = (error: unknown): HttpReply => ctx.failed(error, exchange);
    if (cors === undefined) return routed.then(undefined, failure);
    return routed.then(cors, (error: unknown) => cors(failure(error)));
  }

  /**
   * As `respond`, answering through `answer`: a POST to the endpoint is read with the exchange's
   * `readBody` when it has one, so that a request the server answers at once makes no promise.
   */
  function serve(exchange: HttpExchange, answer: Answer): void {
    const path = pathOf(exchange.url);
    if (exchange.method !== 'POST' || path !== resolved.path || exchange.readBody === undefined) {
      const reply = respond(exchange);
      if (isPromise(reply)) void reply.then(answer);
      else answer(reply);
      return;
    }
    const origin = joined(exchange.headers['origin']);
    const refused = refusal(exchange, path, origin);
    if (refused !== undefined) {
      answer(refused);
      return;
    }
    const cors = corsOf(origin);
    const reading = exchange as HttpExchange & Required<Pick<HttpExchange, 'readBody'>>;
    answerPost(
      ctx,
      reading,
      cors === undefined
        ? answer
        : (reply) => {
            answer(cors(reply));
          },
    );
  }

  /** The reply that ends an exchange before routing (path, Host/Origin, preflight, shutdown). */
  function refusal(
    exchange: HttpExchange,
    path: string,
    origin: string | undefined,
  ): HttpReply | undefined {
    if (!served(path)) return NOT_FOUND;
    const refused = guard(joined(exchange.headers['host']), origin);
    if (refused !== undefined)
      return errorReply(403, { code: -32600, message: `forbidden: ${refused}` });
    const cors = resolved.cors;
    if (exchange.method === 'OPTIONS' && cors !== undefined && origin !== undefined) {
      const requested = joined(exchange.headers['access-control-request-headers']);
      return emptyReply(204, preflightHeaders(cors, origin, requested));
    }
    if (closed) return CLOSED;
    sessions.sweep();
    return undefined;
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
    respond,
    serve,
    handle(exchange) {
      return Promise.resolve(respond(exchange));
    },
    async close() {
      if (closed) return;
      closed = true;
      const open = [...ctx.open];
      ctx.open.clear();
      await Promise.all([sessions.closeAll(), ...open.map((t) => t.close())]);
    },
    get sessionCount() {
      return sessions.size;
    },
    options: resolved,
  };
}
