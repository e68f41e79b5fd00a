// GET on the MCP endpoint: a legacy session's stream for server-initiated messages, or the
// resumption of an interrupted stream with Last-Event-ID (spec 2025-11-25
// basic/transports#listening-for-messages-from-the-server, #resumability-and-redelivery).
// 2026-07-28 has neither: GET is 405 there, as in legacy stateless mode.
import { MODERN_REVISIONS } from '../../../protocol/version.js';
import type { HttpContext } from './context.js';
import type { HttpExchange, HttpReply } from './exchange.js';
import { closeSignal, emptyReply, joined, refusedReply, SSE_HEADERS } from './exchange.js';
import { parseAccept } from './media-type.js';
import { sessionOf } from './legacy-session.js';

/** True when a request without a body says it speaks 2026-07-28 (sessionless). */
export function isModernHeader(exchange: HttpExchange): boolean {
  const version = joined(exchange.headers['mcp-protocol-version']);
  return version !== undefined && (MODERN_REVISIONS as readonly string[]).includes(version);
}

/** The 405 of a verb the endpoint does not serve in this configuration. */
export function notAllowed(ctx: HttpContext): HttpReply {
  return emptyReply(405, { allow: ctx.options.sessions ? 'GET, POST, DELETE' : 'POST' });
}

/** Serves a GET to the MCP endpoint. */
export async function handleGet(ctx: HttpContext, exchange: HttpExchange): Promise<HttpReply> {
  if (!ctx.options.sessions || isModernHeader(exchange)) return notAllowed(ctx);
  if (!parseAccept(joined(exchange.headers['accept'])).sse) {
    return refusedReply(406, 'Accept must allow text/event-stream');
  }
  const session = sessionOf(ctx, exchange, null);
  if ('status' in session) return session;
  const lastEventId = joined(exchange.headers['last-event-id']);
  if (lastEventId !== undefined && session.resumable) {
    const body = await session.resume(lastEventId, closeSignal(exchange));
    if (body === undefined) {
      return refusedReply(400, 'unknown or expired Last-Event-ID');
    }
    return { status: 200, headers: SSE_HEADERS, body };
  }
  const body = session.openStandalone(closeSignal(exchange));
  if (body === undefined) return refusedReply(409, 'this session already has a GET stream open');
  return { status: 200, headers: SSE_HEADERS, body };
}
