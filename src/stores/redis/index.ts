// mcpkit/stores/redis: what several mcpkit processes share through Redis (node-redis, an optional
// peer): the task store (tasks made on one process, read, answered and cancelled through any),
// the event store of resumable SSE streams (a client resumes on any process) and the session
// store (a legacy session opened on one process is resumed on any other, its events carried
// between them), the change bus (list changes and resource updates reach every process's
// clients), the DPoP replay store (a proof taken by one process is refused by every other), the
// connection they share and the health check. `mcpkit/redis` is this same entry (docs/migration.md).
// See docs/deployment.md, docs/tasks.md and docs/transports.md.
export type {
  RedisClientLike,
  RedisSetOptions,
  RedisSubscriberLike,
  RedisTaskStore,
  RedisTaskStoreOptions,
} from './tasks.js';
export { createRedisTaskStore } from './tasks.js';
export type { RedisEventStoreOptions, RedisStreamClientLike } from './event-store.js';
export { createRedisEventStore } from './event-store.js';
export type {
  RedisBusSubscriberLike,
  RedisKeyValueLike,
  RedisSessionStoreOptions,
} from './session-store.js';
export { createRedisSessionStore } from './session-store.js';
export type { ConnectRedisOptions, RedisConnection, RedisConnectionState } from './connect.js';
export {
  RedisTimeoutError,
  RedisUnavailableError,
  connectRedis,
  maskRedisUrl,
  redisErrorMessage,
} from './connect.js';
export type { RedisHealthCheckOptions, RedisPingLike } from './health.js';
export { HealthCheckError, redisHealthCheck } from './health.js';
export type {
  RedisChangeBusOptions,
  RedisChannelSubscriberLike,
  RedisPublisherLike,
} from './change-bus.js';
export { createRedisChangeBus } from './change-bus.js';
export type { RedisDpopReplayStoreOptions, RedisSetNxLike } from './dpop-replay.js';
export { createRedisDpopReplayStore } from './dpop-replay.js';
