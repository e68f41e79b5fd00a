// ServerSession: one connection between an McpServer and one client, over a Transport. It decides
// the era of every request (an `initialize` handshake makes a legacy session; a request whose
// `_meta` names a modern revision is served on its own), checks that the method exists in that
// revision, and hands it to the feature functions with a HandlerContext.
import type { MaybePromise } from '../internal/maybe.js';
import { Connection } from '../jsonrpc/connection.js';
import type { AbandonedCall, ConnectionOptions } from '../jsonrpc/connection.js';
import { ErrorCode, JsonRpcError } from '../jsonrpc/errors.js';
import type { Notification, Request, Response, SuccessResponse } from '../jsonrpc/message.js';
import type { RequestContext } from '../jsonrpc/serve.js';
import { serveRequest } from '../jsonrpc/serve.js';
import type { MessageInfo, Transport } from '../jsonrpc/transport.js';
import type { ConnectOptions } from '../protocol/connectable.js';
import { invalidMeta, invalidParams } from '../protocol/errors.js';
import { isLoggingLevel } from '../protocol/logging.js';
import { methodExists } from '../protocol/methods.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { LegacyRevision } from '../protocol/version.js';
import {
  MetaKey,
  eraOf,
  isProtocolRevision,
  metaProtocolVersion,
  negotiateLegacyRevision,
  readModernMeta,
  requireModernRevision,
} from '../protocol/version.js';
import type { RequestScope, ScopeFields } from './context.js';
import { LazyScope } from './context.js';
import type { AttachedSession, ChangeKind, ServerCore } from './core.js';
import { trimDefinition } from '../protocol/fields.js';
import type { Call, SessionState } from './call.js';
import { NO_STATE } from './call.js';
import { FEATURES } from './features.js';
import { NotificationCall, RequestCall } from './middleware.js';
import type { OutgoingContext } from './outgoing.js';
import { OutgoingVia } from './outgoing.js';
import { servedResponse } from './served-response.js';
import type { ClientDescription, LoggingLevel } from './types.js';

/** Options for one connection (see Connectable in protocol/connectable.ts). */
export type SessionOptions = ConnectOptions;

interface LegacyState {
  revision: LegacyRevision;
  client: ClientDescription;
  initialized: boolean;
}

const NO_CLIENT: ClientDescription = { capabilities: {}, info: undefined };

/**
 * ServerSession serves one client. Requests are served concurrently; its lifetime is the
 * transport's. Obtain one from McpServer.connect(). A session made without a transport serves
 * requests that arrive on their own ({@link ServerSession.serve}) and keeps nothing for them.
 */
export class ServerSession implements AttachedSession, SessionState {
  readonly #core: ServerCore;
  readonly #handlers: ConnectionOptions;
  /** None for a session that serves requests on their own ({@link ServerSession.serve}). */
  readonly #connection: Connection | undefined;
  #legacy: LegacyState | undefined;
  #logLevel: LoggingLevel | undefined;
  // Made on first use: an idle session holds none (see bench/RESULTS.md).
  #subscriptions: Set<string> | undefined;
  // Made on first use, as the subscriptions: what onClose registered.
  #closeListeners: ((error?: Error) => void)[] | undefined;

  constructor(core: ServerCore, transport: Transport | undefined, options: SessionOptions = {}) {
    this.#core = core;
    if (options.legacyStateless !== undefined) {
      this.#legacy = {
        revision: options.legacyStateless.revision,
        client: NO_CLIENT,
        initialized: true,
      };
    }
    const restore = options.restore;
    if (restore !== undefined) {
      const { capabilities, clientInfo } = restore;
      this.#legacy = {
        revision: restore.revision,
        client: {
          capabilities:
            typeof capabilities === 'object' && capabilities !== null ? capabilities : {},
          info:
            typeof clientInfo === 'object' && clientInfo !== null
              ? (clientInfo as Spec.Implementation)
              : undefined,
        },
        initialized: true,
      };
      if (isLoggingLevel(restore.logLevel)) this.#logLevel = restore.logLevel;
      const uris = restore.subscriptions;
      if (Array.isArray(uris) && uris.length > 0) this.#subscriptions = new Set(uris);
    }
    this.#handlers = new ServerSession.#Handlers(this);
    this.#connection =
      transport === undefined ? undefined : new Connection(transport, this.#handlers);
    // A resumed session hears of changes as the one initialize made does.
    if (restore !== undefined && this.#connection !== undefined) core.attach(this);
  }

  /**
   * What the pipeline (jsonrpc's serveRequest) calls back, for the connection's requests and for
   * those served on their own alike: prototype methods rather than closures per session (a
   * legacy session keeps them for its lifetime; see bench/RESULTS.md).
   */
  static readonly #Handlers = class implements ConnectionOptions {
    readonly #session: ServerSession;

    constructor(session: ServerSession) {
      this.#session = session;
    }

    onRequest(request: Request, rctx: RequestContext): MaybePromise<unknown> {
      return this.#session.#handle(request, rctx);
    }

    respond(request: Request, result: unknown): SuccessResponse {
      return this.#session.#respond(request, result);
    }

    onNotification(notification: Notification, info: MessageInfo | undefined): void {
      this.#session.#notification(notification, info);
    }

    acceptBatch(): boolean {
      return this.#session.#legacy?.revision === '2025-03-26';
    }

    onError(error: Error): void {
      this.#session.#core.report(error, 'connection');
    }

    /** The default timeout of the session's requests to the client. */
    get timeoutMs(): number {
      return this.#session.#core.inputTimeoutMs;
    }

    /** A request to the client timed out or was cancelled: tell the client to stop. */
    onAbandon(call: AbandonedCall): void {
      this.#session.#cancelled(call);
    }

    onClose(error?: Error): void {
      const session = this.#session;
      session.#core.detach(session);
      const listeners = session.#closeListeners;
      session.#closeListeners = undefined;
      for (const listener of listeners ?? []) {
        try {
          listener(error);
        } catch (thrown) {
          session.#core.report(thrown, 'session close listener');
        }
      }
    }
  };

  /**
   * Serves one request that arrived on its own, outside any connection (McpServer.serveRequest,
   * for a 2026-07-28 or stateless HTTP POST), through the same pipeline as the connection's
   * requests. What the request sends (progress, log messages) goes through `context`. The
   * response, at once when nothing waited, else a promise that never rejects; never throws.
   */
  serve(request: Request, context: RequestContext): MaybePromise<Response> {
    return serveRequest(this.#handlers, request, context);
  }

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

  /**
   * Calls `listener` once when the session's transport closes (with the error, if it failed);
   * at once when it is closed already. A listener that throws is reported through `onError`.
   * A session serving requests on its own never closes, so its listeners are never called.
   */
  onClose(listener: (error?: Error) => void): void {
    if (this.#connection === undefined) return;
    if (this.#connection.isClosed) {
      listener();
      return;
    }
    (this.#closeListeners ??= []).push(listener);
  }

  /** Starts serving. */
  start(): Promise<void> {
    return this.#connection?.start() ?? Promise.resolve();
  }

  /** Closes the session and its transport. Idempotent. */
  close(): Promise<void> {
    return this.#connection?.close() ?? Promise.resolve();
  }

  /** Tells this client that a list changed, if it completed the legacy handshake. */
  listChanged(kind: ChangeKind): void {
    if (this.#legacy?.initialized === true) {
      this.#send(`notifications/${kind}/list_changed`, undefined);
    }
  }

  /** Tells this client that a resource changed, if it subscribed to it. */
  resourceUpdated(uri: string): void {
    if (this.#legacy?.initialized === true && this.#subscriptions?.has(uri) === true) {
      this.#send('notifications/resources/updated', { uri });
    }
  }

  /** Subscribes this client to `uri` (resources/subscribe), or unsubscribes it. */
  subscribe(uri: string, on: boolean): void {
    if (on) (this.#subscriptions ??= new Set()).add(uri);
    else this.#subscriptions?.delete(uri);
  }

  /** Sets the legacy log level (logging/setLevel). */
  setLogLevel(level: LoggingLevel): void {
    this.#logLevel = level;
  }

  /** Sends a notification outside any request, through the outgoing middleware when there is some. */
  #send(method: string, params: Record<string, unknown> | undefined): void {
    const connection = this.#connection;
    if (connection === undefined) return;
    const report = (error: unknown): void => {
      this.#core.report(error, method);
    };
    const chain = this.#core.middleware.outgoing;
    if (chain === undefined || this.#legacy === undefined) {
      connection.notify(method, params).catch(report);
      return;
    }
    const { revision } = this.#legacy;
    const message: OutgoingContext = {
      kind: 'notification',
      method,
      params: params ?? {},
      relatedRequestId: undefined,
      era: 'legacy',
      revision,
    };
    chain(message, () => connection.notify(method, message.params)).catch(report);
  }

  /** Sends `notifications/cancelled` for a request to the client that was given up on. */
  #cancelled(call: AbandonedCall): void {
    const connection = this.#connection;
    if (connection === undefined || connection.isClosed) return;
    const reason = call.reason instanceof Error ? call.reason.message : 'cancelled';
    const params = { requestId: call.id, reason };
    const options =
      call.relatedRequestId === undefined ? undefined : { relatedRequestId: call.relatedRequestId };
    connection.notify('notifications/cancelled', params, options).catch((error: unknown) => {
      this.#core.report(error, 'notifications/cancelled');
    });
  }

  /** A notification from the client, through the notification middleware when there is some. */
  #notification(notification: Notification, info: MessageInfo | undefined): void {
    const chain = this.#core.middleware.notification;
    if (chain === undefined) {
      this.#notified(notification);
      return;
    }
    const version = metaProtocolVersion(notification.params);
    const modern = isProtocolRevision(version) && eraOf(version) === 'modern';
    const legacy = this.#legacy;
    const facts = {
      era: modern ? ('modern' as const) : ('legacy' as const),
      revision: modern ? version : legacy?.revision,
      client: modern ? undefined : legacy?.client,
      session: this.#connection === undefined ? undefined : this,
    };
    const call = new NotificationCall(notification, facts, info);
    const done = chain(call, (notified) => {
      this.#notified(notified);
    });
    if (done instanceof Promise) {
      done.catch((error: unknown) => {
        this.#core.report(error, notification.method);
      });
    }
  }

  #notified(notification: { readonly method: string; readonly params?: unknown }): void {
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
      case 'notifications/roots/list_changed':
        this.#core.rootsChanged();
        return;
      default:
        return;
    }
  }

  /**
   * Serves one request: its result, undecorated (#respond decorates a 2026-07-28 one), or a
   * throw or rejection with the error to answer. A request whose `_meta` names a revision is a
   * 2026-07-28 one, `initialize` included (that revision lacks it: -32601); anything else is
   * legacy.
   */
  #handle(request: Request, rctx: RequestContext): MaybePromise<unknown> {
    const params = request.params;
    if (Array.isArray(params)) throw invalidParams('params must be an object');
    const meta = readModernMeta(params);
    if (meta.protocolVersion === undefined) return this.#handleLegacy(request, rctx);
    return this.#handleModern(request, rctx, meta);
  }

  /** A legacy request (or `initialize`), through the request middleware when there is some. */
  #handleLegacy(request: Request, rctx: RequestContext): MaybePromise<unknown> {
    const chain = this.#core.middleware.request;
    if (chain === undefined) return this.#serveLegacy(request, rctx);
    const legacy = this.#legacy;
    const facts = {
      era: 'legacy' as const,
      revision: legacy?.revision,
      client: legacy?.client,
      session: this.#connection === undefined ? undefined : this,
    };
    return chain(new RequestCall(request, facts, rctx), (call) => this.#serveLegacy(call, rctx));
  }

  /** A 2026-07-28 request: its scope from its `_meta`, then the middleware, then the method. */
  #handleModern(
    request: Request,
    rctx: RequestContext,
    meta: ReturnType<typeof readModernMeta>,
  ): MaybePromise<unknown> {
    const revision = requireModernRevision(meta, this.#core.revisions);
    const capabilities = meta.clientCapabilities;
    if (capabilities === undefined) {
      const key = MetaKey.ClientCapabilities;
      throw invalidMeta(key, `_meta["${key}"] is required`);
    }
    const client: ClientDescription = { capabilities, info: meta.clientInfo };
    const params = request.params;
    const fields: ScopeFields = {
      id: request.id,
      era: 'modern',
      revision,
      client,
      meta: metaOf(params),
      info: rctx.info,
      logLevel: meta.logLevel,
    };
    const chain = this.#core.middleware.request;
    if (chain === undefined) return this.#dispatch(request, rctx, fields);
    const facts = { era: 'modern' as const, revision, client, session: undefined };
    return chain(new RequestCall(request, facts, rctx), (call) =>
      this.#dispatch(call, rctx, withParams(fields, params, call.params)),
    );
  }

  /**
   * The success response of a request #handle served: a 2026-07-28 result decorated
   * (core.modernResponse), a legacy one as it is. Both write their own JSON text.
   */
  #respond(request: Request, result: unknown): SuccessResponse {
    const { id } = request;
    // #handle served it as 2026-07-28 exactly when its _meta names a revision (a string).
    if (metaProtocolVersion(request.params) !== undefined) {
      return this.#core.modernResponse(id, request.method, result);
    }
    if (typeof result !== 'object' || result === null) return { jsonrpc: '2.0', id, result };
    return servedResponse(id, result);
  }

  /** Serves a request whose `_meta` names no revision: legacy, or `initialize`. */
  #serveLegacy(
    request: { readonly method: string; readonly params?: unknown },
    rctx: RequestContext,
  ): MaybePromise<unknown> {
    const { method, params } = request;
    // #handle checked that params, if any, are an object.
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
      id: rctx.id,
      era: 'legacy',
      revision: legacy.revision,
      client: legacy.client,
      meta: metaOf(params),
      info: rctx.info,
      logLevel: this.#logLevel ?? 'debug',
    });
  }

  /** Serves a request of the revision and client `fields` name (what its scope is made of). */
  #dispatch(
    request: { readonly method: string; readonly params?: unknown },
    rctx: RequestContext,
    fields: ScopeFields,
  ): MaybePromise<unknown> {
    const { method } = request;
    // The core's methods, then those the server's extensions serve in this revision.
    const feature =
      (methodExists(method, fields.revision) ? FEATURES[method] : undefined) ??
      this.#core.extensions.feature(method, fields.revision);
    if (feature === undefined) {
      throw new JsonRpcError(ErrorCode.MethodNotFound, `method not found: ${method}`);
    }
    const params = (request.params ?? {}) as Record<string, unknown>;
    // The handler's signal is the request's (made by the transport or connection on first read).
    const outgoing = this.#core.middleware.outgoing;
    const via = outgoing === undefined ? rctx : new OutgoingVia(rctx, outgoing, fields);
    const scope: RequestScope = new LazyScope(fields, rctx, via);
    const call: Call = {
      method,
      params,
      scope,
      snapshot: this.#core.registry.snapshot(),
      // Served on its own, a request changes no session state: there is none to keep it.
      state: this.#connection === undefined ? NO_STATE : this,
      core: this.#core,
    };
    return feature(call);
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
    // A session serving requests on their own (legacy stateless) answers and keeps nothing.
    if (this.#connection !== undefined) {
      this.#legacy = { revision, client, initialized: false };
      this.#core.attach(this);
    }
    const result: Record<string, unknown> = {
      protocolVersion: revision,
      capabilities: this.#core.capabilities(revision),
      serverInfo: trimDefinition(this.#core.info, 'Implementation', revision),
    };
    if (this.#core.instructions !== undefined) result['instructions'] = this.#core.instructions;
    return result;
  }
}

/** `fields` with the `_meta` of `changed`, when a middleware replaced the request's params. */
function withParams(fields: ScopeFields, params: unknown, changed: unknown): ScopeFields {
  return changed === params ? fields : { ...fields, meta: metaOf(changed) };
}

/** The `_meta` of a request's params, if any (readModernMeta checked that it is an object). */
function metaOf(params: unknown): Record<string, unknown> | undefined {
  return (params as Record<string, unknown> | undefined)?.['_meta'] as
    Record<string, unknown> | undefined;
}
