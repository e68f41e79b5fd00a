// ServerCore: the compiled, shared state of one McpServer that every session serves from:
// identity, options, the registry, derived capabilities, and who to tell about changes.
import type { RequestId, SuccessResponse } from '../jsonrpc/message.js';
import { DEFINITION_FIELDS } from '../protocol/fields.js';
import { isCacheable } from '../protocol/methods.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { ProtocolRevision } from '../protocol/version.js';
import { MetaKey } from '../protocol/version.js';
import type { RoundOptions } from './input-required.js';
import { ExtensionTable } from './extension.js';
import { listedPageOf } from './listed-page.js';
import { listedResponse, servedResponse } from './served-response.js';
import { MiddlewareStack } from './middleware.js';
import { Registry } from './registry.js';
import type { CacheHint, ServerInfo } from './types.js';

/** The kinds of list whose changes clients can hear about. */
export type ChangeKind = 'tools' | 'resources' | 'prompts';

/**
 * Subscriber hears what changed: a legacy session (it tells its client if the client asked to
 * hear) or a 2026-07-28 `subscriptions/listen` stream (it tells what its filter names).
 */
export interface Subscriber {
  /** A list of `kind` changed. */
  listChanged(kind: ChangeKind): void;
  /** The resource at `uri` changed. */
  resourceUpdated(uri: string): void;
}

const CHANGE_KINDS: ReadonlySet<unknown> = new Set(['tools', 'resources', 'prompts']);

/** A change of the server that every process serving as one hears (a {@link ChangeBus} carries it). */
export type ServerChange = { readonly list: ChangeKind } | { readonly uri: string };

/**
 * ChangeBus carries server changes between the processes that serve as one server (several
 * behind a load balancer, sharing a Redis): each process publishes its own changes and hears
 * the others' (never its own). `createRedisChangeBus` of mcpkit/stores/redis is one.
 */
export interface ChangeBus {
  publish(change: ServerChange): Promise<void>;
  /** Hears the other processes' changes until the returned function is called. */
  subscribe(listener: (change: ServerChange) => void): () => void;
}

/** A legacy session attached to the core: told of changes, and closed when the server closes. */
export interface AttachedSession extends Subscriber {
  close(): Promise<void>;
}

/**
 * True when `result` is a plain object to which the 2026-07-28 decoration adds exactly
 * `resultType` and the serverInfo `_meta` (it has neither, nor a `toJSON` that would change its
 * text).
 */
function plainResult(result: unknown): result is object {
  if (typeof result !== 'object' || result === null) return false;
  const fields = result as Record<string, unknown>;
  if (fields['resultType'] !== undefined || fields['_meta'] !== undefined) return false;
  // Read after a field: V8 then knows the shape and answers without a call into the runtime.
  const proto: unknown = Object.getPrototypeOf(result);
  return proto === Object.prototype || proto === null;
}

/**
 * The `_meta` of a 2026-07-28 result that has none: a new object per result, never shared. The
 * key is written out (it is MetaKey.ServerInfo): an object literal with a fixed key is made from
 * a cached shape, where a copy or a computed key costs several times as much.
 */
function serverInfoMeta(info: ServerInfo): Record<string, unknown> {
  return { 'io.modelcontextprotocol/serverInfo': info };
}

/** The settings ServerCore needs, resolved from McpServer's options. */
export interface CoreSettings {
  info: ServerInfo;
  instructions: string | undefined;
  revisions: readonly ProtocolRevision[];
  pageSize: number;
  rounds: RoundOptions;
  /** How long a legacy request to the client (elicit, sample, roots) waits for its answer. */
  inputTimeoutMs: number;
  /** Most 2026-07-28 subscriptions/listen streams open at once. */
  maxListenStreams: number;
  cacheHints: Readonly<Record<string, CacheHint>>;
  onError: ((error: unknown, where: string) => void) | undefined;
  /** Told of a legacy client's `notifications/roots/list_changed`. */
  onRootsChanged?: (() => void) | undefined;
  capabilities: Spec.ServerCapabilities | undefined;
  /** Carries changes to and from the other processes serving as this server, if any. */
  changeBus?: ChangeBus | undefined;
}

/** ServerCore is shared by every session of one server. */
export class ServerCore {
  readonly registry: Registry = new Registry();
  /** The extensions McpServer.extend added: their methods and capabilities. */
  readonly extensions: ExtensionTable = new ExtensionTable();
  /** The middleware McpServer.use registered, composed (none: the request path skips it). */
  readonly middleware: MiddlewareStack = new MiddlewareStack();
  readonly info: ServerInfo;
  readonly instructions: string | undefined;
  readonly revisions: readonly ProtocolRevision[];
  readonly pageSize: number;
  readonly rounds: RoundOptions;
  readonly inputTimeoutMs: number;
  readonly maxListenStreams: number;
  #listenSlots = 0;
  readonly #settings: CoreSettings;
  readonly #sessions = new Set<AttachedSession>();
  readonly #listeners = new Set<Subscriber>();
  readonly #shutdown = new Set<() => void>();
  readonly #capabilities = new Map<ProtocolRevision, object>();
  readonly #pendingChanges = new Set<ChangeKind>();
  /** Stops hearing the change bus (on shutdown). */
  readonly #unsubscribe: (() => void) | undefined;

  constructor(settings: CoreSettings) {
    this.#settings = settings;
    this.info = settings.info;
    this.#modernFields = `"resultType":"complete","_meta":${JSON.stringify(serverInfoMeta(settings.info))}`;
    this.instructions = settings.instructions;
    this.revisions = settings.revisions;
    this.pageSize = settings.pageSize;
    this.rounds = settings.rounds;
    this.inputTimeoutMs = settings.inputTimeoutMs;
    this.maxListenStreams = settings.maxListenStreams;
    this.#unsubscribe = settings.changeBus?.subscribe((change) => {
      this.#heard(change);
    });
  }

  /** Tells this process's sessions and listen streams of a change another process made. */
  #heard(change: ServerChange): void {
    if ('list' in change) {
      const kind = change.list;
      if (!CHANGE_KINDS.has(kind)) return;
      for (const session of this.#sessions) session.listChanged(kind);
      for (const listener of this.#listeners) listener.listChanged(kind);
    } else if (typeof change.uri === 'string') {
      this.#resourceUpdatedHere(change.uri);
    }
  }

  /** Sends a change to the other processes, when there is a change bus. */
  #share(change: ServerChange): void {
    this.#settings.changeBus?.publish(change).catch((error: unknown) => {
      this.report(error, 'change bus');
    });
  }

  /** Takes a slot for a listen stream; false when maxListenStreams are open. */
  takeListenSlot(): boolean {
    if (this.#listenSlots >= this.maxListenStreams) return false;
    this.#listenSlots++;
    return true;
  }

  /** Gives back a slot {@link takeListenSlot} took. */
  releaseListenSlot(): void {
    this.#listenSlots--;
  }

  /** Reports an error that does not reach the wire. */
  /** A client said its roots changed: tells onRootsChanged, whose throw goes to onError. */
  rootsChanged(): void {
    try {
      this.#settings.onRootsChanged?.();
    } catch (error) {
      this.report(error, 'onRootsChanged');
    }
  }

  readonly report = (error: unknown, where: string): void => {
    this.#settings.onError?.(error, where);
  };

  /** The capabilities to advertise in `revision`, derived from what is registered. */
  capabilities(revision: ProtocolRevision): object {
    let capabilities = this.#capabilities.get(revision);
    if (capabilities === undefined) {
      capabilities = this.#deriveCapabilities(revision);
      this.#capabilities.set(revision, capabilities);
    }
    return capabilities;
  }

  /** Derives the capabilities again on next use (an extension's changed). */
  capabilitiesChanged(): void {
    this.#capabilities.clear();
  }

  #deriveCapabilities(revision: ProtocolRevision): object {
    const registry = this.registry;
    const derived: Record<string, unknown> = { logging: {} };
    const hasResources = registry.resources.size > 0 || registry.templates.size > 0;
    if (registry.tools.size > 0) derived['tools'] = { listChanged: true };
    if (hasResources) derived['resources'] = { subscribe: true, listChanged: true };
    if (registry.prompts.size > 0) derived['prompts'] = { listChanged: true };
    if (registry.prompts.size > 0 || registry.templates.size > 0) derived['completions'] = {};
    const own = this.#settings.capabilities as Record<string, unknown> | undefined;
    const ownExtensions = (own?.['extensions'] ?? {}) as Record<string, unknown>;
    const { extensions, fields } = this.extensions.capabilities(revision);
    Object.assign(derived, fields);
    if (Object.keys(extensions).length > 0) {
      derived['extensions'] = { ...extensions, ...ownExtensions };
    }
    const merged = {
      ...derived,
      ...own,
      ...(derived['extensions'] === undefined ? {} : { extensions: derived['extensions'] }),
    } as Record<string, unknown>;
    const allowed = DEFINITION_FIELDS[revision].ServerCapabilities ?? [];
    return Object.fromEntries(Object.entries(merged).filter(([key]) => allowed.includes(key)));
  }

  /**
   * Adds the 2026-07-28 result fields: `resultType`, serverInfo in `_meta`, and cache hints when
   * `cacheable` names the method (its results carry them).
   */
  #decorate(result: unknown, cacheable: string | undefined): unknown {
    const source = result as Record<string, unknown>;
    // A copy whose fields are then set, not `{ ...source, resultType }`: a spread followed by
    // properties takes V8's slow runtime path on Node 20, about 1.5 µs a time (bench/RESULTS.md).
    // The order of fields stays: the result's own, then resultType and _meta when new.
    const decorated = Object.assign({}, source);
    decorated['resultType'] ??= 'complete';
    const meta = source['_meta'];
    decorated['_meta'] =
      meta === undefined ? serverInfoMeta(this.info) : this.#withServerInfo(meta);
    if (cacheable !== undefined && decorated['resultType'] === 'complete') {
      const hint = this.#settings.cacheHints[cacheable];
      decorated['ttlMs'] ??= hint?.ttlMs ?? 0;
      decorated['cacheScope'] ??= hint?.cacheScope ?? 'private';
    }
    return decorated;
  }

  /** The text of the fields #decorate adds to a result that has none of them. */
  readonly #modernFields: string;

  /**
   * The response to a 2026-07-28 request answered with `result`: its decorated result (the one
   * place 2026-07-28 results are decorated), written as the undecorated result's text plus the
   * added fields' when those fields are all it gets (servedResponse).
   */
  modernResponse(id: RequestId, method: string, result: unknown): SuccessResponse {
    const cacheable = isCacheable(method) || this.extensions.cacheable(method) ? method : undefined;
    const decorated = this.#decorate(result, cacheable) as object;
    if (cacheable !== undefined) {
      // A listing's page, unchanged: the decorated text its page kept (made from the first).
      const page = listedPageOf(result);
      if (page === undefined) return servedResponse(id, decorated);
      const text = page.text('modern', () => JSON.stringify(decorated));
      return listedResponse(id, decorated, text);
    }
    if (!plainResult(result)) return servedResponse(id, decorated);
    return servedResponse(id, decorated, { source: result, fields: this.#modernFields });
  }

  #withServerInfo(meta: unknown): Record<string, unknown> {
    const copy: Record<string, unknown> = Object.assign({}, meta);
    copy[MetaKey.ServerInfo] = this.info;
    return copy;
  }

  /** The part of a subscriptions/listen filter this server honours. */
  agreeFilter(requested: Spec.SubscriptionFilter): Spec.SubscriptionFilter {
    const caps = this.capabilities('2026-07-28') as Spec.ServerCapabilities;
    const agreed: Spec.SubscriptionFilter = {};
    if (requested.toolsListChanged === true && caps.tools !== undefined)
      agreed.toolsListChanged = true;
    if (requested.promptsListChanged === true && caps.prompts !== undefined)
      agreed.promptsListChanged = true;
    if (requested.resourcesListChanged === true && caps.resources !== undefined)
      agreed.resourcesListChanged = true;
    const uris = requested.resourceSubscriptions;
    if (Array.isArray(uris) && caps.resources !== undefined) {
      agreed.resourceSubscriptions = uris.filter((u): u is string => typeof u === 'string');
    }
    return agreed;
  }

  /** Registers a legacy session: it hears of changes and closes with the server. */
  attach(session: AttachedSession): void {
    this.#sessions.add(session);
  }

  /** Forgets a closed session. */
  detach(session: AttachedSession): void {
    this.#sessions.delete(session);
  }

  /** Tells `listener` of changes until the returned function is called. */
  listen(listener: Subscriber): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Runs `fn` when the server shuts down (ends open listen streams gracefully); returns an unsubscribe. */
  onShutdown(fn: () => void): () => void {
    this.#shutdown.add(fn);
    return () => this.#shutdown.delete(fn);
  }

  /** Ends open listen streams and closes every session. */
  async shutdown(): Promise<void> {
    this.#unsubscribe?.();
    const ending = this.#shutdown.size > 0;
    for (const fn of this.#shutdown) fn();
    this.#shutdown.clear();
    // Let the ended listen streams hand their final results to the transports first.
    if (ending) await new Promise((resolve) => setTimeout(resolve, 0));
    await Promise.all([...this.#sessions].map((s) => s.close()));
  }

  /** The registry changed: new snapshot, fresh capabilities, and (batched per tick) list_changed. */
  changed(kind: ChangeKind): void {
    this.registry.changed();
    this.#capabilities.clear();
    if (this.#pendingChanges.size === 0) {
      queueMicrotask(() => {
        const kinds = [...this.#pendingChanges];
        this.#pendingChanges.clear();
        for (const k of kinds) {
          for (const session of this.#sessions) session.listChanged(k);
          for (const listener of this.#listeners) listener.listChanged(k);
          this.#share({ list: k });
        }
      });
    }
    this.#pendingChanges.add(kind);
  }

  /**
   * Tells every session and listen stream that the resource at `uri` changed, those of the
   * other processes too (through the change bus).
   */
  resourceUpdated(uri: string): void {
    this.#resourceUpdatedHere(uri);
    this.#share({ uri });
  }

  #resourceUpdatedHere(uri: string): void {
    for (const session of this.#sessions) session.resourceUpdated(uri);
    for (const listener of this.#listeners) listener.resourceUpdated(uri);
  }
}
