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

/** Options of {@link MemoryEventStore}. Every bound is a count of events. */
export interface MemoryEventStoreOptions {
  /**
   * The most events kept, across all streams. When it is reached, the oldest event of the session
   * holding the most events goes first, so a busy session evicts its own events before anyone
   * else's. Default 10 000.
   */
  maxEvents?: number;
  /** The most events kept per stream; a stream over it loses its own oldest. Default 1 000. */
  maxEventsPerStream?: number;
  /** How long an event is kept, in milliseconds. Default 5 minutes. */
  maxAgeMs?: number;
}

interface Entry {
  readonly seq: number;
  readonly stream: Stream;
  /** Cleared when the entry is dropped, so that a dropped entry still queued holds no message. */
  message: Message | readonly Message[] | null;
  readonly at: number;
  dropped: boolean;
}

/** One stream's events, in append order. */
interface Stream {
  readonly id: string;
  readonly owner: Owner;
  readonly entries: Entry[];
}

/**
 * The streams of one session (the part of their ids before the last `/`): its events in append
 * order, dropped ones included until they are skipped or compacted away, and how many it holds.
 */
interface Owner {
  readonly key: string;
  queue: Entry[];
  head: number;
  size: number;
}

/** The session part of a stream id `<session id>/<n>`; an id without `/` is its own session. */
function ownerKey(streamId: string): string {
  const slash = streamId.lastIndexOf('/');
  return slash > 0 ? streamId.slice(0, slash) : streamId;
}

/**
 * MemoryEventStore is the default {@link EventStore}: bounded in memory by counts and an age, so
 * a client that never resumes costs nothing for long, and one session cannot push out the events
 * of the others. Each stream keeps at most `maxEventsPerStream` (its oldest go first); the whole
 * store keeps at most `maxEvents`, and when that is reached the session that holds the most events
 * (over all its streams) loses its oldest. Event ids are decimal sequence numbers. It serves one
 * process; servers behind a load balancer need a shared store (and sticky sessions, since legacy
 * sessions live in memory).
 */
export class MemoryEventStore implements EventStore {
  readonly #maxEvents: number;
  readonly #maxEventsPerStream: number;
  readonly #maxAgeMs: number;
  /** Every event by sequence number, in append order (Map iteration order). */
  readonly #events = new Map<number, Entry>();
  readonly #streams = new Map<string, Stream>();
  readonly #owners = new Map<string, Owner>();
  /** Sessions by how many events they hold, so that the largest is found at once. */
  readonly #bySize = new Map<number, Set<Owner>>();
  #largest = 0;
  #seq = 0;

  constructor(options: MemoryEventStoreOptions = {}) {
    this.#maxEvents = options.maxEvents ?? 10_000;
    this.#maxEventsPerStream = options.maxEventsPerStream ?? 1_000;
    this.#maxAgeMs = options.maxAgeMs ?? 300_000;
    if (!(this.#maxEvents >= 1)) throw new TypeError('maxEvents must be at least 1');
    if (!(this.#maxEventsPerStream >= 1)) {
      throw new TypeError('maxEventsPerStream must be at least 1');
    }
    if (!(this.#maxAgeMs > 0)) throw new TypeError('maxAgeMs must be positive');
  }

  /** The number of events held. */
  get size(): number {
    return this.#events.size;
  }

  append(streamId: string, message: Message | readonly Message[] | null): string {
    const now = Date.now();
    this.#prune(now);
    const stream = this.#streams.get(streamId) ?? this.#newStream(streamId);
    const entry: Entry = { seq: ++this.#seq, stream, message, at: now, dropped: false };
    this.#events.set(entry.seq, entry);
    stream.entries.push(entry);
    stream.owner.queue.push(entry);
    this.#resize(stream.owner, 1);
    while (stream.entries.length > this.#maxEventsPerStream) {
      const oldest = stream.entries[0];
      if (oldest === undefined) break;
      this.#drop(oldest);
    }
    while (this.#events.size > this.#maxEvents) this.#dropFromLargest();
    return String(entry.seq);
  }

  replayAfter(eventId: string): Replay | undefined {
    this.#prune(Date.now());
    if (!/^[1-9][0-9]{0,15}$/.test(eventId)) return undefined;
    const entry = this.#events.get(Number(eventId));
    if (entry === undefined) return undefined;
    const events: StoredEvent[] = [];
    for (const e of entry.stream.entries) {
      if (e.seq > entry.seq && e.message !== null) {
        events.push({ id: String(e.seq), message: e.message });
      }
    }
    return { streamId: entry.stream.id, events };
  }

  forget(streamId: string): void {
    const stream = this.#streams.get(streamId);
    if (stream === undefined) return;
    for (const entry of [...stream.entries]) this.#drop(entry);
  }

  #newStream(id: string): Stream {
    const key = ownerKey(id);
    let owner = this.#owners.get(key);
    if (owner === undefined) {
      owner = { key, queue: [], head: 0, size: 0 };
      this.#owners.set(key, owner);
    }
    const stream: Stream = { id, owner, entries: [] };
    this.#streams.set(id, stream);
    return stream;
  }

  #prune(now: number): void {
    const cutoff = now - this.#maxAgeMs;
    for (const entry of this.#events.values()) {
      if (entry.at > cutoff) return;
      this.#drop(entry);
    }
  }

  /** Drops the oldest event of the session that holds the most. */
  #dropFromLargest(): void {
    const owner = this.#bySize.get(this.#largest)?.values().next().value;
    if (owner === undefined) return;
    // The queue's first entry is live: dropped ones are skipped as they reach the front.
    const oldest = owner.queue[owner.head];
    if (oldest !== undefined) this.#drop(oldest);
  }

  /**
   * Drops one event. It is its stream's oldest unless the whole stream goes (forget), which
   * drops from the front too; within its session it may sit anywhere, so there it is marked.
   */
  #drop(entry: Entry): void {
    if (entry.dropped) return;
    entry.dropped = true;
    entry.message = null;
    this.#events.delete(entry.seq);
    const { stream } = entry;
    if (stream.entries[0] === entry) stream.entries.shift();
    else stream.entries.splice(stream.entries.indexOf(entry), 1);
    if (stream.entries.length === 0) this.#streams.delete(stream.id);
    const { owner } = stream;
    this.#resize(owner, -1);
    if (owner.size === 0) {
      this.#owners.delete(owner.key);
      return;
    }
    const { queue } = owner;
    while (queue[owner.head]?.dropped === true) owner.head++;
    // Compacts when dropped entries outnumber live ones: amortized O(1) per drop.
    if (queue.length - owner.head > 2 * owner.size + 16) {
      owner.queue = queue.slice(owner.head).filter((e) => !e.dropped);
      owner.head = 0;
    }
  }

  /**
   * Moves a session to the bucket of its new size, keeping the largest size current. Emptied
   * buckets are kept for reuse (at most one per size up to maxEvents): a session that appends
   * and is trimmed moves between the same two every time.
   */
  #resize(owner: Owner, delta: number): void {
    this.#bySize.get(owner.size)?.delete(owner);
    owner.size += delta;
    if (owner.size > 0) {
      const to = this.#bySize.get(owner.size);
      if (to === undefined) this.#bySize.set(owner.size, new Set([owner]));
      else to.add(owner);
    }
    if (owner.size > this.#largest) this.#largest = owner.size;
    while (this.#largest > 0 && (this.#bySize.get(this.#largest)?.size ?? 0) === 0) {
      this.#largest--;
    }
  }
}
