// Server middleware: functions around the requests a server serves (every method, both eras,
// every transport) and around its tool calls. The chains are composed once, when
// `McpServer.use()` registers one; a server with none serves its requests without any step of
// this file (docs/middleware.md).
import type { RequestId } from '../jsonrpc/message.js';
import type { MessageInfo } from '../jsonrpc/transport.js';
import type { AuthInfo } from '../protocol/auth.js';
import { isAuthInfo } from '../protocol/auth.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { ProtocolEra, ProtocolRevision } from '../protocol/version.js';
import type { ClientDescription, HandlerContext, ToolDefinition } from './types.js';
import type { OutgoingChain, OutgoingMiddleware } from './outgoing.js';
import { composeOutgoing } from './outgoing.js';

/**
 * What a request middleware sees of one request. `params` may be replaced before `next()`: what
 * runs after sees the new value. The era, revision and client are decided from the request as
 * it arrived, before any middleware runs.
 */
export interface MiddlewareContext {
  /** The JSON-RPC id of the request. */
  readonly id: RequestId;
  /** The method, as the client sent it (unknown methods included: they fail after the chain's end). */
  readonly method: string;
  /** The request's params (`{}` when it had none); assign a new object to change them. */
  params: Record<string, unknown>;
  /** `legacy` (a session that began with `initialize`) or `modern` (2026-07-28). */
  readonly era: ProtocolEra;
  /**
   * The request's revision: the session's for a legacy request, undefined for a legacy request
   * before `initialize` chose one (`initialize` itself included).
   */
  readonly revision: ProtocolRevision | undefined;
  /** What the client said about itself; undefined before a legacy `initialize`. */
  readonly client: ClientDescription | undefined;
  /** The principal the HTTP transport's `auth` gate verified; undefined without the gate. */
  readonly auth: AuthInfo | undefined;
  /**
   * The legacy session the request came over (a connection: stdio, an HTTP session), the same
   * object for all its requests; undefined for a request served on its own (2026-07-28, stateless
   * HTTP).
   */
  readonly session: object | undefined;
  /** What the transport knows about the request: HTTP headers, the auth it attached. */
  readonly transport: MessageInfo | undefined;
  /** Aborted when the client cancels the request or the connection closes. */
  readonly signal: AbortSignal;
}

/**
 * What `next()` gives: the result at once when everything after it answered at once, else a
 * promise of it. `await next()` takes either; a pass-through `(ctx, next) => next()` keeps a
 * synchronous request synchronous (docs/middleware.md, "Cost").
 */
export type NextResult<R> = R | Promise<R>;

/**
 * Runs around one request: calls `next()` to serve it (the next middleware, then the method),
 * which gives the result or throws (rejects with) the error that would be answered. It answers
 * the request with what it returns (a changed result, or its own without calling `next()`), or
 * with what it throws: a JsonRpcError as is, anything else as -32603 "internal error" (reported
 * through `onError`).
 */
export type RequestMiddleware = (
  ctx: MiddlewareContext,
  next: () => NextResult<unknown>,
) => unknown;

/**
 * What a notification middleware sees of one notification the client sent
 * (`notifications/initialized`, `notifications/cancelled`, `notifications/roots/list_changed`,
 * any other): the same facts as a request's, without an id or a signal. `params` may be replaced
 * before `next()`: the server acts on the new value.
 */
export interface NotificationContext {
  /** The method, as the client sent it (unknown ones included: the server ignores them). */
  readonly method: string;
  /** The notification's params (`{}` when it had none). */
  params: Record<string, unknown>;
  /** `modern` when its `_meta` names a revision (2026-07-28), else `legacy`. */
  readonly era: ProtocolEra;
  /** The revision its `_meta` names, else the legacy session's (undefined before `initialize`). */
  readonly revision: ProtocolRevision | undefined;
  /** What the client said about itself in `initialize`; undefined before it and for a modern one. */
  readonly client: ClientDescription | undefined;
  /** The principal the HTTP transport's `auth` gate verified; undefined without the gate. */
  readonly auth: AuthInfo | undefined;
  /** The legacy session (connection) it came over, as for a request; else undefined. */
  readonly session: object | undefined;
  /** What the transport knows about the message: HTTP headers, the auth it attached. */
  readonly transport: MessageInfo | undefined;
}

/**
 * Runs around the server's handling of one notification: `next()` runs the next middleware, then
 * the server's own handling (synchronous: marking a session initialized, cancelling a request,
 * telling `onRootsChanged`). Not calling it drops the notification. A notification has no answer:
 * what it returns is ignored; what it throws (or a promise it returns rejects with) is reported
 * through `onError`.
 */
export type NotificationMiddleware = (ctx: NotificationContext, next: () => void) => unknown;

/** A tools/call result as a tool-call middleware sees and returns it. */
export interface ToolCallResult {
  content: Spec.ContentBlock[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/** What a tool-call middleware sees of one call of a known tool, its arguments valid. */
export interface ToolCallContext {
  /** The tool's name. */
  readonly name: string;
  /** The tool as listed (annotations, scopes' declaration aside). */
  readonly tool: Spec.Tool;
  /** The tool's definition as registered (an extension reads its own fields there). */
  readonly definition: ToolDefinition;
  /** The request's params as served (`name`, `arguments`, what else the client sent). */
  readonly params: Readonly<Record<string, unknown>>;
  /** The validated arguments; assign new ones to change what the handler gets (not checked again). */
  arguments: Record<string, unknown>;
  /** The handler's context: revision, client, principal (`ctx.auth`), signal, log, progress. */
  readonly ctx: HandlerContext;
}

/**
 * Runs around one tool call: `next()` runs the next middleware, then the tool's handler, and
 * gives the result (see {@link NextResult}) (a handler's Error is already an `isError` result there). What it
 * returns is the call's result. What it throws is treated as a handler's throw: an Error becomes
 * an `isError` result the model reads, a JsonRpcError is answered as is.
 */
export type ToolCallMiddleware = (
  call: ToolCallContext,
  next: () => NextResult<ToolCallResult>,
) => NextResult<ToolCallResult>;

/**
 * A tool-call middleware's answer to the request itself, in place of a tool result: returned
 * through the middleware before it and answered as is (an extension's result of another kind,
 * such as the tasks extension's `CreateTaskResult`). Made with {@link answerRequest}.
 */
export class RequestAnswer {
  readonly result: Record<string, unknown>;

  constructor(result: Record<string, unknown>) {
    this.result = result;
  }
}

/**
 * Wraps `result` so that a tool-call middleware answers the tools/call request with it as is,
 * not as a tool result (no content check, no era shaping of content; the session still adds
 * what every result of the revision carries). Middleware before it sees the wrapper from
 * `next()`: pass it on unchanged.
 */
export function answerRequest(result: Record<string, unknown>): ToolCallResult {
  return new RequestAnswer(result) as unknown as ToolCallResult;
}

/**
 * What `McpServer.use` takes: a request middleware, or an object with a request middleware, a
 * tool-call middleware or both (what an extension contributes).
 */
export type Middleware =
  | RequestMiddleware
  | {
      readonly request?: RequestMiddleware;
      readonly toolCall?: ToolCallMiddleware;
      /** Around the messages the server sends while serving a request (outgoing.ts). */
      readonly outgoing?: OutgoingMiddleware;
      /** Around the server's handling of each notification the client sends. */
      readonly notification?: NotificationMiddleware;
    };

/**
 * A composed chain: runs its middleware in order around `end`. What it gives is what the
 * outermost middleware returned; what any of them throws is thrown.
 */
export type Chain<C, R> = (ctx: C, end: (ctx: C) => NextResult<R>) => NextResult<R>;

type Link<C, R> = (ctx: C, next: () => NextResult<R>) => unknown;

/** Composes `list` (first registered runs outermost) into one chain, once. */
function compose<C, R>(list: readonly Link<C, R>[]): Chain<C, R> {
  let chain: Chain<C, R> = (ctx, end) => end(ctx);
  for (let i = list.length - 1; i >= 0; i--) {
    const middleware = list[i] as Link<C, R>;
    const inner = chain;
    chain = (ctx, end) => middleware(ctx, () => inner(ctx, end)) as NextResult<R>;
  }
  return chain;
}

/**
 * The middleware one server runs, composed at registration: each chain is undefined while none
 * of its kind is registered, which the path of its messages tests first.
 */
export class MiddlewareStack {
  request: Chain<MiddlewareContext, unknown> | undefined;
  toolCall: Chain<ToolCallContext, ToolCallResult> | undefined;
  outgoing: OutgoingChain | undefined;
  notification: Chain<NotificationContext, void> | undefined;
  readonly #request: RequestMiddleware[] = [];
  readonly #toolCall: ToolCallMiddleware[] = [];
  readonly #outgoing: OutgoingMiddleware[] = [];
  readonly #notification: NotificationMiddleware[] = [];

  /** Adds `middleware` after those registered; throws TypeError for anything else. */
  add(middleware: Middleware): void {
    // Checked at run time too: JavaScript callers pass anything.
    const given: unknown = middleware;
    if (typeof given === 'function') {
      this.#request.push(given as RequestMiddleware);
    } else if (typeof given === 'object' && given !== null) {
      const { request, toolCall, outgoing, notification } = given as Record<string, unknown>;
      const parts = [request, toolCall, outgoing, notification];
      if (parts.every((part) => part === undefined)) throw badMiddleware();
      if (parts.some((part) => part !== undefined && typeof part !== 'function')) {
        throw badMiddleware();
      }
      if (request !== undefined) this.#request.push(request as RequestMiddleware);
      if (toolCall !== undefined) this.#toolCall.push(toolCall as ToolCallMiddleware);
      if (outgoing !== undefined) this.#outgoing.push(outgoing as OutgoingMiddleware);
      if (notification !== undefined) {
        this.#notification.push(notification as NotificationMiddleware);
      }
    } else {
      throw badMiddleware();
    }
    if (this.#request.length > 0) this.request = compose(this.#request);
    if (this.#toolCall.length > 0) this.toolCall = compose(this.#toolCall);
    if (this.#outgoing.length > 0) this.outgoing = composeOutgoing(this.#outgoing);
    if (this.#notification.length > 0) this.notification = compose(this.#notification);
  }
}

function badMiddleware(): TypeError {
  return new TypeError(
    'server.use takes a function (ctx, next) => …, or { request?: (ctx, next) => …, toolCall?: (call, next) => …, outgoing?: (message, next) => …, notification?: (ctx, next) => … }',
  );
}

/** The MiddlewareContext of one request; its signal is the request's, read when asked for. */
export class RequestCall implements MiddlewareContext {
  readonly id: RequestId;
  readonly method: string;
  params: Record<string, unknown>;
  readonly era: ProtocolEra;
  readonly revision: ProtocolRevision | undefined;
  readonly client: ClientDescription | undefined;
  readonly session: object | undefined;
  readonly transport: MessageInfo | undefined;
  readonly #signal: { readonly signal: AbortSignal };

  constructor(
    request: { readonly id: RequestId; readonly method: string; readonly params?: unknown },
    facts: {
      readonly era: ProtocolEra;
      readonly revision: ProtocolRevision | undefined;
      readonly client: ClientDescription | undefined;
      readonly session: object | undefined;
    },
    rctx: { readonly signal: AbortSignal; readonly info: MessageInfo | undefined },
  ) {
    this.id = request.id;
    this.method = request.method;
    this.params = (request.params ?? {}) as Record<string, unknown>;
    this.era = facts.era;
    this.revision = facts.revision;
    this.client = facts.client;
    this.session = facts.session;
    this.transport = rctx.info;
    this.#signal = rctx;
  }

  get auth(): AuthInfo | undefined {
    const auth = this.transport?.auth;
    return isAuthInfo(auth) ? auth : undefined;
  }

  get signal(): AbortSignal {
    return this.#signal.signal;
  }
}

/** The NotificationContext of one notification. */
export class NotificationCall implements NotificationContext {
  readonly method: string;
  params: Record<string, unknown>;
  readonly era: ProtocolEra;
  readonly revision: ProtocolRevision | undefined;
  readonly client: ClientDescription | undefined;
  readonly session: object | undefined;
  readonly transport: MessageInfo | undefined;

  constructor(
    notification: { readonly method: string; readonly params?: unknown },
    facts: {
      readonly era: ProtocolEra;
      readonly revision: ProtocolRevision | undefined;
      readonly client: ClientDescription | undefined;
      readonly session: object | undefined;
    },
    info: MessageInfo | undefined,
  ) {
    this.method = notification.method;
    this.params = (notification.params ?? {}) as Record<string, unknown>;
    this.era = facts.era;
    this.revision = facts.revision;
    this.client = facts.client;
    this.session = facts.session;
    this.transport = info;
  }

  get auth(): AuthInfo | undefined {
    const auth = this.transport?.auth;
    return isAuthInfo(auth) ? auth : undefined;
  }
}
