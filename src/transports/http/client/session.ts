// The session side of the Streamable HTTP client: the Mcp-Session-Id the server assigned, the
// negotiated revision sent as MCP-Protocol-Version, the GET that opens or resumes an SSE stream,
// the standalone GET stream of a legacy session, and the DELETE that ends the session.
// Spec 2025-11-25 basic/transports#session-management, #protocol-version-header,
// #listening-for-messages-from-the-server.
import type { JsonRpcError } from '../../../jsonrpc/errors.js';
import { LocalError, LocalErrorCode } from '../../../jsonrpc/errors.js';
import type { Message, RequestId } from '../../../jsonrpc/message.js';
import type { MessageInfo } from '../../../jsonrpc/transport.js';
import { HeaderName, setMcpHeaders } from './headers.js';
import type { FetchLike, HeadersOption, ReconnectOptions } from './http.js';
import {
  closedError,
  customHeaders,
  deleteSession,
  reconnectPolicy,
  sessionExpired,
} from './http.js';
import type { LiveSet } from '../../../internal/live-set.js';
import type { Carrier } from './ledger.js';
import type { StreamHost } from './streams.js';
import { runStandaloneStream } from './streams.js';

/** The options of the transport that the session reads; `headers` is read at each request. */
export interface SessionOptions {
  /** Headers added to every request; a function is called per request. */
  readonly headers?: HeadersOption | undefined;
  /** A session to resume, sent as `Mcp-Session-Id` from the first request. */
  readonly sessionId?: string | undefined;
  /** The negotiated revision, when already known. */
  readonly protocolVersion?: string | undefined;
  /** How broken SSE streams are reconnected. */
  readonly reconnect?: ReconnectOptions | undefined;
  /** Whether a legacy session opens the standalone GET stream. Default true. */
  readonly openStandaloneStream?: boolean | undefined;
}

/** What the session needs from the transport that owns it. */
export interface SessionHost {
  /** The MCP endpoint. */
  readonly url: URL;
  /** The fetch every GET and DELETE goes through. */
  readonly fetch: FetchLike;
  readonly options: SessionOptions;
  /** How long the session DELETE may take, in milliseconds. */
  readonly closeTimeoutMs: number;
  /** Every POST and stream in flight, aborted by close; the standalone stream joins it. */
  readonly controllers: LiveSet<Carrier>;
  /** Delivers one message read from an SSE stream, with what is known of that stream. */
  receive(message: Message, info?: MessageInfo): void;
  /** Reports a problem no caller is waiting for. Must not throw. */
  report(error: Error): void;
}

/**
 * ClientSession is the session state of one Streamable HTTP client transport, and the
 * {@link StreamHost} its SSE streams read through. Not shared between transports. Throws a
 * TypeError at construction for bad `reconnect` options.
 */
export class ClientSession {
  /** The host of the POST response streams and the standalone GET stream. */
  readonly streams: StreamHost;
  readonly #host: SessionHost;
  /** Ids of `initialize` requests awaiting their result. */
  readonly #initializing = new Set<RequestId>();
  #id: string | undefined;
  #protocolVersion: string | undefined;
  #standalone: AbortController | undefined;

  constructor(host: SessionHost) {
    this.#host = host;
    this.#id = host.options.sessionId;
    this.#protocolVersion = host.options.protocolVersion;
    this.streams = {
      policy: reconnectPolicy(host.options.reconnect),
      open: (lastEventId, signal) => this.#get(lastEventId, signal),
      expired: (response, text) => this.expired(this.#id, response, text)?.toWire(),
      receive: (message, info) => {
        host.receive(message, info);
      },
      report: (error) => {
        host.report(error);
      },
    };
  }

  /** The session id the server assigned (or the one resumed), if any. */
  get id(): string | undefined {
    return this.#id;
  }

  /** The revision sent as `MCP-Protocol-Version`, if known. */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  set protocolVersion(revision: string | undefined) {
    this.#protocolVersion = revision;
  }

  /** Records that request `id` is an `initialize` whose result {@link observe} must read. */
  awaitInitialize(id: RequestId): void {
    this.#initializing.add(id);
  }

  /**
   * Learns the negotiated revision from the result of `initialize`, before the client sees it:
   * `notifications/initialized` and the standalone GET must already carry MCP-Protocol-Version
   * (Spec 2025-11-25 basic/transports#protocol-version-header).
   */
  observe(message: Message): void {
    // Most responses answer no initialize: no lookup then (one per response of every call).
    const initializing = this.#initializing;
    if ('method' in message || message.id === null || initializing.size === 0) return;
    if (!initializing.delete(message.id)) return;
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
  adopt(response: Response): void {
    const header = response.headers.get(HeaderName.SessionId);
    let next: string | undefined;
    if (header !== null && header !== '') {
      // Visible ASCII only (the spec's rule); anything else could not be sent back anyway.
      if (/^[\x21-\x7e]+$/.test(header)) next = header;
      else {
        this.#host.report(
          new LocalError(LocalErrorCode.ProtocolViolation, 'invalid Mcp-Session-Id'),
        );
      }
    }
    if (next === this.#id) return;
    this.stopStandalone();
    this.#id = next;
  }

  /** The session-expired error when `session` was sent, forgetting that session; else undefined. */
  expired(session: string | undefined, response: Response, text: string): JsonRpcError | undefined {
    if (session === undefined) return undefined;
    if (this.#id === session) {
      this.#id = undefined;
      this.stopStandalone();
    }
    return sessionExpired(response, text);
  }

  /**
   * Opens the standalone GET stream of a legacy session, unless it is open or unwanted. The
   * caller checks that the transport is started and not closed.
   */
  openStandalone(): void {
    if (
      this.#standalone !== undefined ||
      this.#id === undefined ||
      this.#host.options.openStandaloneStream === false
    ) {
      return;
    }
    const controller = new AbortController();
    const { controllers } = this.#host;
    this.#standalone = controller;
    const entry = controllers.add(controller);
    void runStandaloneStream(this.streams, controller.signal).finally(() => {
      controllers.delete(entry);
      if (this.#standalone === controller) this.#standalone = undefined;
    });
  }

  /** Aborts the standalone GET stream, if open. Idempotent. */
  stopStandalone(): void {
    this.#standalone?.abort(closedError());
    this.#standalone = undefined;
  }

  /** DELETEs `session`, waiting at most `closeTimeoutMs`; reports problems, never throws. */
  async terminate(session: string): Promise<void> {
    const { url, options, closeTimeoutMs } = this.#host;
    try {
      const headers = setMcpHeaders(await customHeaders(options.headers), {
        sessionId: session,
        protocolVersion: this.#protocolVersion,
      });
      const timeoutMs = closeTimeoutMs;
      const problem = await deleteSession(this.#host.fetch, url.href, { headers, timeoutMs });
      if (problem !== undefined) this.#host.report(problem);
    } catch (error) {
      this.#host.report(error instanceof Error ? error : new Error(String(error)));
    }
  }

  async #get(lastEventId: string | undefined, signal: AbortSignal): Promise<Response> {
    const headers = setMcpHeaders(await customHeaders(this.#host.options.headers), {
      accept: 'text/event-stream',
      sessionId: this.#id,
      protocolVersion: this.#protocolVersion,
      lastEventId,
    });
    return this.#host.fetch(this.#host.url.href, { method: 'GET', headers, signal });
  }
}
