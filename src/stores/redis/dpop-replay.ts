// A DpopReplayStore in Redis (mcpkit/stores/redis): `SET NX PX` per proof, so that a proof taken
// by one process is refused by every other sharing the Redis (RFC 9449 section 11.1). It takes a
// connected node-redis client (the optional peer `redis`), typed structurally.
import type { DpopReplayStore } from '../../auth/index.js';

/** The command of a node-redis client the Redis store uses. */
export interface RedisSetNxLike {
  set(
    key: string,
    value: string,
    options: { condition: 'NX'; expiration: { type: 'PX'; value: number } },
  ): Promise<unknown>;
}

/** Options of {@link createRedisDpopReplayStore}. */
export interface RedisDpopReplayStoreOptions {
  readonly client: RedisSetNxLike;
  /** Prefix of every key. Default `mcpkit:dpop`. */
  readonly prefix?: string;
}

/**
 * A store in Redis shared by every process given the same client and prefix: one key per proof,
 * set with `SET NX PX` (only the first process to record a proof takes it) and expiring when
 * the proof can no longer pass. A Redis that fails or does not answer rejects (503).
 */
export function createRedisDpopReplayStore(options: RedisDpopReplayStoreOptions): DpopReplayStore {
  const { client } = options;
  const prefix = options.prefix ?? 'mcpkit:dpop';
  return {
    async remember(key, ttlMs) {
      const answer = await client.set(`${prefix}:${key}`, '1', {
        condition: 'NX',
        expiration: { type: 'PX', value: Math.max(1, Math.ceil(ttlMs)) },
      });
      return answer !== null;
    },
  };
}
