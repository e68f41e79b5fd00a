// Token buckets in Redis, for several gateway processes behind one load balancer: one Lua script
// checks every bucket of a call and takes a token from each, or from none, atomically, on
// Redis's own clock (the processes' clocks never meet). node-redis (the optional peer `redis`) is
// the connection; connectRedis of mcpkit/stores/redis makes one.
import type { RateLimitStore } from './store.js';

/** The part of a node-redis client the store uses. */
export interface RedisEvalLike {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** Options of {@link createRedisLimitStore}. */
export interface RedisLimitStoreOptions {
  /** The prefix of every key. Default `mcpkit:gateway:limits`. */
  readonly prefix?: string;
}

// KEYS: the buckets. ARGV: capacity, rate and period (ms) of each bucket in turn. Returns
// {0, 0} when a token was taken from each, else {index (1-based), ms until it has one}.
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local levels = {}
for i, key in ipairs(KEYS) do
  local capacity = tonumber(ARGV[i * 3 - 2])
  local rate = tonumber(ARGV[i * 3 - 1])
  local period = tonumber(ARGV[i * 3])
  local state = redis.call('HMGET', key, 'tokens', 'at')
  local tokens = tonumber(state[1])
  local at = tonumber(state[2])
  if tokens == nil or at == nil then
    tokens = capacity
  else
    tokens = math.min(capacity, tokens + (now - at) * rate / period)
  end
  if tokens < 1 then
    return {i, math.ceil((1 - tokens) * period / rate)}
  end
  levels[i] = tokens
end
for i, key in ipairs(KEYS) do
  local capacity = tonumber(ARGV[i * 3 - 2])
  local rate = tonumber(ARGV[i * 3 - 1])
  local period = tonumber(ARGV[i * 3])
  redis.call('HSET', key, 'tokens', tostring(levels[i] - 1), 'at', tostring(now))
  redis.call('PEXPIRE', key, math.ceil(capacity * period / rate) + 1000)
end
return {0, 0}
`;

/**
 * Token buckets shared by every gateway process given the same Redis and prefix. A key expires
 * once its bucket would be full again, so idle principals cost nothing. Rejects when Redis does
 * not answer (the gateway then refuses the call, saying so).
 */
export function createRedisLimitStore(
  redis: RedisEvalLike,
  options: RedisLimitStoreOptions = {},
): RateLimitStore {
  const prefix = options.prefix ?? 'mcpkit:gateway:limits';
  return {
    async take(takes) {
      if (takes.length === 0) return { retryAfterMs: 0 };
      const keys = takes.map((take) => `${prefix}:${take.key}`);
      const args = takes.flatMap(({ bucket }) => [
        String(bucket.capacity),
        String(bucket.rate),
        String(bucket.periodMs),
      ]);
      const answer = (await redis.eval(TAKE, { keys, arguments: args })) as unknown[];
      const index = Number(answer[0]);
      const retryAfterMs = Number(answer[1]);
      if (!Number.isInteger(index) || !Number.isFinite(retryAfterMs)) {
        throw new Error(
          'Redis answered the rate-limit script with something else than two numbers',
        );
      }
      return index === 0 ? { retryAfterMs: 0 } : { refused: index - 1, retryAfterMs };
    },
  };
}
