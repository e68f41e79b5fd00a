// mcpkit/gateway: many MCP servers behind one McpServer (namespaced, curated, within a token
// budget, any transport and revision on either side). See docs/gateway.md.
export { Gateway, STATUS_URI } from './gateway.js';
export { templateVariables } from './served.js';
export type { GatewayOptions, ReloadOptions } from './gateway.js';
export type { GatewayStatus } from './gateway.js';
export type { GatewayCodeModeOptions } from './code-mode.js';
export type { Curation, GatewayConfig } from './config.js';
export { isServed, matchesGlob, parseGatewayConfig } from './config.js';
export type { AuditConfig, EndpointConfig, IdentityConfig, TeamConfig } from './team-config.js';
export type { EndpointLookup, Origin } from './endpoint.js';
export type { Principal } from './principal.js';
export { ANONYMOUS, principalOf } from './principal.js';
export type { TrustedHeaders } from './identity.js';
export { trustedHeader } from './identity.js';
export type { EndpointRoutes } from './http.js';
export { routeEndpoints } from './http.js';
export type { AuditLog, AuditRecord, AuditSink } from './audit.js';
export { argumentsHash, openAuditLog } from './audit.js';
export type { AccessLists, ArgumentValues, PolicyRule, PolicyWhen } from './policy/config.js';
export { DEFAULT_ENDPOINT } from './policy/config.js';
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
