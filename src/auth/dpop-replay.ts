// Where a DPoP checker remembers the proofs it has taken, so that none is taken twice (RFC 9449
// section 11.1): in memory (one process, the default), or in a shared store when several
// processes serve as one (`createRedisDpopReplayStore` of mcpkit/stores/redis), so that a proof
// taken by one is refused by every other.

/** Remembers the proofs a DPoP checker has taken. */
export interface DpopReplayStore {
  /**
   * Records `key` (a digest of the proof's key and `jti`) for `ttlMs` milliseconds. Resolves
   * true when it was not recorded yet, false when it was (a replay). Rejects when the store
   * cannot record it now: the request then gets 503, never a replay taken.
   */
  remember(key: string, ttlMs: number): Promise<boolean>;
}

/** Options of {@link createMemoryDpopReplayStore}. */
export interface MemoryDpopReplayStoreOptions {
  /**
   * Most proofs remembered at once (each until it can no longer pass). When that many could all
   * still pass, a new proof is refused with 503 rather than one forgotten. Default 100 000.
   */
  readonly maxEntries?: number;
}

/** The in-memory store, and how many proofs it holds. */
export interface MemoryDpopReplayStore extends DpopReplayStore {
  readonly size: number;
}

/** A store in this process's memory. Throws TypeError for a `maxEntries` that is not positive. */
export function createMemoryDpopReplayStore(
  options: MemoryDpopReplayStoreOptions = {},
): MemoryDpopReplayStore {
  const maxEntries = options.maxEntries ?? 100_000;
  if (!(Number.isSafeInteger(maxEntries) && maxEntries > 0)) {
    throw new TypeError(`maxEntries must be a positive integer, got ${String(maxEntries)}`);
  }
  const until = new Map<string, number>(); // key → when it may be forgotten (ms), in insertion order
  /** Drops the expired entries at the front: those recorded first expire about first. */
  const sweep = (now: number): void => {
    for (const [key, expiry] of until) {
      if (expiry > now) return;
      until.delete(key);
    }
  };
  return {
    get size() {
      return until.size;
    },
    remember(key, ttlMs) {
      const now = Date.now();
      const expiry = until.get(key);
      if (expiry !== undefined && expiry > now) return Promise.resolve(false);
      until.delete(key);
      if (until.size >= maxEntries) sweep(now);
      if (until.size >= maxEntries) {
        return Promise.reject(
          new Error(`the DPoP replay cache is full (${String(maxEntries)} proofs that still pass)`),
        );
      }
      until.set(key, now + ttlMs);
      return Promise.resolve(true);
    },
  };
}
