// POSTs of legacy sessions (spec 2025-11-25 basic/transports#session-management): `initialize`
// opens a session and mints its id; later POSTs name it in `Mcp-Session-Id`.
import type { MaybePromise } from '../../../internal/maybe.js';
import { ErrorCode } from '../../../jsonrpc/errors.js';
import type { Message, Request } from '../../../jsonrpc/message.js';
import { isRequest } from '../../../jsonrpc/message.js';
import type { HttpContext, HttpMessageInfo, Payload } from './context.js';
import {
  ACCEPTED,
  connectServer,
  headersInfo,
  invalidOf,
  legacyRevision,
  wantsReply,
} from './context.js';
import type { HttpExchange, HttpReply } from './exchange.js';
import { principalKey } from '../../../protocol/auth.js';
import { errorReply, joined, jsonReply } from './exchange.js';
import type { Acceptable } from './media-type.js';
import { PostReply } from './reply.js';
import type { SharedSessionHooks } from './session-settings.js';
import { SessionTransport } from './session-transport.js';
import { newSessionId } from './sessions.js';
import type { SessionEvent, SessionRecord, SessionStore } from './session-store.js';
import { routedElsewhere } from './session-store.js';

/**
 * The session a request names in `Mcp-Session-Id`, after checking its MCP-Protocol-Version; an
 * HttpReply when there is none (400), it is unknown or ended (404), or the version is bad (400).
 */
export function sessionOf(
  ctx: HttpContext,
  exchange: HttpExchange,
  requestId: string | number | null,
): SessionTransport | HttpReply {
  const id = joined(exchange.headers['mcp-session-id']);
  if (id === undefined) {
    return errorReply(400, {
      code: ErrorCode.InvalidRequest,
      message: 'missing Mcp-Session-Id header',
      id: requestId,
    });
  }
  const session = ctx.sessions.get(id, 'streamable', principalKey(exchange.auth));
  if (!(session instanceof SessionTransport)) {
    const gone = { code: ErrorCode.InvalidRequest, message: 'session not found', id: requestId };
    return errorReply(404, gone);
  }
  const revision = legacyRevision(exchange.headers, requestId);
  return typeof revision === 'string' ? session : revision;
}

/**
 * Opens a session for `initialize`: connects a server to a new SessionTransport and answers with
 * its id in `Mcp-Session-Id`. A failed initialize closes the session again and names none. When
 * the table is full and no session is idle, the answer is 503.
 */
export async function serveInitialize(
  ctx: HttpContext,
  exchange: HttpExchange,
  post: { accept: Acceptable; request: Request },
): Promise<HttpReply> {
  const { request } = post;
  if (!ctx.sessions.makeRoom()) {
    const full = { code: ErrorCode.InternalError, message: 'too many sessions', id: request.id };
    return errorReply(503, full);
  }
  const session = new SessionTransport(newSessionId(), ctx.settings);
  await connectServer(ctx.server(exchange), session, undefined);
  ctx.sessions.add(session, principalKey(exchange.auth));
  const payload: Payload = { kind: 'message', message: request };
  const headers = { 'mcp-session-id': session.id };
  const reply = await serveInSession(ctx, exchange, {
    accept: post.accept,
    payload,
    session,
    headers,
  });
  if (session.revision === undefined) {
    // initialize failed (answered as JSON or on SSE alike): the session is of no use.
    ctx.sessions.delete(session.id);
    const unnamed = Object.entries(reply.headers).filter(([name]) => name !== 'mcp-session-id');
    return { status: reply.status, headers: Object.fromEntries(unnamed), body: reply.body };
  }
  // Other processes find the session before the client can name it to them.
  const store = ctx.options.sessionStore;
  if (store !== undefined) {
    const params = (request.params ?? {}) as Record<string, unknown>;
    const record: SessionRecord = {
      revision: session.revision,
      capabilities: params['capabilities'],
      clientInfo: params['clientInfo'],
      owner: principalKey(exchange.auth),
    };
    session.record = record;
    try {
      await store.save(session.id, record);
    } catch (error) {
      // Other processes could not resume it: no session rather than half of one.
      ctx.settings.report(error, 'session store');
      ctx.sessions.delete(session.id);
      return errorReply(503, {
        code: ErrorCode.InternalError,
        message: 'the session store is unavailable; try again shortly',
        id: request.id,
      });
    }
  }
  return reply;
}

/**
 * Publishes the client messages of `payload` that may belong to another process (responses,
 * cancellations), when the session store carries messages; they are delivered here too.
 */
function share(ctx: HttpContext, session: SessionTransport, payload: Payload): void {
  const { id } = session;
  const store = ctx.options.sessionStore;
  if (store?.publish === undefined) return;
  const messages =
    payload.kind === 'message'
      ? [payload.message]
      : payload.items.flatMap((item) => ('message' in item ? [item.message] : []));
  for (const message of messages) {
    if (!routedElsewhere(message) || ('id' in message && session.awaits(message))) continue;
    store.publish(id, { type: 'client', message }).catch((error: unknown) => {
      ctx.settings.report(error, 'session store');
    });
  }
}

/**
 * Resumes session `id` from the session store, when this process does not hold it: a new
 * session transport connected to a server in the stored state. Concurrent requests for one id
 * share one resume. Resolves when there is nothing (more) to do.
 */
export function resumeSession(ctx: HttpContext, exchange: HttpExchange, id: string): Promise<void> {
  let pending = resuming.get(id);
  if (pending === undefined) {
    pending = resume(ctx, exchange, id).finally(() => {
      resuming.delete(id);
    });
    resuming.set(id, pending);
  }
  return pending;
}

const resuming = new Map<string, Promise<void>>();

async function resume(ctx: HttpContext, exchange: HttpExchange, id: string): Promise<void> {
  const record = await ctx.options.sessionStore?.load(id);
  if (record === undefined || ctx.sessions.knows(id)) return;
  if (!ctx.sessions.makeRoom()) return;
  const session = new SessionTransport(id, ctx.settings);
  await connectServer(ctx.server(exchange), session, { restore: record });
  session.revision = record.revision;
  session.record = record;
  ctx.sessions.add(session, record.owner);
}

/**
 * What the sessions of a handler with a session store tell other processes: the changes their
 * clients make are saved in the record; with a bus, they are published too, as are the messages
 * for a GET stream held elsewhere and the taking of the GET stream.
 */
export function sharedHooks(
  store: SessionStore,
  report: (error: unknown, where: string) => void,
): SharedSessionHooks {
  const failed = (error: unknown): void => {
    report(error, 'session store');
  };
  const bus = store.publish?.bind(store);
  const publish = (id: string, event: SessionEvent): boolean => {
    if (bus === undefined) return false;
    bus(id, event).catch(failed);
    return true;
  };
  return {
    forward: (id, message, streamId) =>
      publish(
        id,
        streamId === undefined
          ? { type: 'server', message }
          : { type: 'server', message, streamId },
      ),
    holding(id, streamId) {
      publish(id, streamId === undefined ? { type: 'stream' } : { type: 'stream', streamId });
    },
    changed(session, change) {
      if (session.record !== undefined) store.save(session.id, session.record).catch(failed);
      publish(session.id, { type: 'state', change });
    },
  };
}

/** Acts on an event another process published about session `id`, when this process holds it. */
export function onSessionEvent(ctx: HttpContext, id: string, event: SessionEvent): void {
  const session = ctx.sessions.peek(id);
  if (!(session instanceof SessionTransport)) return;
  switch (event.type) {
    case 'client':
      if (isMessage(event.message) && session.awaits(event.message)) {
        session.deliver(event.message, {});
      }
      return;
    case 'server':
      if (isObject(event.message)) session.forwarded(event.message, optionalString(event.streamId));
      return;
    case 'stream':
      session.release(optionalString(event.streamId));
      return;
    case 'state':
      session.apply(event.change);
      return;
    case 'ended':
      ctx.sessions.delete(id);
      return;
    default:
      return;
  }
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function isMessage(value: unknown): value is Message {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Serves a POST within a legacy session. */
export function serveInSession(
  ctx: HttpContext,
  exchange: HttpExchange,
  how: {
    accept: Acceptable;
    payload: Payload;
    session: SessionTransport;
    headers?: Readonly<Record<string, string>>;
  },
): MaybePromise<HttpReply> {
  const { payload, session } = how;
  const info: HttpMessageInfo = headersInfo(exchange);
  share(ctx, session, payload);
  if (!wantsReply(payload)) {
    // A response to a request another process sent went to it by the bus; not delivered here.
    if (payload.kind === 'message') {
      if (session.awaits(payload.message)) session.deliver(payload.message, info);
    } else if (payload.items.length > 0) session.deliverBatch(payload.items, info);
    const invalid = invalidOf(payload);
    return invalid.length > 0 ? jsonReply(200, invalid) : ACCEPTED;
  }
  const { message } = payload.kind === 'message' ? payload : { message: undefined };
  if (message !== undefined && isRequest(message) && session.inFlight(message.id)) {
    const error = {
      code: ErrorCode.InvalidRequest,
      message: 'request id already in flight',
      id: message.id,
    };
    return errorReply(400, error);
  }
  const reply = new PostReply({
    accept: how.accept,
    mode: ctx.options.responseMode,
    exchange,
    open: session.openPostStream,
    headers: how.headers,
    invalid: invalidOf(payload),
    challenge: ctx.options.auth?.challenge,
  });
  // Spec 2025-11-25 basic/transports#sending-messages-to-the-server: the server may close a POST's
  // stream early and the client polls with Last-Event-ID. Offered when the stream is resumable.
  if (session.resumable && how.accept.sse) info.closeSseStream = disconnecter(reply);
  if (payload.kind === 'message') session.deliver(payload.message, info, reply);
  else session.deliverBatch(payload.items, info, reply);
  return reply.reply;
}

/**
 * What closes `reply`'s stream early. Made here, not written inline as `info.closeSseStream = () =>
 * …`: V8 allocates a function literal assigned to a property in the old generation, and from
 * there it would keep its whole scope, the request, alive past every minor collection (issue
 * #44, bench/RESULTS.md).
 */
function disconnecter(reply: PostReply): () => void {
  return () => {
    reply.disconnect();
  };
}
