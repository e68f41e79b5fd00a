// One endpoint of a gateway ("virtual server"): an McpServer serving a selection of the
// gateway's upstreams, with its own curation, budget and middleware (policy, audit). The
// gateway's default endpoint (`/mcp`) selects every upstream; named ones (`/mcp/<name>`) the
// upstreams their config lists. Upstreams are shared: one connection each, whatever the endpoints.
import type { CompleteRef, Prompt, Tool } from '../client/index.js';
import {
  SEARCH_TOOLS,
  SEARCH_TOOLS_DEFINITION,
  isModelVisible,
  nameTools,
} from '../catalogue/index.js';
import type { AuthInfo } from '../protocol/auth.js';
import type { JsonSchemaValidator } from '../protocol/json-schema/index.js';
import { UriTemplate } from '../protocol/uri-template/index.js';
import { McpServer } from '../server/index.js';
import type { Completer, HandlerContext, RegisteredHandle } from '../server/index.js';
import {
  ViewNames,
  hideAppOnlyTools,
  servedContents,
  upstreamUri,
  withServedViews,
} from './apps.js';
import type { Curation } from './config.js';
import { isServed } from './config.js';
import { Budget, originOf, perCallerTools } from './budget.js';
import { CODE_TOOL, codeModeOf } from './code-mode.js';
import { forwardToolCall } from './forward.js';
import { forwardRequest } from './forward-request.js';
import { wantedResources } from './resources.js';
import type { Routing } from './routing.js';
import type { Handle, ServedTool } from './served.js';
import {
  forwardedTool,
  joinInstructions,
  listedFields,
  metaField,
  reconcile,
  reconcileTools,
  rethrow,
  searchCatalogue,
  templateVariables,
} from './served.js';
import type { Upstream } from './upstream.js';
import type {
  EndpointChange,
  EndpointLookup,
  EndpointSettings,
  GatewayStatus,
} from './endpoint-types.js';
import { STATUS_URI } from './endpoint-types.js';

export { STATUS_URI } from './endpoint-types.js';
export type { EndpointLookup, EndpointSettings, GatewayStatus, Origin } from './endpoint-types.js';

/**
 * Upstream arguments are checked by the upstream (which knows its own dialect and formats), and
 * results are checked by the gateway's client: the McpServer validates nothing again.
 */
const PASS_THROUGH: JsonSchemaValidator = { compile: () => () => ({ valid: true, issues: [] }) };

/**
 * Endpoint serves a selection of a gateway's upstreams through one McpServer. Made and kept in
 * step by its Gateway; `server` is what a transport serves.
 */
export class Endpoint {
  readonly #settings: EndpointSettings;
  #upstreams: ReadonlyMap<string, Upstream>;
  #sortedUpstreams: readonly Upstream[];
  readonly #routing: Routing;
  #curation: Readonly<Record<string, Curation>>;
  readonly #server: McpServer;
  readonly #tools = new Map<string, { served: ServedTool; handle: Handle }>();
  /** The served app-visible tools by their upstreams' own names (what views call them). */
  readonly #viewNames = new ViewNames();
  readonly #resources = new Map<string, { owner: string; key: string; handle: Handle }>();
  readonly #templates = new Map<string, { owner: string; key: string; handle: Handle }>();
  /** The templates served, matchers made once each (what a read of an unlisted URI maps to). */
  #templateMatchers: { owner: string; uriTemplate: string; template: UriTemplate }[] = [];
  readonly #prompts = new Map<string, { owner: string; key: string; handle: Handle }>();
  readonly #promptNames = new Map<string, string>();
  readonly #subscribed = new Map<string, { generation: number; uris: Set<string> }>();
  /** Every tool the upstreams offer, named (what search_tools searches). */
  #catalogue: ServedTool[] = [];
  /** The names of the catalogue's tools. */
  #catalogued = new Set<string>();
  /** Names loaded by searches (catalogue mode). */
  readonly #found = new Set<string>();
  #search: Handle | undefined;
  readonly #budget: Budget;
  /** Whether the budget is each caller's (policies): every tool registered, lists per caller. */
  readonly #perCaller: boolean;
  readonly #code: ReturnType<typeof codeModeOf>;

  constructor(settings: EndpointSettings) {
    this.#settings = settings;
    this.#sortedUpstreams = settings.upstreams;
    this.#upstreams = new Map(settings.upstreams.map((upstream) => [upstream.name, upstream]));
    this.#budget = new Budget(settings.budget, settings.tokenizer);
    this.#perCaller = settings.visible !== undefined;
    this.#routing = settings.routing;
    this.#curation = settings.curation;
    this.lookup = this.#makeLookup();
    this.#code = codeModeOf(settings.codeMode, (tool, args, { ctx, signal }) => {
      const upstream = this.#upstream(tool.upstream);
      const call = this.#routing.start(tool.upstream, ctx, signal);
      return forwardToolCall(call, { upstream, tool: tool.original, args }, this.#settings);
    });
    this.#server = this.#createServer();
  }

  /** The endpoint's name: '' for the default one (`/mcp`). */
  get name(): string {
    return this.#settings.name;
  }

  /** The McpServer serving this endpoint: connect it to a transport, or `listen()` it. */
  get server(): McpServer {
    return this.#server;
  }

  /**
   * Serves `upstreams` (sorted by name), and `change`'s curation and budget, from now on, and
   * syncs: what a config reload calls. Sessions stay; clients are told what changed.
   */
  reselect(upstreams: readonly Upstream[], change?: EndpointChange): void {
    if (change !== undefined) {
      this.#curation = change.curation;
      this.#budget.setLimit(change.budget);
      for (const name of change.replaced) this.#subscribed.delete(name);
    }
    this.#sortedUpstreams = upstreams;
    this.#upstreams = new Map(upstreams.map((upstream) => [upstream.name, upstream]));
    this.sync();
  }

  /** Whether this endpoint serves upstream `name`. */
  serves(name: string): boolean {
    return this.#upstreams.has(name);
  }

  /**
   * This endpoint's mode, token counts and upstreams: as the caller of `ctx` is served (with
   * policies, its mode and counts are over the tools it may see), else over every tool.
   */
  status(ctx?: { readonly auth: AuthInfo | undefined }): GatewayStatus {
    const visible = ctx === undefined ? undefined : this.#settings.visible?.(ctx);
    const tools =
      visible === undefined
        ? this.#catalogue
        : this.#catalogue.filter((tool) => visible(originOf(tool)));
    return {
      ...this.#budget.status(tools, this.#found, this.#code !== undefined),
      upstreams: this.#settings.secrets.redact(this.#sortedUpstreams.map((u) => u.status())),
    };
  }

  /** Closes the server (the upstreams are the gateway's). */
  async close(): Promise<void> {
    await this.#server.close();
  }

  /** Maps what this endpoint serves back to its upstreams (what policies and audit read). */
  readonly lookup: EndpointLookup;

  #makeLookup(): EndpointLookup {
    return {
      name: this.#settings.name,
      tool: (served) => {
        const tool = this.#tools.get(served)?.served;
        return tool === undefined ? undefined : { upstream: tool.upstream, name: tool.original };
      },
      prompt: (served) => {
        const owner = this.#prompts.get(served)?.owner;
        const name = this.#promptNames.get(served);
        return owner === undefined || name === undefined ? undefined : { upstream: owner, name };
      },
      resource: (uri) => {
        const owner = this.#resources.get(uri)?.owner;
        if (owner !== undefined) return { upstream: owner, name: upstreamUri(owner, uri) };
        for (const { owner: upstream, template } of this.#templateMatchers) {
          if (template.match(uri) !== undefined) {
            return { upstream, name: upstreamUri(upstream, uri) };
          }
        }
        return undefined;
      },
      template: (uriTemplate) => {
        const owner = this.#templates.get(uriTemplate)?.owner;
        if (owner === undefined) return undefined;
        return { upstream: owner, name: upstreamUri(owner, uriTemplate) };
      },
    };
  }

  /**
   * Makes the McpServer, once the upstreams' first attempts are over: its instructions are the
   * given ones, else those of the connected upstreams, each under its name.
   */
  #createServer(): McpServer {
    const settings = this.#settings;
    const instructions = settings.server?.instructions ?? joinInstructions(this.#sorted());
    const server = new McpServer(settings.info ?? { name: 'mcpkit-gateway', version: '0.1.0' }, {
      ...settings.server,
      ...(instructions === undefined ? {} : { instructions }),
      onRootsChanged: () => {
        settings.server?.onRootsChanged?.();
        for (const upstream of this.#upstreams.values()) upstream.rootsChanged();
      },
      validator: PASS_THROUGH,
    });
    server.use(hideAppOnlyTools);
    const serves = (name: string) =>
      this.#tools.has(name) ||
      name === CODE_TOOL ||
      (name === SEARCH_TOOLS && this.#search !== undefined);
    server.use(this.#viewNames.takeOwnNames(serves));
    const { visible } = settings;
    const own =
      visible === undefined
        ? []
        : [
            perCallerTools({
              budget: this.#budget,
              visible,
              found: this.#found,
              catalogued: (name) => this.#catalogued.has(name),
            }),
          ];
    for (const middleware of settings.middleware(this.lookup, own)) server.use(middleware);
    server.resource(
      {
        uri: STATUS_URI,
        name: 'gateway/status',
        title: 'Gateway status',
        description: 'Each upstream server: state, revision, latency, tools, last error.',
        mimeType: 'application/json',
      },
      (_uri, ctx) => JSON.stringify(this.status(ctx), null, 2),
    );
    return server;
  }

  // ---- what is served, kept in step with the upstreams ----

  /** Brings what is served in step with the upstreams' lists (tells clients what changed). */
  sync(): void {
    this.#syncTools();
    this.#syncResources();
    this.#syncPrompts();
    this.server.resourceUpdated(STATUS_URI);
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
    this.#budget.update(this.#catalogue);
    this.#catalogued = new Set(this.#catalogue.map((tool) => tool.definition.name));
    let served = [...this.#catalogue, ...appOnly];
    if (this.#code !== undefined) {
      served = appOnly;
      this.#code.sync(this.server, this.#catalogue);
    } else if (this.#budget.exceeded) {
      // Per caller, every tool stays registered: perCallerTools lists each caller its share.
      if (!this.#perCaller) {
        const found = this.#catalogue.filter((tool) => this.#found.has(tool.definition.name));
        served = [...found, ...appOnly];
      }
      this.#search ??= this.#registerSearch();
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
    const handler = (args: Record<string, unknown>, ctx: HandlerContext) =>
      this.#callTool(tool, args, ctx);
    const definition = { ...tool.definition } as Record<string, unknown>;
    return this.server.tool(definition as never, handler as never);
  }

  /** Forwards a call of `served` for the request of `ctx` (throws for an upstream gone). */
  #callTool(served: ServedTool, args: Record<string, unknown>, ctx: HandlerContext) {
    const upstream = this.#upstream(served.upstream);
    const call = this.#routing.start(served.upstream, ctx);
    return forwardToolCall(call, { upstream, tool: served.original, args }, this.#settings);
  }

  #registerSearch(): Handle {
    const { description, inputSchema } = SEARCH_TOOLS_DEFINITION;
    return this.server.tool({ name: SEARCH_TOOLS, description, inputSchema }, (args, ctx) =>
      searchCatalogue(this.#searchable(ctx), args, (names) => {
        const fresh = names.filter((name) => !this.#found.has(name));
        for (const name of fresh) this.#found.add(name);
        if (fresh.length === 0) return;
        // Per caller, the tools are registered already: only the callers' lists changed.
        if (this.#perCaller) this.server.listChanged('tools');
        else this.#syncTools();
      }),
    );
  }

  /** The catalogue as the caller of `ctx` may see it (a policy hides tools from searches too). */
  #searchable(ctx: HandlerContext): readonly ServedTool[] {
    const visible = this.#settings.visible?.(ctx);
    if (visible === undefined) return this.#catalogue;
    return this.#catalogue.filter((tool) => visible(originOf(tool)));
  }

  /** The upstreams, sorted by name (given so). */
  #sorted(): readonly Upstream[] {
    return this.#sortedUpstreams;
  }

  #upstream(name: string): Upstream {
    const upstream = this.#upstreams.get(name);
    if (upstream === undefined) throw new Error(`no upstream "${name}"`);
    return upstream;
  }

  #event(event: Record<string, unknown>): void {
    this.#settings.event(event);
  }

  #syncResources(): void {
    const { resources, templates } = wantedResources(this.#sorted(), this.#curation, STATUS_URI);
    this.#templateMatchers = [];
    for (const [uriTemplate, { owner }] of templates) {
      try {
        this.#templateMatchers.push({
          owner,
          uriTemplate,
          template: UriTemplate.parse(uriTemplate),
        });
      } catch {
        // Not a template this server can serve: it is left out below as well.
      }
    }
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
    const uri = upstreamUri(owner, served);
    const result = await forwardRequest(
      this.#settings,
      { upstream: this.#upstream(owner), ctx },
      (client, o) => client.readResource(uri, o),
    );
    this.#subscribe(owner, uri);
    return { contents: servedContents(owner, result.contents), ...metaField(result) };
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
    this.#promptNames.clear();
    nameTools(refs).forEach((entry, index) => {
      const { source } = refs[index] as (typeof refs)[number];
      wanted.set(entry.name, { owner: entry.server, source });
      this.#promptNames.set(entry.name, source.name);
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
          const result = await forwardRequest(
            this.#settings,
            { upstream: this.#upstream(owner), ctx },
            (client, options) => client.getPrompt(source.name, { ...args }, options),
          );
          return {
            messages: result.messages,
            ...(result.description === undefined ? {} : { description: result.description }),
            ...metaField(result),
          };
        },
      );
    });
  }
}
