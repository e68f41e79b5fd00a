// The client side of the deprecated HTTP+SSE transport of 2024-11-05: one long GET whose SSE
// stream first names the endpoint (an `endpoint` event), then carries every server message as
// `message` events; the client POSTs its messages to that endpoint. The Streamable HTTP client
// falls back to it for servers that predate Streamable HTTP.
// Spec 2024-11-05 basic/transports#http-with-sse; 2025-11-25 basic/transports#backwards-compatibility.
import { encode } from '../../../jsonrpc/codec.js';
import { JsonRpcError, LocalError, LocalErrorCode } from '../../../jsonrpc/errors.js';
import type { Message } from '../../../jsonrpc/message.js';
import type { Receiver, Transport } from '../../../jsonrpc/transport.js';
import { isMessageEvent, messagesIn, readEventStream } from './events.js';
import type { FetchLike, HeadersOption } from './http.js';
import {
  closedError,
  customHeaders,
  discardBody,
  HttpErrorCode,
  httpErrorData,
  isEventStream,
  mediaTypeOf,
  readBodyText,
  refusedPost,
  requestIdsOf,
  statusLine,
  unreachable,
} from './http.js';
import { Inbox } from '../../../jsonrpc/inbox.js';
import { newCursor } from './streams.js';
import type { HttpAuthorizer } from '../../../protocol/auth.js';
import { withAuthorizer } from './authorized.js';

/** Options for {@link createSseClientTransport}. Every field is optional. */
export interface SseClientOptions {
  /** Headers added to every request (authorization, say); a function is called per request. */
  headers?: HeadersOption;
  /** The fetch to use. Default: the global `fetch`. */
  fetch?: FetchLike;
  /** Authorizes every request and handles refusals; see the Streamable HTTP transport's `auth`. */
  auth?: HttpAuthorizer;
  /** How long `start` waits for the stream and its `endpoint` event, in milliseconds. Default 10000. */
  connectTimeoutMs?: number;
  /** Receives problems no caller waits for (an event that is not JSON-RPC). Must not throw. */
  onError?: (error: Error) => void;
}

/**
 * SseClientTransport is a Transport to a server speaking the 2024-11-05 HTTP+SSE transport.
 *
 * - `start` opens the SSE stream and resolves once the `endpoint` event has named where to
 *   POST; it rejects when the GET fails (an HTTP error rejects with a JsonRpcError whose data
 *   is HttpErrorData), when the endpoint is not on the URL's origin, or after
 *   `connectTimeoutMs`. A failed start reports no close.
 * - `send` POSTs one message to the endpoint; responses arrive on the stream. HTTP failures are
 *   handled as by the Streamable HTTP transport (a request gets an error response).
 * - When the server ends the stream, the transport closes with LocalError('CONNECTION_CLOSED').
 * - `close` aborts the stream and every POST, and reports `closed` once. Idempotent.
 */
export interface SseClientTransport extends Transport {
  /** The URL of the SSE stream. */
  readonly url: URL;
  /** Where messages are POSTed, once the server has said. */
  readonly endpoint: URL | undefined;
}

/** Creates an HTTP+SSE client transport for the SSE stream at `url`. */
export function createSseClientTransport(
  url: string | URL,
  options: SseClientOptions = {},
): SseClientTransport {
  return new SseClient(new URL(url), options);
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

interface EndpointWaiter {
  resolve(endpoint: URL): void;
  reject(error: Error): void;
}

class SseClient implements SseClientTransport {
  readonly url: URL;
  readonly #options: SseClientOptions;
  readonly #fetch: FetchLike;
  readonly #inbox = new Inbox();
  readonly #controllers = new Set<AbortController>();
  #endpoint: URL | undefined;
  #waiter: EndpointWaiter | undefined;
  #started = false;
  #closing: Promise<void> | undefined;
  #closed = false;

  constructor(url: URL, options: SseClientOptions) {
    this.url = url;
    this.#options = options;
    this.#fetch = withAuthorizer(options.fetch, options.auth);
  }

  get endpoint(): URL | undefined {
    return this.#endpoint;
  }

  async start(receiver: Receiver): Promise<void> {
    if (this.#started) {
      throw new LocalError(LocalErrorCode.AlreadyStarted, 'transport already started');
    }
    this.#started = true;
    if (this.#closed) throw closedError();
    const controller = new AbortController();
    this.#controllers.add(controller);
    const timeoutMs = this.#options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const timer = setTimeout(() => {
      controller.abort(
        new LocalError(
          LocalErrorCode.RequestTimeout,
          `no endpoint event from ${this.url.href} within ${timeoutMs} ms`,
        ),
      );
    }, timeoutMs);
    try {
      const body = await this.#open(controller.signal);
      this.#endpoint = await this.#waitForEndpoint(body, controller.signal);
    } catch (error) {
      controller.abort(error);
      this.#controllers.delete(controller);
      throw this.#hasClosed() ? closedError() : error;
    } finally {
      clearTimeout(timer);
    }
    // Messages that came with the endpoint were buffered; the receiver gets them now.
    await this.#inbox.start(receiver);
  }

  async #open(signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
    let response: Response;
    try {
      const headers = await customHeaders(this.#options.headers);
      headers['accept'] = 'text/event-stream';
      response = await this.#fetch(this.url.href, { method: 'GET', headers, signal });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw unreachable(this.url.href, error);
    }
    if (!response.ok) {
      const text = await readBodyText(response);
      throw new JsonRpcError(
        HttpErrorCode.HttpStatus,
        `cannot open the SSE stream: ${statusLine(response)}`,
        httpErrorData(response, text),
      );
    }
    if (!isEventStream(response) || response.body === null) {
      await discardBody(response);
      throw new LocalError(
        LocalErrorCode.ProtocolViolation,
        `expected an SSE stream from ${this.url.href}, got ${mediaTypeOf(response) ?? 'no content type'}`,
      );
    }
    return response.body;
  }

  /** Reads the stream in the background; resolves with the endpoint once it is announced. */
  #waitForEndpoint(body: ReadableStream<Uint8Array>, signal: AbortSignal): Promise<URL> {
    const endpoint = new Promise<URL>((resolve, reject) => {
      this.#waiter = { resolve, reject };
    });
    const report = (error: Error): void => {
      this.#report(error);
    };
    void readEventStream(body, newCursor(), {
      event: (event) => {
        if (event.event === 'endpoint') this.#announce(event.data);
        else if (isMessageEvent(event)) {
          for (const message of messagesIn(event.data, report)) this.#inbox.message(message);
        }
      },
      error: report,
    }).then(() => {
      const waiter = this.#waiter;
      this.#waiter = undefined;
      if (waiter !== undefined) {
        waiter.reject(
          signal.aborted
            ? abortReason(signal)
            : new LocalError(
                LocalErrorCode.ProtocolViolation,
                'the SSE stream ended before the endpoint event',
              ),
        );
        return;
      }
      if (signal.aborted) return;
      const ended = new LocalError(LocalErrorCode.ConnectionClosed, 'the SSE stream ended');
      this.#closing ??= this.#shutdown(ended);
    });
    return endpoint;
  }

  /** Handles an `endpoint` event: the POST URL, resolved against the stream's, same origin only. */
  #announce(data: string): void {
    const waiter = this.#waiter;
    if (waiter === undefined) return;
    this.#waiter = undefined;
    let endpoint: URL;
    try {
      endpoint = new URL(data.trim(), this.url);
    } catch {
      waiter.reject(
        new LocalError(
          LocalErrorCode.ProtocolViolation,
          `invalid endpoint ${JSON.stringify(data)}`,
        ),
      );
      return;
    }
    if (endpoint.origin !== this.url.origin) {
      // Posting elsewhere would hand our messages (and headers, such as credentials) to a
      // third party the user never named.
      waiter.reject(
        new LocalError(
          LocalErrorCode.ProtocolViolation,
          `endpoint ${endpoint.href} refused: not on the origin of ${this.url.href}`,
        ),
      );
      return;
    }
    waiter.resolve(endpoint);
  }

  async send(message: Message | readonly Message[]): Promise<void> {
    if (this.#closed) throw closedError();
    const endpoint = this.#endpoint;
    if (endpoint === undefined) {
      throw new LocalError(LocalErrorCode.NotConnected, 'transport not started');
    }
    const controller = new AbortController();
    this.#controllers.add(controller);
    try {
      let response: Response;
      try {
        const headers = await customHeaders(this.#options.headers);
        headers['content-type'] = 'application/json';
        response = await this.#fetch(endpoint.href, {
          method: 'POST',
          headers,
          body: encode(message),
          signal: controller.signal,
        });
      } catch (error) {
        throw this.#hasClosed() ? closedError() : unreachable(endpoint.href, error);
      }
      if (response.ok) {
        await discardBody(response);
        return;
      }
      const ids = requestIdsOf(message);
      const { responses, error } = refusedPost(response, await readBodyText(response), ids);
      if (ids.length === 0) throw error;
      for (const reply of responses) this.#inbox.message(reply);
    } finally {
      this.#controllers.delete(controller);
    }
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown(undefined);
    return this.#closing;
  }

  #shutdown(error: Error | undefined): Promise<void> {
    this.#closed = true;
    for (const controller of this.#controllers) controller.abort(closedError());
    this.#controllers.clear();
    this.#inbox.close(error);
    return Promise.resolve();
  }

  /** Read through a method: TypeScript would otherwise narrow the field across awaits. */
  #hasClosed(): boolean {
    return this.#closed;
  }

  #report(error: Error): void {
    try {
      this.#options.onError?.(error);
    } catch {
      // onError must not throw; if it does, there is nobody left to tell.
    }
  }
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : closedError();
}
