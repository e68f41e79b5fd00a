// Gateway: many MCP servers behind one McpServer. Each upstream is a Client (any transport and
// revision); what they offer is registered on one McpServer (served to every revision over any
// transport), named as the host names tools (src/catalogue/), kept in step with the upstreams'
// lists. Requests are forwarded with their progress, cancellation and errors; the upstreams' own
// requests (elicitation, sampling, roots) and logs go to the downstream request that caused them.
import type { CompleteRef, Prompt, Tool } from '../client/index.js';
import { JsonRpcError } from '../jsonrpc/errors.js';
import type { Tokenizer } from '../catalogue/index.js';
import {
  ESTIMATE,
  SEARCH_TOOLS,
  SEARCH_TOOLS_DEFINITION,
  isModelVisible,
  nameTools,
  serializeTool,
} from '../catalogue/index.js';
import type { JsonSchemaValidator } from '../protocol/json-schema/index.js';
import { MetaKey } from '../protocol/version.js';
import { McpServer } from '../server/index.js';
import type { Completer, HandlerContext, RegisteredHandle } from '../server/index.js';
import type { NodeFetch } from '../transports/http/client/node-fetch.js';
import { createNodeFetch } from '../transports/http/client/node-fetch.js';
import {
  ViewNames,
  hideAppOnlyTools,
  servedContents,
  servedUri,
  upstreamUri,
  withServedViews,
} from './apps.js';
import type { GatewayConfig } from './config.js';
import type { GatewayOptions, GatewayStatus } from './options.js';
import { isServed } from './config.js';
import { wantedResources } from './resources.js';
import type { Call } from './routing.js';
import { Routing, forwarded, relay } from './routing.js';
import type { Handle, ServedTool } from './served.js';
import {
  forwardedTool,
  joinInstructions,
  listedFields,
  reconcile,
  reconcileTools,
  rethrow,
  searchCatalogue,
  templateVariables,
  toolResult,
} from './served.js';
import type { UpstreamFetch, UpstreamHooks } from './upstream.js';
import { Upstream, UpstreamUnavailable } from './upstream.js';
import { Limiter, rateLimits } from './limits/index.js';
import type { ReloadSummary } from './reload.js';
import { applyReload } from './reload.js';
import type { UpstreamCredentials } from './credentials.js';
import { Secrets, credentialsOf } from './credentials.js';

/** The URI of the status resource (`gateway/status`). */
export const STATUS_URI = 'gateway://status';

export type { GatewayOptions, GatewayStatus } from './options.js';

/**
 * Upstream arguments are checked by the upstream (which knows its own dialect and formats), and
 * results are checked by the gateway's client: the McpServer validates nothing again.
 */
const PASS_THROUGH: JsonSchemaValidator = { compile: () => () => ({ valid: true, issues: [] }) };

/**
 * Gateway serves the upstreams of a config through one McpServer (`gateway.server`: connect it
 * to a transport, or `listen()` it). Create it with {@link Gateway.start}.
 */
export class Gateway {
  #server: McpServer | undefined;
  readonly #upstreams = new Map<string, Upstream>();
  readonly #options: GatewayOptions;
  readonly #tokenizer: Tokenizer;
  readonly #routing = new Routing();
  readonly #tools = new Map<string, { served: ServedTool; handle: Handle }>();
  /** The served app-visible tools by their upstreams' own names (what views call them). */
  readonly #viewNames = new ViewNames();
  readonly #resources = new Map<string, { owner: string; key: string; handle: Handle }>();
  readonly #templates = new Map<string, { owner: string; key: string; handle: Handle }>();
  readonly #prompts = new Map<string, { owner: string; key: string; handle: Handle }>();
  readonly #subscribed = new Map<string, { generation: number; uris: Set<string> }>();
  /** Every tool the upstreams offer, named (what search_tools searches). */
  #catalogue: ServedTool[] = [];
  /** Names loaded by searches (catalogue mode). */
  readonly #found = new Set<string>();
  #search: Handle | undefined;
  #cost = { served: 0, all: 0 };
  #closed = false;

  private constructor(config: GatewayConfig, options: GatewayOptions) {
    this.#options = options;
    this.#tokenizer = options.tokenizer ?? ESTIMATE;
    if (options.budget !== undefined && !(options.budget > 0)) {
      throw new TypeError('budget must be a positive number of tokens');
    }
    this.#config = config;
    this.#curation = config.curation;
    this.#limiter = new Limiter(config.rateLimits ?? {}, options.limitStore);
    const own = options.fetch === undefined ? createNodeFetch() : undefined;
    this.#ownFetch = own;
    this.#fetch = options.fetch ?? (own as NodeFetch);
    for (const name of Object.keys(config.servers)) this.#upstreams.set(name, this.#make(name));
  }

  #config: GatewayConfig;
  #curation: GatewayConfig['curation'];
  readonly #limiter: Limiter;
  readonly #fetch: UpstreamFetch;
  readonly #secrets = new Secrets();
  /** What each upstream with `credentials` presents per call (token exchange). */
  readonly #perCall = new WeakMap<Upstream, UpstreamCredentials>();

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

  /** Serves `config` from now on, without dropping a downstream session (see applyReload). */
  reload(config: GatewayConfig): Promise<ReloadSummary> {
    if (this.#closed) return Promise.reject(new Error('the gateway is closed'));
    return applyReload(this.#config, config, {
      upstreams: this.#upstreams,
      make: (name) => this.#make(name, config),
      swap: (plan) => {
        [this.#curation, this.#config] = [config.curation, config];
        this.#limiter.configure(config.rateLimits ?? {});
        for (const name of [...plan.removed, ...plan.changed]) this.#subscribed.delete(name);
        if (this.#server !== undefined) this.#sync();
      },
    });
  }
  /** The fetch this gateway made (and closes), when none was given. */
  readonly #ownFetch: NodeFetch | undefined;

  /**
   * Makes the McpServer, once the upstreams' first attempts are over: its instructions are the
   * given ones, else those of the connected upstreams, each under its name.
   */
  #createServer(): McpServer {
    const instructions = this.#options.server?.instructions ?? joinInstructions(this.#sorted());
    const server = new McpServer(
      this.#options.info ?? { name: 'mcpkit-gateway', version: '0.1.0' },
      {
        ...this.#options.server,
        ...(instructions === undefined ? {} : { instructions }),
        onRootsChanged: () => {
          this.#options.server?.onRootsChanged?.();
          for (const upstream of this.#upstreams.values()) upstream.rootsChanged();
        },
        validator: PASS_THROUGH,
      },
    );
    server.use(hideAppOnlyTools);
    const serves = (name: string) =>
      this.#tools.has(name) || (name === SEARCH_TOOLS && this.#search !== undefined);
    server.use(this.#viewNames.takeOwnNames(serves));
    server.use(rateLimits(this.#limiter, (name) => this.#tools.get(name)?.served.upstream));
    server.resource(
      {
        uri: STATUS_URI,
        name: 'gateway/status',
        title: 'Gateway status',
        description: 'Each upstream server: state, revision, latency, tools, last error.',
        mimeType: 'application/json',
      },
      () => JSON.stringify(this.status(), null, 2),
    );
    return server;
  }

  /** The McpServer serving the upstreams: connect it to a transport, or `listen()` it. */
  get server(): McpServer {
    if (this.#server === undefined) throw new Error('the gateway is not started');
    return this.#server;
  }

  /**
   * Connects to every upstream (each first attempt, in parallel) and resolves with the gateway
   * serving what the connected ones offer. Upstreams that could not be reached are retried with
   * backoff; their tools appear once they connect. Never rejects for an upstream's failure.
   */
  static async start(config: GatewayConfig, options: GatewayOptions = {}): Promise<Gateway> {
    const gateway = new Gateway(config, options);
    await Promise.all([...gateway.#upstreams.values()].map((upstream) => upstream.start()));
    gateway.#server = gateway.#createServer();
    gateway.#sync();
    return gateway;
  }

  /** The upstreams' status, and what the tool definitions cost. */
  status(): GatewayStatus {
    const { budget } = this.#options;
    return {
      mode: this.#catalogueMode() ? 'catalogue' : 'all',
      tokens: { ...this.#cost, ...(budget === undefined ? {} : { budget }) },
      upstreams: this.#secrets.redact([...this.#upstreams.values()].map((u) => u.status())),
    };
  }

  /** Closes every upstream and the server. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#upstreams.values()].map((upstream) => upstream.close()));
    this.#ownFetch?.close();
    await this.#server?.close();
  }

  #hooks(name: string): UpstreamHooks {
    return {
      ...this.#routing.answers(name, (event) => {
        this.#event(event);
      }),
      resourceUpdated: (uri) => {
        this.#server?.resourceUpdated(servedUri(name, uri));
      },
      changed: () => {
        if (!this.#closed && this.#server !== undefined) this.#sync();
      },
      event: (event) => {
        this.#event(event);
      },
      client: (client) => this.#options.onClient?.(client),
    };
  }

  #event(event: Record<string, unknown>): void {
    this.#options.onEvent?.(this.#secrets.redact(event));
  }

  #upstream(name: string): Upstream {
    const upstream = this.#upstreams.get(name);
    if (upstream === undefined) throw new Error(`no upstream "${name}"`);
    return upstream;
  }

  // ---- what is served, kept in step with the upstreams ----

  #sync(): void {
    this.#syncTools();
    this.#syncResources();
    this.#syncPrompts();
    this.server.resourceUpdated(STATUS_URI);
  }

  #catalogueMode(): boolean {
    const { budget } = this.#options;
    return budget !== undefined && this.#cost.all > budget;
  }

  #syncTools(): void {
    const refs: { server: string; tool: string; source: Tool }[] = [];
    for (const upstream of this.#sorted()) {
      const curation = this.#curation[upstream.name];
      for (const tool of upstream.tools) {
        if (!isServed(curation, tool.name)) continue;
        refs.push({
          server: upstream.name,
          tool: curation?.rename?.[tool.name] ?? tool.name,
          source: tool,
        });
      }
    }
    const named = nameTools(refs).map((entry, index) => {
      const { source, server } = refs[index] as (typeof refs)[number];
      const description = this.#curation[server]?.describe?.[source.name] ?? source.description;
      const definition = forwardedTool(withServedViews(server, source), entry.name, description);
      return {
        upstream: server,
        original: source.name,
        definition,
        key: JSON.stringify(definition),
      };
    });
    // App-only tools are served (views call them) but never searched, loaded or counted.
    this.#catalogue = named.filter((tool) => isModelVisible(tool.definition));
    const appOnly = named.filter((tool) => !isModelVisible(tool.definition));
    const count = (tools: readonly ServedTool[]) =>
      tools.reduce((sum, tool) => sum + this.#tokenizer.count(serializeTool(tool.definition)), 0);
    const all = count(this.#catalogue);
    this.#cost = { served: all, all };
    let served = [...this.#catalogue, ...appOnly];
    if (this.#catalogueMode()) {
      const found = this.#catalogue.filter((tool) => this.#found.has(tool.definition.name));
      served = [...found, ...appOnly];
      this.#search ??= this.#registerSearch();
      this.#cost = {
        served:
          count(found) + this.#tokenizer.count(serializeTool(SEARCH_TOOLS_DEFINITION as Tool)),
        all,
      };
    } else if (this.#search !== undefined) {
      this.#search.remove();
      this.#search = undefined;
    }
    reconcileTools(this.#tools, served, {
      register: (tool) => this.#registerTool(tool),
      skipped: ({ upstream, original }, error) => {
        this.#event({ upstream, event: 'tool-skipped', tool: original, error: String(error) });
      },
    });
    this.#viewNames.update([...this.#tools.values()].map((entry) => entry.served));
  }

  #registerTool(tool: ServedTool): RegisteredHandle<unknown> {
    const { upstream, original } = tool;
    const handler = (args: Record<string, unknown>, ctx: HandlerContext) =>
      this.#routing.within({ upstream, ctx }, (call) => this.#callTool(call, original, args));
    const definition = { ...tool.definition } as Record<string, unknown>;
    return this.server.tool(definition as never, handler as never);
  }

  async #callTool(
    call: Call,
    tool: string,
    args: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const { upstream: name, ctx } = call;
    const upstream = this.#upstream(name);
    const auth = (await this.#perCall.get(upstream)?.forCall(ctx)) ?? {};
    if ('error' in auth) return { content: [{ type: 'text', text: auth.error }], isError: true };
    try {
      const options = forwarded(call);
      if (auth.headers !== undefined) options.headers = auth.headers;
      // Progress is asked of the upstream only when the downstream client asked for it.
      if (ctx.meta?.[MetaKey.ProgressToken] !== undefined) options.onProgress = relay(ctx);
      const result = await upstream.use((client) => client.callTool(tool, args, options));
      return toolResult(result);
    } catch (error) {
      if (error instanceof JsonRpcError || ctx.signal.aborted) throw error;
      if (!(error instanceof UpstreamUnavailable)) void upstream.check();
      const reason = error instanceof Error ? error.message : String(error);
      const text =
        error instanceof UpstreamUnavailable
          ? reason
          : `the server "${name}" behind this gateway failed to answer: ${reason}`;
      return { content: [{ type: 'text', text: this.#secrets.redact(text) }], isError: true };
    }
  }

  #registerSearch(): Handle {
    const { description, inputSchema } = SEARCH_TOOLS_DEFINITION;
    return this.server.tool({ name: SEARCH_TOOLS, description, inputSchema }, (args) =>
      searchCatalogue(this.#catalogue, args, (names) => {
        for (const name of names) this.#found.add(name);
        this.#syncTools();
      }),
    );
  }

  #sorted(): Upstream[] {
    return [...this.#upstreams.values()].sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  }

  #syncResources(): void {
    const { resources, templates } = wantedResources(this.#sorted(), this.#curation, STATUS_URI);
    reconcile(this.#resources, resources, (uri, { owner, source }) =>
      this.server.resource({ ...(listedFields(source) as { name: string }), uri }, (read, ctx) =>
        this.#readResource(owner, read, ctx),
      ),
    );
    reconcile(this.#templates, templates, (uriTemplate, { owner, source }) =>
      this.server.resourceTemplate(
        {
          ...(listedFields(source) as { name: string }),
          uriTemplate,
          ...this.#templateCompleters(owner, source.uriTemplate),
        },
        (read, _variables, ctx) => this.#readResource(owner, read, ctx),
      ),
    );
    for (const { owner, source, listed } of resources.values()) {
      if (listed) this.#subscribe(owner, source.uri);
    }
  }

  /** Subscribes upstream to a resource, once per connection, when the upstream takes subscriptions. */
  #subscribe(owner: string, uri: string): void {
    const upstream = this.#upstream(owner);
    const resources = upstream.capabilities.resources as { subscribe?: boolean } | undefined;
    if (resources?.subscribe !== true) return;
    let done = this.#subscribed.get(owner);
    if (done === undefined || done.generation !== upstream.generation) {
      // A new connection is a new session: its subscriptions are made again.
      done = { generation: upstream.generation, uris: new Set() };
      this.#subscribed.set(owner, done);
    }
    const { uris } = done;
    if (uris.has(uri)) return;
    uris.add(uri);
    void upstream.use((client) => client.subscribe(uri)).catch(() => uris.delete(uri));
  }

  /** Reads `served` (a URI the gateway serves) from its upstream, `ui://` URIs mapped both ways. */
  async #readResource(owner: string, served: string, ctx: HandlerContext) {
    const upstream = this.#upstream(owner);
    const uri = upstreamUri(owner, served);
    const result = await this.#routing
      .within({ upstream: owner, ctx }, (call) =>
        upstream.use((client) => client.readResource(uri, forwarded(call))),
      )
      .catch(rethrow);
    this.#subscribe(owner, uri);
    return {
      contents: servedContents(owner, result.contents),
      ...(result._meta === undefined ? {} : { _meta: result._meta }),
    };
  }

  #templateCompleters(
    owner: string,
    uriTemplate: string,
  ): { complete?: Record<string, Completer> } {
    if (this.#upstream(owner).capabilities.completions === undefined) return {};
    const ref: CompleteRef = { type: 'ref/resource', uri: uriTemplate };
    const complete: Record<string, Completer> = {};
    for (const variable of templateVariables(uriTemplate)) {
      const completer: Completer = (value, context) =>
        this.#complete({ owner, ref, name: variable }, value, context);
      complete[variable] = completer;
    }
    return { complete };
  }

  async #complete(
    { owner, ref, name }: { owner: string; ref: CompleteRef; name: string },
    value: string,
    context: { arguments: Readonly<Record<string, string>> },
  ): Promise<string[]> {
    const result = await this.#upstream(owner)
      .use((client) =>
        client.complete(ref, { name, value }, { context: { arguments: { ...context.arguments } } }),
      )
      .catch(rethrow);
    return result.completion.values;
  }

  #syncPrompts(): void {
    const refs: { server: string; tool: string; source: Prompt }[] = [];
    for (const upstream of this.#sorted()) {
      for (const source of upstream.prompts) {
        refs.push({ server: upstream.name, tool: source.name, source });
      }
    }
    const wanted = new Map<string, { owner: string; source: Prompt }>();
    nameTools(refs).forEach((entry, index) => {
      const { source } = refs[index] as (typeof refs)[number];
      wanted.set(entry.name, { owner: entry.server, source });
    });
    reconcile(this.#prompts, wanted, (name, { owner, source }) => {
      const withCompletions = this.#upstream(owner).capabilities.completions !== undefined;
      const ref: CompleteRef = { type: 'ref/prompt', name: source.name };
      return this.server.prompt(
        {
          ...(listedFields(source) as { name: string }),
          name,
          arguments: (source.arguments ?? []).map((argument) => ({
            ...argument,
            ...(withCompletions
              ? {
                  complete: (
                    value: string,
                    context: { arguments: Readonly<Record<string, string>> },
                  ) => this.#complete({ owner, ref, name: argument.name }, value, context),
                }
              : {}),
          })),
        },
        async (args, ctx) => {
          const upstream = this.#upstream(owner);
          const result = await this.#routing
            .within({ upstream: owner, ctx }, (call) =>
              upstream.use((client) => client.getPrompt(source.name, { ...args }, forwarded(call))),
            )
            .catch(rethrow);
          return {
            messages: result.messages,
            ...(result.description === undefined ? {} : { description: result.description }),
            ...(result._meta === undefined ? {} : { _meta: result._meta }),
          };
        },
      );
    });
  }
}
