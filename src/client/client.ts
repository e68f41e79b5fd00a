// Client: an MCP client for every revision over any Transport. It has a jsonrpc Connection (no
// base class), negotiates the era on connect, and offers one API whose handlers and events
// behave the same in both eras. See docs/client.md.
import { LocalError, LocalErrorCode } from '../jsonrpc/errors.js';
import type { Transport } from '../jsonrpc/transport.js';
import { isObject } from '../internal/json.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { ProtocolEra, ProtocolRevision } from '../protocol/version.js';
import { PROTOCOL_REVISIONS } from '../protocol/version.js';
import type { RequestOptions } from './caller.js';
import type { ListName } from './lists.js';
import type { Negotiated } from './negotiate.js';
import { negotiate } from './negotiate.js';
import { ClientSession } from './session.js';
import { changeSubscription } from './subscriptions.js';
import { runToolCall } from './tool-call.js';
import type { ClientExtension, ClientExtensionHost } from './extension.js';
import { ClientExtensions, checkClientExtension } from './extension.js';
import type { ClientMiddleware, ClientMiddlewareHooks } from './middleware.js';
import { ClientMiddlewareStack } from './middleware.js';
import type {
  CallOptions,
  CallToolResult,
  ClientConnectOptions,
  ClientOptions,
  CompleteRef,
  CompleteResult,
  GetPromptResult,
  ListOptions,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Subscription,
  SubscriptionFilter,
  Tool,
} from './types.js';

/** Options of `Client.complete`. */
export interface CompleteOptions extends CallOptions {
  /** Values of the other arguments or variables, already resolved. */
  context?: { arguments?: Record<string, string> };
}

/**
 * Client is one MCP client. Connect it once to a Transport; then call the server concurrently
 * from anywhere. Calls made before `connect` has resolved, or after `close`, reject with
 * LocalError('NOT_CONNECTED'). A client may connect again after `close`.
 */
export class Client {
  readonly #info: Spec.Implementation;
  readonly #options: ClientOptions;
  #session: ClientSession | undefined;
  /** What the extensions added with extend() declare, by id. */
  readonly #extensions = new ClientExtensions();
  /** The session being connected, so that close() can stop it. */
  #connecting: ClientSession | undefined;
  readonly #middleware = new ClientMiddlewareStack();

  constructor(info: Spec.Implementation, options: ClientOptions = {}) {
    if (typeof info.name !== 'string' || typeof info.version !== 'string') {
      throw new TypeError('client info needs a name and a version');
    }
    const revisions = options.revisions ?? PROTOCOL_REVISIONS;
    if (revisions.length === 0) throw new TypeError('a client must speak at least one revision');
    const mode = options.mode ?? 'auto';
    if (mode !== 'auto' && !revisions.includes(mode.pin)) {
      throw new TypeError(`the pinned revision ${mode.pin} is not among the client's revisions`);
    }
    checkCount(options.timeoutMs, 'timeoutMs');
    checkCount(options.maxInputRounds, 'maxInputRounds');
    checkCount(options.maxPages, 'maxPages');
    this.#info = info;
    this.#options = { ...options, revisions, mode };
  }

  /** The era of the connection: `legacy` (initialize) or `modern` (2026-07-28). */
  get era(): ProtocolEra {
    return this.#negotiated().era;
  }

  /** The revision agreed with the server. */
  get revision(): ProtocolRevision {
    return this.#negotiated().revision;
  }

  /** The server's name and version, when it sent them. */
  get serverInfo(): Spec.Implementation | undefined {
    return this.#negotiated().serverInfo;
  }

  /** What the server offers. */
  get serverCapabilities(): Spec.ServerCapabilities {
    return this.#negotiated().serverCapabilities;
  }

  /** The server's guidance for the model, if any. */
  get instructions(): string | undefined {
    return this.#negotiated().instructions;
  }

  /** True between a successful connect and the connection's end. */
  get isConnected(): boolean {
    return this.#session !== undefined && !this.#session.connection.isClosed;
  }

  /**
   * Connects over `transport` and agrees on a revision (see ClientOptions.mode). Rejects, with
   * the transport closed, when no revision fits or the server fails to answer.
   */
  async connect(transport: Transport, options: ClientConnectOptions = {}): Promise<void> {
    if (this.#connecting !== undefined || this.isConnected) {
      throw new LocalError(LocalErrorCode.AlreadyStarted, 'the client is already connected');
    }
    const session = new ClientSession({
      transport,
      info: this.#info,
      options: this.#withCloseListeners(withExtensions(this.#options, this.#extensions.settings)),
      extensions: this.#extensions,
      middleware: this.#middleware,
    });
    this.#connecting = session;
    try {
      await session.connection.start();
      session.negotiated = await negotiate({
        caller: session.caller,
        revisions: this.#options.revisions ?? PROTOCOL_REVISIONS,
        mode: this.#options.mode ?? 'auto',
        capabilities: (revision) => session.caller.capabilities(revision),
        info: (revision) => session.caller.info(revision),
        options: negotiationOptions(options),
      });
      setProtocolVersion(transport, session.negotiated.revision);
      this.#session = session;
      await this.#settle(session);
    } catch (error) {
      this.#session = undefined;
      await session.connection.close();
      throw error;
    } finally {
      this.#connecting = undefined;
    }
  }

  /**
   * Closes the connection (also one still connecting); pending calls reject with
   * LocalError('CONNECTION_CLOSED'). Idempotent.
   */
  async close(): Promise<void> {
    const session = this.#session ?? this.#connecting;
    this.#session = undefined;
    await session?.connection.close();
  }

  /**
   * Adds an extension of the protocol (docs/extensions.md) and gives its API over this client:
   * its methods are declared, and its settings are declared to the servers connected after.
   * Throws TypeError for a bad extension or one added already.
   */
  extend<TApi>(extension: ClientExtension<TApi>): TApi {
    checkClientExtension(extension, new Set(this.#extensions.settings.keys()));
    this.#extensions.add(extension);
    return extension.bind(this.#host);
  }

  /**
   * Calls `listener` each time a connection of this client closes (with the error, if it
   * failed), after `ClientOptions.onClose`; for connections made from now on. What it throws goes
   * to `onError`. Returns the client.
   */
  onClose(listener: (error?: Error) => void): this {
    this.#closeListeners.push(listener);
    return this;
  }

  readonly #closeListeners: ((error?: Error) => void)[] = [];

  /** `options` whose onClose also calls the listeners of {@link Client.onClose}. */
  #withCloseListeners(options: ClientOptions): ClientOptions {
    const listeners = this.#closeListeners;
    if (listeners.length === 0) return options;
    const own = options.onClose;
    return {
      ...options,
      onClose: (error) => {
        try {
          own?.(error);
        } finally {
          for (const listener of listeners.slice()) listener(error);
        }
      },
    };
  }

  /**
   * Adds a middleware around every message this client sends (each request round, each
   * notification) and every request the server sends it, from now on (docs/middleware.md,
   * "Client middleware"). The first added runs outermost. `{ notification }` adds one, instead,
   * around each notification the server sends the client (synchronous; the message middleware
   * never sees those). Throws TypeError for anything else.
   */
  use(middleware: ClientMiddleware | ClientMiddlewareHooks): this {
    this.#middleware.add(middleware);
    return this;
  }

  /** What extensions use of this client (see ClientExtensionHost). */
  readonly #host: ClientExtensionHost = ((client: Client) => ({
    request: (method, params, options) => client.#require().caller.request(method, params, options),
    get era() {
      return client.era;
    },
    get revision() {
      return client.revision;
    },
    get serverCapabilities() {
      return client.serverCapabilities;
    },
    get connection() {
      return client.#require();
    },
    report: (error) => {
      client.#require().report(error);
    },
    fulfil: (inputRequests, signal) => client.#require().caller.io.fulfil(inputRequests, signal),
  }))(this);

  /** Iterates the server's tools, following `nextCursor` (at most `maxPages` pages). */
  tools(options?: ListOptions): AsyncIterable<Tool> {
    return this.#iterate('tools', options) as AsyncIterable<Tool>;
  }

  /** Every tool; within a 2026-07-28 `ttlMs` the cached list, until the list changes. */
  async listTools(options?: ListOptions): Promise<Tool[]> {
    return (await this.#require().lists.collect('tools', options)) as Tool[];
  }

  /** Iterates the server's resources. */
  resources(options?: ListOptions): AsyncIterable<Resource> {
    return this.#iterate('resources', options) as AsyncIterable<Resource>;
  }

  /** Every resource (cached like listTools). */
  async listResources(options?: ListOptions): Promise<Resource[]> {
    return (await this.#require().lists.collect('resources', options)) as Resource[];
  }

  /** Iterates the server's resource templates. */
  resourceTemplates(options?: ListOptions): AsyncIterable<ResourceTemplate> {
    return this.#iterate('resourceTemplates', options) as AsyncIterable<ResourceTemplate>;
  }

  /** Every resource template (cached like listTools). */
  async listResourceTemplates(options?: ListOptions): Promise<ResourceTemplate[]> {
    const items = await this.#require().lists.collect('resourceTemplates', options);
    return items as ResourceTemplate[];
  }

  /** Iterates the server's prompts. */
  prompts(options?: ListOptions): AsyncIterable<Prompt> {
    return this.#iterate('prompts', options) as AsyncIterable<Prompt>;
  }

  /** Every prompt (cached like listTools). */
  async listPrompts(options?: ListOptions): Promise<Prompt[]> {
    return (await this.#require().lists.collect('prompts', options)) as Prompt[];
  }

  /**
   * Calls a tool. A tool failure is returned (`isError: true`), never thrown; a protocol error
   * throws JsonRpcError (an unknown tool is -32602). A successful result of a tool with an
   * `outputSchema` is checked: a mismatch or a missing `structuredContent` throws
   * LocalError('PROTOCOL_VIOLATION'). In 2026-07-28 the call carries the `Mcp-Param-*` headers
   * the tool's `x-mcp-header` annotations ask for (a tool never listed fetches the tool list
   * first), and a HeaderMismatch (-32020) after the tool's definition changed is retried once with
   * the new definition.
   */
  callTool(
    name: string,
    args: Record<string, unknown> = {},
    options: CallOptions = {},
  ): Promise<CallToolResult> {
    const session = this.#session;
    if (session === undefined) return Promise.reject(notConnected());
    return runToolCall(session, { name, arguments: args }, options);
  }

  /** Reads a resource. */
  async readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    const result = await this.#require().caller.request('resources/read', { uri }, options);
    return result as unknown as ReadResourceResult;
  }

  /** Gets a prompt, its arguments filled in. */
  async getPrompt(
    name: string,
    args: Record<string, string> = {},
    options?: CallOptions,
  ): Promise<GetPromptResult> {
    const params = { name, arguments: args };
    const result = await this.#require().caller.request('prompts/get', params, options);
    return result as unknown as GetPromptResult;
  }

  /** Asks for completions of a prompt argument or a template variable. */
  async complete(
    ref: CompleteRef,
    argument: { name: string; value: string },
    options: CompleteOptions = {},
  ): Promise<CompleteResult> {
    const { context, ...callOptions } = options;
    const params = context === undefined ? { ref, argument } : { ref, argument, context };
    const result = await this.#require().caller.request('completion/complete', params, callOptions);
    return result as unknown as CompleteResult;
  }

  /**
   * Checks that the server answers. Legacy: `ping`. 2026-07-28 has no ping, so a `server/discover`
   * round trip stands in for it.
   */
  async ping(options?: CallOptions): Promise<void> {
    const session = this.#require();
    const method = session.caller.era === 'legacy' ? 'ping' : 'server/discover';
    await session.caller.request(method, {}, options);
  }

  /**
   * Sets the lowest log level to receive. Legacy: `logging/setLevel`. 2026-07-28: sent in the
   * `_meta` of every later request.
   */
  async setLogLevel(level: LoggingLevel, options?: CallOptions): Promise<void> {
    const { caller } = this.#require();
    if (caller.era === 'legacy') await caller.request('logging/setLevel', { level }, options);
    caller.logLevel = level;
  }

  /**
   * Subscribes to updates of a resource (events: `onResourceUpdated`). Legacy:
   * `resources/subscribe`. 2026-07-28: (re)opens the client's resource listen stream.
   */
  subscribe(uri: string, options?: CallOptions): Promise<void> {
    return changeSubscription(this.#require(), uri, { on: true, options });
  }

  /** Ends a subscription made with `subscribe`. */
  unsubscribe(uri: string, options?: CallOptions): Promise<void> {
    return changeSubscription(this.#require(), uri, { on: false, options });
  }

  /**
   * Opens a 2026-07-28 `subscriptions/listen` stream; its notifications reach the client's
   * events. Throws LocalError('UNSUPPORTED') in the legacy era, whose servers send their
   * notifications unasked (resources: `subscribe`).
   */
  listen(filter: SubscriptionFilter): Subscription {
    const session = this.#require();
    if (session.caller.era === 'legacy') {
      throw new LocalError(
        LocalErrorCode.Unsupported,
        'subscriptions/listen needs 2026-07-28; legacy servers send notifications unasked',
      );
    }
    return session.listens.open(filter);
  }

  /** Tells a legacy server that the roots changed (2026-07-28 servers ask each time: no-op). */
  async rootsChanged(): Promise<void> {
    const { caller } = this.#require();
    if (caller.era === 'legacy') await caller.notify('notifications/roots/list_changed');
  }

  #negotiated(): Negotiated {
    const negotiated = this.#session?.negotiated;
    if (negotiated === undefined) throw notConnected();
    return negotiated;
  }

  #require(): ClientSession {
    const session = this.#session;
    if (session === undefined) throw notConnected();
    return session;
  }

  async *#iterate(name: ListName, options?: ListOptions): AsyncGenerator<unknown, void, undefined> {
    yield* this.#require().lists.iterate(name, options);
  }

  /** After negotiation: the legacy log level, and the 2026-07-28 stream for list changes. */
  async #settle(session: ClientSession): Promise<void> {
    const { caller } = session;
    const capabilities = this.serverCapabilities as Record<string, unknown>;
    const { logLevel } = this.#options;
    if (caller.era === 'legacy') {
      if (logLevel !== undefined && capabilities['logging'] !== undefined) {
        await caller.request('logging/setLevel', { level: logLevel });
      }
      return;
    }
    if (this.#options.onListChanged === undefined || this.#options.autoListen === false) return;
    const filter = listChangedFilter(this.serverCapabilities);
    if (Object.keys(filter).length === 0) return;
    session.changes = session.listens.open(filter);
    await session.changes.acknowledged.catch((error: unknown) => {
      session.report(error);
    });
  }
}

function listChangedFilter(capabilities: Spec.ServerCapabilities): SubscriptionFilter {
  const filter: SubscriptionFilter = {};
  if (capabilities.tools?.listChanged === true) filter.toolsListChanged = true;
  if (capabilities.prompts?.listChanged === true) filter.promptsListChanged = true;
  if (capabilities.resources?.listChanged === true) filter.resourcesListChanged = true;
  return filter;
}

function negotiationOptions(options: ClientConnectOptions): RequestOptions {
  const result: RequestOptions = {};
  if (options.signal !== undefined) result.signal = options.signal;
  if (options.timeoutMs !== undefined) result.timeoutMs = options.timeoutMs;
  return result;
}

/** Tells an HTTP-like transport the agreed revision (structural: no transport is imported). */
function setProtocolVersion(transport: Transport, revision: ProtocolRevision): void {
  const candidate = transport as Transport & { setProtocolVersion?: unknown };
  if (typeof candidate.setProtocolVersion === 'function') {
    (candidate.setProtocolVersion as (revision: string) => void).call(transport, revision);
  }
}

/** Throws a TypeError unless `value` is absent or a positive integer. */
/** `options` with the settings of the client's extensions under `capabilities.extensions`. */
function withExtensions(
  options: ClientOptions,
  extensions: ReadonlyMap<string, Record<string, unknown> | undefined>,
): ClientOptions {
  const settings = [...extensions].filter(([, value]) => value !== undefined);
  if (settings.length === 0) return options;
  const capabilities = (options.capabilities ?? {}) as Record<string, unknown>;
  const own = capabilities['extensions'];
  const merged = { ...Object.fromEntries(settings), ...(isObject(own) ? own : {}) };
  const declared = { ...capabilities, extensions: merged } as Spec.ClientCapabilities;
  return { ...options, capabilities: declared };
}

function checkCount(value: number | undefined, name: string): void {
  if (value !== undefined && !(Number.isSafeInteger(value) && value > 0)) {
    throw new TypeError(`${name} must be a positive integer, got ${String(value)}`);
  }
}

function notConnected(): LocalError {
  return new LocalError(LocalErrorCode.NotConnected, 'the client is not connected');
}
