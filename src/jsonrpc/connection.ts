// Connection runs JSON-RPC 2.0 over a Transport: it correlates outgoing requests with their
// responses (timeouts, AbortSignal), dispatches incoming requests to one handler, and rejects
// everything pending when the transport closes. It knows nothing of the protocol on top.
import { LazySignal } from '../internal/abort.js';
import type { MaybePromise } from '../internal/maybe.js';
import { isPromise } from '../internal/maybe.js';
import { SlotMap } from '../internal/slot-map.js';
import type { BatchItem } from './codec.js';
import { errorResponse } from './codec.js';
import { ErrorCode, JsonRpcError, LocalError, LocalErrorCode, toJsonRpcError } from './errors.js';
import type {
  ErrorResponse,
  Message,
  Notification,
  Params,
  Request,
  RequestId,
  Response,
  SuccessResponse,
} from './message.js';
import type { MessageInfo, Receiver, SendOptions, Transport } from './transport.js';

/** What a request handler knows about the request it serves. */
export interface RequestContext {
  /** The request's id. */
  readonly id: RequestId;
  /** Aborted when the request is cancelled or the connection closes. */
  readonly signal: AbortSignal;
  /** What the transport knows about the request (headers, auth). */
  readonly info: MessageInfo | undefined;
  /** Sends a notification related to this request. */
  notify(method: string, params?: Params): Promise<void>;
  /** Sends a request related to this request and awaits its result. */
  request(method: string, params?: Params, options?: CallOptions): Promise<unknown>;
}

/**
 * Serves one incoming request. The returned value (or what a returned promise resolves with) is
 * sent as `result`; a thrown or rejected JsonRpcError is sent as `error` unchanged; any other
 * failure is sent as -32603 and reported to `onError`.
 */
export type RequestHandler = (request: Request, ctx: RequestContext) => unknown;

/** Receives one incoming notification, synchronously and in arrival order. */
export type NotificationHandler = (
  notification: Notification,
  info: MessageInfo | undefined,
) => void;

/** Options for {@link Connection}. Every field is optional. */
export interface ConnectionOptions {
  /** Serves incoming requests. Default: every request gets -32601. */
  onRequest?: RequestHandler;
  /** Receives incoming notifications. Default: ignored. */
  onNotification?: NotificationHandler;
  /**
   * Makes the success response of a served request from its result (`null` for none). Default:
   * a plain object. What a server uses to give its responses their own encoding (JSON_TEXT).
   */
  respond?: (id: RequestId, result: unknown) => SuccessResponse;
  /** Whether an incoming batch is acceptable now. Default: never (batches get -32600). */
  acceptBatch?: () => boolean;
  /** Default timeout of outgoing requests in milliseconds. Default: none. */
  timeoutMs?: number;
  /** Reports problems that have no caller to reject: unknown response ids, handler crashes. */
  onError?: (error: Error) => void;
  /** Called once when the connection has closed, with the transport's error if any. */
  onClose?: (error?: Error) => void;
}

/** Options for one outgoing request. */
export interface CallOptions {
  /** Aborts the call: it rejects with `signal.reason` and its response is ignored. */
  signal?: AbortSignal;
  /** Overrides the connection's default timeout; `touch(id)` restarts it. */
  timeoutMs?: number;
  /** The id to use; must not be in flight. Default: the next number. */
  id?: RequestId;
  /** Routing hint for the transport (see SendOptions). */
  relatedRequestId?: RequestId;
  /** Extra transport headers for this request (see SendOptions). */
  headers?: Readonly<Record<string, string>>;
}

interface Pending {
  method: string;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
  timeoutMs: number | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  cleanup: () => void;
  /** Aborted when the call ends without a response, so the transport can drop its stream. */
  abandon: AbortController;
}

/** An incoming request being served: a signal of its own, made when first read. */
class Incoming extends LazySignal {
  abandoned = false;

  constructor() {
    super(noSources);
  }
}

function noSources(): readonly AbortSignal[] {
  return [];
}

/**
 * Connection is one JSON-RPC 2.0 session over a Transport.
 *
 * Concurrency: any number of outgoing calls may be in flight; incoming requests are served
 * concurrently, incoming notifications synchronously in arrival order. After close every
 * pending call has rejected with LocalError('CONNECTION_CLOSED') and new calls reject alike.
 */
export class Connection {
  readonly #transport: Transport;
  readonly #options: ConnectionOptions;
  /** Outgoing calls awaiting their response; made by the first call (idle sessions hold none). */
  #pending: Map<RequestId, Pending> | undefined;
  /** Incoming requests being served; dropped when the last one ends (an idle session holds none). */
  #incoming: SlotMap<RequestId, Incoming> | undefined;
  #nextId = 0;
  #started = false;
  #closed = false;

  constructor(transport: Transport, options: ConnectionOptions = {}) {
    this.#transport = transport;
    this.#options = options;
  }

  /** True once the transport has closed. */
  get isClosed(): boolean {
    return this.#closed;
  }

  /**
   * The RequestContext of one incoming request. A class, not an object literal: a literal with a
   * getter is made by a slow runtime path and has dictionary properties (see bench/RESULTS.md).
   */
  static readonly #Context = class implements RequestContext {
    readonly id: RequestId;
    readonly info: MessageInfo | undefined;
    readonly #connection: Connection;
    readonly #incoming: Incoming;

    constructor(
      connection: Connection,
      request: { id: RequestId; info: MessageInfo | undefined; incoming: Incoming },
    ) {
      this.#connection = connection;
      this.id = request.id;
      this.info = request.info;
      this.#incoming = request.incoming;
    }

    /** Made on first read: an AbortSignal is costly on Node 20 and most handlers never read it. */
    get signal(): AbortSignal {
      return this.#incoming.signal;
    }

    notify(method: string, params?: Params): Promise<void> {
      return this.#connection.notify(method, params, { relatedRequestId: this.id });
    }

    request(method: string, params?: Params, options?: CallOptions): Promise<unknown> {
      return this.#connection.request(method, params, { relatedRequestId: this.id, ...options });
    }
  };

  /**
   * The Receiver a connection hands its transport: prototype methods rather than three closures
   * per connection (a legacy session keeps one for its lifetime; see bench/RESULTS.md).
   */
  static readonly #Inbox = class implements Receiver {
    readonly #connection: Connection;

    constructor(connection: Connection) {
      this.#connection = connection;
    }

    message(message: Message, info?: MessageInfo): void {
      this.#connection.#receive(message, info);
    }

    batch(items: readonly BatchItem[], info?: MessageInfo): void {
      this.#connection.#receiveBatch(items, info);
    }

    closed(error?: Error): void {
      this.#connection.#onClosed(error);
    }
  };

  /** Starts receiving. Called once; a second call rejects with LocalError('ALREADY_STARTED'). */
  start(): Promise<void> {
    if (this.#started) {
      return Promise.reject(
        new LocalError(LocalErrorCode.AlreadyStarted, 'connection already started'),
      );
    }
    this.#started = true;
    try {
      return this.#transport.start(new Connection.#Inbox(this));
    } catch (error) {
      // What was thrown, as is (an async function would reject with it the same way).
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return Promise.reject(error);
    }
  }

  /** Sends a request and resolves with its result, or rejects (JsonRpcError, LocalError, abort reason). */
  request(method: string, params?: Params, options: CallOptions = {}): Promise<unknown> {
    if (this.#closed) return Promise.reject(closedError());
    const { signal } = options;
    // An aborted call rejects with the caller's own reason, whatever its type (AbortSignal contract).
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    const id = options.id ?? ++this.#nextId;
    if (this.#pending?.has(id) === true) {
      return Promise.reject(
        new LocalError(LocalErrorCode.InvalidMessage, `request id ${String(id)} is in flight`),
      );
    }
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.#settle(id)?.reject(signal?.reason);
      };
      const pending: Pending = {
        method,
        resolve,
        reject,
        timeoutMs: options.timeoutMs ?? this.#options.timeoutMs,
        timer: undefined,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
        abandon: new AbortController(),
      };
      (this.#pending ??= new Map()).set(id, pending);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#arm(id, pending);
      const message: Request =
        params === undefined
          ? { jsonrpc: '2.0', id, method }
          : { jsonrpc: '2.0', id, method, params };
      const send: SendOptions = { signal: pending.abandon.signal };
      if (options.relatedRequestId !== undefined) send.relatedRequestId = options.relatedRequestId;
      if (options.headers !== undefined) send.headers = options.headers;
      this.#send(message, send).catch((error: unknown) => {
        this.#settle(id)?.reject(error);
      });
    });
  }

  /** Sends a notification. */
  notify(method: string, params?: Params, options?: SendOptions): Promise<void> {
    if (this.#closed) return Promise.reject(closedError());
    const message: Notification =
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    return this.#send(message, options);
  }

  /** Restarts the timeout of an outgoing request (for example on progress). False if not pending. */
  touch(id: RequestId): boolean {
    const pending = this.#pending?.get(id);
    if (pending === undefined) return false;
    this.#arm(id, pending);
    return true;
  }

  /**
   * Cancels an incoming request: its handler's signal aborts with `reason` and its response,
   * if any, is not sent. False when no such request is being served.
   */
  cancelIncoming(id: RequestId, reason?: unknown): boolean {
    const incoming = this.#incoming?.get(id);
    if (incoming === undefined) return false;
    incoming.abandoned = true;
    incoming.abort(reason ?? new LocalError(LocalErrorCode.ConnectionClosed, 'request cancelled'));
    return true;
  }

  /** Closes the transport; pending calls reject with LocalError('CONNECTION_CLOSED'). Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#transport.close();
    // A transport that failed to report its closing must not leave callers hanging.
    this.#onClosed();
  }

  #arm(id: RequestId, pending: Pending): void {
    if (pending.timer !== undefined) clearTimeout(pending.timer);
    const { timeoutMs } = pending;
    if (timeoutMs === undefined) return;
    pending.timer = setTimeout(() => {
      this.#settle(id)?.reject(
        new LocalError(
          LocalErrorCode.RequestTimeout,
          `request "${pending.method}" timed out after ${timeoutMs} ms`,
        ),
      );
    }, timeoutMs);
  }

  /**
   * Removes a pending call and returns it, once. Unless a response settled it, the transport is
   * told the call was abandoned.
   */
  #settle(id: RequestId, answered = false): Pending | undefined {
    const pending = this.#pending?.get(id);
    if (pending === undefined) return undefined;
    this.#pending?.delete(id);
    if (pending.timer !== undefined) clearTimeout(pending.timer);
    pending.cleanup();
    if (!answered) pending.abandon.abort();
    return pending;
  }

  #send(message: Message | readonly Message[], options?: SendOptions): Promise<void> {
    try {
      return this.#transport.send(message, options);
    } catch (error) {
      // What the transport threw, as is (an async function would reject with it the same way).
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return Promise.reject(error);
    }
  }

  #receive(message: Message, info: MessageInfo | undefined): void {
    if ('method' in message) {
      if ('id' in message) {
        // Answered at once when the handler answered synchronously.
        const served = this.#serve(message, info);
        if (!isPromise(served)) {
          if (served !== undefined) this.#reply(served);
          return;
        }
        void served.then((response) => {
          if (response !== undefined) this.#reply(response);
        });
      } else {
        this.#dispatchNotification(message, info);
      }
      return;
    }
    this.#resolve(message);
  }

  #receiveBatch(items: readonly BatchItem[], info: MessageInfo | undefined): void {
    if (this.#options.acceptBatch?.() !== true) {
      this.#reply(
        errorResponse(ErrorCode.InvalidRequest, 'invalid request: batches are not supported'),
      );
      return;
    }
    const replies = items.map((item): Promise<Response | undefined> => {
      if ('invalid' in item) return Promise.resolve(item.invalid);
      const { message } = item;
      if ('method' in message && 'id' in message)
        return Promise.resolve(this.#serve(message, info));
      this.#receive(message, info);
      return Promise.resolve(undefined);
    });
    void Promise.all(replies).then((responses) => {
      const batch = responses.filter((r): r is Response => r !== undefined);
      if (batch.length > 0) this.#reply(batch);
    });
  }

  #reply(response: Response | readonly Response[]): void {
    if (this.#closed) return;
    this.#send(response).catch((error: unknown) => {
      this.#report(error);
    });
  }

  #dispatchNotification(notification: Notification, info: MessageInfo | undefined): void {
    try {
      this.#options.onNotification?.(notification, info);
    } catch (error) {
      this.#report(error);
    }
  }

  /**
   * Runs the handler for one request: the response to send, or undefined if abandoned; at once
   * when the handler answered synchronously, else a promise that never rejects.
   */
  #serve(request: Request, info: MessageInfo | undefined): MaybePromise<Response | undefined> {
    const { id } = request;
    if (this.#incoming?.has(id) === true) {
      return {
        jsonrpc: '2.0',
        id,
        error: {
          code: ErrorCode.InvalidRequest,
          message: `request id ${String(id)} is already in use`,
        },
      };
    }
    const options = this.#options;
    if (options.onRequest === undefined) {
      return {
        jsonrpc: '2.0',
        id,
        error: { code: ErrorCode.MethodNotFound, message: `method not found: ${request.method}` },
      };
    }
    const incoming = new Incoming();
    (this.#incoming ??= new SlotMap()).set(id, incoming);
    const ctx = new Connection.#Context(this, { id, info, incoming });
    let result: unknown;
    try {
      // Called as a method: options may be an object whose methods use `this`.
      result = options.onRequest(request, ctx);
    } catch (error) {
      return this.#failed(id, incoming, error);
    }
    if (!isPromise(result)) return this.#succeeded(id, incoming, result);
    return result.then(
      (value) => this.#succeeded(id, incoming, value),
      (error: unknown) => this.#failed(id, incoming, error),
    );
  }

  #succeeded(id: RequestId, incoming: Incoming, result: unknown): Response | undefined {
    this.#served(id);
    if (incoming.abandoned) return undefined;
    const options = this.#options;
    // Called as a method: options may be an object whose methods use `this`.
    if (options.respond !== undefined) return options.respond(id, result ?? null);
    return { jsonrpc: '2.0', id, result: result ?? null };
  }

  #failed(id: RequestId, incoming: Incoming, error: unknown): Response | undefined {
    this.#served(id);
    if (incoming.abandoned) return undefined;
    if (!(error instanceof JsonRpcError)) this.#report(error);
    return errorFor(id, toJsonRpcError(error));
  }

  /** Forgets a request that was served. */
  #served(id: RequestId): void {
    const incoming = this.#incoming;
    if (incoming === undefined) return;
    incoming.delete(id);
    if (incoming.size === 0) this.#incoming = undefined;
  }

  #resolve(response: Response): void {
    const { id } = response;
    const pending = id === null ? undefined : this.#settle(id, true);
    if (pending === undefined) {
      const what = 'error' in response ? `error ${JSON.stringify(response.error)}` : 'result';
      this.#report(
        new LocalError(
          LocalErrorCode.ProtocolViolation,
          `response with unknown id ${JSON.stringify(id)} (${what}) ignored`,
        ),
      );
      return;
    }
    if ('error' in response) pending.reject(JsonRpcError.fromWire(response.error));
    else pending.resolve(response.result);
  }

  #onClosed(error?: Error): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const id of [...(this.#pending?.keys() ?? [])]) {
      this.#settle(id)?.reject(closedError(error));
    }
    for (const incoming of this.#incoming?.values() ?? []) {
      incoming.abandoned = true;
      incoming.abort(closedError(error));
    }
    this.#incoming = undefined;
    this.#options.onClose?.(error);
  }

  #report(error: unknown): void {
    const reported = error instanceof Error ? error : new Error(String(error));
    this.#options.onError?.(reported);
  }
}

function closedError(cause?: Error): LocalError {
  return new LocalError(
    LocalErrorCode.ConnectionClosed,
    'connection closed',
    cause === undefined ? undefined : { cause },
  );
}

function errorFor(id: RequestId, error: JsonRpcError): ErrorResponse {
  return { jsonrpc: '2.0', id, error: error.toWire() };
}
