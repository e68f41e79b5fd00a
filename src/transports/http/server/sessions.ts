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
 */
export class SessionTable {
  readonly #entries = new Map<string, Entry>();
  readonly #max: number;
  readonly #idleMs: number;
  readonly #onError: (error: unknown, where: string) => void;
  #lastSweep = 0;
  /** The id of the last entry of #entries (the one used last), when known. */
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
   * Records a use. Re-inserting keeps the map ordered by last use; the newest entry stays where
   * it is, so that one busy session does not churn the map on every request (each delete-and-set
   * leaves a deleted slot behind, and a full table is copied anew).
   */
  #used(id: string, entry: Entry, now: number): void {
    entry.lastUsed = now;
    if (this.#newest === id) return;
    this.#entries.delete(id);
    this.#entries.set(id, entry);
    this.#newest = id;
  }

  /** The session `id` this process holds, whoever owns it, without marking it used. */
  peek(id: string): SessionEntry | undefined {
    return this.#entries.get(id)?.session;
  }

  /** The ids of the sessions this process holds, least recently used first. */
  ids(): IterableIterator<string> {
    return this.#entries.keys();
  }

  /** True when this process holds session `id` (whoever owns it). */
  knows(id: string): boolean {
    return this.#entries.has(id);
  }

  /** Adds a session, bound to the principal `owner` when given; call `makeRoom` first. */
  add(session: SessionEntry, owner?: string): void {
    this.#entries.set(session.id, { session, lastUsed: Date.now(), owner });
    this.#newest = session.id;
  }

  /** Removes and closes a session. False when it was not there. */
  delete(id: string): boolean {
    const entry = this.#entries.get(id);
    if (entry === undefined) return false;
    this.#entries.delete(id);
    if (this.#newest === id) this.#newest = undefined;
    this.#close(entry.session);
    return true;
  }

  /** Frees a slot when the table is full by closing the least recently used idle session. */
  makeRoom(): boolean {
    if (this.#entries.size < this.#max) return true;
    for (const [id, entry] of this.#entries) {
      if (entry.session.closed || !entry.session.isBusy()) {
        this.delete(id);
        return true;
      }
    }
    return false;
  }

  /** Closes expired sessions; runs at most once a second, however often it is called. */
  sweep(): void {
    if (this.#entries.size === 0) return;
    const now = Date.now();
    if (now - this.#lastSweep < 1000) return;
    this.#lastSweep = now;
    for (const [id, entry] of this.#entries) {
      // Ordered by last use: the first fresh entry ends the scan.
      if (now - entry.lastUsed <= this.#idleMs) return;
      if (!entry.session.isBusy()) this.delete(id);
    }
  }

  /** Closes every session. */
  async closeAll(): Promise<void> {
    const sessions = [...this.#entries.values()].map((e) => e.session);
    this.#entries.clear();
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
