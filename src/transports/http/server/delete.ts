// DELETE on the MCP endpoint ends a legacy session (spec 2025-11-25
// basic/transports#session-management); later requests naming it get 404.
import type { MaybePromise } from '../../../internal/maybe.js';
import type { HttpContext } from './context.js';
import type { HttpExchange, HttpReply } from './exchange.js';
import { emptyReply } from './exchange.js';
import { isModernHeader, notAllowed } from './get.js';
import { sessionOf } from './legacy-session.js';

const ENDED: HttpReply = emptyReply(200);

/**
 * Serves a DELETE to the MCP endpoint; with a session store, the record goes too and the other
 * processes are told to drop their copies.
 */
export function handleDelete(ctx: HttpContext, exchange: HttpExchange): MaybePromise<HttpReply> {
  if (!ctx.options.sessions || isModernHeader(exchange)) return notAllowed(ctx);
  const session = sessionOf(ctx, exchange, null);
  if ('status' in session) return session;
  const { id } = session;
  ctx.sessions.delete(id);
  const store = ctx.options.sessionStore;
  if (store === undefined) return ENDED;
  // Every process that resumed it drops its copy too.
  return store
    .delete(id)
    .then(() => store.publish?.(id, { type: 'ended' }))
    .then(() => ENDED);
}
