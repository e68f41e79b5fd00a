// POSTs served on a connection of their own: 2026-07-28 requests (spec 2026-07-28
// transports/streamable-http: no sessions) and legacy stateless mode. The client going away
// cancels the request: the connection closes and the handler's `ctx.signal` aborts.
import type { Message, Response } from '../../../jsonrpc/message.js';
import { isRequest } from '../../../jsonrpc/message.js';
import type { Connectable, ConnectOptions } from '../../../protocol/connectable.js';
import { MetaKey } from '../../../protocol/version.js';
import type { HttpContext, Payload } from './context.js';
import { ACCEPTED, connectServer, invalidOf, signalInfo, wantsReply } from './context.js';
import { EphemeralTransport } from './ephemeral.js';
import type { HttpExchange, HttpReply } from './exchange.js';
import { errorReply, jsonReply, watchClose } from './exchange.js';
import type { Acceptable } from './media-type.js';
import { plainStream, serveAlone } from './post-alone.js';
import { PostReply, REQUEST_CLOSED } from './post-reply.js';
import { headerMismatch } from './standard-headers.js';

/**
 * The HTTP status of a 2026-07-28 error answered as JSON (spec 2026-07-28
 * transports/streamable-http#request-metadata): header, capability and version errors are 400,
 * an unknown method 404; other errors are 200 like results.
 */
export function modernStatus(response: Response): number {
  if (!('error' in response)) return 200;
  switch (response.error.code) {
    case -32020: // HeaderMismatch
    case -32021: // MissingRequiredClientCapability
    case -32022: // UnsupportedProtocolVersion
      return 400;
    case -32601: // MethodNotFound
      return 404;
    default:
      return 200;
  }
}

/** Serves a 2026-07-28 POST: checks the standard headers, then serves it on its own. */
export function serveModern(
  ctx: HttpContext,
  exchange: HttpExchange,
  post: { accept: Acceptable; message: Message; version: unknown; id: string | number | null },
): HttpReply | Promise<HttpReply> {
  const { message, version } = post;
  // A version that is not a string is the server's -32602 to give.
  if (typeof version === 'string' && 'method' in message) {
    const required = 'id' in message;
    const mismatch = headerMismatch(exchange.headers, message, { revision: version, required });
    if (mismatch !== undefined) {
      return errorReply(400, { code: -32020, message: mismatch, id: post.id });
    }
    // Spec 2026-07-28 (SEP-2575): a request without client capabilities is -32602 with HTTP 400.
    const capabilities = required ? metaOf(message)[MetaKey.ClientCapabilities] : {};
    if (typeof capabilities !== 'object' || capabilities === null || Array.isArray(capabilities)) {
      const problem = capabilities === undefined ? 'is required' : 'must be an object';
      const text = `_meta["${MetaKey.ClientCapabilities}"] ${problem}`;
      return errorReply(400, { code: -32602, message: text, id: post.id });
    }
  }
  const payload: Payload = { kind: 'message', message };
  return serveEphemeral(ctx, exchange, { accept: post.accept, payload, status: modernStatus });
}

/** The `_meta` of a message whose `_meta` names a protocol version (so it is an object). */
function metaOf(message: Message): Record<string, unknown> {
  const params = 'params' in message ? (message.params as Record<string, unknown>) : {};
  return params['_meta'] as Record<string, unknown>;
}

/** Settled once: `then` on it runs a function in the next microtask without node's AsyncResource. */
const RESOLVED = Promise.resolve();

/** How a POST served without a session is to be answered. */
interface EphemeralPost {
  accept: Acceptable;
  payload: Payload;
  options?: ConnectOptions;
  status?: (response: Response) => number;
}

/**
 * Serves a POST without a session: a single request alone when the server can (synchronously
 * when the server answers at once), anything else on a fresh connection that closes once it is
 * answered or the client leaves.
 */
export function serveEphemeral(
  ctx: HttpContext,
  exchange: HttpExchange,
  how: EphemeralPost,
): HttpReply | Promise<HttpReply> {
  const { payload } = how;
  // A response to a request of a connection that no longer exists: nothing can take it.
  if (payload.kind === 'message' && !('method' in payload.message)) return ACCEPTED;
  if (payload.kind !== 'message' || !isRequest(payload.message)) {
    return serveOnConnection(ctx, exchange, how);
  }
  // One request: served alone when the server can, with no transport or connection.
  const server = ctx.server(exchange);
  if ('then' in server) return serveOnConnection(ctx, exchange, { ...how, server });
  const alone = serveAlone(ctx, exchange, {
    server,
    accept: how.accept,
    request: payload.message,
    options: how.options,
    status: how.status,
  });
  return alone ?? serveOnConnection(ctx, exchange, { ...how, server });
}

/** Serves a POST on a fresh connection that closes once it is answered or the client leaves. */
async function serveOnConnection(
  ctx: HttpContext,
  exchange: HttpExchange,
  how: EphemeralPost & { server?: Connectable | Promise<Connectable> },
): Promise<HttpReply> {
  const { payload, server } = how;
  const close = (): void => {
    void ephemeral.close();
  };
  const ephemeral = new EphemeralTransport((closed) => {
    ctx.open.delete(closed);
    unwatch();
    reply?.abandon(REQUEST_CLOSED);
  });
  const reply = wantsReply(payload)
    ? new PostReply({
        accept: how.accept,
        mode: ctx.options.responseMode,
        exchange,
        open: plainStream(ctx.options.keepAliveMs),
        status: how.status,
        invalid: invalidOf(payload),
        done: () => {
          void RESOLVED.then(close);
        },
      })
    : undefined;
  ephemeral.reply = reply;
  ctx.open.add(ephemeral);
  const unwatch = watchClose(exchange, close);
  try {
    await connectServer(server ?? ctx.server(exchange), ephemeral, how.options);
  } catch (error) {
    close();
    throw error;
  }
  // The exchange's signal is made only if the handler reads it (AbortSignals are costly).
  const info = signalInfo(exchange);
  if (payload.kind === 'message') ephemeral.deliver(payload.message, info);
  else ephemeral.deliverBatch(payload.items, info);
  if (reply !== undefined) return await reply.reply; // one hop; returning the promise takes three
  close();
  const invalid = invalidOf(payload);
  return invalid.length > 0 ? jsonReply(200, invalid) : ACCEPTED;
}
