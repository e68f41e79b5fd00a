// The Streamable HTTP client transport over fetch: every message is a POST to the MCP endpoint,
// answered by JSON, an SSE stream (resumed by GET with Last-Event-ID when it breaks before the
// response) or 202. Legacy sessions get the Mcp-Session-Id header, the standalone GET stream and
// a DELETE on close; 2026-07-28 requests get the standard headers. A server that refuses the
// first `initialize` is retried with the deprecated HTTP+SSE transport.
// Spec 2025-11-25 basic/transports#streamable-http; 2026-07-28 basic/transports/streamable-http.
// This file holds the public face, the lifecycle and the fallback; POSTs are in client-post.ts,
// session state and the standalone GET stream in client-session.ts, SSE reading in client-streams.ts.
import { messageOf } from '../../../internal/message-of.js';
import { LocalError, LocalErrorCode } from '../../../jsonrpc/errors.js';
import type { Message, RequestId } from '../../../jsonrpc/message.js';
import type { Receiver, Transport } from '../../../jsonrpc/transport.js';
import type { FetchLike, HeadersOption, ReconnectOptions } from './http.js';
import {
  closedError,
  followsCancellation,
  isInitialize,
  jsonRpcErrorsIn,
  refusedPost,
} from './http.js';
import type { HttpAuthorizer } from '../../../protocol/auth.js';
import type { ProtocolRevision } from '../../../protocol/version.js';
import { eraOf } from '../../../protocol/version.js';
import { withAuthorizer } from './authorized.js';
import { Inbox } from '../../../jsonrpc/inbox.js';
import { LiveSet } from '../../../internal/live-set.js';
import type { Carrier } from './ledger.js';
import { Ledger } from './ledger.js';
import type { HttpSendOptions, Post, PostHost } from './post.js';
import { sendPost } from './post.js';
import { ClientSession } from './session.js';
import type { SseClientTransport } from './legacy-sse.js';
import type { AnswerLimits } from './answers.js';
import { AnswerLimiter } from './answers.js';
import { createSseClientTransport } from './legacy-sse.js';

export type { HttpSendOptions } from './post.js';

/** Options for {@link createStreamableHttpClientTransport}. Every field is optional. */
export interface StreamableHttpClientOptions {
  /** Headers added to every request (authorization, say); a function is called per request. */
  headers?: HeadersOption;
  /** The fetch to use. Default: the global `fetch`. */
  fetch?: FetchLike;
  /**
   * Authorizes every request and handles 401/403 refusals: the OAuth client of `mcpkit/client`
   * (`createOAuthClient`), or any {@link HttpAuthorizer}. Default: none (a refusal fails).
   */
  auth?: HttpAuthorizer;
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
  /**
   * Bounds on answering the server's requests (each answer is a POST): at most `concurrency`
   * in flight (default 16) and `queue` waiting (default 1 000); an answer beyond that is dropped
   * and its send rejects. A server that floods the client with requests cannot make it open
   * thousands of connections.
   */
  answers?: Partial<AnswerLimits>;
  /** Receives problems no caller waits for: bad events, a lost standalone stream. Must not throw. */
  onError?: (error: Error) => void;
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

class StreamableHttpClient implements StreamableHttpClientTransport {
  readonly url: URL;
  readonly #options: StreamableHttpClientOptions;
  readonly #session: ClientSession;
  readonly #posts: PostHost;
  readonly #answers: AnswerLimiter;
  readonly #inbox = new Inbox();
  readonly #ledger = new Ledger((message, info) => {
    this.#session.observe(message);
    this.#inbox.message(message, info);
  });
  /** Every POST and stream in flight, aborted by close. */
  readonly #controllers = new LiveSet<Carrier>();
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
    const fetchFn = withAuthorizer(options.fetch, options.auth);
    const closeTimeoutMs = options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
    if (!Number.isFinite(closeTimeoutMs) || closeTimeoutMs < 0) {
      throw new TypeError(
        `closeTimeoutMs must be a non-negative number, got ${String(closeTimeoutMs)}`,
      );
    }
    const report = (error: Error): void => {
      this.#report(error);
    };
    this.#session = new ClientSession({
      url,
      fetch: fetchFn,
      options,
      closeTimeoutMs,
      controllers: this.#controllers,
      receive: (message, info) => {
        this.#ledger.receive(message, info);
      },
      report,
    });
    this.#answers = new AnswerLimiter({
      concurrency: options.answers?.concurrency ?? 16,
      queue: options.answers?.queue ?? 1000,
    });
    this.#posts = {
      url,
      fetch: fetchFn,
      followsCancellation: followsCancellation(fetchFn),
      options,
      ledger: this.#ledger,
      session: this.#session,
      controllers: this.#controllers,
      closed: () => this.#closed,
      confirm: () => {
        this.#confirmed = true;
      },
      openStandalone: () => {
        this.#openStandalone();
      },
      report,
      shouldFallBack: (post, response, text) => this.#shouldFallBack(post, response, text),
      fallBack: (post, response, text) => this.#fallBack(post, response, text),
    };
  }

  get sessionId(): string | undefined {
    return this.#session.id;
  }

  get protocolVersion(): string | undefined {
    return this.#session.protocolVersion;
  }

  get mode(): 'streamable' | 'sse' {
    return this.#sse === undefined ? 'streamable' : 'sse';
  }

  setProtocolVersion(revision: string | undefined): void {
    this.#session.protocolVersion = revision;
  }

  start(receiver: Receiver): Promise<void> {
    if (this.#inbox.started) return this.#inbox.start(receiver); // rejects: started once only
    const started = this.#inbox.start(receiver);
    this.#openStandalone();
    return started;
  }

  send(message: Message | readonly Message[], options: HttpSendOptions = {}): Promise<void> {
    if (this.#closed) return Promise.reject(closedError());
    // While the HTTP+SSE fallback connects, and after: a turn later (no async frame otherwise).
    if (this.#fallback !== undefined || this.#sse !== undefined) {
      return this.#sendAfterFallback(message, options);
    }
    return this.#post(message, options);
  }

  /** Sends `message` by POST (the notice of a 2026-07-28 cancellation closes a stream instead). */
  #post(message: Message | readonly Message[], options: HttpSendOptions): Promise<void> {
    try {
      if (this.#cancelsByClosing(message)) return Promise.resolve();
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return Promise.reject(error);
    }
    if (!Array.isArray(message) && !('method' in (message as Message))) {
      // An answer to a server's request: the server sets the pace, so it is bounded.
      return this.#answers.run(() => sendPost(this.#posts, message, options));
    }
    return sendPost(this.#posts, message, options);
  }

  async #sendAfterFallback(
    message: Message | readonly Message[],
    options: HttpSendOptions,
  ): Promise<void> {
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

  /**
   * 2026-07-28 over HTTP, closing a request's response stream is its cancellation, and no
   * `notifications/cancelled` is expected (basic/patterns/cancellation): such a notice closes
   * the POST carrying the request, if it still runs, and is not sent. True when it was one.
   */
  #cancelsByClosing(message: Message | readonly Message[]): boolean {
    if (Array.isArray(message)) return false;
    const single = message as Message;
    if (!('method' in single) || 'id' in single || single.method !== 'notifications/cancelled') {
      return false;
    }
    const revision = this.#session.protocolVersion;
    if (revision === undefined || eraOf(revision as ProtocolRevision) !== 'modern') return false;
    const params = single.params as Record<string, unknown> | undefined;
    const id = params?.['requestId'];
    if (typeof id === 'string' || typeof id === 'number') this.cancel(id);
    return true;
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown(undefined);
    return this.#closing;
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
    const { headers, fetch, auth, onError } = this.#options;
    const sse = createSseClientTransport(this.url, {
      ...(headers === undefined ? {} : { headers }),
      ...(fetch === undefined ? {} : { fetch }),
      ...(auth === undefined ? {} : { auth }),
      ...(onError === undefined ? {} : { onError }),
    });
    let failure = 'transport closed';
    const receiver: Receiver = {
      message: (message) => {
        this.#inbox.message(message);
      },
      closed: (error) => {
        // The HTTP+SSE stream ended on its own: so does this transport.
        if (this.#sse === sse) this.#closing ??= this.#shutdown(error);
      },
    };
    const ready = sse.start(receiver).then(
      () => true,
      (error: unknown) => {
        failure = messageOf(error);
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

  /** Opens the standalone GET stream of a legacy session, unless it is open or unwanted. */
  #openStandalone(): void {
    if (this.#closed || !this.#inbox.started) return;
    this.#session.openStandalone();
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
    const session = this.#sse === undefined ? this.#session.id : undefined;
    for (const controller of this.#controllers.clear()) controller.abort(closedError());
    this.#ledger.clear();
    this.#session.stopStandalone();
    const tasks: Promise<unknown>[] = [];
    const delegate = this.#sse ?? this.#fallback?.transport;
    if (delegate !== undefined) tasks.push(delegate.close());
    if (session !== undefined) tasks.push(this.#session.terminate(session));
    await Promise.allSettled(tasks);
    this.#inbox.close(error);
  }
}
