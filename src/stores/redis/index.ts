// mcpkit/redis: what several mcpkit processes share through Redis (node-redis, an optional peer):
// the task store (tasks made on one process, read, answered and cancelled through any), the
// event store of resumable SSE streams (a client resumes on any process) and the session store
// (a legacy session opened on one process is resumed on any other, its events carried between
// them), the change bus (list changes and resource updates reach every process's clients) and
// the DPoP replay store (a proof taken by one process is refused by every other).
// See docs/tasks.md and docs/transports.md.
export type {
  RedisClientLike,
  RedisSetOptions,
  RedisSubscriberLike,
  RedisTaskStore,
  RedisTaskStoreOptions,
} from '../server/tasks/redis.js';
export { createRedisTaskStore } from '../server/tasks/redis.js';
export type {
  RedisEventStoreOptions,
  RedisStreamClientLike,
} from '../transports/http/server/redis-event-store.js';
export { createRedisEventStore } from '../transports/http/server/redis-event-store.js';
export type {
  RedisBusSubscriberLike,
  RedisKeyValueLike,
  RedisSessionStoreOptions,
} from '../transports/http/server/redis-session-store.js';
export { createRedisSessionStore } from '../transports/http/server/redis-session-store.js';
export type { ConnectRedisOptions, RedisConnection, RedisConnectionState } from './connect.js';
export { RedisTimeoutError, RedisUnavailableError, connectRedis } from './connect.js';
export type { RedisHealthCheckOptions, RedisPingLike } from './health.js';
export { HealthCheckError, redisHealthCheck } from './health.js';
export type {
  RedisChangeBusOptions,
  RedisChannelSubscriberLike,
  RedisPublisherLike,
} from '../server/redis-change-bus.js';
export { createRedisChangeBus } from '../server/redis-change-bus.js';
export type { RedisDpopReplayStoreOptions, RedisSetNxLike } from '../auth/dpop-replay.js';
export { createRedisDpopReplayStore } from '../auth/dpop-replay.js';
