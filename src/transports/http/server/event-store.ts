// Resumability for Streamable HTTP (spec 2025-11-25 basic/transports#resumability-and-redelivery):
// every SSE event of a legacy session gets an id, and what was sent is kept so that a client that
// lost its connection can GET with Last-Event-ID and receive the rest of that stream.
import type { Message } from '../../../jsonrpc/message.js';

/** One stored event: its id and the message it carried. */
export interface StoredEvent {
  readonly id: string;
  readonly message: Message | readonly Message[];
}

/** What {@link EventStore.replayAfter} finds: the stream of an event and what followed it. */
export interface Replay {
  /** The stream the event belongs to. */
  readonly streamId: string;
  /** The messages stored on that stream after the event, oldest first. */
  readonly events: readonly StoredEvent[];
}

/**
 * EventStore keeps the messages sent on resumable SSE streams. The transport calls it in order
 * for each stream (it never calls `append` for one stream concurrently) and may call it for
 * different streams concurrently. Methods may return promises, for stores shared between
 * processes; a store that answers synchronously saves an allocation per event.
 *
 * Stream ids are minted by the transport as `<session id>/<n>`, so a store can drop a session's
 * streams by prefix. Event ids must be unique across the store: a client names one in
 * Last-Event-ID, and the transport checks the stream it belongs to is the client's own.
 */
export interface EventStore {
  /**
   * Stores one message sent on `streamId` and returns the new event's id. A `null` message is a
   * priming event: an id the client can resume from, with nothing to replay.
   */
  append(streamId: string, message: Message | readonly Message[] | null): string | Promise<string>;
  /** The stream `eventId` belongs to and the messages after it; undefined when unknown or expired. */
  replayAfter(eventId: string): Replay | undefined | Promise<Replay | undefined>;
  /** Forgets a stream that will never be resumed (its session ended). Optional. */
  forget?(streamId: string): void | Promise<void>;
}

/** Options of {@link MemoryEventStore}. */
export interface MemoryEventStoreOptions {
  /** The most events kept, across all streams; the oldest go first. Default 10 000. */
  maxEvents?: number;
  /** How long an event is kept, in milliseconds. Default 5 minutes. */
  maxAgeMs?: number;
  /**
   * The most events kept for one session (the streams whose ids share the prefix before their
   * last `/`); past it, that session's own oldest event goes, so one busy session cannot push
   * out the events of others. Default 1 000.
   */
  maxEventsPerSession?: number;
}

interface Entry {
  readonly seq: number;
  readonly streamId: string;
  readonly session: string;
  readonly message: Message | readonly Message[] | null;
  readonly at: number;
}

/**
 * MemoryEventStore is the default {@link EventStore}: bounded in memory by a count and an age,
 * so a client that never resumes costs nothing for long. Event ids are decimal sequence numbers.
 * It serves one process; servers behind a load balancer need a shared store (and sticky sessions,
 * since legacy sessions live in memory).
 */
export class MemoryEventStore implements EventStore {
  readonly #maxEvents: number;
  readonly #maxAgeMs: number;
  readonly #maxPerSession: number;
  /** Every event by sequence number, in append order (Map iteration order). */
  readonly #events = new Map<number, Entry>();
  /** Each stream's events, in append order. */
  readonly #streams = new Map<string, Entry[]>();
  /** Each session's events, in append order. */
  readonly #sessions = new Map<string, Entry[]>();
  #seq = 0;

  constructor(options: MemoryEventStoreOptions = {}) {
    this.#maxEvents = options.maxEvents ?? 10_000;
    this.#maxAgeMs = options.maxAgeMs ?? 300_000;
    this.#maxPerSession = options.maxEventsPerSession ?? 1000;
    if (!(this.#maxEvents >= 1)) throw new TypeError('maxEvents must be at least 1');
    if (!(this.#maxPerSession >= 1)) throw new TypeError('maxEventsPerSession must be at least 1');
    if (!(this.#maxAgeMs > 0)) throw new TypeError('maxAgeMs must be positive');
  }

  /** The number of events held. */
  get size(): number {
    return this.#events.size;
  }

  append(streamId: string, message: Message | readonly Message[] | null): string {
    const now = Date.now();
    this.#prune(now);
    const slash = streamId.lastIndexOf('/');
    const session = slash < 0 ? streamId : streamId.slice(0, slash);
    const entry: Entry = { seq: ++this.#seq, streamId, session, message, at: now };
    this.#events.set(entry.seq, entry);
    listOf(this.#streams, streamId).push(entry);
    const own = listOf(this.#sessions, session);
    own.push(entry);
    if (own.length > this.#maxPerSession) this.#drop(own[0] as Entry);
    while (this.#events.size > this.#maxEvents) this.#dropOldest();
    return String(entry.seq);
  }

  replayAfter(eventId: string): Replay | undefined {
    this.#prune(Date.now());
    if (!/^[1-9][0-9]{0,15}$/.test(eventId)) return undefined;
    const entry = this.#events.get(Number(eventId));
    if (entry === undefined) return undefined;
    const stream = this.#streams.get(entry.streamId) ?? [];
    const events: StoredEvent[] = [];
    for (const e of stream) {
      if (e.seq > entry.seq && e.message !== null) {
        events.push({ id: String(e.seq), message: e.message });
      }
    }
    return { streamId: entry.streamId, events };
  }

  forget(streamId: string): void {
    const stream = this.#streams.get(streamId);
    if (stream === undefined) return;
    for (const e of [...stream]) this.#drop(e);
  }

  #prune(now: number): void {
    const cutoff = now - this.#maxAgeMs;
    for (const entry of this.#events.values()) {
      if (entry.at > cutoff) return;
      this.#dropOldest();
    }
  }

  #dropOldest(): void {
    const first = this.#events.values().next();
    if (first.done !== true) this.#drop(first.value);
  }

  /** Removes one event, which is the oldest of its stream and of its session, or forgotten. */
  #drop(entry: Entry): void {
    this.#events.delete(entry.seq);
    unlist(this.#streams, entry.streamId, entry);
    unlist(this.#sessions, entry.session, entry);
  }
}

/** The list under `key`, made when missing. */
function listOf(lists: Map<string, Entry[]>, key: string): Entry[] {
  let list = lists.get(key);
  if (list === undefined) {
    list = [];
    lists.set(key, list);
  }
  return list;
}

/** Takes `entry` out of the list under `key` (at its head, usually), and the list once empty. */
function unlist(lists: Map<string, Entry[]>, key: string, entry: Entry): void {
  const list = lists.get(key);
  if (list === undefined) return;
  if (list[0] === entry) list.shift();
  else {
    const at = list.indexOf(entry);
    if (at >= 0) list.splice(at, 1);
  }
  if (list.length === 0) lists.delete(key);
}
