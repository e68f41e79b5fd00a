// The gateway's rate limits and concurrency caps (docs/gateway.md, "Rate limits").
export type { Bucket, RateLimitRules, RatePeriod } from './rules.js';
export { parseRateLimits } from './rules.js';
export type { BucketTake, MemoryLimitStoreOptions, RateLimitStore, TakeResult } from './store.js';
export { createMemoryLimitStore } from './store.js';
export type { RedisEvalLike, RedisLimitStoreOptions } from './redis-store.js';
export { createRedisLimitStore } from './redis-store.js';
export type { LimitedCall, Refusal } from './limiter.js';
export { Limiter, RETRY_AFTER_META } from './limiter.js';
export { rateLimits } from './middleware.js';
