// ServerCore: the compiled, shared state of one McpServer that every session serves from:
// identity, options, the registry, derived capabilities and the set of sessions to notify.
import type { RequestId, Response } from '../jsonrpc/message.js';
import { DEFINITION_FIELDS } from '../protocol/fields.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { LegacyRevision, ProtocolRevision } from '../protocol/version.js';
import { MetaKey } from '../protocol/version.js';
import type { RoundOptions } from './input-required.js';
import { servedResponse } from './served-response.js';
import { Registry } from './registry.js';
import type { ServerSession } from './session.js';
import type { CacheHint, ServerInfo } from './types.js';

/** Methods whose 2026-07-28 results carry cache hints (`CacheableResult`). */
const CACHEABLE = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

/**
 * True when `result` is a plain object to which `decorateModern` adds exactly `resultType` and
 * the serverInfo `_meta` (it has neither, nor a `toJSON` that would change its text).
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
  cacheHints: Readonly<Record<string, CacheHint>>;
  onError: ((error: unknown, where: string) => void) | undefined;
  capabilities: Spec.ServerCapabilities | undefined;
}

/** ServerCore is shared by every session of one server. */
export class ServerCore {
  readonly registry: Registry = new Registry();
  readonly info: ServerInfo;
  readonly instructions: string | undefined;
  readonly revisions: readonly ProtocolRevision[];
  readonly pageSize: number;
  readonly rounds: RoundOptions;
  readonly #settings: CoreSettings;
  readonly #sessions = new Set<ServerSession>();
  readonly #shutdown = new Set<() => void>();
  readonly #capabilities = new Map<ProtocolRevision, object>();
  readonly #pendingChanges = new Set<'tools' | 'resources' | 'prompts'>();
  /** The connectionless sessions that serve requests alone, by legacy revision ('none': 2026-07-28). */
  readonly aloneSessions: Map<LegacyRevision | 'none', ServerSession> = new Map();

  constructor(settings: CoreSettings) {
    this.#settings = settings;
    this.info = settings.info;
    this.#modernFields = `"resultType":"complete","_meta":${JSON.stringify(serverInfoMeta(settings.info))}`;
    this.instructions = settings.instructions;
    this.revisions = settings.revisions;
    this.pageSize = settings.pageSize;
    this.rounds = settings.rounds;
  }

  /** Reports an error that does not reach the wire. */
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

  #deriveCapabilities(revision: ProtocolRevision): object {
    const registry = this.registry;
    const derived: Record<string, unknown> = { logging: {} };
    const hasResources = registry.resources.size > 0 || registry.templates.size > 0;
    if (registry.tools.size > 0) derived['tools'] = { listChanged: true };
    if (hasResources) derived['resources'] = { subscribe: true, listChanged: true };
    if (registry.prompts.size > 0) derived['prompts'] = { listChanged: true };
    if (registry.prompts.size > 0 || registry.templates.size > 0) derived['completions'] = {};
    const merged = { ...derived, ...this.#settings.capabilities } as Record<string, unknown>;
    const allowed = DEFINITION_FIELDS[revision].ServerCapabilities ?? [];
    return Object.fromEntries(Object.entries(merged).filter(([key]) => allowed.includes(key)));
  }

  /** Adds the 2026-07-28 result fields: `resultType`, serverInfo in `_meta`, cache hints. */
  decorateModern(method: string, result: unknown): unknown {
    return this.#decorate(result, CACHEABLE.has(method) ? method : undefined);
  }

  /** decorateModern, `cacheable` naming the method when its results carry cache hints. */
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

  /** The text of the fields `decorateModern` adds to a result that has none of them. */
  readonly #modernFields: string;

  /**
   * The response to a 2026-07-28 request answered with `result`: its decorated result, written
   * as the undecorated result's text plus the added fields' when those fields are all it gets
   * (servedResponse).
   */
  modernResponse(id: RequestId, method: string, result: unknown): Response {
    const cacheable = CACHEABLE.has(method) ? method : undefined;
    const decorated = this.#decorate(result, cacheable) as object;
    if (cacheable !== undefined || !plainResult(result)) return servedResponse(id, decorated);
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

  /** Registers a session that may need notifications. */
  attach(session: ServerSession): void {
    this.#sessions.add(session);
  }

  /** Forgets a closed session. */
  detach(session: ServerSession): void {
    this.#sessions.delete(session);
  }

  /** Runs `fn` when the server shuts down (ends open listen streams gracefully); returns an unsubscribe. */
  onShutdown(fn: () => void): () => void {
    this.#shutdown.add(fn);
    return () => this.#shutdown.delete(fn);
  }

  /** Ends open listen streams and closes every session. */
  async shutdown(): Promise<void> {
    const ending = this.#shutdown.size > 0;
    for (const fn of this.#shutdown) fn();
    this.#shutdown.clear();
    // Let the ended listen streams hand their final results to the transports first.
    if (ending) await new Promise((resolve) => setTimeout(resolve, 0));
    await Promise.all([...this.#sessions].map((s) => s.close()));
  }

  /** The registry changed: new snapshot, fresh capabilities, and (batched per tick) list_changed. */
  changed(kind: 'tools' | 'resources' | 'prompts'): void {
    this.registry.changed();
    this.#capabilities.clear();
    if (this.#pendingChanges.size === 0) {
      queueMicrotask(() => {
        const kinds = [...this.#pendingChanges];
        this.#pendingChanges.clear();
        for (const session of this.#sessions) for (const k of kinds) session.listChanged(k);
      });
    }
    this.#pendingChanges.add(kind);
  }

  /** Sends notifications/resources/updated to every session subscribed to `uri`. */
  resourceUpdated(uri: string): void {
    for (const session of this.#sessions) session.resourceUpdated(uri);
  }
}
