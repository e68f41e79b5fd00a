// SessionTransport: the Transport of one legacy Streamable HTTP session. It lives across POSTs:
// each POST delivers its messages, and what the server sends is routed to the POST whose request
// it answers or relates to, else to the session's GET stream
// (spec 2025-11-25 basic/transports#listening-for-messages-from-the-server).
import { SlotMap } from '../../../internal/slot-map.js';
import type { BatchItem } from '../../../jsonrpc/codec.js';
import { encode } from '../../../jsonrpc/codec.js';
import { LocalError, LocalErrorCode } from '../../../jsonrpc/errors.js';
import type { Message, RequestId, Response } from '../../../jsonrpc/message.js';
import { isRequest } from '../../../jsonrpc/message.js';
import { Inbox } from '../../../jsonrpc/inbox.js';
import type { MessageInfo, Receiver, SendOptions, Transport } from '../../../jsonrpc/transport.js';
import type { LegacyRevision } from '../../../protocol/version.js';
import { LEGACY_REVISIONS } from '../../../protocol/version.js';
import type { HttpReply } from './exchange.js';
import { refusedReply } from './exchange.js';
import type { EventStore } from './event-store.js';
import type { PostReply } from './reply.js';
import type { SessionEntry } from './sessions.js';
import type { OpenStream, StreamHooks } from './streams.js';
import { PlainStream, ResumableStream } from './streams.js';
import { encodeSseEvent } from '../sse.js';
import { SseWriter } from './sse-writer.js';

/** Settings shared by every session of one handler. */
export interface SessionSettings {
  readonly store: EventStore | undefined;
  readonly retryMs: number;
  readonly keepAliveMs: number;
  readonly report: (error: unknown, where: string) => void;
  /** A stream of the session closed (the session may now be idle). */
  readonly touched: (id: string) => void;
}

/** The reply a POST gets when its session ends before answering. */
const SESSION_ENDED: HttpReply = refusedReply(404, 'session terminated');

/** The reply to a batch when the connected server takes none. */
const NO_BATCHES: HttpReply = refusedReply(400, 'invalid request: batches are not supported');

/**
 * SessionTransport carries one legacy session. Contract as for every Transport; in addition
 * `deliver` hands it a POST's messages, with the reply that waits for their answers.
 */
export class SessionTransport implements Transport, SessionEntry {
  readonly id: string;
  readonly kind = 'streamable';
  /** The revision `initialize` negotiated, once answered. */
  revision: LegacyRevision | undefined;
  readonly #settings: SessionSettings;
  readonly #inbox = new Inbox();
  /** The POST waiting for each in-flight request's response. */
  #routes: SlotMap<RequestId, PostReply> | undefined;
  /** Unfinished resumable streams, by id. */
  #streams: Map<string, ResumableStream> | undefined;
  /** The GET stream, if one was opened. */
  #standalone: ResumableStream | PlainStream | undefined;
  #initializeId: RequestId | undefined;
  #seq = 0;

  constructor(id: string, settings: SessionSettings) {
    this.id = id;
    this.#settings = settings;
  }

  /** True once the session ended. */
  get closed(): boolean {
    return this.#inbox.closed;
  }

  /** True when the streams of this session can be resumed (an event store is set). */
  get resumable(): boolean {
    return this.#settings.store !== undefined;
  }

  start(receiver: Receiver): Promise<void> {
    return this.#inbox.start(receiver);
  }

  /**
   * True while a client is attached: a POST awaits its answer, or a stream has a connection. A
   * session whose requests only wait on a client that hung up (an elicitation nobody answers)
   * is not busy: it expires when idle, and is the first to go when the table is full.
   */
  isBusy(): boolean {
    for (const reply of this.#routes?.values() ?? []) if (reply.attached) return true;
    if (this.#standalone?.attached === true) return true;
    for (const stream of this.#streams?.values() ?? []) if (stream.attached) return true;
    return false;
  }

  /** Ids of the requests sent to the client and not answered yet (made on first use). */
  #asked: Set<RequestId> | undefined;

  /**
   * True when `message` is for this process to take: anything but a response to a request this
   * session did not send (with a shared session store, another process sent it).
   */
  awaits(message: Message): boolean {
    if ('method' in message) return true;
    return message.id !== null && this.#asked?.has(message.id) === true;
  }

  /** True when a request with `id` is in flight (a second one would be ambiguous). */
  inFlight(id: RequestId): boolean {
    return this.#routes?.has(id) === true;
  }

  /** Delivers one POSTed message; `reply` waits for its response when it is a request. */
  deliver(message: Message, info: MessageInfo, reply?: PostReply): void {
    if (this.#inbox.closed) {
      reply?.abandon(SESSION_ENDED);
      return;
    }
    if (!('method' in message) && message.id !== null) this.#asked?.delete(message.id);
    if (reply !== undefined && 'id' in message && 'method' in message) {
      (this.#routes ??= new SlotMap()).set(message.id, reply);
      if (message.method === 'initialize') this.#initializeId = message.id;
    }
    this.#inbox.message(message, info);
  }

  /** Delivers a POSTed batch; `reply` waits for the array of responses. */
  deliverBatch(items: readonly BatchItem[], info: MessageInfo, reply?: PostReply): void {
    if (this.#inbox.closed) {
      reply?.abandon(SESSION_ENDED);
      return;
    }
    if (reply !== undefined) {
      for (const item of items) {
        if ('message' in item && 'id' in item.message && 'method' in item.message) {
          (this.#routes ??= new SlotMap()).set(item.message.id, reply);
        }
      }
    }
    this.#inbox.batch(items, info, () => {
      this.#refuseBatch(items, reply);
    });
  }

  /** Opens the SSE stream of a POST's reply (resumable when an event store is set). */
  readonly openPostStream: OpenStream = (signal) => {
    if (this.#settings.store === undefined) {
      const writer = new SseWriter(signal, this.#settings.keepAliveMs, () => {
        this.#settings.touched(this.id);
      });
      return { sink: new PlainStream(writer), body: writer };
    }
    const stream = this.#newStream();
    return { sink: stream, body: stream.open(signal) };
  };

  /** Opens the GET stream; undefined when one is already connected (409). */
  openStandalone(signal: AbortSignal): AsyncIterable<string> | undefined {
    const current = this.#standalone;
    if (current?.attached === true) return undefined;
    current?.finish();
    if (this.#settings.store === undefined) {
      const writer = new SseWriter(signal, this.#settings.keepAliveMs, () => {
        this.#settings.touched(this.id);
      });
      this.#standalone = new PlainStream(writer);
      // No priming event without ids, but a first byte so the client sees the stream is open.
      writer.write(': open\n\n');
      return writer;
    }
    const stream = this.#newStream();
    this.#standalone = stream;
    return stream.open(signal);
  }

  /**
   * Resumes the stream `lastEventId` belongs to on a new connection (GET with Last-Event-ID).
   * Undefined when the id is unknown, expired, or another session's.
   */
  async resume(
    lastEventId: string,
    signal: AbortSignal,
  ): Promise<AsyncIterable<string> | undefined> {
    const store = this.#settings.store;
    if (store === undefined) return undefined;
    const replay = await store.replayAfter(lastEventId);
    if (replay === undefined || !replay.streamId.startsWith(`${this.id}/`)) return undefined;
    const stream = this.#streams?.get(replay.streamId);
    if (stream !== undefined) return stream.resume(signal, lastEventId);
    // The stream finished: replay what followed and end.
    const writer = new SseWriter(signal, 0);
    for (const event of replay.events) {
      writer.write(encodeSseEvent({ id: event.id, data: encode(event.message) }));
    }
    writer.end();
    return writer;
  }

  send(message: Message | readonly Message[], options?: SendOptions): Promise<void> {
    if (this.#inbox.closed) {
      return Promise.reject(new LocalError(LocalErrorCode.ConnectionClosed, 'session closed'));
    }
    if (Array.isArray(message)) {
      this.#answer(message as readonly Response[]);
      return Promise.resolve();
    }
    const single = message as Message;
    if (!('method' in single)) {
      this.#answer(single);
      return Promise.resolve();
    }
    if ('id' in single) (this.#asked ??= new Set()).add(single.id);
    const related = options?.relatedRequestId;
    const route = related === undefined ? undefined : this.#routes?.get(related);
    if (route?.push(single) === true) return Promise.resolve();
    const isRequest = 'id' in single;
    // A related notification that its JSON-only POST cannot carry is dropped; requests and
    // unrelated messages use the GET stream.
    if (route !== undefined && !isRequest) return Promise.resolve();
    const standalone = this.#standalone;
    if (standalone instanceof ResumableStream && !standalone.done) {
      standalone.send(single);
      return Promise.resolve();
    }
    if (standalone instanceof PlainStream && !standalone.writer.closed) {
      standalone.send(single);
      return Promise.resolve();
    }
    if (!isRequest) return Promise.resolve();
    return Promise.reject(
      new LocalError(LocalErrorCode.NotConnected, 'no open stream to send the request on'),
    );
  }

  close(): Promise<void> {
    if (this.#inbox.closed) return Promise.resolve();
    for (const reply of new Set(this.#routes?.values())) reply.abandon(SESSION_ENDED);
    this.#routes = undefined;
    for (const stream of this.#streams?.values() ?? []) stream.close();
    this.#streams = undefined;
    if (this.#standalone instanceof PlainStream) this.#standalone.finish();
    this.#standalone = undefined;
    this.#inbox.close();
    return Promise.resolve();
  }

  #answer(response: Response | readonly Response[]): void {
    const responses: readonly Response[] = Array.isArray(response)
      ? response
      : [response as Response];
    let reply: PostReply | undefined;
    for (const r of responses) {
      if (r.id === null) continue;
      reply ??= this.#routes?.get(r.id);
      this.#unroute(r.id);
      if (r.id === this.#initializeId) this.#negotiated(r);
    }
    reply?.final(response);
    if (reply !== undefined && this.#routes === undefined) this.#settings.touched(this.id);
  }

  /** Forgets a request's route; the map goes once empty (an idle session holds none). */
  #unroute(id: RequestId): void {
    const routes = this.#routes;
    if (routes === undefined) return;
    routes.delete(id);
    if (routes.size === 0) this.#routes = undefined;
  }

  #negotiated(response: Response): void {
    this.#initializeId = undefined;
    if (!('result' in response)) return;
    const version = (response.result as { protocolVersion?: unknown } | null)?.protocolVersion;
    const known = LEGACY_REVISIONS.find((r) => r === version);
    if (known !== undefined) this.revision = known;
  }

  #newStream(): ResumableStream {
    const hooks: StreamHooks = {
      store: this.#settings.store as EventStore,
      retryMs: this.#settings.retryMs,
      keepAliveMs: this.#settings.keepAliveMs,
      finished: (stream) => {
        this.#streams?.delete(stream.id);
      },
      idle: () => {
        this.#settings.touched(this.id);
      },
      report: this.#settings.report,
    };
    const stream = new ResumableStream(`${this.id}/${String(++this.#seq)}`, hooks);
    (this.#streams ??= new Map()).set(stream.id, stream);
    return stream;
  }

  /** Answers a batch the connected server takes none of (400), forgetting its requests. */
  #refuseBatch(items: readonly BatchItem[], reply: PostReply | undefined): void {
    reply?.abandon(NO_BATCHES);
    for (const item of items) {
      const m = 'message' in item ? item.message : undefined;
      if (m !== undefined && isRequest(m)) this.#unroute(m.id);
    }
  }
}
