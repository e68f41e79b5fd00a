// The Streamable HTTP client transport over fetch: every message is a POST to the MCP endpoint,
// answered by JSON, an SSE stream (resumed by GET with Last-Event-ID when it breaks before the
// response) or 202. Legacy sessions get the Mcp-Session-Id header, the standalone GET stream and
// a DELETE on close; 2026-07-28 requests get the standard headers. A server that refuses the
// first `initialize` is retried with the deprecated HTTP+SSE transport.
// Spec 2025-11-25 basic/transports#streamable-http; 2026-07-28 basic/transports/streamable-http.
import { encode } from '../../jsonrpc/codec.js';
import type { JsonRpcError } from '../../jsonrpc/errors.js';
import { LocalError, LocalErrorCode } from '../../jsonrpc/errors.js';
import type { Message, RequestId } from '../../jsonrpc/message.js';
import type { Receiver, SendOptions, Transport } from '../../jsonrpc/transport.js';
import { messagesIn } from './client-events.js';
import { HeaderName, modernRevisionOf, setMcpHeaders } from './client-headers.js';
import type { FetchLike, HeadersOption, ReconnectOptions } from './client-http.js';
import {
  closedError,
  customHeaders,
  deleteSession,
  discardBody,
  HttpErrorCode,
  isEventStream,
  isInitialize,
  isInitialized,
  isJson,
  jsonRpcErrorsIn,
  linkSignal,
  mediaTypeOf,
  readBodyText,
  reconnectPolicy,
  refusedPost,
  requestIdsOf,
  sessionExpired,
  statusLine,
  unreachable,
} from './client-http.js';
import { Inbox } from './client-inbox.js';
import { Ledger } from './client-ledger.js';
import type { SseClientTransport } from './client-sse.js';
import { createSseClientTransport } from './client-sse.js';
import type { StreamHost } from './client-streams.js';
import { followPostStream, runStandaloneStream } from './client-streams.js';

/** Options for {@link createStreamableHttpClientTransport}. Every field is optional. */
export interface StreamableHttpClientOptions {
  /** Headers added to every request (authorization, say); a function is called per request. */
  headers?: HeadersOption;
  /** The fetch to use. Default: the global `fetch`. */
  fetch?: FetchLike;
  /** A session to resume (legacy revisions): sent as `Mcp-Session-Id` from the first request. */
  sessionId?: string;
  /** The negotiated revision, when already known; see `setProtocolVersion`. */
  protocolVersion?: string;
  /** How broken SSE streams are reconnected; the server's `retry` hint takes precedence. */
  reconnect?: ReconnectOptions;
  /** Whether a legacy session opens the standalone GET stream once initialized. Default true. */
  openStandaloneStream?: boolean;
  /** Whether a refused first `initialize` falls back to the HTTP+SSE transport. Default true. */
  legacySseFallback?: boolean;
  /** How long `close` waits for the session DELETE, in milliseconds. Default 2000. */
  closeTimeoutMs?: number;
  /** Receives problems no caller waits for: bad events, a lost standalone stream. Must not throw. */
  onError?: (error: Error) => void;
}

/** SendOptions as this transport reads them. */
export interface HttpSendOptions extends SendOptions {
  /** Aborting it aborts the POST: for a 2026-07-28 request, closing its stream cancels it. */
  signal?: AbortSignal;
  /**
   * Extra headers for this message's POST, such as the `Mcp-Param-{Name}` headers a tool's
   * `x-mcp-header` annotations ask for (encode values with `encodeHeaderValue`). The
   * transport's own MCP headers take precedence.
   */
  headers?: Readonly<Record<string, string>>;
}

/**
 * StreamableHttpClientTransport is a Transport to an MCP server's HTTP endpoint.
 *
 * - `send` POSTs one message (or batch) and resolves once the server accepted it; responses
 *   and the messages that precede them arrive through the receiver, each response once even
 *   when a resumed stream replays it. An HTTP failure of a request arrives as a JSON-RPC error
 *   response for it (codes in {@link HttpErrorCode}), so the call rejects; a failed
 *   notification or response rejects the send. An unreachable server rejects the send with
 *   LocalError('NOT_CONNECTED').
 * - `close` aborts every request and stream, DELETEs the session (waiting at most
 *   `closeTimeoutMs`), and reports `closed` once. Idempotent.
 */
export interface StreamableHttpClientTransport extends Transport {
  /** The MCP endpoint. */
  readonly url: URL;
  /** The session id the server assigned (or the one resumed), if any. */
  readonly sessionId: string | undefined;
  /** The revision sent as `MCP-Protocol-Version`, if known. */
  readonly protocolVersion: string | undefined;
  /** `'sse'` once the transport has fallen back to HTTP+SSE, else `'streamable'`. */
  readonly mode: 'streamable' | 'sse';
  /** Sets the negotiated revision, sent as `MCP-Protocol-Version` on every later request. */
  setProtocolVersion(revision: string | undefined): void;
  /**
   * Aborts the POST that carries request `requestId` (all of it, for a batch) and ignores its
   * response. For 2026-07-28 this is the cancellation; legacy revisions also need
   * `notifications/cancelled`. False when the request is not in flight.
   */
  cancel(requestId: RequestId, reason?: unknown): boolean;
  /** See the interface comment. */
  send(message: Message | readonly Message[], options?: HttpSendOptions): Promise<void>;
}

/** Creates a Streamable HTTP client transport for `url`. Throws a TypeError for bad options. */
export function createStreamableHttpClientTransport(
  url: string | URL,
  options: StreamableHttpClientOptions = {},
): StreamableHttpClientTransport {
  return new StreamableHttpClient(new URL(url), options);
}

const DEFAULT_CLOSE_TIMEOUT_MS = 2000;
const ACCEPT_BOTH = 'application/json, text/event-stream';

/** One POST being handled. */
interface Post {
  readonly message: Message | readonly Message[];
  /** The message, when the POST carried one (not a batch). */
  readonly single: Message | undefined;
  readonly ids: readonly RequestId[];
  /** Whether the POST carries a 2026-07-28 request (whose stream is not resumable). */
  readonly modern: boolean;
  /** The session id the POST carried. */
  readonly session: string | undefined;
  readonly controller: AbortController;
  /** Detaches the caller's abort signal. */
  readonly unlink: () => void;
}

class StreamableHttpClient implements StreamableHttpClientTransport {
  readonly url: URL;
  readonly #options: StreamableHttpClientOptions;
  readonly #fetch: FetchLike;
  readonly #closeTimeoutMs: number;
  readonly #host: StreamHost;
  readonly #inbox = new Inbox();
  readonly #ledger = new Ledger((message) => {
    this.#observe(message);
    this.#inbox.deliver(message);
  });
  /** Ids of `initialize` requests awaiting their result. */
  readonly #initializing = new Set<RequestId>();
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  /** Every POST and stream in flight, aborted by close. */
  readonly #controllers = new Set<AbortController>();
  #standalone: AbortController | undefined;
  /** A POST succeeded: the server speaks Streamable HTTP, so no fallback. */
  #confirmed = false;
  /** The HTTP+SSE transport while it connects, and the outcome of its start. */
  #fallback: { transport: SseClientTransport; ready: Promise<boolean> } | undefined;
  #sse: SseClientTransport | undefined;
  #closing: Promise<void> | undefined;
  #closed = false;

  constructor(url: URL, options: StreamableHttpClientOptions) {
    this.url = url;
    this.#options = options;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.#sessionId = options.sessionId;
    this.#protocolVersion = options.protocolVersion;
    this.#closeTimeoutMs = options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
    if (!Number.isFinite(this.#closeTimeoutMs) || this.#closeTimeoutMs < 0) {
      throw new TypeError(
        `closeTimeoutMs must be a non-negative number, got ${String(this.#closeTimeoutMs)}`,
      );
    }
    this.#host = {
      policy: reconnectPolicy(options.reconnect),
      open: (lastEventId, signal) => this.#get(lastEventId, signal),
      expired: (response, text) => this.#expired(this.#sessionId, response, text)?.toWire(),
      receive: (message) => {
        this.#ledger.receive(message);
      },
      report: (error) => {
        this.#report(error);
      },
    };
  }

  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  get mode(): 'streamable' | 'sse' {
    return this.#sse === undefined ? 'streamable' : 'sse';
  }

  setProtocolVersion(revision: string | undefined): void {
    this.#protocolVersion = revision;
  }

  start(receiver: Receiver): Promise<void> {
    try {
      this.#inbox.start(receiver);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    this.#openStandalone();
    return Promise.resolve();
  }

  async send(message: Message | readonly Message[], options: HttpSendOptions = {}): Promise<void> {
    if (this.#closed) throw closedError();
    if (this.#fallback !== undefined) await this.#fallback.ready;
    if (this.#sse !== undefined) {
      await this.#sse.send(message);
      return;
    }
    await this.#post(message, options);
  }

  cancel(requestId: RequestId, reason?: unknown): boolean {
    const owner = this.#ledger.owner(requestId);
    if (owner === undefined) return false;
    this.#ledger.abandon(
      owner,
      reason ?? new LocalError(LocalErrorCode.ConnectionClosed, 'request cancelled'),
    );
    return true;
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown(undefined);
    return this.#closing;
  }

  // ---- POST (Spec 2025-11-25 basic/transports#sending-messages-to-the-server)

  async #post(message: Message | readonly Message[], options: HttpSendOptions): Promise<void> {
    const single = Array.isArray(message) ? undefined : (message as Message);
    const ids = requestIdsOf(message);
    const modern = single !== undefined && modernRevisionOf(single) !== undefined;
    // A new session starts without an id; 2026-07-28 has no sessions.
    const session = isInitialize(single) || modern ? undefined : this.#sessionId;
    const controller = new AbortController();
    this.#controllers.add(controller);
    this.#ledger.track(ids, controller);
    if (isInitialize(single)) this.#initializing.add(single.id);
    const unlink = linkSignal(options.signal, (reason) => {
      this.#ledger.abandon(controller, reason);
    });
    const post: Post = { message, single, ids, modern, session, controller, unlink };
    let handedOver = false;
    try {
      const response = await this.#postRequest(post, options.headers);
      handedOver = await this.#accept(post, response);
    } finally {
      if (!handedOver) this.#finish(post);
    }
  }

  async #postRequest(post: Post, extra: HttpSendOptions['headers']): Promise<Response> {
    const { signal } = post.controller;
    let headers: Headers;
    try {
      headers = await customHeaders(this.#options.headers);
      for (const [name, value] of Object.entries(extra ?? {})) headers.set(name, value);
      setMcpHeaders(headers, {
        accept: ACCEPT_BOTH,
        sessionId: post.session,
        protocolVersion: isInitialize(post.single) ? undefined : this.#protocolVersion,
        message: post.message,
      });
    } catch (error) {
      // The headers option failed, or a header is not a valid header: nothing was sent.
      this.#ledger.release(post.ids);
      throw error;
    }
    try {
      const body = encode(post.message);
      return await this.#fetch(this.url.href, { method: 'POST', headers, body, signal });
    } catch (error) {
      if (this.#closed) throw closedError();
      // An aborted POST rejects with the abort's own reason (AbortSignal contract).
      if (signal.aborted) throw signal.reason;
      this.#ledger.release(post.ids);
      throw unreachable(this.url.href, error);
    }
  }

  /** Handles the response to a POST; true when a background reader now owns the POST. */
  async #accept(post: Post, response: Response): Promise<boolean> {
    if (!response.ok) {
      await this.#refused(post, response);
      return false;
    }
    this.#confirmed = true;
    if (isInitialize(post.single)) this.#adoptSession(response);
    // 202 to a request: its response will come on another stream.
    if (post.ids.length === 0 || response.status === 202) {
      await discardBody(response);
      if (isInitialized(post.single)) this.#openStandalone();
      return false;
    }
    if (isEventStream(response) && response.body !== null) {
      const { controller, ids } = post;
      void followPostStream(this.#host, {
        body: response.body,
        signal: controller.signal,
        resumable: !post.modern,
        answered: () => this.#ledger.settled(ids, controller),
        fail: (error) => {
          this.#ledger.fail(ids, controller, error);
        },
      }).finally(() => {
        this.#finish(post);
      });
      return true;
    }
    if (isJson(response)) {
      await this.#readJson(post, response);
      return false;
    }
    await discardBody(response);
    const type = mediaTypeOf(response) ?? '(none)';
    this.#ledger.fail(post.ids, post.controller, {
      code: HttpErrorCode.HttpStatus,
      message: `unexpected content type ${type} in the response (${statusLine(response)})`,
      data: { status: response.status },
    });
    return false;
  }

  async #readJson(post: Post, response: Response): Promise<void> {
    let text: string;
    try {
      text = await response.text();
    } catch {
      if (post.controller.signal.aborted) return;
      this.#ledger.fail(post.ids, post.controller, {
        code: HttpErrorCode.StreamEnded,
        message: 'the response body was cut short',
      });
      return;
    }
    const report = (error: Error): void => {
      this.#report(error);
    };
    for (const message of messagesIn(text, report)) this.#ledger.receive(message);
    this.#ledger.fail(post.ids, post.controller, {
      code: HttpErrorCode.HttpStatus,
      message: `the response body (${statusLine(response)}) held no response to this request`,
      data: { status: response.status, body: text.slice(0, 4096) },
    });
  }

  async #refused(post: Post, response: Response): Promise<void> {
    const text = await readBodyText(response);
    if (this.#shouldFallBack(post, response, text)) {
      await this.#fallBack(post, response, text);
      return;
    }
    const expired =
      response.status === 404 ? this.#expired(post.session, response, text) : undefined;
    if (expired !== undefined) {
      if (post.ids.length === 0) throw expired;
      this.#ledger.fail(post.ids, post.controller, expired.toWire());
      return;
    }
    const { responses, error } = refusedPost(response, text, post.ids);
    if (post.ids.length === 0) throw error;
    for (const reply of responses) this.#ledger.receive(reply);
  }

  /** The session-expired error when `session` was sent, forgetting that session; else undefined. */
  #expired(
    session: string | undefined,
    response: Response,
    text: string,
  ): JsonRpcError | undefined {
    if (session === undefined) return undefined;
    if (this.#sessionId === session) {
      this.#sessionId = undefined;
      this.#stopStandalone();
    }
    return sessionExpired(response, text);
  }

  /** A POST is over (its stream too): close no longer needs to abort it. */
  #finish(post: Post): void {
    post.unlink();
    this.#controllers.delete(post.controller);
  }

  // ---- fallback to HTTP+SSE (Spec 2025-11-25 basic/transports#backwards-compatibility)

  #shouldFallBack(post: Post, response: Response, text: string): boolean {
    return (
      this.#options.legacySseFallback !== false &&
      !this.#confirmed &&
      isInitialize(post.single) &&
      [400, 404, 405].includes(response.status) &&
      jsonRpcErrorsIn(text) === undefined
    );
  }

  /** Connects the HTTP+SSE transport and sends `initialize` again over it. */
  async #fallBack(post: Post, response: Response, text: string): Promise<void> {
    const { headers, fetch, onError } = this.#options;
    const sse = createSseClientTransport(this.url, {
      ...(headers === undefined ? {} : { headers }),
      ...(fetch === undefined ? {} : { fetch }),
      ...(onError === undefined ? {} : { onError }),
    });
    let failure = 'transport closed';
    const receiver: Receiver = {
      message: (message) => {
        this.#inbox.deliver(message);
      },
      closed: (error) => {
        // The HTTP+SSE stream ended on its own: so does this transport.
        if (this.#sse === sse) this.#closing ??= this.#shutdown(error);
      },
    };
    const ready = sse.start(receiver).then(
      () => true,
      (error: unknown) => {
        failure = error instanceof Error ? error.message : String(error);
        return false;
      },
    );
    this.#fallback = { transport: sse, ready };
    const connected = await ready;
    this.#fallback = undefined;
    if (!connected || this.#closed) {
      await sse.close();
      for (const reply of refusedPost(response, text, post.ids).responses) {
        const data = { ...(reply.error.data as object), fallback: failure };
        this.#ledger.receive({ ...reply, error: { ...reply.error, data } });
      }
      return;
    }
    this.#sse = sse;
    this.#ledger.release(post.ids);
    await sse.send(post.message);
  }

  // ---- GET streams and sessions

  async #get(lastEventId: string | undefined, signal: AbortSignal): Promise<Response> {
    const headers = setMcpHeaders(await customHeaders(this.#options.headers), {
      accept: 'text/event-stream',
      sessionId: this.#sessionId,
      protocolVersion: this.#protocolVersion,
      lastEventId,
    });
    return this.#fetch(this.url.href, { method: 'GET', headers, signal });
  }

  /**
   * Learns the negotiated revision from the result of `initialize`, before the client sees it:
   * `notifications/initialized` and the standalone GET must already carry MCP-Protocol-Version
   * (Spec 2025-11-25 basic/transports#protocol-version-header).
   */
  #observe(message: Message): void {
    if ('method' in message || message.id === null || !this.#initializing.delete(message.id)) {
      return;
    }
    if (!('result' in message)) return;
    const { result } = message;
    const revision: unknown =
      typeof result === 'object' && result !== null
        ? (result as Record<string, unknown>)['protocolVersion']
        : undefined;
    if (typeof revision === 'string' && /^[\x21-\x7e]+$/.test(revision)) {
      this.#protocolVersion = revision;
    }
  }

  /** Takes the session id of an `initialize` response (Spec 2025-11-25 #session-management). */
  #adoptSession(response: Response): void {
    const header = response.headers.get(HeaderName.SessionId);
    let next: string | undefined;
    if (header !== null && header !== '') {
      // Visible ASCII only (the spec's rule); anything else could not be sent back anyway.
      if (/^[\x21-\x7e]+$/.test(header)) next = header;
      else this.#report(new LocalError(LocalErrorCode.ProtocolViolation, 'invalid Mcp-Session-Id'));
    }
    if (next === this.#sessionId) return;
    this.#stopStandalone();
    this.#sessionId = next;
  }

  /** Opens the standalone GET stream of a legacy session, unless it is open or unwanted. */
  #openStandalone(): void {
    if (
      this.#closed ||
      !this.#inbox.started ||
      this.#standalone !== undefined ||
      this.#sessionId === undefined ||
      this.#options.openStandaloneStream === false
    ) {
      return;
    }
    const controller = new AbortController();
    this.#standalone = controller;
    this.#controllers.add(controller);
    void runStandaloneStream(this.#host, controller.signal).finally(() => {
      this.#controllers.delete(controller);
      if (this.#standalone === controller) this.#standalone = undefined;
    });
  }

  #stopStandalone(): void {
    this.#standalone?.abort(closedError());
    this.#standalone = undefined;
  }

  #report(error: Error): void {
    try {
      this.#options.onError?.(error);
    } catch {
      // onError must not throw; if it does, there is nobody left to tell.
    }
  }

  // ---- close

  async #shutdown(error: Error | undefined): Promise<void> {
    this.#closed = true;
    const session = this.#sse === undefined ? this.#sessionId : undefined;
    for (const controller of this.#controllers) controller.abort(closedError());
    this.#controllers.clear();
    this.#ledger.clear();
    this.#standalone = undefined;
    const tasks: Promise<unknown>[] = [];
    const delegate = this.#sse ?? this.#fallback?.transport;
    if (delegate !== undefined) tasks.push(delegate.close());
    if (session !== undefined) tasks.push(this.#terminate(session));
    await Promise.allSettled(tasks);
    this.#inbox.closed(error);
  }

  async #terminate(session: string): Promise<void> {
    try {
      const headers = setMcpHeaders(await customHeaders(this.#options.headers), {
        sessionId: session,
        protocolVersion: this.#protocolVersion,
      });
      const timeoutMs = this.#closeTimeoutMs;
      const problem = await deleteSession(this.#fetch, this.url.href, { headers, timeoutMs });
      if (problem !== undefined) this.#report(problem);
    } catch (error) {
      this.#report(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
