// Where the gateway's token buckets live: in this process (createMemoryLimitStore), or in Redis
// for several gateway processes behind one load balancer (redis-store.ts).
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
 * store). Safe to call concurrently. Rejects when the store cannot answer (Redis down): the
 * gateway then refuses the call (limits it cannot check are not waived).
 */
export interface RateLimitStore {
  take(takes: readonly BucketTake[]): Promise<TakeResult>;
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

/** Token buckets in this process's memory (one gateway process). */
export function createMemoryLimitStore(options: MemoryLimitStoreOptions = {}): RateLimitStore {
  const now = options.now ?? Date.now;
  const maxBuckets = options.maxBuckets ?? 100_000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  const level = (take: BucketTake, time: number): number => {
    const state = buckets.get(take.key);
    const { capacity, rate, periodMs } = take.bucket;
    if (state === undefined) return capacity;
    return Math.min(capacity, state.tokens + ((time - state.at) * rate) / periodMs);
  };
  const prune = (time: number, takes: readonly BucketTake[]) => {
    if (buckets.size < maxBuckets) return;
    // Buckets refill at their own rates: forget those full now (their shape is not stored, so
    // an entry idle for a day is taken as full), then the oldest until there is room.
    for (const [key, state] of buckets) {
      if (time - state.at > 86_400_000) buckets.delete(key);
    }
    for (const key of buckets.keys()) {
      if (buckets.size < maxBuckets - takes.length) break;
      buckets.delete(key);
    }
  };
  return {
    take(takes) {
      const time = now();
      const levels = takes.map((take) => level(take, time));
      const refused = levels.findIndex((tokens) => tokens < 1);
      if (refused >= 0) {
        const { bucket } = takes[refused] as BucketTake;
        const missing = 1 - (levels[refused] as number);
        return Promise.resolve({
          refused,
          retryAfterMs: Math.ceil((missing * bucket.periodMs) / bucket.rate),
        });
      }
      prune(time, takes);
      takes.forEach((take, index) => {
        buckets.delete(take.key);
        buckets.set(take.key, { tokens: (levels[index] as number) - 1, at: time });
      });
      return Promise.resolve({ retryAfterMs: 0 });
    },
  };
}
