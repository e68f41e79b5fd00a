// The deprecated HTTP+SSE transport of 2024-11-05 (spec 2024-11-05 basic/transports#http-with-sse),
// opt-in: `GET /sse` opens the stream, whose first event names the endpoint to POST messages to;
// every server message, responses included, goes on that one stream.
import { IdMap } from '../../../internal/id-map.js';
import type { LiveEntry } from '../../../internal/live-set.js';
import { principalKey } from '../../../protocol/auth.js';
import { decodeValue, encode } from '../../../jsonrpc/codec.js';
import { ErrorCode, LocalError, LocalErrorCode } from '../../../jsonrpc/errors.js';
import type { Message, RequestId } from '../../../jsonrpc/message.js';
import { isRequest } from '../../../jsonrpc/message.js';
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
import { SESSION_CLOSED, closedBeforeAnswer } from './reply.js';
import type { SessionEntry } from './sessions.js';
import { newSessionId } from './sessions.js';
import { encodeSseEvent } from '../sse.js';
import { SseWriter } from './sse-writer.js';
import { endWithRetry } from './streams.js';

/**
 * LegacySseTransport is one 2024-11-05 session: its lifetime is its event stream's. While a
 * request is in flight it is one of the handler's open requests: a graceful close lets it finish
 * within the grace period, then closes the session.
 */
class LegacySseTransport implements Transport, SessionEntry {
  readonly id: string;
  readonly kind = 'sse';
  readonly writer: SseWriter;
  readonly #inbox = new Inbox();
  readonly #ctx: HttpContext;
  /**
   * The requests delivered and not answered yet, each id with how many are (a request reusing an
   * id in flight is refused with a response of that id, which answers only itself); an IdMap, for
   * its entries churn. Made on first use.
   */
  #inFlight: IdMap<number> | undefined;
  /** Its entry in the handler's open requests, while a request is in flight. */
  #open: LiveEntry<{ close(): Promise<void> }> | undefined;

  constructor(id: string, writer: SseWriter, ctx: HttpContext) {
    this.id = id;
    this.writer = writer;
    this.#ctx = ctx;
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
    if (isRequest(message) && !this.#inbox.closed) {
      const inFlight = (this.#inFlight ??= new IdMap());
      inFlight.set(message.id, (inFlight.get(message.id) ?? 0) + 1);
      this.#open ??= this.#ctx.open.add(this);
      // Cancelled: no response will come. `info` is this POST's own (never shared).
      info.unanswered = this.#unanswered(message.id);
    }
    this.#inbox.message(message, info);
  }

  send(message: Message | readonly Message[]): Promise<void> {
    if (this.#inFlight !== undefined) {
      if (Array.isArray(message)) for (const each of message as Message[]) this.#answered(each);
      else this.#answered(message as Message);
    }
    if (this.#inbox.closed || !this.#write(message)) {
      return Promise.reject(new LocalError(LocalErrorCode.ConnectionClosed, 'stream closed'));
    }
    return Promise.resolve();
  }

  /**
   * Ends the session: each request in flight is sent an error response (none will be answered),
   * then the stream ends with a `retry` hint.
   */
  close(): Promise<void> {
    if (this.#inbox.closed) return Promise.resolve();
    for (const id of this.#inFlight?.keys() ?? []) {
      this.#write(closedBeforeAnswer(id, SESSION_CLOSED));
    }
    this.#inFlight = undefined;
    this.#settled();
    endWithRetry(this.writer, this.#ctx.options.retryMs);
    this.#inbox.close();
    return Promise.resolve();
  }

  #write(message: Message | readonly Message[]): boolean {
    return this.writer.write(encodeSseEvent({ event: 'message', data: encode(message) }));
  }

  /**
   * What forgets request `id` when it is cancelled. Returned from here, not written inline as
   * `info.unanswered = () => …`: V8 allocates a function literal assigned to a property in the
   * old generation, where it would keep its scope alive (issue #44, bench/RESULTS.md).
   */
  #unanswered(id: RequestId): () => void {
    return () => {
      this.#forget(id);
    };
  }

  /** Forgets the request `message` answers, if it is a response to one in flight. */
  #answered(message: Message): void {
    if (!('method' in message) && message.id !== null) this.#forget(message.id);
  }

  /** Counts one request of `id` as answered; the last one answered leaves the open requests. */
  #forget(id: RequestId): void {
    const inFlight = this.#inFlight;
    const count = inFlight?.get(id);
    if (inFlight === undefined || count === undefined) return;
    if (count > 1) inFlight.set(id, count - 1);
    else if (inFlight.delete(id) && inFlight.size === 0) this.#settled();
  }

  /** Leaves the handler's open requests: nothing is in flight. */
  #settled(): void {
    if (this.#open === undefined) return;
    this.#ctx.open.delete(this.#open);
    this.#open = undefined;
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
  const transport = new LegacySseTransport(id, writer, ctx);
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
