// SessionTransport: the Transport of one legacy Streamable HTTP session. It lives across POSTs:
// each POST delivers its messages, and what the server sends is routed to the POST whose request
// it answers or relates to, else to the session's GET stream
// (spec 2025-11-25 basic/transports#listening-for-messages-from-the-server).
import { SlotMap } from '../../../internal/slot-map.js';
import type { BatchItem } from '../../../jsonrpc/codec.js';
import { LocalError, LocalErrorCode } from '../../../jsonrpc/errors.js';
import type { ErrorResponse, Message, RequestId, Response } from '../../../jsonrpc/message.js';
import { isRequest } from '../../../jsonrpc/message.js';
import { Inbox } from '../../../jsonrpc/inbox.js';
import type { MessageInfo, Receiver, SendOptions, Transport } from '../../../jsonrpc/transport.js';
import type { LegacyRevision } from '../../../protocol/version.js';
import { LEGACY_REVISIONS } from '../../../protocol/version.js';
import type { HttpReply, SseChunk } from './exchange.js';
import { emptyReply, refusedReply } from './exchange.js';
import type { EventStore } from './event-store.js';
import type { PostReply } from './reply.js';
import { SESSION_CLOSED, closedBeforeAnswer } from './reply.js';
import type { SessionEntry } from './sessions.js';
import type { OpenStream, StreamHooks } from './streams.js';
import { PlainStream, ResumableStream } from './streams.js';
import { SseWriter } from './sse-writer.js';
import type { SessionChange, SessionRecord } from './session-store.js';
import { withChange } from './session-store.js';
import type { SessionSettings, SharedSessionHooks } from './session-settings.js';
import { BROADCAST, changeOf, requestOf } from './session-changes.js';
import {
  POST_STREAM,
  STANDALONE_STREAM,
  isFinal,
  isStandaloneId,
  randomNonce,
  replayFinished,
} from './session-replay.js';

/** The reply to a POSTed request that was cancelled before it was answered (none will be). */
const UNANSWERED: HttpReply = emptyReply(202);

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
  /** Random, per copy of the session: stream ids stay unique when several processes serve it. */
  #nonce: string | undefined;
  /** The stored record (a session store is set): updated as the client changes what it keeps. */
  record: SessionRecord | undefined;
  /** Requests that change what the session keeps, awaiting their answer (shared sessions). */
  #changes: Map<RequestId, SessionChange> | undefined;
  /** Ids of the requests {@link apply} made up (their answers go nowhere). */
  #applied = 0;

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
    if (this.#settings.shared !== undefined) this.#watch(message);
    if (reply === undefined || !('id' in message && 'method' in message)) {
      this.#inbox.message(message, info);
      return;
    }
    const { id } = message;
    (this.#routes ??= new SlotMap()).set(id, reply);
    if (message.method === 'initialize') this.#initializeId = id;
    // Cancelled: no response will come, so the POST ends (202, or its stream closes). `info` is
    // this POST's own (never shared), and a copy would read its lazy headers.
    info.unanswered = this.#unanswered(id, reply);
    this.#inbox.message(message, info);
  }

  /**
   * What ends request `id`'s POST when no response will come. Returned from here, not written
   * inline as `info.unanswered = () => …`: V8 allocates a function literal assigned to a property
   * in the old generation, where it would keep its scope, the request, alive past every minor
   * collection (issue #44, bench/RESULTS.md).
   */
  #unanswered(id: RequestId, reply: PostReply): () => void {
    return () => {
      if (this.#routes?.get(id) !== reply) return;
      this.#unroute(id);
      reply.abandon(UNANSWERED);
    };
  }

  /** Delivers a POSTed batch; `reply` waits for the array of responses. */
  deliverBatch(items: readonly BatchItem[], info: MessageInfo, reply?: PostReply): void {
    if (this.#inbox.closed) {
      reply?.abandon(SESSION_ENDED);
      return;
    }
    if (this.#settings.shared !== undefined) {
      for (const item of items) if ('message' in item) this.#watch(item.message);
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
  openStandalone(signal: AbortSignal): AsyncIterable<SseChunk> | undefined {
    const current = this.#standalone;
    if (current?.attached === true) return undefined;
    current?.finish();
    this.#settings.shared?.holding(this.id);
    if (this.#settings.store === undefined) {
      const writer = new SseWriter(signal, this.#settings.keepAliveMs, () => {
        this.#settings.touched(this.id);
      });
      this.#standalone = new PlainStream(writer);
      // No priming event without ids, but a first byte so the client sees the stream is open.
      writer.write(': open\n\n');
      return writer;
    }
    const stream = this.#newStream(STANDALONE_STREAM);
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
  ): Promise<AsyncIterable<SseChunk> | undefined> {
    const store = this.#settings.store;
    if (store === undefined) return undefined;
    const replay = await store.replayAfter(lastEventId);
    if (replay === undefined || !replay.streamId.startsWith(`${this.id}/`)) return undefined;
    const shared = this.#settings.shared;
    const stream = this.#streams?.get(replay.streamId);
    if (stream !== undefined) {
      // Back from the process that took it over: this one holds it again.
      if (this.#moved?.delete(replay.streamId) === true) shared?.holding(this.id, replay.streamId);
      return stream.resume(signal, lastEventId);
    }
    if (shared !== undefined && isStandaloneId(replay.streamId, this.id)) {
      // The GET stream another process held (or one that died): this process holds it now.
      this.#standalone?.finish();
      shared.holding(this.id);
      const taken = this.#newStream(STANDALONE_STREAM, replay.streamId);
      this.#standalone = taken;
      return taken.resume(signal, lastEventId);
    }
    if (shared !== undefined && !replay.events.some((event) => isFinal(event.message))) {
      // Another process's POST stream, its response still to come: that process forwards what
      // it sends on it from now on, and this one holds it live until the response.
      shared.holding(this.id, replay.streamId);
      return this.#newStream(POST_STREAM, replay.streamId).resume(signal, lastEventId);
    }
    // The stream finished: replay what followed and end.
    return replayFinished(replay.events, signal);
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
    if (this.#toStandalone(single)) return Promise.resolve();
    const shared = this.#settings.shared;
    // Another process may hold the GET stream. What every process tells its own copies
    // (list_changed, resources/updated: the server's change bus) is not forwarded: the holder's
    // copy sends it.
    if (shared !== undefined && !BROADCAST.has(single.method) && shared.forward(this.id, single)) {
      return Promise.resolve();
    }
    if (!isRequest) return Promise.resolve();
    return Promise.reject(
      new LocalError(LocalErrorCode.NotConnected, 'no open stream to send the request on'),
    );
  }

  /** Sends `message` on the GET stream when this process holds it; false when it does not. */
  #toStandalone(message: Message): boolean {
    const standalone = this.#standalone;
    if (standalone instanceof ResumableStream && !standalone.done) {
      standalone.send(message);
      return true;
    }
    if (standalone instanceof PlainStream && !standalone.writer.closed) {
      standalone.send(message);
      return true;
    }
    return false;
  }

  /**
   * A server message another process forwarded for the GET stream: sent on it when this process
   * holds it (never forwarded again).
   */
  forwarded(message: Message | readonly Message[], streamId?: string): void {
    if (this.#inbox.closed) return;
    if (streamId === undefined) {
      // A request's answer goes to the process that sent it (by the bus), not to this one.
      if (!Array.isArray(message)) this.#toStandalone(message as Message);
      return;
    }
    // A POST stream taken over here: its messages until the response, which ends it.
    const stream = this.#streams?.get(streamId);
    // Taken over again by a third process: it hears the sender itself.
    if (stream === undefined || this.#moved?.has(streamId) === true) return;
    stream.send(message);
    if (isFinal(message)) stream.finish();
  }

  /**
   * Another process holds the GET stream now (or, with `streamId`, that POST stream): this one
   * lets its own go; what it sends on that POST stream from now on is forwarded there.
   */
  release(streamId?: string): void {
    if (streamId === undefined) {
      const standalone = this.#standalone;
      this.#standalone = undefined;
      standalone?.finish();
      return;
    }
    const stream = this.#streams?.get(streamId);
    if (stream === undefined) return;
    (this.#moved ??= new Set()).add(streamId);
    stream.disconnect();
  }

  /** Streams of this copy another process took over (what they carry is forwarded there). */
  #moved: Set<string> | undefined;

  /**
   * The event store of this copy's streams, when the session is shared: nothing is forgotten
   * (the events outlive this copy, they expire in the store) and what a stream another process
   * took over carries goes to that process instead.
   */
  #sharedStore: EventStore | undefined;

  #streamStore(store: EventStore, shared: SharedSessionHooks): EventStore {
    this.#sharedStore ??= {
      append: (streamId, message) => {
        if (message !== null && this.#moved?.has(streamId) === true) {
          shared.forward(this.id, message, streamId);
          return '';
        }
        return store.append(streamId, message);
      },
      replayAfter: (eventId) => store.replayAfter(eventId),
    };
    return this.#sharedStore;
  }

  /**
   * Applies a change another process's client request made, as that request would have: the
   * server is sent it as a request of its own, whose answer goes nowhere.
   */
  apply(change: SessionChange): void {
    if (this.#inbox.closed) return;
    if (this.record !== undefined) this.record = withChange(this.record, change);
    const id = `mcpkit/applied/${String(++this.#applied)}`;
    this.#inbox.message({ jsonrpc: '2.0', id, ...requestOf(change) }, {});
  }

  /** Notes a client request that changes what the session keeps (told once it succeeds). */
  #watch(message: Message): void {
    if (!('method' in message) || !('id' in message)) return;
    const change = changeOf(message.method, message.params);
    if (change !== undefined) (this.#changes ??= new Map()).set(message.id, change);
  }

  /**
   * Ends the session. A POST still waiting is answered 404; one answering on its stream is sent
   * an error response for each request it carries, then ends, so that its client does not wait
   * for an answer (or resume a stream) that cannot come. Resolves once its streams ended, what
   * was sent on them stored and written (the event store may answer asynchronously).
   */
  close(): Promise<void> {
    if (this.#inbox.closed) return Promise.resolve();
    const routes = this.#routes;
    this.#routes = undefined;
    const unanswered = new Map<PostReply, ErrorResponse[]>();
    for (const id of routes?.keys() ?? []) {
      const reply = routes?.get(id) as PostReply;
      const error = closedBeforeAnswer(id, SESSION_CLOSED);
      unanswered.set(reply, [...(unanswered.get(reply) ?? []), error]);
    }
    for (const [reply, errors] of unanswered) {
      reply.abandon(SESSION_ENDED, errors.length === 1 ? errors[0] : errors);
    }
    const ended = [...(this.#streams?.values() ?? [])].map((stream) => stream.close());
    this.#streams = undefined;
    if (this.#standalone instanceof PlainStream) this.#standalone.finish();
    this.#standalone = undefined;
    this.#inbox.close();
    this.#settings.settled?.(this.id);
    return ended.length === 0 ? Promise.resolve() : Promise.all(ended).then(() => undefined);
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
      if (this.#changes !== undefined) this.#changed(r);
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
    this.#settings.settled?.(this.id);
  }

  /** A watched request was answered: on success, the handler tells the other processes. */
  #changed(response: Response): void {
    const changes = this.#changes;
    const change = response.id === null ? undefined : changes?.get(response.id);
    if (changes === undefined || change === undefined || response.id === null) return;
    changes.delete(response.id);
    if (changes.size === 0) this.#changes = undefined;
    if (!('result' in response)) return;
    if (this.record !== undefined) this.record = withChange(this.record, change);
    this.#settings.shared?.changed(this, change);
  }

  #negotiated(response: Response): void {
    this.#initializeId = undefined;
    if (!('result' in response)) return;
    const version = (response.result as { protocolVersion?: unknown } | null)?.protocolVersion;
    const known = LEGACY_REVISIONS.find((r) => r === version);
    if (known !== undefined) this.revision = known;
  }

  /**
   * A new resumable stream: id `<session id>/<kind><nonce>.<n>`, unique across the processes
   * that serve the session (or `id`, a stream another process began).
   */
  #newStream(kind: string = POST_STREAM, id?: string): ResumableStream {
    const store = this.#settings.store as EventStore;
    const { shared } = this.#settings;
    const hooks: StreamHooks = {
      store: shared === undefined ? store : this.#streamStore(store, shared),
      retryMs: this.#settings.retryMs,
      keepAliveMs: this.#settings.keepAliveMs,
      finished: (stream) => {
        this.#streams?.delete(stream.id);
        this.#moved?.delete(stream.id);
      },
      idle: () => {
        this.#settings.touched(this.id);
      },
      report: this.#settings.report,
    };
    this.#nonce ??= randomNonce();
    const streamId = id ?? `${this.id}/${kind}${this.#nonce}.${String(++this.#seq)}`;
    const stream = new ResumableStream(streamId, hooks);
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
