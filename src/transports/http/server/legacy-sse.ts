// The deprecated HTTP+SSE transport of 2024-11-05 (spec 2024-11-05 basic/transports#http-with-sse),
// opt-in: `GET /sse` opens the stream, whose first event names the endpoint to POST messages to;
// every server message, responses included, goes on that one stream.
import { principalKey } from '../../../protocol/auth.js';
import { decodeValue, encode } from '../../../jsonrpc/codec.js';
import { ErrorCode, LocalError, LocalErrorCode } from '../../../jsonrpc/errors.js';
import type { Message } from '../../../jsonrpc/message.js';
import { Inbox } from '../../../jsonrpc/inbox.js';
import type { MessageInfo, Receiver, Transport } from '../../../jsonrpc/transport.js';
import type { HttpContext } from './context.js';
import { ACCEPTED, connectServer, headersInfo, parseJson } from './context.js';
import type { Answer, HttpExchange, HttpReply } from './exchange.js';
import {
  closeSignal,
  errorReply,
  joined,
  jsonReply,
  refusedReply,
  SSE_HEADERS,
} from './exchange.js';
import { checkJsonContentType, parseAccept } from './media-type.js';
import type { SessionEntry } from './sessions.js';
import { newSessionId } from './sessions.js';
import { encodeSseEvent } from '../sse.js';
import { SseWriter } from './sse-writer.js';

/** LegacySseTransport is one 2024-11-05 session: its lifetime is its event stream's. */
class LegacySseTransport implements Transport, SessionEntry {
  readonly id: string;
  readonly kind = 'sse';
  readonly writer: SseWriter;
  readonly #inbox = new Inbox();

  constructor(id: string, writer: SseWriter) {
    this.id = id;
    this.writer = writer;
  }

  get closed(): boolean {
    return this.#inbox.closed;
  }

  isBusy(): boolean {
    return !this.writer.closed;
  }

  start(receiver: Receiver): Promise<void> {
    return this.#inbox.start(receiver);
  }

  /** Delivers one POSTed message. */
  deliver(message: Message, info: MessageInfo): void {
    this.#inbox.message(message, info);
  }

  send(message: Message | readonly Message[]): Promise<void> {
    if (
      this.#inbox.closed ||
      !this.writer.write(encodeSseEvent({ event: 'message', data: encode(message) }))
    ) {
      return Promise.reject(new LocalError(LocalErrorCode.ConnectionClosed, 'stream closed'));
    }
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.#inbox.closed) return Promise.resolve();
    this.writer.end();
    this.#inbox.close();
    return Promise.resolve();
  }
}

/** Serves `GET /sse`: a new session whose first event is `endpoint`. */
export async function openLegacySse(ctx: HttpContext, exchange: HttpExchange): Promise<HttpReply> {
  const legacy = ctx.options.legacySse;
  if (legacy === undefined) throw new TypeError('the HTTP+SSE transport is not enabled');
  if (!parseAccept(joined(exchange.headers['accept'])).sse) {
    return refusedReply(406, 'Accept must allow text/event-stream');
  }
  if (!ctx.sessions.makeRoom()) {
    return errorReply(503, { code: ErrorCode.InternalError, message: 'too many sessions' });
  }
  const id = newSessionId();
  const writer = new SseWriter(closeSignal(exchange), ctx.options.keepAliveMs, () => {
    ctx.sessions.delete(id);
  });
  const transport = new LegacySseTransport(id, writer);
  try {
    await connectServer(ctx.server(exchange), transport, undefined);
  } catch (error) {
    await transport.close();
    throw error;
  }
  ctx.sessions.add(transport, principalKey(exchange.auth));
  writer.write(
    encodeSseEvent({ event: 'endpoint', data: `${legacy.messagesPath}?sessionId=${id}` }),
  );
  return { status: 200, headers: SSE_HEADERS, body: writer };
}

/** Serves `POST /messages?sessionId=…`: 202, and the answer goes on the session's stream. */
export function postLegacySse(ctx: HttpContext, exchange: HttpExchange, answer: Answer): void {
  const query = exchange.url.indexOf('?');
  const params = new URLSearchParams(query === -1 ? '' : exchange.url.slice(query + 1));
  const id = params.get('sessionId');
  if (id === null) {
    answer(refusedReply(400, 'missing sessionId'));
    return;
  }
  const session = ctx.sessions.get(id, 'sse', principalKey(exchange.auth));
  if (!(session instanceof LegacySseTransport)) {
    answer(refusedReply(404, 'session not found'));
    return;
  }
  const refused = checkJsonContentType(joined(exchange.headers['content-type']));
  if (refused !== undefined) {
    answer(refusedReply(415, refused));
    return;
  }
  ctx.withBody(exchange, (bytes) => deliverPosted(exchange, session, bytes), answer);
}

/** Delivers a POSTed message to its session: 202, or why the body is no message. */
function deliverPosted(
  exchange: HttpExchange,
  session: LegacySseTransport,
  bytes: Uint8Array,
): HttpReply {
  const parsed = parseJson(bytes);
  if (!('value' in parsed)) return parsed;
  const decoded = decodeValue(parsed.value);
  if (decoded.kind !== 'message') {
    return jsonReply(400, decoded.kind === 'invalid' ? decoded.response : null);
  }
  session.deliver(decoded.message, headersInfo(exchange));
  return ACCEPTED;
}
