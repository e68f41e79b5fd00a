// The options of a Gateway and the status it shows (kept apart from gateway.ts, which holds the
// serving itself).
import type { Client } from '../client/index.js';
import type { Tokenizer } from '../catalogue/index.js';
import type { McpServerOptions, ServerInfo } from '../server/index.js';
import type { RateLimitStore } from './limits/index.js';
import type { UpstreamFetch, UpstreamStatus, UpstreamTiming } from './upstream.js';

/** Options of a {@link Gateway}. Every field is optional. */
export interface GatewayOptions {
  /**
   * Most tokens the served tool definitions may cost (counted as `mcpkit budget` counts them).
   * Above it the gateway serves `search_tools` and the tools searches found instead of all.
   */
  budget?: number;
  /** The token counter for `budget`. Default: 4 characters a token (pass loadTokenizer()). */
  tokenizer?: Tokenizer;
  /** Reconnect backoff, health pings, request timeouts. */
  timing?: UpstreamTiming;
  /** Receives events: upstream connected, down, stderr lines, logs nobody waited for. */
  onEvent?: (event: Record<string, unknown>) => void;
  /** The gateway's identity. Default mcpkit-gateway. */
  info?: ServerInfo;
  /**
   * The fetch of HTTP upstreams. Default: `createNodeFetch()` of mcpkit/transports/http/node,
   * raw keep-alive sockets (a forwarded call costs a fraction of the global fetch's CPU time).
   */
  fetch?: UpstreamFetch;
  /** Options of the McpServer (revisions, stateSecret, onError, …). */
  server?: Omit<McpServerOptions, 'validator'>;
  /**
   * Called with each client the gateway makes for an upstream, before it connects (each
   * reconnection makes a new one): where its middleware is added (`client.use`, mcpkit/otel).
   */
  onClient?: (client: Client) => void;
  /** Where rate limits count (default: memory; createRedisLimitStore() for several processes). */
  limitStore?: RateLimitStore;
}

/** The status the `gateway/status` resource shows. */
export interface GatewayStatus {
  readonly mode: 'all' | 'catalogue';
  /** What the served tool definitions cost, and of all of them (tokens). */
  readonly tokens: { readonly served: number; readonly all: number; readonly budget?: number };
  readonly upstreams: readonly UpstreamStatus[];
}
