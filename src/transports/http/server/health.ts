// The health endpoint (`health` option): a probe for load balancers and orchestrators, answered
// in front of everything else (no Host, Origin or token check: a load balancer probes by IP).
import { messageOf } from '../../../internal/message-of.js';
import type { HttpReply } from './exchange.js';
import { emptyReply, jsonReply, pathOf } from './exchange.js';
import type { HttpMiddleware } from './middleware.js';
import type { ResolvedOptions } from './options.js';

/**
 * Answers `GET`/`HEAD` of the health path: 200 with what the check returns, 503 when it throws or
 * once `closed()` (a closing handler: the load balancer stops sending it requests); 405 for
 * other verbs. Other paths go on.
 */
export function healthEndpoint(
  health: NonNullable<ResolvedOptions['health']>,
  closed: () => boolean,
): HttpMiddleware {
  return (exchange, answer, next) => {
    if (pathOf(exchange.url) !== health.path) {
      next(exchange, answer);
      return;
    }
    void healthReply(closed() ? shuttingDown : health.check, exchange.method).then(answer);
  };
}

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
    const message = messageOf(error);
    const found = (error as { details?: unknown } | null)?.details;
    const extra = typeof found === 'object' && found !== null ? found : {};
    return jsonReply(503, { status: 'unavailable', ...extra, error: message }, headers);
  }
}
