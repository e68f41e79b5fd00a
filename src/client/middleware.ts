// Client middleware: functions around every message a client sends (each request round, each
// notification) and every request the server sends it (elicitation, sampling, roots, ping). The
// chain is composed once, when `Client.use()` registers one; a client with none sends and
// answers without any step of this file (docs/middleware.md, "Client middleware"). A separate,
// synchronous chain (`client.use({ notification })`) runs around each notification the server
// sends the client; the message middleware never sees those.
import type { RequestId } from '../jsonrpc/message.js';
import type { Transport } from '../jsonrpc/transport.js';
import type { ProtocolEra, ProtocolRevision } from '../protocol/version.js';
import { eraOf } from '../protocol/version.js';

/**
 * What a client middleware sees of one message. `params` may be replaced before `next()`: what
 * is sent (outgoing) or answered (incoming) is the new value.
 */
export interface ClientMiddlewareContext {
  /** `outgoing`: the client sends it; `incoming`: a request the server sent the client. */
  readonly direction: 'outgoing' | 'incoming';
  /** The JSON-RPC id; undefined for a notification. */
  readonly id: RequestId | undefined;
  /** The method. */
  readonly method: string;
  /** The params as they go on the wire (`{}` when none), `_meta` included; assign to change them. */
  params: Record<string, unknown>;
  /**
   * The revision the client speaks: the negotiated one, or the newest it knows while
   * `initialize` or `server/discover` is still in flight.
   */
  readonly revision: ProtocolRevision;
  /** `legacy` or `modern`, the era of `revision`. */
  readonly era: ProtocolEra;
  /** The transport the client is connected over (read its own fields: `url`, `sessionId`). */
  readonly transport: Transport;
}

/**
 * Runs around one message: `next()` sends it (outgoing) or answers it (incoming) and resolves
 * with the result (undefined for a notification), or rejects with the error (a JsonRpcError, a
 * LocalError, the signal's reason). What it returns (or throws) is what the caller gets: return
 * `next()`'s value to leave the message as it was.
 */
export type ClientMiddleware = (
  ctx: ClientMiddlewareContext,
  next: () => Promise<unknown>,
) => unknown;

/**
 * What a notification middleware sees of one notification the server sent the client (progress,
 * log messages, list changes, resource updates, cancellations, any other). `params` may be
 * replaced before `next()`: the client acts on the new value.
 */
export interface ClientNotificationContext {
  /** The method, as the server sent it (unknown ones included). */
  readonly method: string;
  /** The params as they came on the wire (`{}` when none), `_meta` included; assign to change them. */
  params: Record<string, unknown>;
  /** The revision the client speaks (the newest it knows before one is negotiated). */
  readonly revision: ProtocolRevision;
  /** `legacy` or `modern`, the era of `revision`. */
  readonly era: ProtocolEra;
  /** The transport the client is connected over (read its own fields: `url`, `sessionId`). */
  readonly transport: Transport;
}

/**
 * Runs around the client's handling of one notification: `next()` runs the next middleware, then
 * the client's own handling (synchronous, so notifications keep their order). Not calling it
 * drops the notification. What it returns is ignored; what it throws (or a promise it returns
 * rejects with) is reported through `onError`, and the client carries on.
 */
export type ClientNotificationMiddleware = (
  ctx: ClientNotificationContext,
  next: () => void,
) => unknown;

/** What `client.use` takes besides a message middleware. */
export interface ClientMiddlewareHooks {
  /** Around the client's handling of each notification the server sends it. */
  readonly notification: ClientNotificationMiddleware;
}

type NotificationChain = (ctx: ClientNotificationContext, end: () => void) => unknown;

type ClientChain = (ctx: ClientMiddlewareContext, end: () => Promise<unknown>) => Promise<unknown>;

/**
 * The middleware of one client, composed at registration: `chain` is undefined while none is
 * registered, which the send and answer paths test first.
 */
export class ClientMiddlewareStack {
  chain: ClientChain | undefined;
  /** The notification chain, undefined while none is registered. */
  notification: NotificationChain | undefined;
  readonly #list: ClientMiddleware[] = [];
  readonly #notification: ClientNotificationMiddleware[] = [];

  /**
   * Adds `middleware` after those registered (the first registered runs outermost); throws
   * TypeError for anything but a function or `{ notification: function }`.
   */
  add(middleware: ClientMiddleware | ClientMiddlewareHooks): void {
    // Checked at run time too: JavaScript callers pass anything.
    const given: unknown = middleware;
    if (typeof given === 'function') {
      this.#list.push(given as ClientMiddleware);
      this.chain = compose(this.#list.slice());
      return;
    }
    const notification: unknown =
      typeof given === 'object' && given !== null
        ? (given as { notification?: unknown }).notification
        : undefined;
    if (typeof notification !== 'function') {
      throw new TypeError(
        'client.use takes a function (ctx, next) => …, or { notification: (ctx, next) => … }',
      );
    }
    this.#notification.push(notification as ClientNotificationMiddleware);
    this.notification = composeNotifications(this.#notification.slice());
  }
}

/** Composes notification middleware into one synchronous chain (first registered outermost). */
function composeNotifications(list: readonly ClientNotificationMiddleware[]): NotificationChain {
  let chain: NotificationChain = (_ctx, end) => {
    end();
  };
  for (let i = list.length - 1; i >= 0; i--) {
    const middleware = list[i] as ClientNotificationMiddleware;
    const inner = chain;
    chain = (ctx, end) =>
      middleware(ctx, () => {
        inner(ctx, end);
      });
  }
  return chain;
}

function compose(list: readonly ClientMiddleware[]): ClientChain {
  let chain: ClientChain = (_ctx, end) => end();
  for (let i = list.length - 1; i >= 0; i--) {
    const middleware = list[i] as ClientMiddleware;
    const inner = chain;
    // async: a middleware that throws rejects, as one that returns a rejected promise.
    chain = async (ctx, end) => await middleware(ctx, () => inner(ctx, end));
  }
  return chain;
}

/** The ClientMiddlewareContext of one message. */
export class ClientCall implements ClientMiddlewareContext {
  readonly direction: 'outgoing' | 'incoming';
  readonly id: RequestId | undefined;
  readonly method: string;
  params: Record<string, unknown>;
  readonly revision: ProtocolRevision;
  readonly transport: Transport;

  constructor(
    message: {
      readonly direction: 'outgoing' | 'incoming';
      readonly id: RequestId | undefined;
      readonly method: string;
      readonly params: Record<string, unknown> | undefined;
    },
    revision: ProtocolRevision,
    transport: Transport,
  ) {
    this.direction = message.direction;
    this.id = message.id;
    this.method = message.method;
    this.params = message.params ?? {};
    this.revision = revision;
    this.transport = transport;
  }

  get era(): ProtocolEra {
    return eraOf(this.revision);
  }
}

/** The ClientNotificationContext of one notification. */
export class ClientNotificationCall implements ClientNotificationContext {
  readonly method: string;
  params: Record<string, unknown>;
  readonly revision: ProtocolRevision;
  readonly transport: Transport;

  constructor(
    notification: { readonly method: string; readonly params?: unknown },
    revision: ProtocolRevision,
    transport: Transport,
  ) {
    this.method = notification.method;
    const { params } = notification;
    this.params =
      typeof params === 'object' && params !== null && !Array.isArray(params)
        ? (params as Record<string, unknown>)
        : {};
    this.revision = revision;
    this.transport = transport;
  }

  get era(): ProtocolEra {
    return eraOf(this.revision);
  }
}
