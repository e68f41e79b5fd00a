// mcpkit/gateway: many MCP servers behind one McpServer (namespaced, curated, within a token
// budget, any transport and revision on either side). See docs/gateway.md.
export { Gateway, STATUS_URI } from './gateway.js';
export { templateVariables } from './served.js';
export type { GatewayOptions, GatewayStatus } from './gateway.js';
export type { Curation, GatewayConfig } from './config.js';
export { isServed, matchesGlob, parseGatewayConfig } from './config.js';
export { DEFAULT_LIMITS, Upstream, UpstreamUnavailable } from './upstream.js';
export type {
  UpstreamFetch,
  UpstreamLimits,
  UpstreamState,
  UpstreamStatus,
  UpstreamTiming,
} from './upstream.js';
export type { ConfigWatch, ReloadSummary, WatchConfigOptions } from './reload.js';
export { planReload, watchConfig } from './reload.js';
export type {
  Bucket,
  LimitedCall,
  RateLimitRules,
  RateLimitStore,
  RedisEvalLike,
  RedisLimitStoreOptions,
} from './limits/index.js';
export {
  Limiter,
  RETRY_AFTER_META,
  createMemoryLimitStore,
  createRedisLimitStore,
  parseRateLimits,
} from './limits/index.js';
