// Connection runs JSON-RPC 2.0 over a Transport: it correlates outgoing requests with their
// responses (timeouts, AbortSignal), dispatches incoming requests to one handler, and rejects
// everything pending when the transport closes. It knows nothing of the protocol on top.
import type { MaybePromise } from '../internal/maybe.js';
import { isPromise } from '../internal/maybe.js';
import { IdMap } from '../internal/id-map.js';
import { SlotMap } from '../internal/slot-map.js';
import { MAX_BATCH_ANSWER_BYTES, serveBatchElements } from './batch.js';
import type { BatchItem } from './codec.js';
import { errorResponse, requestMessage } from './codec.js';
import { ErrorCode, JsonRpcError, LocalError, LocalErrorCode } from './errors.js';
import type { Message, Notification, Params, Request, RequestId, Response } from './message.js';
import type { CallOptions, Peer, RequestHandlers } from './serve.js';
import { ServedRequest, serveRequest } from './serve.js';
import type { MessageInfo, Receiver, SendOptions, Transport } from './transport.js';
import type { Timed } from './deadlines.js';
import { Deadlines } from './deadlines.js';

/** Receives one incoming notification, synchronously and in arrival order. */
export type NotificationHandler = (
  notification: Notification,
  info: MessageInfo | undefined,
) => void;

/**
 * Options for {@link Connection}: the {@link RequestHandlers} that serve its incoming requests
 * (through {@link serveRequest}, the pipeline every request takes), plus what only a connection
 * has. Every field is optional.
 */
export interface ConnectionOptions extends RequestHandlers {
  /** Receives incoming notifications. Default: ignored. */
  onNotification?: NotificationHandler;
  /** Whether an incoming batch is acceptable now. Default: never (batches get -32600). */
  acceptBatch?: () => boolean;
  /** Most bytes of a batch's answer (responses past it become -32603 errors). Default 16 MiB. */
  maxBatchAnswerBytes?: number;
  /** Default timeout of outgoing requests in milliseconds. Default: none. */
  timeoutMs?: number;
  /**
   * Called when an outgoing call ends without a response while the connection is open: it timed
   * out or its signal aborted. The protocol on top may tell the peer (MCP: `notifications/cancelled`).
   */
  onAbandon?: (abandoned: AbandonedCall) => void;
  /** Called once when the connection has closed, with the transport's error if any. */
  onClose?: (error?: Error) => void;
}

/** An outgoing call given up on before its response came; see {@link ConnectionOptions.onAbandon}. */
export interface AbandonedCall {
  readonly id: RequestId;
  readonly method: string;
  /** The timeout's LocalError('REQUEST_TIMEOUT'), or the signal's reason. */
  readonly reason: unknown;
  /** The incoming request it was related to, if any (route the notice the same way). */
  readonly relatedRequestId: RequestId | undefined;
}

/**
 * An outgoing call awaiting its response. Once settled it holds nothing of the call (its
 * settling functions are dropped): a map's old table may still reach it, and through it the
 * young generation (bench/RESULTS.md, the LiveSet story).
 */
class Pending implements Timed {
  readonly method: string;
  readonly relatedRequestId: RequestId | undefined;
  readonly timeoutMs: number | undefined;
  deadline: number | undefined = undefined;
  /** The caller's signal and the listener on it, when the call has one. */
  aborts: { readonly signal: AbortSignal; readonly listener: () => void } | undefined;
  /** What removes the listener on the caller's Cancellation, when the call has one. */
  unfollow: (() => void) | undefined;
  #resolve: ((result: unknown) => void) | undefined;
  #reject: ((error: unknown) => void) | undefined;

  constructor(call: {
    method: string;
    relatedRequestId: RequestId | undefined;
    timeoutMs: number | undefined;
    resolve: (result: unknown) => void;
    reject: (error: unknown) => void;
  }) {
    this.method = call.method;
    this.relatedRequestId = call.relatedRequestId;
    this.timeoutMs = call.timeoutMs;
    this.aborts = undefined;
    this.unfollow = undefined;
    this.#resolve = call.resolve;
    this.#reject = call.reject;
  }

  resolve(result: unknown): void {
    const resolve = this.#resolve;
    this.#drop();
    resolve?.(result);
  }

  reject(error: unknown): void {
    const reject = this.#reject;
    this.#drop();
    reject?.(error);
  }

  #drop(): void {
    this.#resolve = undefined;
    this.#reject = undefined;
    this.aborts = undefined;
    this.unfollow = undefined;
  }
}

const ONCE = { once: true } as const;

/**
 * Connection is one JSON-RPC 2.0 session over a Transport.
 *
 * Concurrency: any number of outgoing calls may be in flight; incoming requests are served
 * concurrently, incoming notifications synchronously in arrival order. After close every
 * pending call has rejected with LocalError('CONNECTION_CLOSED') and new calls reject alike.
 */
export class Connection implements Peer {
  readonly #transport: Transport;
  readonly #options: ConnectionOptions;
  /** Outgoing calls awaiting their response; made by the first call (idle sessions hold none). */
  #pending: IdMap<Pending> | undefined;
  /** Incoming requests being served; dropped when the last one ends (an idle session holds none). */
  #incoming: SlotMap<RequestId, ServedRequest> | undefined;
  /** The timeouts of the pending calls, on one timer; made by the first call with a timeout. */
  #deadlines: Deadlines<RequestId, Pending> | undefined;
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
    const { signal, cancellation } = options;
    // An aborted call rejects with the caller's own reason, whatever its type (AbortSignal contract).
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    const id = options.id ?? ++this.#nextId;
    if (this.#pending?.has(id) === true) {
      return Promise.reject(
        new LocalError(LocalErrorCode.InvalidMessage, `request id ${String(id)} is in flight`),
      );
    }
    // A Cancellation that has aborted calls its listener at once: the call is then not sent.
    let early: { reason: unknown } | undefined;
    let tracked = false;
    const unfollow = cancellation?.follow((reason) => {
      if (tracked) this.#abandon(id, reason);
      else early = { reason };
    });
    const stopped = early as { reason: unknown } | undefined; // set by the listener, if at once
    if (stopped !== undefined) {
      unfollow?.();
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return Promise.reject(stopped.reason);
    }
    return new Promise((resolve, reject) => {
      const pending = new Pending({
        method,
        relatedRequestId: options.relatedRequestId,
        timeoutMs: options.timeoutMs ?? this.#options.timeoutMs,
        resolve,
        reject,
      });
      pending.unfollow = unfollow;
      (this.#pending ??= new IdMap()).set(id, pending);
      tracked = true;
      if (signal !== undefined) {
        const listener = (): void => {
          this.#abandon(id, signal.reason);
        };
        pending.aborts = { signal, listener };
        signal.addEventListener('abort', listener, ONCE);
      }
      this.#arm(pending);
      const message = requestMessage(id, method, params);
      const send: SendOptions = {};
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
    this.#arm(pending);
    return true;
  }

  /**
   * Cancels an incoming request: its handler's signal aborts with `reason` and its response,
   * if any, is not sent. False when no such request is being served.
   */
  cancelIncoming(id: RequestId, reason?: unknown): boolean {
    const incoming = this.#incoming?.get(id);
    if (incoming === undefined) return false;
    incoming.cancel(reason ?? new LocalError(LocalErrorCode.ConnectionClosed, 'request cancelled'));
    return true;
  }

  /** Closes the transport; pending calls reject with LocalError('CONNECTION_CLOSED'). Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#transport.close();
    // A transport that failed to report its closing must not leave callers hanging.
    this.#onClosed();
  }

  #arm(pending: Pending): void {
    const { timeoutMs } = pending;
    if (timeoutMs === undefined) return;
    this.#deadlines ??= new Deadlines(
      () => this.#pending,
      (id, expired) => {
        const message = `request "${expired.method}" timed out after ${String(expired.timeoutMs)} ms`;
        this.#abandon(id, new LocalError(LocalErrorCode.RequestTimeout, message));
      },
    );
    this.#deadlines.arm(pending, timeoutMs);
  }

  /** Gives up on a pending call: it rejects with `reason`, and onAbandon hears of it. */
  #abandon(id: RequestId, reason: unknown): void {
    const pending = this.#settle(id);
    if (pending === undefined) return;
    pending.reject(reason);
    if (this.#closed) return;
    const { method, relatedRequestId } = pending;
    this.#options.onAbandon?.({ id, method, reason, relatedRequestId });
  }

  /**
   * Removes a pending call and returns it, once. Unless a response settled it, the transport is
   * told the call was abandoned (`cancel`), so that it can drop the call's stream.
   */
  #settle(id: RequestId, answered = false): Pending | undefined {
    const pending = this.#pending?.get(id);
    if (pending === undefined) return undefined;
    this.#pending?.delete(id);
    this.#deadlines?.clear(pending);
    const { aborts } = pending;
    if (aborts !== undefined) aborts.signal.removeEventListener('abort', aborts.listener);
    pending.unfollow?.();
    if (!answered) this.#transport.cancel?.(id);
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
          else info?.unanswered?.();
          return;
        }
        void served.then((response) => {
          if (response !== undefined) this.#reply(response);
          else info?.unanswered?.();
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
    const serve = (item: BatchItem): MaybePromise<Response | undefined> => {
      if ('invalid' in item) return item.invalid;
      const { message } = item;
      if ('method' in message && 'id' in message) return this.#serve(message, info);
      this.#receive(message, info);
      return undefined;
    };
    const maxBytes = this.#options.maxBatchAnswerBytes ?? MAX_BATCH_ANSWER_BYTES;
    void serveBatchElements(items, serve, maxBytes).then((batch) => {
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
   * Serves one request through {@link serveRequest}: the response to send, or undefined when the
   * request was cancelled meanwhile; at once when the handler answered synchronously, else a
   * promise that never rejects.
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
    const served = new ServedRequest(this, id, info);
    (this.#incoming ??= new SlotMap()).set(id, served);
    const response = serveRequest(this.#options, request, served);
    if (!isPromise(response)) return this.#served(served, response);
    return response.then((answered) => this.#served(served, answered));
  }

  /** Forgets a request that was served; its response, unless it was cancelled meanwhile. */
  #served(served: ServedRequest, response: Response): Response | undefined {
    // Its id was refused while in use, so the entry is this request's (none once closed).
    const incoming = this.#incoming;
    if (incoming !== undefined) {
      incoming.delete(served.id);
      if (incoming.size === 0) this.#incoming = undefined;
    }
    return served.cancelled ? undefined : response;
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
    for (const incoming of this.#incoming?.values() ?? []) incoming.cancel(closedError(error));
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
