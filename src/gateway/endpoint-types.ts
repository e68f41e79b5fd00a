// What an endpoint of a gateway is made with and shows: its settings, its status, and the
// lookups that map what it serves back to its upstreams (what policies decide on).
import type { GatewayCodeModeOptions } from './code-mode.js';
import type { Secrets, UpstreamCredentials } from './credentials.js';
import type { Tokenizer } from '../catalogue/index.js';
import type { AuthInfo } from '../protocol/auth.js';
import type { McpServerOptions, Middleware, ServerInfo } from '../server/index.js';
import type { Curation } from './config.js';
import type { Routing } from './routing.js';
import type { Upstream, UpstreamStatus } from './upstream.js';

/** The URI of the status resource (`gateway/status`). */
export const STATUS_URI = 'gateway://status';

/** The status the `gateway/status` resource shows (of one endpoint). */
export interface GatewayStatus {
  readonly mode: 'all' | 'catalogue';
  /** What the served tool definitions cost, and of all of them (tokens). */
  readonly tokens: { readonly served: number; readonly all: number; readonly budget?: number };
  readonly upstreams: readonly UpstreamStatus[];
}

/** Where an upstream entry served by an endpoint comes from. */
export interface Origin {
  /** The upstream's name (its key in the config). */
  readonly upstream: string;
  /** The entry's own name (a tool or prompt) or URI (a resource, a template) at the upstream. */
  readonly name: string;
}

/**
 * Which upstream tools a caller may see. The same function for every caller of one principal
 * kind (what an endpoint's budget decisions are remembered by).
 */
export type Visible = (origin: Origin) => boolean;

/**
 * EndpointLookup maps what an endpoint serves back to its upstreams: what a policy decides on
 * (it names upstreams' own entries, whatever names and URIs the endpoint serves them under).
 * Each lookup is a map read; undefined for what the endpoint does not serve from an upstream.
 */
export interface EndpointLookup {
  /** The endpoint's name: '' for the default endpoint (`/mcp`). */
  readonly name: string;
  tool(served: string): Origin | undefined;
  prompt(served: string): Origin | undefined;
  /** A resource by served URI: a listed one, else the first template (by upstream) matching it. */
  resource(uri: string): Origin | undefined;
  template(uriTemplate: string): Origin | undefined;
}

/** What an endpoint is made with. */
export interface EndpointSettings {
  /** '' for the default endpoint. */
  readonly name: string;
  /** The upstreams it serves, sorted by name. */
  readonly upstreams: readonly Upstream[];
  readonly curation: Readonly<Record<string, Curation>>;
  readonly budget: number | undefined;
  readonly tokenizer: Tokenizer;
  readonly routing: Routing;
  readonly info: ServerInfo | undefined;
  readonly server: Omit<McpServerOptions, 'validator'> | undefined;
  readonly event: (event: Record<string, unknown>) => void;
  /**
   * Middleware run after the gateway's own, outermost first (policy and audit, then others);
   * `own` is the endpoint's (per-caller tool lists), to run after the policy and before anything
   * that counts a call (rate limits).
   */
  readonly middleware: (
    lookup: EndpointLookup,
    own: readonly Middleware[],
  ) => readonly Middleware[];
  /**
   * Which upstream tools the caller of `ctx` may see (what `search_tools` searches and loads, and
   * what its budget counts): one function per principal kind; undefined from it: every one.
   * Undefined itself: no policies (every caller is served alike).
   */
  readonly visible:
    ((ctx: { readonly auth: AuthInfo | undefined }) => Visible | undefined) | undefined;
  /** Serve one `run_code` tool over the upstreams' tools (./code-mode.ts); undefined: off. */
  readonly codeMode: boolean | GatewayCodeModeOptions | undefined;
  /** What the gateway presents to an upstream per call (token exchange); undefined: nothing. */
  readonly credentials: (upstream: Upstream) => UpstreamCredentials | undefined;
  /** The gateway's secrets, taken out of the status and of tool errors. */
  readonly secrets: Secrets;
}

/** What a reload changes of an endpoint besides its upstreams (Endpoint.reselect). */
export interface EndpointChange {
  readonly curation: Readonly<Record<string, Curation>>;
  /** The upstreams replaced by new connections (their subscriptions are made again). */
  readonly replaced: readonly string[];
  /** The endpoint's budget from now on; undefined: none. */
  readonly budget: number | undefined;
}
