// McpServer: one definition of tools, resources and prompts, compiled at registration and served
// to clients of every MCP revision over any Transport.
import type { RequestContext } from '../jsonrpc/serve.js';
import type { Request, Response } from '../jsonrpc/message.js';
import type { Transport } from '../jsonrpc/transport.js';
import type { JsonSchemaValidator } from '../protocol/json-schema/index.js';
import { builtinValidator } from '../protocol/json-schema/index.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { LegacyRevision, ProtocolRevision } from '../protocol/version.js';
import { PROTOCOL_REVISIONS } from '../protocol/version.js';
import type { ChangeBus } from './core.js';
import { ServerCore } from './core.js';
import type { Middleware } from './middleware.js';
import { compilePrompt } from './prompts.js';
import { registerEntry } from './registered.js';
import type { CompiledResource, CompiledTemplate } from './resources.js';
import { compileResource, compileTemplate } from './resources.js';
import type { StateSecret } from './seal.js';
import { Sealer } from './seal.js';
import type { SessionOptions } from './session.js';
import { ServerSession } from './session.js';
import { checkToolCall, compileTool } from './tools.js';
import type {
  CacheHint,
  HandlerContext,
  PromptDefinition,
  PromptHandler,
  RegisteredHandle,
  ResourceDefinition,
  ResourceHandler,
  ResourceTemplateDefinition,
  ResourceTemplateHandler,
  SchemaInput,
  ServerInfo,
  ToolDefinition,
  ToolHandlerFor,
  InferArgs,
} from './types.js';
import type { StandardSchemaV1 } from './standard-schema.js';
import { reportOnStderr } from './report.js';
import type { ServerExtension } from './extension.js';
import { FEATURES } from './features.js';

/** Options of an McpServer. Every field is optional. */
export interface McpServerOptions {
  /** Guidance for the model about this server (`instructions`). */
  instructions?: string;
  /** Revisions to speak. Default: all five. */
  revisions?: readonly ProtocolRevision[];
  /** Items per page of every listing. Default: all on one page. */
  pageSize?: number;
  /** Validator for raw JSON Schema. Default: the built-in one (no eval). */
  validator?: JsonSchemaValidator;
  /**
   * Secret (≥ 32 bytes) sealing `requestState`; share it across instances behind a load
   * balancer. To rotate, give named keys `[{ id, secret }, …]`: the first seals, each one opens
   * what it sealed (the key id travels in the sealed value). Default: random per process.
   */
  stateSecret?: StateSecret;
  /** How long a `requestState` stays valid. Default: 10 minutes. */
  stateTtlMs?: number;
  /** Most rounds one multi round-trip request may take. Default: 16. */
  maxInputRounds?: number;
  /**
   * How long `ctx.elicit`, `ctx.sample` and `ctx.roots` wait for a legacy client's answer before
   * they reject with a timeout error (the client is sent `notifications/cancelled`); a call's own
   * `timeoutMs` overrides it. Bounds what a client that never answers can hold. Default: 5 minutes.
   */
  inputTimeoutMs?: number;
  /**
   * Most 2026-07-28 `subscriptions/listen` streams open at once; one more is refused with -32603
   * ("too many subscriptions/listen streams"). Default: 1 000.
   */
  maxListenStreams?: number;
  /** 2026-07-28 cache hints per method (`tools/list`, `server/discover`, …). Default: ttlMs 0, private. */
  cacheHints?: Readonly<Record<string, CacheHint>>;
  /** Capabilities to advertise on top of those derived from what is registered. */
  capabilities?: Spec.ServerCapabilities;
  /**
   * Receives errors whose cause does not reach the wire whole (a handler's crash, invalid
   * output, a resource or prompt handler's throw, a TypeError or ReferenceError a tool handler
   * throws). Default: one line on stderr (`mcpkit server: <where>: <message>`, the whole stack
   * when the environment sets MCPKIT_DEBUG); pass `() => {}` to silence it.
   */
  onError?: (error: unknown, where: string) => void;
  /**
   * Told when a legacy client says its roots changed (`notifications/roots/list_changed`); ask
   * again with `ctx.roots()` when next needed. 2026-07-28 clients send no such notification:
   * their roots are asked for within the request that needs them. Its throw goes to onError.
   */
  onRootsChanged?: () => void;
  /**
   * Carries list changes and resource updates between the processes that serve as one server
   * (`createRedisChangeBus` of mcpkit/stores/redis): a change made on one process reaches the
   * clients and `subscriptions/listen` streams of every process. Default: none (one process).
   */
  changeBus?: ChangeBus;
}

function positiveOption(name: string, value: number): number {
  if (!(value > 0)) throw new TypeError(`${name} must be a positive number`);
  return value;
}

/**
 * McpServer holds one server definition and serves it to any number of clients. Registration
 * validates and compiles eagerly: mistakes throw TypeError at once, and requests only look up.
 * Registering, updating or removing while serving is safe; connected clients are told.
 */
export class McpServer {
  readonly #core: ServerCore;

  constructor(info: ServerInfo, options: McpServerOptions = {}) {
    if (typeof info.name !== 'string' || typeof info.version !== 'string') {
      throw new TypeError('server info needs a name and a version');
    }
    const revisions = options.revisions ?? PROTOCOL_REVISIONS;
    if (revisions.length === 0) throw new TypeError('a server must speak at least one revision');
    const pageSize = options.pageSize ?? Number.POSITIVE_INFINITY;
    if (!(pageSize >= 1)) throw new TypeError('pageSize must be at least 1');
    this.#core = new ServerCore({
      info,
      instructions: options.instructions,
      revisions,
      pageSize,
      rounds: {
        sealer: new Sealer(options.stateSecret),
        stateTtlMs: options.stateTtlMs ?? 600_000,
        maxRounds: options.maxInputRounds ?? 16,
      },
      inputTimeoutMs: positiveOption('inputTimeoutMs', options.inputTimeoutMs ?? 300_000),
      maxListenStreams: positiveOption('maxListenStreams', options.maxListenStreams ?? 1000),
      cacheHints: options.cacheHints ?? {},
      onError: options.onError ?? reportOnStderr,
      onRootsChanged: options.onRootsChanged,
      capabilities: options.capabilities,
      changeBus: options.changeBus,
    });
    this.#validator = options.validator ?? builtinValidator;
  }

  readonly #validator: JsonSchemaValidator;

  /** The server's identity. */
  get info(): ServerInfo {
    return this.#core.info;
  }

  /**
   * Registers a tool. Throws TypeError on a bad name, schema or a duplicate. The handler's return
   * type follows the definition: text or a {@link ToolResult} without an `outputSchema`; with one,
   * the structured data (or a result carrying it, or an error result).
   */
  tool<TInput extends SchemaInput, TOutput extends SchemaInput | undefined = undefined>(
    definition: ToolDefinition<TInput, TOutput>,
    handler: ToolHandlerFor<TInput, TOutput>,
  ): RegisteredHandle<ToolDefinition<TInput, TOutput>>;
  tool(
    definition: ToolDefinition,
    handler: (args: never, ctx: HandlerContext) => unknown,
    ...rest: unknown[]
  ): RegisteredHandle<ToolDefinition> {
    checkToolCall(definition, handler, rest.length);
    const map = this.#core.registry.tools;
    if (map.has(definition.name))
      throw new TypeError(`tool "${definition.name}" is already registered`);
    const core = this.#core;
    const compile = (d: ToolDefinition) =>
      compileTool(core.extensions.tool(d), handler, this.#validator);
    return registerEntry(
      { core: this.#core, map, key: definition.name, kind: 'tools' },
      definition,
      compile,
    );
  }

  /** @deprecated mcpkit has no `registerResource`: write `server.resource({ uri, name }, handler)`. */
  registerResource(...args: never[]): never {
    throw new TypeError(
      `mcpkit has no registerResource: write server.resource({ uri: 'notes://readme', name: ${JSON.stringify((args as unknown[])[0] ?? 'readme')} }, handler), or server.resourceTemplate({ uriTemplate, name }, handler)`,
    );
  }

  /** @deprecated mcpkit has no `registerPrompt`: write `server.prompt({ name, argsSchema }, handler)`. */
  registerPrompt(...args: never[]): never {
    throw new TypeError(
      `mcpkit has no registerPrompt: write server.prompt({ name: ${JSON.stringify((args as unknown[])[0] ?? 'my-prompt')}, argsSchema: z.strictObject({ … }) }, handler)`,
    );
  }

  /**
   * @deprecated mcpkit has no `registerTool` (the official SDK's name): write
   * `server.tool({ name, description, inputSchema: z.strictObject({ … }) }, handler)`.
   */
  registerTool(...args: never[]): never {
    throw new TypeError(
      `mcpkit has no registerTool: write server.tool({ name: ${JSON.stringify((args as unknown[])[0] ?? 'my-tool')}, description, inputSchema: z.strictObject({ … }) }, handler)`,
    );
  }

  /** Registers a static resource. Throws TypeError on a bad URI or a duplicate. */
  resource(
    definition: ResourceDefinition,
    handler: ResourceHandler,
    ...rest: unknown[]
  ): RegisteredHandle<ResourceDefinition> {
    if (typeof definition !== 'object' || rest.length > 0) {
      throw new TypeError(
        `server.resource takes a definition object and a handler: write server.resource({ uri: 'notes://readme', name: ${JSON.stringify(typeof definition === 'string' ? definition : 'readme')} }, handler)`,
      );
    }
    const map = this.#core.registry.resources;
    if (map.has(definition.uri))
      throw new TypeError(`resource "${definition.uri}" is already registered`);
    return registerEntry<ResourceDefinition, CompiledResource>(
      { core: this.#core, map, key: definition.uri, kind: 'resources' },
      definition,
      (d) => compileResource(d, handler),
    );
  }

  /** Registers a resource template (RFC 6570). Throws TypeError on an invalid template or a duplicate. */
  resourceTemplate(
    definition: ResourceTemplateDefinition,
    handler: ResourceTemplateHandler,
  ): RegisteredHandle<ResourceTemplateDefinition> {
    const map = this.#core.registry.templates;
    const key = definition.uriTemplate;
    if (map.has(key)) throw new TypeError(`resource template "${key}" is already registered`);
    return registerEntry<ResourceTemplateDefinition, CompiledTemplate>(
      { core: this.#core, map, key, kind: 'resources' },
      definition,
      (d) => compileTemplate(d, handler),
    );
  }

  /**
   * Registers a prompt. Throws TypeError on a bad definition or a duplicate. With a Standard
   * Schema `argsSchema` the handler's arguments are typed by it.
   */
  prompt<TArgs extends StandardSchemaV1>(
    definition: PromptDefinition & { argsSchema: TArgs },
    handler: PromptHandler<InferArgs<TArgs>>,
  ): RegisteredHandle<PromptDefinition>;
  prompt(definition: PromptDefinition, handler: PromptHandler): RegisteredHandle<PromptDefinition>;
  prompt(
    definition: PromptDefinition,
    handler: PromptHandler<never>,
    ...rest: unknown[]
  ): RegisteredHandle<PromptDefinition> {
    if (typeof definition !== 'object' || rest.length > 0) {
      throw new TypeError(
        `server.prompt takes a definition object and a handler: write server.prompt({ name: ${JSON.stringify(typeof definition === 'string' ? definition : 'my-prompt')}, argsSchema: z.strictObject({ … }) }, handler)`,
      );
    }
    const map = this.#core.registry.prompts;
    if (map.has(definition.name))
      throw new TypeError(`prompt "${definition.name}" is already registered`);
    return registerEntry(
      { core: this.#core, map, key: definition.name, kind: 'prompts' },
      definition,
      (d) => compilePrompt(d, handler, this.#validator),
    );
  }

  /**
   * Adds an extension of the protocol (docs/extensions.md): declares its methods and serves
   * them in the revisions it names, advertises its capability, runs its middleware after the
   * middleware registered before it, and runs its `setup`. Throws TypeError for a bad extension,
   * one added already, or a method served already. Returns the server.
   */
  extend(extension: ServerExtension): this {
    const core = this.#core;
    const middleware = core.extensions.add(extension, (method) => FEATURES[method] !== undefined);
    if (extension.tool !== undefined && core.registry.tools.size > 0) {
      // Tools registered before pass through the extension's hook now.
      for (const entry of core.registry.tools.values()) entry.recompile?.();
      core.changed('tools');
    }
    if (middleware !== undefined) core.middleware.add(middleware);
    extension.setup?.({
      resource: (definition, handler) => this.resource(definition, handler),
      capabilitiesChanged: () => {
        core.capabilitiesChanged();
      },
      report: core.report,
      tools: () => {
        const newest = PROTOCOL_REVISIONS.filter((r) => core.revisions.includes(r)).at(-1);
        if (newest === undefined) return [];
        return core.registry.snapshot().listing('tools', newest) as readonly Spec.Tool[];
      },
    });
    core.capabilitiesChanged();
    return this;
  }

  /**
   * Every scope a registered tool, resource, template or prompt declares, sorted (for the
   * `scopes_supported` of the protected resource metadata).
   */
  declaredScopes(): string[] {
    const { tools, resources, templates, prompts } = this.#core.registry;
    const scopes = new Set<string>();
    for (const { compiled } of tools.values()) for (const s of compiled.scopes) scopes.add(s);
    for (const { compiled } of resources.values()) for (const s of compiled.scopes) scopes.add(s);
    for (const { compiled } of templates.values()) for (const s of compiled.scopes) scopes.add(s);
    for (const { compiled } of prompts.values()) for (const s of compiled.scopes) scopes.add(s);
    return [...scopes].sort();
  }

  /**
   * Adds a middleware after those already registered (docs/middleware.md): a function around
   * every request the server serves, in both eras and over every transport, or `{ request,
   * toolCall }` (either or both), `toolCall` around every call of a known tool with valid
   * arguments. The first registered runs outermost. Takes effect for requests that arrive after;
   * throws TypeError for anything that is not a middleware. Returns the server.
   */
  use(middleware: Middleware): this {
    this.#core.middleware.add(middleware);
    return this;
  }

  /** Tells subscribed clients that the resource at `uri` changed. */
  resourceUpdated(uri: string): void {
    this.#core.resourceUpdated(uri);
  }

  /**
   * Tells every client that the `kind` list changed (`notifications/<kind>/list_changed`), as a
   * registration does by itself: for lists that a middleware shapes (per caller, say) and that
   * change without a registration changing.
   */
  listChanged(kind: 'tools' | 'resources' | 'prompts'): void {
    this.#core.changed(kind);
  }

  /**
   * Serves one client over `transport` and resolves once it is started. The session ends
   * when the transport closes.
   */
  connect(transport: Transport, options?: SessionOptions): Promise<ServerSession> {
    let session: ServerSession;
    try {
      session = new ServerSession(this.#core, transport, options);
    } catch (error) {
      // What was thrown, as is (an async function would reject with it the same way).
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return Promise.reject(error);
    }
    return session.start().then(() => session);
  }

  /**
   * Serves one request that arrived on its own (a 2026-07-28 or stateless HTTP POST) without a
   * connection, through the same pipeline as a connection's requests; what it sends before its
   * response goes through `context`. Transports call this (Connectable). Nothing is kept for the
   * request: a legacy stateless `initialize`, `logging/setLevel` or `resources/subscribe` is
   * answered and changes nothing.
   */
  serveRequest(
    request: Request,
    context: RequestContext,
    options?: SessionOptions,
  ): Response | Promise<Response> {
    return this.#statelessSession(options?.legacyStateless?.revision).serve(request, context);
  }

  /**
   * The session that serves requests on their own at a legacy stateless `revision` (undefined:
   * 2026-07-28 requests), made on first use. It keeps no state, so one serves them all.
   */
  #statelessSession(revision: LegacyRevision | undefined): ServerSession {
    const key = revision ?? 'none';
    let session = this.#stateless.get(key);
    if (session === undefined) {
      const options = revision === undefined ? {} : { legacyStateless: { revision } };
      session = new ServerSession(this.#core, undefined, options);
      this.#stateless.set(key, session);
    }
    return session;
  }

  readonly #stateless = new Map<LegacyRevision | 'none', ServerSession>();

  /** Ends open subscription streams gracefully and closes every session. */
  close(): Promise<void> {
    return this.#core.shutdown();
  }
}
