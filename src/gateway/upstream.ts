// One upstream server of the gateway: a Client kept connected (reconnected with capped
// exponential backoff when its process dies or its endpoint stops answering), the lists it
// serves, and its status (state, revision, latency of the last health ping, last error).
import { tasksClient } from '../ext/tasks/index.js';
import { Client } from '../client/index.js';
import type {
  ClientOptions,
  ElicitHandler,
  ListKind,
  Prompt,
  Resource,
  ResourceTemplate,
  RootsHandler,
  SampleHandler,
  Tool,
} from '../client/index.js';
import type { ServerConfig } from '../catalogue/index.js';
import { APPS_CLIENT_SETTINGS, APPS_EXTENSION, createServerTransport } from '../catalogue/index.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import { messageOf } from '../internal/message-of.js';

/** The fetch an HTTP upstream is reached with. */
export type UpstreamFetch = (input: string, init: RequestInit) => Promise<Response>;

/** Where an upstream stands. */
export type UpstreamState = 'connecting' | 'ready' | 'down' | 'closed';

/** What the gateway hands an upstream: the answers to its server's requests, and its events. */
export interface UpstreamHooks {
  readonly elicit: ElicitHandler;
  readonly sample: SampleHandler;
  readonly roots: RootsHandler;
  /** A log message; `tag` is that of the call it came in the course of, when known. */
  readonly log: (params: Spec.LoggingMessageNotificationParams, tag: unknown) => void;
  readonly resourceUpdated: (uri: string) => void;
  /** The lists or the state changed: the gateway resyncs what it serves. */
  readonly changed: () => void;
  /** A line for the gateway's log (stderr or --json). */
  readonly event: (event: Record<string, unknown>) => void;
  /** A new client for the upstream, before it connects. */
  readonly client?: (client: Client) => void;
}

/** Timing options of an upstream. */
export interface UpstreamTiming {
  /** First reconnect delay; doubles per failure. Default 250 ms. */
  readonly backoffMs?: number;
  /** Longest reconnect delay. Default 30 s. */
  readonly maxBackoffMs?: number;
  /** Health ping period (latency, liveness of HTTP upstreams). Default 15 s; 0: none. */
  readonly pingIntervalMs?: number;
  /** Timeout of each upstream request (progress restarts it). Default 5 minutes. */
  readonly timeoutMs?: number;
  /**
   * Longest wait of {@link Upstream.start} for the first attempt (connect and list): an upstream
   * still connecting or listing then joins later, its lists served once it has them. Default 10 s;
   * Infinity: wait for the first attempt however long it takes.
   */
  readonly startTimeoutMs?: number;
}

/**
 * Caps on each list of one upstream (tools, resources, resource templates, prompts), applied
 * as its pages arrive: items past a cap are dropped, the cursor is no longer followed, and the
 * upstream's status carries a warning.
 */
export interface UpstreamLimits {
  /** Most items of each list. Default {@link DEFAULT_LIMITS}.maxListItems (1,000). */
  readonly maxListItems?: number;
  /** Most bytes (its items as JSON) of each list. Default 4 MiB. */
  readonly maxListBytes?: number;
}

/** The default list caps of an upstream. */
export const DEFAULT_LIMITS: Required<UpstreamLimits> = {
  maxListItems: 1000,
  maxListBytes: 4 * 1024 * 1024,
};

/** An upstream's status, as the `gateway/status` resource shows it. */
export interface UpstreamStatus {
  readonly name: string;
  readonly transport: 'stdio' | 'http' | 'custom';
  readonly state: UpstreamState;
  readonly revision?: string;
  readonly server?: Spec.Implementation;
  readonly tools: number;
  readonly resources: number;
  readonly prompts: number;
  /** Round-trip time of the last health ping (or connect), in milliseconds. */
  readonly latencyMs?: number;
  readonly lastError?: string;
  /** What was left out of its lists (a list over its cap), when anything was. */
  readonly warnings?: readonly string[];
  /** Successful connections after the first. */
  readonly reconnects: number;
  /** ISO time of the last state change. */
  readonly since: string;
}

/** Thrown by {@link Upstream.use} while the upstream is not connected. */
export class UpstreamUnavailable extends Error {
  constructor(name: string, reason: string | undefined) {
    super(
      `the server "${name}" behind this gateway is unavailable${reason === undefined ? '' : ` (${reason})`}; the gateway is reconnecting, try again shortly`,
    );
    this.name = 'UpstreamUnavailable';
  }
}

/** One upstream server. Call {@link start} once; {@link close} ends it for good. */
export class Upstream {
  readonly name: string;
  readonly #config: ServerConfig;
  readonly #hooks: UpstreamHooks;
  readonly #timing: Required<UpstreamTiming>;
  readonly #limits: Required<UpstreamLimits>;
  /** The warnings of the lists over their caps, by list. */
  readonly #warnings = new Map<string, string>();
  /** The refresh of each kind in flight; `again`: a change came meanwhile, list once more. */
  readonly #refreshing = new Map<ListKind, { again: boolean }>();
  readonly #fetch: UpstreamFetch | undefined;
  #client: Client | undefined;
  #state: UpstreamState = 'connecting';
  #since = new Date();
  #lastError: string | undefined;
  #latencyMs: number | undefined;
  #connections = 0;
  #failures = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #ping: ReturnType<typeof setInterval> | undefined;
  #firstAttempt: Promise<void> | undefined;
  tools: Tool[] = [];
  resources: Resource[] = [];
  templates: ResourceTemplate[] = [];
  prompts: Prompt[] = [];

  constructor(
    name: string,
    {
      config,
      hooks,
      timing,
      limits = {},
      fetch,
    }: {
      config: ServerConfig;
      hooks: UpstreamHooks;
      timing: UpstreamTiming;
      limits?: UpstreamLimits;
      fetch?: UpstreamFetch;
    },
  ) {
    this.name = name;
    this.#fetch = fetch;
    this.#config = config;
    this.#hooks = hooks;
    this.#timing = {
      backoffMs: timing.backoffMs ?? 250,
      maxBackoffMs: timing.maxBackoffMs ?? 30_000,
      pingIntervalMs: timing.pingIntervalMs ?? 15_000,
      timeoutMs: timing.timeoutMs ?? 300_000,
      startTimeoutMs: timing.startTimeoutMs ?? 10_000,
    };
    this.#limits = { ...DEFAULT_LIMITS, ...limits };
  }

  get state(): UpstreamState {
    return this.#state;
  }

  /** How many times it has connected: a new value means a new session (subscriptions lost). */
  get generation(): number {
    return this.#connections;
  }

  /** The server's instructions, while connected. */
  get instructions(): string | undefined {
    return this.#client?.isConnected === true ? this.#client.instructions : undefined;
  }

  /** The connected client's server capabilities (empty while not connected). */
  get capabilities(): Spec.ServerCapabilities {
    return this.#client?.isConnected === true ? this.#client.serverCapabilities : {};
  }

  /**
   * Starts connecting; resolves after the first attempt (connected or not), or after
   * `startTimeoutMs` while it is still under way. Never rejects.
   */
  start(): Promise<void> {
    this.#firstAttempt ??= this.#connect();
    if (this.#timing.pingIntervalMs > 0 && this.#ping === undefined) {
      this.#ping = setInterval(() => void this.check(), this.#timing.pingIntervalMs);
      this.#ping.unref();
    }
    if (!Number.isFinite(this.#timing.startTimeoutMs)) return this.#firstAttempt;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.#timing.startTimeoutMs);
      timer.unref();
    });
    return Promise.race([this.#firstAttempt, waited]).finally(() => {
      clearTimeout(timer);
    });
  }

  /** Runs `fn` with the connected client; throws {@link UpstreamUnavailable} while down. */
  use<T>(fn: (client: Client) => Promise<T>): Promise<T> {
    const client = this.#client;
    if (this.#state !== 'ready' || client === undefined || !client.isConnected) {
      return Promise.reject(new UpstreamUnavailable(this.name, this.#lastError));
    }
    return fn(client);
  }

  /**
   * A downstream client's roots changed: a legacy upstream is told
   * (`notifications/roots/list_changed`), so that it asks again; a 2026-07-28 one asks within
   * each request anyway. Never throws.
   */
  rootsChanged(): void {
    const client = this.#client;
    if (this.#state !== 'ready' || client === undefined) return;
    client.rootsChanged().catch((error: unknown) => {
      this.#hooks.event({
        upstream: this.name,
        event: 'roots-changed-failed',
        error: String(error),
      });
    });
  }

  /**
   * Checks the upstream with a ping (after a call failed in transit, and periodically): records
   * the latency, or marks it down and reconnects.
   */
  async check(): Promise<void> {
    const client = this.#client;
    if (this.#state !== 'ready' || client === undefined) return;
    const started = performance.now();
    try {
      await client.ping({ timeoutMs: 10_000 });
      this.#latencyMs = Math.round((performance.now() - started) * 10) / 10;
      this.#hooks.event({ upstream: this.name, event: 'ping', latencyMs: this.#latencyMs });
    } catch (error) {
      if (this.#client === client) this.#lost(client, error);
    }
  }

  /** The upstream's status. */
  status(): UpstreamStatus {
    const client = this.#client;
    const connected = this.#state === 'ready' && client !== undefined;
    const info = connected ? client.serverInfo : undefined;
    return {
      name: this.name,
      transport: 'url' in this.#config ? 'http' : 'command' in this.#config ? 'stdio' : 'custom',
      state: this.#state,
      ...(connected ? { revision: client.revision } : {}),
      ...(info === undefined ? {} : { server: info }),
      tools: this.tools.length,
      resources: this.resources.length + this.templates.length,
      prompts: this.prompts.length,
      ...(this.#latencyMs === undefined ? {} : { latencyMs: this.#latencyMs }),
      ...(this.#lastError === undefined ? {} : { lastError: this.#lastError }),
      ...(this.#warnings.size === 0 ? {} : { warnings: [...this.#warnings.values()] }),
      reconnects: Math.max(0, this.#connections - 1),
      since: this.#since.toISOString(),
    };
  }

  /** Stops reconnecting and closes the connection (a stdio server's process ends). */
  async close(): Promise<void> {
    this.#setState('closed');
    clearTimeout(this.#timer);
    clearInterval(this.#ping);
    const client = this.#client;
    this.#client = undefined;
    await client?.close();
  }

  async #connect(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#setState('connecting');
    const client = new Client({ name: 'mcpkit-gateway', version: '1' }, this.#clientOptions());
    // Tool calls that become tasks upstream are driven to their result (the tasks extension).
    client.extend(tasksClient());
    const started = performance.now();
    try {
      this.#hooks.client?.(client);
      const transport = await createServerTransport(this.#config, {
        ...(this.#fetch === undefined ? {} : { fetch: this.#fetch }),
        onStderr: (chunk) => {
          this.#hooks.event({ upstream: this.name, stderr: chunk.trimEnd() });
        },
      });
      await client.connect(transport, { timeoutMs: 30_000 });
      this.#latencyMs = Math.round((performance.now() - started) * 10) / 10;
      if ((this.#state as UpstreamState) === 'closed') {
        await client.close();
        return;
      }
      this.#client = client;
      await this.#refresh(client, ['tools', 'resources', 'prompts']);
      this.#connections++;
      this.#failures = 0;
      this.#lastError = undefined;
      this.#setState('ready');
      this.#hooks.event({
        upstream: this.name,
        event: 'connected',
        revision: client.revision,
        latencyMs: this.#latencyMs,
        tools: this.tools.length,
      });
      this.#hooks.changed();
    } catch (error) {
      await client.close().catch(() => undefined);
      if (this.#client === client) this.#client = undefined;
      this.#down(error);
    }
  }

  #clientOptions(): ClientOptions {
    return {
      timeoutMs: this.#timing.timeoutMs,
      // Every level: each downstream client's own level filters what it is sent.
      logLevel: 'debug',
      // Every capability a downstream client may have: the answer comes from the downstream
      // client that caused the request (or an error saying it cannot answer).
      onElicit: (params, ctx) => this.#hooks.elicit(params, ctx),
      elicitation: { url: true },
      onSample: (params, ctx) => this.#hooks.sample(params, ctx),
      sampling: { tools: true },
      // MCP Apps: the gateway serves views through (src/gateway/apps.ts), so that upstreams
      // that register UI tools only for clients rendering views list them to it.
      capabilities: {
        extensions: { [APPS_EXTENSION]: { mimeTypes: [...APPS_CLIENT_SETTINGS.mimeTypes] } },
      },
      onRoots: (ctx) => this.#hooks.roots(ctx),
      onLog: (params, ctx) => {
        this.#hooks.log(params, ctx.tag);
      },
      onListChanged: (kind) => {
        this.#listChanged(kind);
      },
      onResourceUpdated: (uri) => {
        this.#hooks.resourceUpdated(uri);
      },
      onClose: (error) => {
        const client = this.#client;
        if (client !== undefined && !client.isConnected) {
          this.#lost(client, error ?? new Error('the connection closed'));
        }
      },
    };
  }

  /** A list changed: refreshed, one refresh of a kind at a time, a flood coalesced into one more. */
  #listChanged(kind: ListKind): void {
    const running = this.#refreshing.get(kind);
    if (running !== undefined) {
      running.again = true;
      return;
    }
    const refresh = { again: true };
    this.#refreshing.set(kind, refresh);
    void (async () => {
      while (refresh.again) {
        refresh.again = false;
        const client = this.#client;
        if (client === undefined) break;
        await this.#refreshAndTell(client, kind);
      }
      this.#refreshing.delete(kind);
    })();
  }

  async #refreshAndTell(client: Client, kind: ListKind): Promise<void> {
    try {
      await this.#refresh(client, [kind]);
      this.#hooks.changed();
    } catch (error) {
      this.#hooks.event({ upstream: this.name, event: 'list-failed', error: message(error) });
    }
  }

  /** Lists what the server offers of `kinds` (what it has the capability for), within the caps. */
  async #refresh(client: Client, kinds: readonly ListKind[]): Promise<void> {
    const capabilities = client.serverCapabilities;
    const has = (kind: ListKind) => kinds.includes(kind) && capabilities[kind] !== undefined;
    await Promise.all([
      has('tools')
        ? this.#list('tools', client.tools()).then((tools) => (this.tools = tools))
        : undefined,
      has('resources')
        ? Promise.all([
            this.#list('resources', client.resources()),
            this.#list('resource templates', client.resourceTemplates()),
          ]).then(([resources, templates]) => {
            this.resources = resources;
            this.templates = templates;
          })
        : undefined,
      has('prompts')
        ? this.#list('prompts', client.prompts()).then((prompts) => (this.prompts = prompts))
        : undefined,
    ]);
  }

  /**
   * Collects a list as its pages arrive, up to the caps: past one, the rest is dropped (no
   * further page is asked for) and the list's warning set; within them, its warning cleared.
   */
  async #list<T>(list: string, items: AsyncIterable<T>): Promise<T[]> {
    const { maxListItems, maxListBytes } = this.#limits;
    const kept: T[] = [];
    let bytes = 0;
    let over: string | undefined;
    for await (const item of items) {
      if (kept.length >= maxListItems) {
        over = `more than ${String(maxListItems)} items`;
        break;
      }
      bytes += Buffer.byteLength(JSON.stringify(item));
      if (bytes > maxListBytes) {
        over = `more than ${String(maxListBytes)} bytes`;
        break;
      }
      kept.push(item);
    }
    if (over === undefined) {
      this.#warnings.delete(list);
      return kept;
    }
    const warning = `${list}: the server listed ${over}; only the first ${String(kept.length)} are served`;
    this.#warnings.set(list, warning);
    this.#hooks.event({ upstream: this.name, event: 'list-capped', warning });
    return kept;
  }

  /** The connection of `client` is gone: down, and reconnecting. */
  #lost(client: Client, error: unknown): void {
    if (this.#client !== client || this.#state === 'closed') return;
    this.#client = undefined;
    void client.close().catch(() => undefined);
    this.#down(error);
    this.#hooks.changed();
  }

  #down(error: unknown): void {
    if (this.#state === 'closed') return;
    this.#lastError = message(error);
    this.#setState('down');
    const delay = Math.min(
      this.#timing.maxBackoffMs,
      this.#timing.backoffMs * 2 ** Math.min(this.#failures, 20),
    );
    this.#failures++;
    this.#hooks.event({
      upstream: this.name,
      event: 'down',
      error: this.#lastError,
      retryInMs: delay,
    });
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#connect(), delay);
    this.#timer.unref();
  }

  #setState(state: UpstreamState): void {
    if (this.#state === state) return;
    this.#state = state;
    this.#since = new Date();
  }
}

function message(error: unknown): string {
  return messageOf(error);
}
