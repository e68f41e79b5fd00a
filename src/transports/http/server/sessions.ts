// The table of legacy sessions (spec 2025-11-25 basic/transports#session-management): ids from a
// CSPRNG, idle expiry, and a cap. Expiry is checked as requests arrive, not by a timer, so the
// table works on runtimes that forbid timers outside a request (Workers).

/** A session in the table: when it was used last, and the principal it belongs to. */
interface Entry {
  readonly session: SessionEntry;
  lastUsed: number;
  /** principalKey of who opened it (auth gate on), else undefined. */
  readonly owner: string | undefined;
}

/** What the table needs of a session. */
export interface SessionEntry {
  /** The session id. */
  readonly id: string;
  /** Which transport the session belongs to: Streamable HTTP, or the deprecated HTTP+SSE. */
  readonly kind: 'streamable' | 'sse';
  /** True once the session ended (its server may close it too): the table then forgets it. */
  readonly closed: boolean;
  /** True while a request is in flight or a stream is open: such a session never expires. */
  isBusy(): boolean;
  /** Ends the session: its connection closes and its streams end. Idempotent. */
  close(): Promise<void>;
}

/**
 * A new session id: 128 bits from the platform CSPRNG, as 32 lower-case hex digits (visible
 * ASCII, as the spec requires).
 */
export function newSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  // join makes one flat string; `+=` would keep a tree of 15 cons strings per session (~600 B).
  return Array.from(bytes, (byte) => HEX[byte]).join('');
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * SessionTable holds the live sessions by id, least recently used first. A session not used for
 * `idleMs` and not busy is closed on the next sweep. When the table is full, `makeRoom` closes
 * the least recently used idle session; it fails only when every session is busy.
 *
 * Choosing that session takes constant time (amortized), however many sessions are busy: a
 * session found busy is set apart until it is used again, or until its session tells the table
 * it may have gone idle without a use ({@link settled}); so no session is walked past twice.
 */
export class SessionTable {
  /** Every live session, by id. */
  readonly #entries = new Map<string, Entry>();
  /** The sessions not set apart as busy, least recently used first: where victims are sought. */
  readonly #idle = new Map<string, Entry>();
  /** The sessions a search for a victim found busy, until used again or settled. */
  readonly #busy = new Map<string, Entry>();
  /**
   * Sessions set apart as busy that went idle without a use, in the order they did: each was
   * used less recently than every session in #idle, so they are the first victims.
   */
  readonly #settled = new Map<string, Entry>();
  readonly #max: number;
  readonly #idleMs: number;
  readonly #onError: (error: unknown, where: string) => void;
  #lastSweep = 0;
  /** The id of the last entry of #idle (the one used last), when known. */
  #newest: string | undefined;

  constructor(
    limits: { max: number; idleMs: number },
    onError: (error: unknown, where: string) => void,
  ) {
    this.#max = limits.max;
    this.#idleMs = limits.idleMs;
    this.#onError = onError;
  }

  /** The number of live sessions. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * The session with `id` of `kind`, marked as just used; undefined when unknown, expired, or
   * owned by another principal than `owner` (a session id is useless with another's token).
   */
  get(id: string, kind: SessionEntry['kind'], owner?: string): SessionEntry | undefined {
    const entry = this.#entries.get(id);
    if (entry?.session.kind !== kind || entry.owner !== owner) return undefined;
    const now = Date.now();
    if (entry.session.closed || (now - entry.lastUsed > this.#idleMs && !entry.session.isBusy())) {
      this.delete(id);
      return undefined;
    }
    this.#used(id, entry, now);
    return entry.session;
  }

  /** Marks a session as used now (a stream of it ended, say). */
  touch(id: string): void {
    const entry = this.#entries.get(id);
    if (entry === undefined) return;
    this.#used(id, entry, Date.now());
  }

  /**
   * Tells the table that session `id` may have gone idle without being used (a request of it
   * ended while the client was away, it closed): a session set apart as busy becomes a victim
   * again, in the place its last use gives it. Cheap when nothing is set apart.
   */
  settled(id: string): void {
    if (this.#busy.size === 0) return;
    const entry = this.#busy.get(id);
    if (entry === undefined || !this.#evictable(entry)) return;
    this.#busy.delete(id);
    this.#settled.set(id, entry);
  }

  /**
   * Records a use. Re-inserting keeps #idle ordered by last use; the newest entry stays where it
   * is, so that one busy session does not churn the map on every request (each delete-and-set
   * leaves a deleted slot behind, and a full table is copied anew).
   */
  #used(id: string, entry: Entry, now: number): void {
    entry.lastUsed = now;
    if (this.#newest === id) return;
    if (!this.#idle.delete(id) && !this.#busy.delete(id)) this.#settled.delete(id);
    this.#idle.set(id, entry);
    this.#newest = id;
  }

  /** The session `id` this process holds, whoever owns it, without marking it used. */
  peek(id: string): SessionEntry | undefined {
    return this.#entries.get(id)?.session;
  }

  /** The ids of the sessions this process holds. */
  ids(): IterableIterator<string> {
    return this.#entries.keys();
  }

  /** True when this process holds session `id` (whoever owns it). */
  knows(id: string): boolean {
    return this.#entries.has(id);
  }

  /** Adds a session, bound to the principal `owner` when given; call `makeRoom` first. */
  add(session: SessionEntry, owner?: string): void {
    const entry: Entry = { session, lastUsed: Date.now(), owner };
    this.#forget(session.id);
    this.#entries.set(session.id, entry);
    this.#idle.set(session.id, entry);
    this.#newest = session.id;
  }

  /** Removes and closes a session. False when it was not there. */
  delete(id: string): boolean {
    const entry = this.#entries.get(id);
    if (entry === undefined) return false;
    this.#forget(id);
    this.#close(entry.session);
    return true;
  }

  /** Removes session `id` from every map, without closing it. */
  #forget(id: string): void {
    if (!this.#entries.delete(id)) return;
    if (!this.#idle.delete(id) && !this.#busy.delete(id)) this.#settled.delete(id);
    if (this.#newest === id) this.#newest = undefined;
  }

  /**
   * Frees a slot when the table is full by closing the least recently used idle session. The
   * busy sessions it passes are set apart, so the next search starts after them.
   */
  makeRoom(): boolean {
    if (this.#entries.size < this.#max) return true;
    const victim = this.#firstEvictable(this.#settled) ?? this.#firstEvictable(this.#idle);
    if (victim === undefined) return false;
    this.delete(victim);
    return true;
  }

  /** The first evictable session of `map`; the busy ones before it go to #busy. */
  #firstEvictable(map: Map<string, Entry>): string | undefined {
    for (const [id, entry] of map) {
      if (this.#evictable(entry)) return id;
      this.#setApart(map, id, entry);
    }
    return undefined;
  }

  #evictable(entry: Entry): boolean {
    return entry.session.closed || !entry.session.isBusy();
  }

  /** Closes expired sessions; runs at most once a second, however often it is called. */
  sweep(): void {
    if (this.#entries.size === 0) return;
    const now = Date.now();
    if (now - this.#lastSweep < 1000) return;
    this.#lastSweep = now;
    this.#sweep(this.#settled, now, false);
    this.#sweep(this.#idle, now, true);
    // Those set apart too: one that went idle unannounced still expires.
    this.#sweep(this.#busy, now, true);
  }

  /**
   * Closes the expired idle sessions of `map`; the expired busy ones are set apart (so that the
   * next sweep does not walk past them again). In an `ordered` map (by last use) the first fresh
   * entry ends the scan.
   */
  #sweep(map: Map<string, Entry>, now: number, ordered: boolean): void {
    for (const [id, entry] of map) {
      if (now - entry.lastUsed <= this.#idleMs) {
        if (ordered) return;
        continue;
      }
      if (!entry.session.isBusy()) this.delete(id);
      else if (map !== this.#busy) this.#setApart(map, id, entry);
    }
  }

  /** Moves a session found busy from `map` to #busy. */
  #setApart(map: Map<string, Entry>, id: string, entry: Entry): void {
    map.delete(id);
    this.#busy.set(id, entry);
    if (this.#newest === id) this.#newest = undefined;
  }

  /** Closes every session. */
  async closeAll(): Promise<void> {
    const sessions = [...this.#entries.values()].map((e) => e.session);
    for (const map of [this.#entries, this.#idle, this.#busy, this.#settled]) map.clear();
    this.#newest = undefined;
    await Promise.all(sessions.map((s) => this.#closeAwaited(s)));
  }

  #close(session: SessionEntry): void {
    void this.#closeAwaited(session);
  }

  async #closeAwaited(session: SessionEntry): Promise<void> {
    try {
      await session.close();
    } catch (error) {
      this.#onError(error, 'session close');
    }
  }
}
