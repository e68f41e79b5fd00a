// Where the gateway's token buckets live: in this process (createMemoryLimitStore), or in Redis
// for several gateway processes behind one load balancer (redis-store.ts).
import type { MaybePromise } from '../../internal/maybe.js';
import type { Bucket } from './rules.js';

/** One bucket a call takes a token from: its key (what it counts) and its shape. */
export interface BucketTake {
  readonly key: string;
  readonly bucket: Bucket;
}

/** What a store answers: `refused` is the index of a bucket that was empty (none was taken). */
export interface TakeResult {
  readonly refused?: number;
  /** When `refused`: how long until that bucket has a token again, in milliseconds. */
  readonly retryAfterMs: number;
}

/**
 * RateLimitStore holds token buckets. `take` takes one token from every bucket given, or from
 * none of them when one is empty (all or nothing, atomically for every process sharing the
 * store), and answers at once when it can (in memory: the Limiter then waits for nothing),
 * else with a promise (Redis). Safe to call concurrently. Throws or rejects when the store
 * cannot answer (Redis down): the gateway then refuses the call (limits it cannot check are
 * not waived). The takes given are the Limiter's own, kept for the next calls: not to be
 * changed.
 */
export interface RateLimitStore {
  take(takes: readonly BucketTake[]): MaybePromise<TakeResult>;
  /** Releases what the store holds (not a connection it was given). Idempotent. */
  close?(): Promise<void>;
}

/** Options of {@link createMemoryLimitStore}. */
export interface MemoryLimitStoreOptions {
  /** The clock, in milliseconds. Default `Date.now`. */
  readonly now?: () => number;
  /** Most buckets kept; past it, full ones are forgotten (a full bucket is as good as none). Default 100,000. */
  readonly maxBuckets?: number;
}

/** A bucket's level when last taken from, in a list from the least recently used. */
interface State {
  tokens: number;
  at: number;
  readonly key: string;
  older: State | undefined;
  newer: State | undefined;
}

/** Token buckets in this process's memory (one gateway process). */
export function createMemoryLimitStore(options: MemoryLimitStoreOptions = {}): RateLimitStore {
  const now = options.now ?? Date.now;
  const maxBuckets = options.maxBuckets ?? 100_000;
  const buckets = new Map<string, State>();
  const used = new UseOrder();
  // One take's levels and states, reused by the next (take runs to its end at once).
  const levels: number[] = [];
  const states: (State | undefined)[] = [];
  /** Makes room when full; whether a bucket was forgotten. */
  const prune = (time: number, room: number): boolean => {
    if (buckets.size < maxBuckets) return false;
    // Buckets refill at their own rates: forget those full now (their shape is not stored, so
    // an entry idle for a day is taken as full), then the least recently used until there is room.
    for (const state of buckets.values()) {
      if (time - state.at > 86_400_000) forget(state);
    }
    while (used.oldest !== undefined && buckets.size >= maxBuckets - room) forget(used.oldest);
    return true;
  };
  const forget = (state: State) => {
    used.unlink(state);
    buckets.delete(state.key);
  };
  return {
    take(takes) {
      const time = now();
      for (let index = 0; index < takes.length; index++) {
        const { key, bucket } = takes[index] as BucketTake;
        const state = buckets.get(key);
        const { capacity, rate, periodMs } = bucket;
        const tokens =
          state === undefined
            ? capacity
            : Math.min(capacity, state.tokens + ((time - state.at) * rate) / periodMs);
        if (tokens < 1) {
          return { refused: index, retryAfterMs: Math.ceil(((1 - tokens) * periodMs) / rate) };
        }
        levels[index] = tokens;
        states[index] = state;
      }
      if (prune(time, takes.length)) {
        for (let index = 0; index < takes.length; index++) {
          if (buckets.get((takes[index] as BucketTake).key) !== states[index]) {
            states[index] = undefined;
          }
        }
      }
      for (let index = 0; index < takes.length; index++) {
        const tokens = (levels[index] as number) - 1;
        const state = states[index];
        if (state === undefined) {
          const { key } = takes[index] as BucketTake;
          const made: State = { tokens, at: time, key, older: undefined, newer: undefined };
          buckets.set(key, made);
          used.append(made);
        } else {
          state.tokens = tokens;
          state.at = time;
          used.touch(state);
        }
      }
      return TAKEN;
    },
  };
}

/** What a store answers when it took a token from every bucket. */
const TAKEN: TakeResult = Object.freeze({ retryAfterMs: 0 });

/** The buckets of a memory store from the least to the most recently used (no Map churn). */
class UseOrder {
  oldest: State | undefined;
  #newest: State | undefined;

  append(state: State): void {
    state.older = this.#newest;
    state.newer = undefined;
    if (this.#newest === undefined) this.oldest = state;
    else this.#newest.newer = state;
    this.#newest = state;
  }

  /** Moves `state` to the most recently used end. */
  touch(state: State): void {
    if (state === this.#newest) return;
    this.unlink(state);
    this.append(state);
  }

  unlink(state: State): void {
    if (state.older === undefined) this.oldest = state.newer;
    else state.older.newer = state.newer;
    if (state.newer === undefined) this.#newest = state.older;
    else state.newer.older = state.older;
  }
}
