// The MCP endpoint as one handle that routes by verb (POST, GET, DELETE on the endpoint's path;
// GET and POST of the deprecated HTTP+SSE transport on theirs), and the context its verbs share.
import type { MaybePromise } from '../../../internal/maybe.js';
import { isPromise } from '../../../internal/maybe.js';
import { LiveSet } from '../../../internal/live-set.js';
import { ErrorCode } from '../../../jsonrpc/errors.js';
import type { Connectable } from '../../../protocol/connectable.js';
import type { HttpContext } from './context.js';
import { bodyFailed } from './context.js';
import { handleDelete } from './delete.js';
import type { HttpExchange, HttpReply } from './exchange.js';
import { BodyError, emptyReply, errorReply, pathOf } from './exchange.js';
import { handleGet, notAllowed } from './get.js';
import { sharedHooks } from './legacy-session.js';
import { openLegacySse, postLegacySse } from './legacy-sse.js';
import type { HttpHandle, HttpMiddleware } from './middleware.js';
import type { ResolvedOptions } from './options.js';
import { handlePost } from './post.js';
import { SessionTable } from './sessions.js';
import { keptOnClose } from './streams.js';

const NOT_FOUND: HttpReply = emptyReply(404);
const INTERNAL: HttpReply = errorReply(500, {
  code: ErrorCode.InternalError,
  message: 'internal error',
});

/**
 * The context of one handler's verbs: `server` gives the server of an exchange; `closed` tells
 * whether the handler is closing (stored sessions then keep their events).
 */
export function createContext(
  options: ResolvedOptions,
  server: (exchange: HttpExchange) => MaybePromise<Connectable>,
  closed: () => boolean,
): HttpContext {
  const report = options.onError;
  const sessions = new SessionTable(
    { max: options.maxSessions, idleMs: options.sessionIdleMs },
    report,
  );
  const ctx: HttpContext = {
    options,
    sessions,
    open: new LiveSet(),
    settings: {
      // Sessions that live on in a session store keep their events when this handler closes.
      store:
        options.sessionStore === undefined || options.eventStore === undefined
          ? options.eventStore
          : keptOnClose(options.eventStore, closed),
      retryMs: options.retryMs,
      keepAliveMs: options.keepAliveMs,
      report,
      shared:
        options.sessionStore === undefined ? undefined : sharedHooks(options.sessionStore, report),
      touched: (id) => {
        sessions.touch(id);
      },
      settled: (id) => {
        sessions.settled(id);
      },
    },
    server,
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
      exchange.readBody(options.body, (body) => {
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
  return ctx;
}

/** 404 for a path the endpoint does not serve, before any other check. */
export function servedPaths(options: ResolvedOptions): HttpMiddleware {
  const legacy = options.legacySse;
  const paths = new Set([options.path]);
  if (legacy !== undefined) paths.add(legacy.ssePath).add(legacy.messagesPath);
  return (exchange, answer, next) => {
    if (paths.has(pathOf(exchange.url))) next(exchange, answer);
    else answer(NOT_FOUND);
  };
}

/**
 * The endpoint: hands an exchange on a served path to its verb's handler, which answers it (405
 * for another verb). A verb handler's synchronous throw before it answered is the 500.
 */
export function mcpEndpoint(ctx: HttpContext): HttpHandle {
  return (exchange, answer) => {
    try {
      routeVerb(ctx, exchange, answer);
    } catch (error) {
      answer(ctx.failed(error, exchange));
    }
  };
}

function routeVerb(
  ctx: HttpContext,
  exchange: HttpExchange,
  answer: (reply: HttpReply) => void,
): void {
  const { method } = exchange;
  const path = pathOf(exchange.url);
  if (path === ctx.options.path) {
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
  const legacy = ctx.options.legacySse;
  if (legacy !== undefined && path === legacy.ssePath && method === 'GET') {
    ctx.settle(exchange, openLegacySse(ctx, exchange), answer);
  } else if (legacy !== undefined && path === legacy.messagesPath && method === 'POST') {
    postLegacySse(ctx, exchange, answer);
  } else {
    answer(emptyReply(405, { allow: path === legacy?.ssePath ? 'GET' : 'POST' }));
  }
}
