// ServerSession: one connection between an McpServer and one client, over a Transport. It decides
// the era of every request (an `initialize` handshake makes a legacy session; a request whose
// `_meta` names a modern revision is served on its own), checks that the method exists in that
// revision, and hands it to the feature functions with a HandlerContext.
import { LazySignal } from '../internal/abort.js';
import type { MaybePromise } from '../internal/maybe.js';
import { isPromise, releasing } from '../internal/maybe.js';
import { Connection } from '../jsonrpc/connection.js';
import type { ConnectionOptions, RequestContext } from '../jsonrpc/connection.js';
import { ErrorCode, JsonRpcError, toJsonRpcError } from '../jsonrpc/errors.js';
import type {
  Notification,
  Params,
  Request,
  RequestId,
  Response,
  SuccessResponse,
} from '../jsonrpc/message.js';
import type { Transport } from '../jsonrpc/transport.js';
import type { ConnectOptions } from '../protocol/connectable.js';
import { invalidParams } from '../protocol/errors.js';
import { methodExists } from '../protocol/methods.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { LegacyRevision, ModernMeta } from '../protocol/version.js';
import {
  MetaKey,
  negotiateLegacyRevision,
  readModernMeta,
  requireModernRevision,
} from '../protocol/version.js';
import type { RequestScope, ScopeFields } from './context.js';
import { LazyScope } from './context.js';
import type { Snapshot } from './registry.js';
import { trimDefinition } from './registry.js';
import { FEATURES } from './features.js';
import type { Listener } from './features.js';
import type { ServerCore } from './core.js';
import { servedResponse } from './served-response.js';
import type { ClientDescription, LoggingLevel } from './types.js';

/** Options for one connection (see Connectable in protocol/connectable.ts). */
export type SessionOptions = ConnectOptions;

interface LegacyState {
  revision: LegacyRevision;
  client: ClientDescription;
  initialized: boolean;
}

/** What a feature function receives for one request. */
export interface Call {
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly scope: RequestScope;
  readonly snapshot: Snapshot;
  readonly session: ServerSession;
  readonly core: ServerCore;
}

const NO_CLIENT: ClientDescription = { capabilities: {}, info: undefined };

/**
 * The methods a request may be served alone with: they keep no state in the session. Not
 * initialize, logging/setLevel, resources/(un)subscribe or subscriptions/listen.
 */
const SERVED_ALONE: ReadonlySet<string> = new Set([
  'ping',
  'server/discover',
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'completion/complete',
]);

/**
 * ServerSession serves one client. Requests are served concurrently; its lifetime is the
 * transport's. Obtain one from McpServer.connect().
 */
export class ServerSession {
  readonly #core: ServerCore;
  /** None for a session that serves one request alone ({@link ServerSession.serveAlone}). */
  readonly #connection: Connection | undefined;
  #legacy: LegacyState | undefined;
  #logLevel: LoggingLevel | undefined;
  // Made on first use: an idle session holds neither (see bench/RESULTS.md).
  #subscriptions: Set<string> | undefined;
  #listeners: Map<RequestId, Listener> | undefined;

  constructor(core: ServerCore, transport: Transport | undefined, options: SessionOptions = {}) {
    this.#core = core;
    if (options.legacyStateless !== undefined) {
      this.#legacy = {
        revision: options.legacyStateless.revision,
        client: NO_CLIENT,
        initialized: true,
      };
    }
    this.#connection =
      transport === undefined
        ? undefined
        : new Connection(transport, new ServerSession.#Hooks(this));
  }

  /**
   * Serves one request with no connection (Connectable.serveRequest): undefined, having done
   * nothing, for the methods that need a session to keep state. What the request sends (progress,
   * log messages) goes through `how.rctx`. Resolves with the response; never rejects.
   */
  static serveAlone(
    core: ServerCore,
    request: Request,
    how: { rctx: RequestContext; options: SessionOptions | undefined },
  ): MaybePromise<Response> | undefined {
    if (!SERVED_ALONE.has(request.method)) return undefined;
    const { id } = request;
    // The methods served alone neither read nor change session state: one connectionless
    // session per revision serves them all.
    const key = how.options?.legacyStateless?.revision ?? 'none';
    let session = core.aloneSessions.get(key);
    if (session === undefined) {
      session = new ServerSession(core, undefined, how.options);
      core.aloneSessions.set(key, session);
    }
    let served: MaybePromise<unknown>;
    let modern: boolean;
    try {
      const meta = session.#meta(request);
      modern = meta.protocolVersion !== undefined;
      served = modern
        ? session.#serveModern(request, how.rctx, meta)
        : session.#serveLegacy(request, how.rctx);
    } catch (error) {
      return failedAlone(core, id, error);
    }
    // A 2026-07-28 result is answered undecorated: its response adds the fields (modernResponse).
    const { method } = request;
    if (!isPromise(served)) {
      return modern ? core.modernResponse(id, method, served) : responseOf(id, served);
    }
    return served.then(
      (result): Response =>
        modern ? core.modernResponse(id, method, result) : responseOf(id, result),
      (error: unknown): Response => failedAlone(core, id, error),
    );
  }

  /**
   * What the connection calls back: prototype methods rather than five closures per session (a
   * legacy session keeps them for its lifetime; see bench/RESULTS.md).
   */
  static readonly #Hooks = class implements ConnectionOptions {
    readonly #session: ServerSession;

    constructor(session: ServerSession) {
      this.#session = session;
    }

    onRequest(request: Request, rctx: RequestContext): MaybePromise<unknown> {
      return this.#session.#serve(request, rctx);
    }

    respond(id: RequestId, result: unknown): SuccessResponse {
      return responseOf(id, result);
    }

    onNotification(notification: Notification): void {
      this.#session.#notified(notification);
    }

    acceptBatch(): boolean {
      return this.#session.#legacy?.revision === '2025-03-26';
    }

    onError(error: Error): void {
      this.#session.#core.report(error, 'connection');
    }

    onClose(): void {
      const session = this.#session;
      session.#core.detach(session);
      session.#listeners?.clear();
    }
  };

  /** The legacy revision negotiated by `initialize`, if any. */
  get revision(): LegacyRevision | undefined {
    return this.#legacy?.revision;
  }

  /** What the legacy client declared in `initialize`, if any. */
  get client(): ClientDescription | undefined {
    return this.#legacy?.client;
  }

  /** True once the transport has closed. */
  get isClosed(): boolean {
    return this.#connection?.isClosed ?? false;
  }

  /** Starts serving. */
  start(): Promise<void> {
    return this.#connection?.start() ?? Promise.resolve();
  }

  /** Closes the session and its transport. Idempotent. */
  close(): Promise<void> {
    return this.#connection?.close() ?? Promise.resolve();
  }

  /** Tells this client that a list changed, if it asked to hear about it. */
  listChanged(kind: 'tools' | 'resources' | 'prompts'): void {
    const method = `notifications/${kind}/list_changed`;
    if (this.#legacy?.initialized === true) this.#send(method, undefined);
    const flag = `${kind}ListChanged` as const;
    for (const listener of this.#listeners?.values() ?? []) {
      if (listener.filter[flag] === true) listener.send(method, {});
    }
  }

  /** Tells this client that a resource changed, if it subscribed to it. */
  resourceUpdated(uri: string): void {
    if (this.#legacy?.initialized === true && this.#subscriptions?.has(uri) === true) {
      this.#send('notifications/resources/updated', { uri });
    }
    for (const listener of this.#listeners?.values() ?? []) {
      if (listener.filter.resourceSubscriptions?.includes(uri) === true) {
        listener.send('notifications/resources/updated', { uri });
      }
    }
  }

  /** Legacy resource subscriptions of this session (resources/subscribe). */
  get subscriptions(): Set<string> {
    return (this.#subscriptions ??= new Set());
  }

  /** Open 2026-07-28 subscriptions/listen streams of this session, by request id. */
  get listeners(): Map<RequestId, Listener> {
    return (this.#listeners ??= new Map());
  }

  /** Sets the legacy log level (logging/setLevel). */
  setLogLevel(level: LoggingLevel): void {
    this.#logLevel = level;
  }

  #send(method: string, params: Params | undefined): void {
    this.#connection?.notify(method, params).catch((error: unknown) => {
      this.#core.report(error, method);
    });
  }

  #notified(notification: Notification): void {
    const params = (notification.params ?? {}) as Record<string, unknown>;
    switch (notification.method) {
      case 'notifications/initialized':
        if (this.#legacy !== undefined) this.#legacy.initialized = true;
        return;
      case 'notifications/cancelled': {
        const id = params['requestId'];
        if (typeof id === 'string' || typeof id === 'number') {
          this.#connection?.cancelIncoming(id, params['reason'] ?? 'cancelled by the client');
        }
        return;
      }
      default:
        return;
    }
  }

  /** The `_meta` fields of a request; throws InvalidParams when its params are not an object. */
  #meta(request: Request): Readonly<ModernMeta> {
    const params = request.params;
    if (Array.isArray(params)) throw invalidParams('params must be an object');
    return readModernMeta(params);
  }

  /**
   * Serves one request of a connection: its result (a 2026-07-28 one decorated), or a throw or
   * rejection with the error to answer.
   */
  #serve(request: Request, rctx: RequestContext): MaybePromise<unknown> {
    const meta = this.#meta(request);
    // A request whose _meta names a revision is a 2026-07-28 one, `initialize` included (that
    // revision lacks it: -32601); anything else is legacy.
    if (meta.protocolVersion === undefined) return this.#serveLegacy(request, rctx);
    const { method } = request;
    const core = this.#core;
    const result = this.#serveModern(request, rctx, meta);
    if (!isPromise(result)) return core.decorateModern(method, result);
    return result.then((done) => core.decorateModern(method, done));
  }

  /** Serves a 2026-07-28 request (its `_meta` names a revision): its undecorated result. */
  #serveModern(
    request: Request,
    rctx: RequestContext,
    meta: Readonly<ModernMeta>,
  ): MaybePromise<unknown> {
    const revision = requireModernRevision(meta, this.#core.revisions);
    const capabilities = meta.clientCapabilities;
    if (capabilities === undefined) {
      throw invalidParams(`_meta["${MetaKey.ClientCapabilities}"] is required`);
    }
    return this.#dispatch(request, rctx, {
      id: request.id,
      era: 'modern',
      revision,
      client: { capabilities, info: meta.clientInfo },
      meta: metaOf(request.params),
      info: rctx.info,
      logLevel: meta.logLevel,
    });
  }

  /** Serves a request whose `_meta` names no revision: legacy, or `initialize`. */
  #serveLegacy(request: Request, rctx: RequestContext): MaybePromise<unknown> {
    const { method, params } = request;
    // #meta checked that params, if any, are an object.
    if (method === 'initialize') return this.#initialize((params ?? {}) as Record<string, unknown>);
    const legacy = this.#legacy;
    if (legacy === undefined) {
      if (method === 'ping') return {};
      throw new JsonRpcError(
        ErrorCode.InvalidRequest,
        `not initialized: send "initialize" first, or set _meta["${MetaKey.ProtocolVersion}"] (2026-07-28)`,
      );
    }
    return this.#dispatch(request, rctx, {
      id: request.id,
      era: 'legacy',
      revision: legacy.revision,
      client: legacy.client,
      meta: metaOf(params),
      info: rctx.info,
      logLevel: this.#logLevel ?? 'debug',
    });
  }

  /** Serves a request of the revision and client `fields` name (what its scope is made of). */
  #dispatch(request: Request, rctx: RequestContext, fields: ScopeFields): MaybePromise<unknown> {
    const { method } = request;
    const feature = FEATURES[method];
    if (feature === undefined || !methodExists(method, fields.revision)) {
      throw new JsonRpcError(ErrorCode.MethodNotFound, `method not found: ${method}`);
    }
    const params = (request.params ?? {}) as Record<string, unknown>;
    // The handler's signal follows the request and the transport's; it is made when first read
    // (`in`, because a transport may make its own signal on first read too).
    const info = fields.info;
    const linked =
      info === undefined || !('signal' in info)
        ? undefined
        : new LazySignal(() =>
            info.signal === undefined ? [rctx.signal] : [rctx.signal, info.signal],
          );
    const scope: RequestScope = new LazyScope(fields, linked ?? rctx, rctx);
    const call: Call = {
      method,
      params,
      scope,
      snapshot: this.#core.registry.snapshot(),
      session: this,
      core: this.#core,
    };
    if (linked === undefined) return feature(call);
    return releasing(() => feature(call), linked);
  }

  #initialize(params: Record<string, unknown>): object {
    const requested = params['protocolVersion'];
    if (typeof requested !== 'string')
      throw invalidParams('params.protocolVersion must be a string');
    const revision = negotiateLegacyRevision(requested, this.#core.revisions);
    const capabilities = params['capabilities'];
    const info = params['clientInfo'];
    const client: ClientDescription = {
      capabilities: typeof capabilities === 'object' && capabilities !== null ? capabilities : {},
      info: typeof info === 'object' && info !== null ? (info as Spec.Implementation) : undefined,
    };
    this.#legacy = { revision, client, initialized: false };
    this.#core.attach(this);
    const result: Record<string, unknown> = {
      protocolVersion: revision,
      capabilities: this.#core.capabilities(revision),
      serverInfo: trimDefinition(this.#core.info, 'Implementation', revision),
    };
    if (this.#core.instructions !== undefined) result['instructions'] = this.#core.instructions;
    return result;
  }
}

/** The `_meta` of a request's params, if any (readModernMeta checked that it is an object). */
function metaOf(params: Request['params']): Record<string, unknown> | undefined {
  return (params as Record<string, unknown> | undefined)?.['_meta'] as
    Record<string, unknown> | undefined;
}

/** The success response to a request whose result is `result`. */
function responseOf(id: RequestId, result: unknown): SuccessResponse {
  if (typeof result !== 'object' || result === null)
    return { jsonrpc: '2.0', id, result: result ?? null };
  return servedResponse(id, result);
}

/** The error response of a request served alone; what is not a JsonRpcError is reported. */
function failedAlone(core: ServerCore, id: RequestId, error: unknown): Response {
  // As a connection does: a JsonRpcError goes out as is, anything else is reported.
  if (!(error instanceof JsonRpcError)) core.report(error, 'connection');
  return { jsonrpc: '2.0', id, error: toJsonRpcError(error).toWire() };
}
