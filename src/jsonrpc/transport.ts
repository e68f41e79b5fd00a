// The only I/O seam of mcpkit: a Transport carries JSON-RPC messages to and from one peer.
import type { BatchItem } from './codec.js';
import type { Message, RequestId } from './message.js';

/**
 * MessageInfo is what a transport knows about an incoming message beyond its content, for
 * example the HTTP headers it arrived with. Transports fill what they have; all is optional.
 */
export interface MessageInfo {
  /** Request headers, lower-case names (HTTP transports). */
  headers?: Readonly<Record<string, string>>;
  /** Authentication information a transport or middleware attached. */
  auth?: unknown;
  /**
   * Ends the response stream carrying this request's messages without ending the request: the
   * client reconnects and resumes (Streamable HTTP with an event store). Absent when the
   * transport cannot do that.
   */
  closeSseStream?: () => void;
  /**
   * Called when this request will get no response (it was cancelled: the spec's receivers do
   * not answer a cancelled request), so that a transport holding something open for the
   * response (an HTTP POST waiting for it) can end it. Absent when nothing waits.
   */
  unanswered?: () => void;
  /**
   * The id of the request of ours whose response stream carried this message (a Streamable
   * HTTP client's POST stream): what a server sent in the course of that request. Absent where
   * the transport cannot tell (stdio, standalone streams).
   */
  relatedRequestId?: RequestId;
}

/** Options for {@link Transport.send}. */
export interface SendOptions {
  /**
   * The incoming request this message belongs to (a response's own id needs no hint). Transports
   * that route per request (Streamable HTTP) send it on that request's stream.
   */
  relatedRequestId?: RequestId;
  /**
   * For an outgoing request: aborted when its sender gives up on it, as {@link Transport.cancel}
   * (a Connection calls that instead, which costs no AbortSignal per request).
   */
  signal?: AbortSignal;
  /** Extra transport headers for this message (HTTP `Mcp-Param-*`); others ignore them. */
  headers?: Readonly<Record<string, string>>;
}

/** Receiver is the consumer a Transport delivers to. */
export interface Receiver {
  /** Delivers one incoming message, in arrival order. Must not throw. */
  message(message: Message, info?: MessageInfo): void;
  /**
   * Delivers a batch (a JSON array), when the transport received one; invalid elements come
   * as their ready error responses. Without this method the transport refuses batches.
   * Must not throw.
   */
  batch?(items: readonly BatchItem[], info?: MessageInfo): void;
  /** Reports that the transport closed; called exactly once, with the cause if it failed. */
  closed(error?: Error): void;
}

/**
 * Transport carries JSON-RPC messages to and from one peer. It knows nothing about MCP.
 *
 * Contract: `start` is called exactly once; messages that arrive earlier are buffered and
 * delivered after it. `send` is safe to call concurrently and preserves call order; after
 * close it rejects with LocalError('CONNECTION_CLOSED'). `close` is idempotent and causes
 * `receiver.closed()` to be called exactly once.
 */
export interface Transport {
  /** Begins delivery to `receiver`. */
  start(receiver: Receiver): Promise<void>;
  /** Sends one message, or a batch as one array. */
  send(message: Message | readonly Message[], options?: SendOptions): Promise<void>;
  /** Closes the transport. */
  close(): Promise<void>;
  /**
   * Optional: the sender gave up on outgoing request `requestId` (abort, timeout, close) before
   * its response. A transport with a stream per request (Streamable HTTP) closes the one that
   * carries it, which is how 2026-07-28 cancels, and drops its response. A wrapping transport
   * passes it on. False when the request is not in flight. Must not throw.
   */
  cancel?(requestId: RequestId, reason?: unknown): boolean;
}
