// Gateway: many MCP servers behind one or several endpoints. Each upstream is a Client (any
// transport and revision), one per config server whatever the endpoints; each endpoint
// (src/gateway/endpoint.ts) serves a selection of them through its own McpServer (served to every
// revision over any transport), named as the host names tools (src/catalogue/), kept in step with
// the upstreams' lists. Requests are forwarded with their progress, cancellation and errors; the
// upstreams' own requests (elicitation, sampling, roots) and logs go to the downstream request
// that caused them. Identity, policies and the audit log plug in as each endpoint's middleware
// (src/gateway/access.ts).
import type { Client } from '../client/index.js';
import type { Tokenizer } from '../catalogue/index.js';
import { ESTIMATE } from '../catalogue/index.js';
import type { McpServer, McpServerOptions, Middleware, ServerInfo } from '../server/index.js';
import type { NodeFetch } from '../transports/http/client/node-fetch.js';
import { createNodeFetch } from '../transports/http/client/node-fetch.js';
import type { Access } from './access.js';
import { accessMiddleware } from './access.js';
import type { GatewayCodeModeOptions } from './code-mode.js';
import { servedUri } from './apps.js';
import type { AuditSink } from './audit.js';
import type { Curation, GatewayConfig } from './config.js';
import type { EndpointLookup, GatewayStatus } from './endpoint.js';
import { Endpoint } from './endpoint.js';
import { Routing } from './routing.js';
import type { EndpointConfig } from './team-config.js';
import { mergeCuration } from './team-config.js';
import type { UpstreamFetch, UpstreamHooks, UpstreamTiming } from './upstream.js';
import { Upstream } from './upstream.js';
import type { RateLimitStore } from './limits/index.js';
import { Limiter, rateLimits } from './limits/index.js';
import type { ReloadSummary } from './reload.js';
import { applyReload, planReload } from './reload.js';
import type { UpstreamCredentials } from './credentials.js';
import { Secrets, credentialsOf } from './credentials.js';

export { STATUS_URI } from './endpoint.js';

/** The lists a change of policies may change. */
const LISTS = ['tools', 'prompts', 'resources'] as const;
export type { GatewayStatus } from './endpoint.js';

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
  /**
   * Where the audit log goes: one JSON line per call (docs/gateway.md, "Audit log"); the
   * config's `audit` says what a line holds. Default: nowhere. A reload may swap it
   * ({@link ReloadOptions.audit}).
   */
  audit?: AuditSink;
  /** Options of the McpServer (revisions, stateSecret, onError, …). */
  server?: Omit<McpServerOptions, 'validator'>;
  /**
   * Called with each client the gateway makes for an upstream, before it connects (each
   * reconnection makes a new one): where its middleware is added (`client.use`, mcpkit/otel).
   */
  onClient?: (client: Client) => void;
  /**
   * Server middleware of each endpoint, given its lookup (`lookup.name`: `''` for the default
   * one, `/mcp`), run after the gateway's own (policy and audit): rate limits, telemetry.
   * Default: none.
   */
  middleware?: (lookup: EndpointLookup) => readonly Middleware[];
  /**
   * Serve one `run_code` tool over every upstream tool on each endpoint
   * (docs/gateway.md#code-mode). Default false. Refused with `policies` in the config: the
   * code's calls would not pass the policy's checks.
   */
  codeMode?: boolean | GatewayCodeModeOptions;
  /** Where rate limits count (default: memory; createRedisLimitStore() for several processes). */
  limitStore?: RateLimitStore;
}

/** An endpoint as the config has it. */
interface WantedEndpoint {
  /** '' for the default one. */
  readonly name: string;
  /** Its upstreams' names; undefined: every one. */
  readonly servers: readonly string[] | undefined;
  readonly curation: Readonly<Record<string, Curation>>;
  readonly budget: number | undefined;
}

/** What a {@link Gateway.reload} takes besides the config. */
export interface ReloadOptions {
  /**
   * The audit sink from the swap on (`null`: none); absent: the one in force. Records of calls
   * that end after the swap go to it, none to the old one (which the caller may then close).
   */
  readonly audit?: AuditSink | null;
  /**
   * Called once, synchronously, when the new config takes over (`gateway.endpoints` is then the
   * new set, no request served in between): where a transport starts serving the endpoints added
   * and stops serving those removed. The servers of removed endpoints are closed once the promise
   * it returns settles (their sessions may end more gently first). Must not throw.
   */
  readonly onSwap?: (summary: ReloadSummary) => Promise<void> | void;
}

/**
 * Gateway serves the upstreams of a config through its endpoints: `gateway.server` (the default
 * endpoint, every upstream) and `gateway.endpoints` (the config's named ones). Connect a server to
 * a transport, or `listen()` it. Create it with {@link Gateway.start}.
 */
export class Gateway {
  #config: GatewayConfig;
  readonly #limiter: Limiter;
  readonly #fetch: UpstreamFetch;
  readonly #secrets = new Secrets();
  /** What each upstream with `credentials` presents per call (token exchange). */
  readonly #perCall = new WeakMap<Upstream, UpstreamCredentials>();
  readonly #upstreams = new Map<string, Upstream>();
  readonly #options: GatewayOptions;
  readonly #tokenizer: Tokenizer;
  readonly #routing = new Routing();
  readonly #endpoints = new Map<string, Endpoint>();
  /** Each endpoint's access control (policies and audit log swapped by a reload). */
  readonly #access = new Map<string, Access>();
  /** Where calls are recorded (swapped by a reload). */
  #audit: AuditSink | undefined;
  /** The fetch this gateway made (and closes), when none was given. */
  readonly #ownFetch: NodeFetch | undefined;
  #closed = false;

  private constructor(config: GatewayConfig, options: GatewayOptions) {
    this.#config = config;
    this.#options = options;
    this.#tokenizer = options.tokenizer ?? ESTIMATE;
    this.#audit = options.audit;
    const budgets = [options.budget, ...Object.values(config.endpoints ?? {}).map((e) => e.budget)];
    if (budgets.some((budget) => budget !== undefined && !(budget > 0))) {
      throw new TypeError('budget must be a positive number of tokens');
    }
    if (options.codeMode && config.policies !== undefined) {
      throw new TypeError('codeMode cannot be combined with policies (docs/gateway.md#code-mode)');
    }
    this.#limiter = new Limiter(config.rateLimits ?? {}, options.limitStore);
    const own = options.fetch === undefined ? createNodeFetch() : undefined;
    this.#ownFetch = own;
    this.#fetch = options.fetch ?? (own as NodeFetch);
    for (const name of Object.keys(config.servers)) this.#upstreams.set(name, this.#make(name));
  }

  /** The upstream of `name` as `config` has it, with its credentials (not yet started). */
  #make(name: string, config = this.#config): Upstream {
    const server = config.servers[name] as GatewayConfig['servers'][string];
    const entry = { name, server, spec: config.credentials?.[name] };
    const credentials = credentialsOf(entry, this.#fetch, this.#secrets);
    const [limits, timing] = [config.limits?.[name] ?? {}, this.#options.timing ?? {}];
    const [hooks, fetch] = [this.#hooks(name), credentials?.fetch ?? this.#fetch];
    const upstream = new Upstream(name, { config: server, hooks, timing, limits, fetch });
    if (credentials !== undefined) this.#perCall.set(upstream, credentials);
    return upstream;
  }

  /**
   * Serves `config` from now on, without dropping a downstream session of an endpoint it keeps
   * (see applyReload): upstreams, curation, rate limits, policies, the audit log
   * (`options.audit`) and named endpoints change. Policies decide from the next request on; an
   * endpoint added is made with its server, one removed has its server closed (its sessions
   * end), one changed keeps its sessions, each told its lists changed. Identity is the
   * transport's (see `onSwap`). Rejects, the old config serving on, only for code mode with
   * policies.
   */
  reload(config: GatewayConfig, options: ReloadOptions = {}): Promise<ReloadSummary> {
    if (this.#closed) return Promise.reject(new Error('the gateway is closed'));
    if (this.#options.codeMode && config.policies !== undefined) {
      return Promise.reject(
        new Error('codeMode cannot be combined with policies (docs/gateway.md#code-mode)'),
      );
    }
    const plan = planReload(this.#config, config);
    const summary = options.audit === undefined ? plan : { ...plan, audit: 'changed' as const };
    const retired: Endpoint[] = [];
    let handedOver: Promise<void> | void = undefined;
    const reloading = applyReload(plan, {
      upstreams: this.#upstreams,
      make: (name) => this.#make(name, config),
      swap: () => {
        this.#config = config;
        this.#limiter.configure(config.rateLimits ?? {});
        if (options.audit !== undefined) this.#audit = options.audit ?? undefined;
        for (const name of plan.endpoints?.removed ?? []) {
          const endpoint = this.#endpoints.get(name);
          if (endpoint !== undefined) retired.push(endpoint);
          this.#endpoints.delete(name);
          this.#access.delete(name);
        }
        this.#reconfigure(plan);
        handedOver = options.onSwap?.(summary);
      },
    });
    return reloading.then(async () => {
      await handedOver;
      await Promise.all(retired.map((endpoint) => endpoint.close()));
      return summary;
    });
  }

  /** Brings every endpoint in step with the config just taken: made, reselected, told. */
  #reconfigure(plan: ReloadSummary): void {
    const config = this.#config;
    const replaced = [...plan.removed, ...plan.changed];
    for (const wanted of this.#wanted()) {
      const { name, servers, curation, budget } = wanted;
      const endpoint = this.#endpoints.get(name);
      if (endpoint === undefined) {
        this.#createEndpoint(wanted);
        continue;
      }
      const access = this.#access.get(name);
      if (plan.policies !== undefined) access?.setPolicy(config.policies);
      access?.setAudit(this.#audit, config.audit?.arguments ?? false);
      endpoint.reselect(this.#selected(servers), { curation, replaced, budget });
      // What each caller may see changed: every list may have.
      if (plan.policies !== undefined || plan.endpoints?.changed.includes(name) === true) {
        for (const kind of LISTS) endpoint.server.listChanged(kind);
      }
    }
  }

  /** The default endpoint's McpServer (every upstream): connect it to a transport, or `listen()` it. */
  get server(): McpServer {
    return this.#endpoint('').server;
  }

  /** The named endpoints of the config (`/mcp/<name>`), by name; the default one is `server`. */
  get endpoints(): ReadonlyMap<string, { readonly server: McpServer; status(): GatewayStatus }> {
    const named = new Map<string, Endpoint>();
    for (const [name, endpoint] of this.#endpoints) if (name !== '') named.set(name, endpoint);
    return named;
  }

  /**
   * Connects to every upstream (each first attempt, in parallel) and resolves with the gateway
   * serving what the connected ones offer. Upstreams that could not be reached are retried with
   * backoff; their tools appear once they connect. Never rejects for an upstream's failure.
   */
  static async start(config: GatewayConfig, options: GatewayOptions = {}): Promise<Gateway> {
    const gateway = new Gateway(config, options);
    await Promise.all([...gateway.#upstreams.values()].map((upstream) => upstream.start()));
    gateway.#createEndpoints();
    return gateway;
  }

  /** The default endpoint's status: the upstreams, and what the tool definitions cost. */
  status(): GatewayStatus {
    return this.#endpoint('').status();
  }

  /** Closes every upstream and every endpoint's server. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#upstreams.values()].map((upstream) => upstream.close()));
    this.#ownFetch?.close();
    await Promise.all([...this.#endpoints.values()].map((endpoint) => endpoint.close()));
  }

  #endpoint(name: string): Endpoint {
    const endpoint = this.#endpoints.get(name);
    if (endpoint === undefined) throw new Error('the gateway is not started');
    return endpoint;
  }

  /** Makes the endpoints once the upstreams' first attempts are over (their instructions known). */
  #createEndpoints(): void {
    for (const wanted of this.#wanted()) this.#createEndpoint(wanted);
  }

  /** Makes one endpoint as the config in force has it, with its access control, and syncs it. */
  #createEndpoint(wanted: WantedEndpoint): void {
    const config = this.#config;
    const { name, servers, curation, budget } = wanted;
    const access = accessMiddleware({
      endpoint: name,
      policy: config.policies,
      audit: this.#audit,
      auditArguments: config.audit?.arguments ?? false,
    });
    this.#access.set(name, access);
    const endpoint = new Endpoint({
      name,
      upstreams: this.#selected(servers),
      curation,
      budget,
      tokenizer: this.#tokenizer,
      routing: this.#routing,
      info: this.#options.info,
      server: this.#options.server,
      event: (event) => {
        this.#event(event);
      },
      middleware: (lookup: EndpointLookup, own) => [
        ...access.middleware(lookup),
        ...own,
        // After the policy: a call it refuses never spends a token.
        rateLimits(this.#limiter, (served) => lookup.tool(served)?.upstream),
        ...(this.#options.middleware?.(lookup) ?? []),
      ],
      visible: access.visible,
      codeMode: this.#options.codeMode,
      credentials: (upstream) => this.#perCall.get(upstream),
      secrets: this.#secrets,
    });
    this.#endpoints.set(name, endpoint);
    endpoint.sync();
  }

  /** Each endpoint as the config has it: its name, upstream selection, curation and budget. */
  #wanted(): WantedEndpoint[] {
    const config = this.#config;
    return [
      { name: '', servers: undefined, curation: config.curation, budget: this.#options.budget },
      ...Object.entries(config.endpoints ?? {}).map(([name, endpoint]) => ({
        name,
        servers: endpoint.servers,
        curation: endpointCuration(config.curation, endpoint),
        budget: endpoint.budget ?? this.#options.budget,
      })),
    ];
  }

  /** The upstreams named by `servers` (all when undefined), sorted by name. */
  #selected(servers: readonly string[] | undefined): Upstream[] {
    const sorted = [...this.#upstreams.values()].sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    return servers === undefined ? sorted : sorted.filter((u) => servers.includes(u.name));
  }

  /** Hands `event` to onEvent, every secret of the gateway's credentials taken out. */
  #event(event: Record<string, unknown>): void {
    this.#options.onEvent?.(this.#secrets.redact(event));
  }

  /** The endpoints serving upstream `name`. */
  *#serving(name: string): Iterable<Endpoint> {
    for (const endpoint of this.#endpoints.values()) if (endpoint.serves(name)) yield endpoint;
  }

  #hooks(name: string): UpstreamHooks {
    return {
      ...this.#routing.answers(name, (event) => {
        this.#event(event);
      }),
      resourceUpdated: (uri) => {
        for (const endpoint of this.#serving(name)) {
          endpoint.server.resourceUpdated(servedUri(name, uri));
        }
      },
      changed: () => {
        if (this.#closed) return;
        for (const endpoint of this.#serving(name)) endpoint.sync();
      },
      event: (event) => {
        this.#event(event);
      },
      client: (client) => this.#options.onClient?.(client),
    };
  }
}

/** The curation of each of an endpoint's servers: the server's own merged with the endpoint's. */
function endpointCuration(
  own: Readonly<Record<string, Curation>>,
  endpoint: EndpointConfig,
): Record<string, Curation> {
  const out: Record<string, Curation> = {};
  for (const server of endpoint.servers) {
    const merged = mergeCuration(own[server], endpoint.curation[server]);
    if (merged !== undefined) out[server] = merged;
  }
  return out;
}
