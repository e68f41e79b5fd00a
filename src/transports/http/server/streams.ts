// The two kinds of SSE stream a reply can be: a plain one that lives and dies with its HTTP
// response, and a resumable one (legacy sessions) whose events are stored with ids so that a
// client can reconnect with Last-Event-ID (spec 2025-11-25 basic/transports#resumability-and-redelivery).
import { encode, encodePieces } from '../../../jsonrpc/codec.js';
import type { Message } from '../../../jsonrpc/message.js';
import type { EventStore } from './event-store.js';
import type { SseChunk } from './exchange.js';
import { encodeSseEvent } from '../sse.js';
import { SseWriter } from './sse-writer.js';

/** Where a reply that switched to SSE sends its messages. */
export interface StreamSink {
  /** Sends one message (or a batch of responses) as one event. */
  send(message: Message | readonly Message[]): void;
  /** The stream is complete: end it once what was sent is out. */
  finish(): void;
  /** Closes the HTTP response without ending the stream: the client polls (resumable only). */
  disconnect(): void;
  /** True while a client connection is reading the stream. */
  readonly attached: boolean;
}

/**
 * Writes the SSE event of `message` (with `id`, if any) to `writer`: what encodeSseEvent makes of
 * its text, a large text given in pieces (JSON_PIECES) written piece by piece, not joined into
 * one string, and a large escaped text as its UTF-8 bytes, as the node face's JSON body is (issue
 * #44). Pieces hold no line break, so the event is one `data:` line.
 */
function writeEvent(writer: SseWriter, message: Message | readonly Message[], id?: string): void {
  const pieces = encodePieces(message, true);
  if (typeof pieces === 'string') {
    writer.write(encodeSseEvent(id === undefined ? { data: pieces } : { id, data: pieces }));
    return;
  }
  const head = encodeSseEvent(id === undefined ? { data: '' } : { id, data: '' }).slice(0, -2);
  writer.write(head);
  const last = pieces.length - 1;
  for (let i = 0; i < last; i++) writer.write(pieces[i] as SseChunk);
  const end = pieces[last] ?? '';
  if (typeof end === 'string') {
    writer.write(`${end}\n\n`);
  } else {
    writer.write(end);
    writer.write('\n\n');
  }
}

/** Opens the SSE stream of a reply: returns where to send and the reply body. */
export type OpenStream = (signal: AbortSignal) => {
  sink: StreamSink;
  body: AsyncIterable<SseChunk>;
};

/** PlainStream is an SSE stream without ids: what is sent while the client is away is lost. */
export class PlainStream implements StreamSink {
  readonly writer: SseWriter;

  constructor(writer: SseWriter) {
    this.writer = writer;
  }

  get attached(): boolean {
    return !this.writer.closed;
  }

  send(message: Message | readonly Message[]): void {
    writeEvent(this.writer, message, undefined);
  }

  finish(): void {
    this.writer.end();
  }

  disconnect(): void {
    this.writer.end();
  }
}

/** What a {@link ResumableStream} needs from its session. */
export interface StreamHooks {
  readonly store: EventStore;
  readonly retryMs: number;
  readonly keepAliveMs: number;
  /** The stream finished and has no connection left: the session may forget it. */
  finished(stream: ResumableStream): void;
  /** A connection of the stream closed (for idle tracking). */
  idle(): void;
  /** Reports a store failure. */
  report(error: unknown, where: string): void;
}

type Task = () => void | Promise<void>;

/** Runs `then` on a value that may be a promise, without a microtask when it is not. */
function after<TValue>(
  value: TValue | Promise<TValue>,
  then: (value: TValue) => void,
): Promise<void> | undefined {
  if (value instanceof Promise) return value.then(then);
  then(value);
  return undefined;
}

/**
 * ResumableStream is one logical SSE stream of a legacy session (a POST's reply, or the GET
 * stream). Every event goes through the event store first, then to the live connection if there
 * is one; a connection that closes early loses nothing. Store calls and connection changes run
 * one at a time in order, so a resumed client sees every event exactly once.
 */
export class ResumableStream implements StreamSink {
  readonly id: string;
  readonly #hooks: StreamHooks;
  #live: SseWriter | undefined;
  #done = false;
  readonly #tasks: Task[] = [];
  #running = false;

  constructor(id: string, hooks: StreamHooks) {
    this.id = id;
    this.#hooks = hooks;
  }

  /** True while a client connection is attached. */
  get attached(): boolean {
    return this.#live !== undefined;
  }

  /** True once the stream is complete (its final response was stored). */
  get done(): boolean {
    return this.#done;
  }

  /** Opens the first connection: a priming event (an id and empty data) with the retry hint. */
  open(signal: AbortSignal): SseWriter {
    const writer = this.#writer(signal);
    this.#live = writer;
    this.#run(() =>
      after(this.#hooks.store.append(this.id, null), (id) => {
        writer.write(encodeSseEvent({ id, retry: this.#hooks.retryMs, data: '' }));
      }),
    );
    return writer;
  }

  /**
   * Attaches a reconnecting client: the events after `lastEventId` are replayed, then the
   * connection goes live (replacing an older one) or, when the stream is done, ends.
   */
  resume(signal: AbortSignal, lastEventId: string): SseWriter {
    const writer = this.#writer(signal);
    this.#run(() =>
      after(this.#hooks.store.replayAfter(lastEventId), (replay) => {
        for (const event of replay?.events ?? []) {
          writer.write(encodeSseEvent({ id: event.id, data: encode(event.message) }));
        }
        if (this.#done) {
          writer.end();
          return;
        }
        const old = this.#live;
        this.#live = writer;
        old?.end();
      }),
    );
    return writer;
  }

  send(message: Message | readonly Message[]): void {
    this.#run(() =>
      after(this.#hooks.store.append(this.id, message), (id) => {
        if (this.#live !== undefined) writeEvent(this.#live, message, id);
      }),
    );
  }

  finish(): void {
    this.#run(() => {
      this.#done = true;
      const live = this.#live;
      this.#live = undefined;
      live?.end();
      this.#hooks.finished(this);
    });
  }

  disconnect(): void {
    this.#run(() => {
      const live = this.#live;
      this.#live = undefined;
      live?.end();
    });
  }

  /**
   * Ends the stream for good (its session ended): the connection ends, the events are dropped.
   * Resolves once that is done, so after what was sent before it reached the store and the
   * connection (with a store that answers asynchronously, some time later); never rejects.
   */
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.#run(async () => {
        try {
          this.#done = true;
          const live = this.#live;
          this.#live = undefined;
          live?.end();
          await this.#hooks.store.forget?.(this.id);
        } finally {
          resolve();
        }
      });
    });
  }

  #writer(signal: AbortSignal): SseWriter {
    const writer: SseWriter = new SseWriter(signal, this.#hooks.keepAliveMs, () => {
      if (this.#live === writer) this.#live = undefined;
      this.#hooks.idle();
    });
    return writer;
  }

  #run(task: Task): void {
    this.#tasks.push(task);
    if (!this.#running) void this.#drain();
  }

  async #drain(): Promise<void> {
    this.#running = true;
    let task = this.#tasks.shift();
    while (task !== undefined) {
      try {
        const pending = task();
        if (pending !== undefined) await pending;
      } catch (error) {
        this.#hooks.report(error, `event store (stream ${this.id})`);
      }
      task = this.#tasks.shift();
    }
    this.#running = false;
  }
}

/** Opens a plain (not resumable) SSE stream for a reply; one function per keep-alive length. */
export function plainStream(keepAliveMs: number): OpenStream {
  let open = openers.get(keepAliveMs);
  if (open === undefined) {
    open = (signal) => {
      const writer = new SseWriter(signal, keepAliveMs);
      return { sink: new PlainStream(writer), body: writer };
    };
    openers.set(keepAliveMs, open);
  }
  return open;
}

const openers = new Map<number, OpenStream>();

/**
 * Ends an SSE reply with a `retry` field and no data (SSE: no event is dispatched, the client
 * only learns how soon to reconnect): the client reconnects, to another process behind a load
 * balancer, and a resumable stream resumes there from the event store with Last-Event-ID.
 */
export function endWithRetry(writer: SseWriter, retryMs: number): void {
  writer.write(`retry: ${String(Math.max(0, Math.floor(retryMs)))}\n\n`);
  writer.end();
}

/**
 * The SSE replies a handler has given, for its shutdown: GET streams (a session's stream for
 * server messages, a resumed stream) end as soon as it closes; POST streams carry a request in
 * flight and are let finish within the grace period. (The HTTP+SSE stream is not one of them:
 * its session ends it.) Ended writers are dropped as more are added, so the table stays about as
 * large as what is open.
 */
export class OpenStreams {
  /** Each writer, and whether it answers a GET. */
  readonly #writers = new Map<SseWriter, boolean>();
  #limit = 64;

  add(writer: SseWriter, isGet: boolean): void {
    if (writer.closed) return;
    if (this.#writers.size >= this.#limit) {
      for (const each of this.#writers.keys()) if (each.closed) this.#writers.delete(each);
      this.#limit = Math.max(64, this.#writers.size * 2);
    }
    this.#writers.set(writer, isGet);
  }

  /** True while a POST stream is open (a request in flight). */
  get posting(): boolean {
    for (const [writer, isGet] of this.#writers) if (!isGet && !writer.closed) return true;
    return false;
  }

  /** Ends the GET streams (or every stream) still open with a `retry` hint. */
  end(retryMs: number, all: boolean): void {
    for (const [writer, isGet] of this.#writers) {
      if (!isGet && !all) continue;
      this.#writers.delete(writer);
      if (!writer.closed) endWithRetry(writer, retryMs);
    }
  }
}

/**
 * The event store of a handler whose sessions live on in a session store: once `closing()` is
 * true, `forget` does nothing, so that the streams of the sessions it closes stay resumable (from
 * another process) until the store expires them. Every other call goes to `store`.
 */
export function keptOnClose(store: EventStore, closing: () => boolean): EventStore {
  return {
    append: (streamId, message) => store.append(streamId, message),
    replayAfter: (eventId) => store.replayAfter(eventId),
    forget: (streamId) => (closing() ? undefined : store.forget?.(streamId)),
  };
}
