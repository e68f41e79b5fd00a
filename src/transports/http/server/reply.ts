// PostReply: the answer to one POST that holds requests. It stays JSON until the server sends
// something other than the final response, then switches to SSE when the client accepts it
// (spec 2025-11-25 basic/transports#sending-messages-to-the-server). JSON-only clients get the
// final response alone; SSE-only clients get SSE.
import type { ErrorResponse, Message, RequestId, Response } from '../../../jsonrpc/message.js';
import { ErrorCode } from '../../../jsonrpc/errors.js';
import type { HttpExchange, HttpReply } from './exchange.js';
import { JSON_HEADERS, SSE_HEADERS, closeSignal, errorReply } from './exchange.js';
import type { Acceptable } from './media-type.js';
import type { OpenStream, StreamSink } from './streams.js';

/** How a POST that holds requests is answered when the client accepts both framings. */
export type ResponseMode = 'auto' | 'json' | 'sse';

/** What a POST gets when its request closed before answering (client gone, shutdown). */
export const REQUEST_CLOSED: HttpReply = errorReply(503, {
  code: ErrorCode.InternalError,
  message: 'request closed',
});

/** What a request is told when its session closed before it was answered (see closedBeforeAnswer). */
export const SESSION_CLOSED = 'session closed before the request was answered';

/**
 * The error response of request `id`, which a close cut while it was answered on a stream (no
 * other answer will come); `message` says what closed.
 */
export function closedBeforeAnswer(id: RequestId, message: string): ErrorResponse {
  return { jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message } };
}

/**
 * True when a final response that came first goes out as JSON rather than on an SSE stream: the
 * client accepts JSON, and SSE is not preferred for it (the `sse` mode prefers it for 200s).
 */
export function answersJson(accept: Acceptable, mode: ResponseMode, status: number): boolean {
  return accept.json && (mode !== 'sse' || !accept.sse || status !== 200);
}

/** An HTTP status and headers that a final response is answered with (see `challenge`). */
export interface Challenge {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
}

/** How a final response that came first is answered: what decides its framing and status. */
export interface FirstAnswer {
  readonly accept: Acceptable;
  readonly mode: ResponseMode;
  /** The HTTP status of a final response answered as JSON; 200 when undefined. */
  readonly status?: ((response: Response) => number) | undefined;
  /** The refusal a final response stands for (see {@link PostReplyOptions.challenge}). */
  readonly challenge?: ((response: Response) => Challenge | undefined) | undefined;
}

/**
 * The JSON reply to a final response (an array for a batch) that came before anything was
 * written, or undefined when it goes on an SSE stream instead. A response that stands for a
 * refusal (the 403 step-up of a missing scope) is answered as JSON with the challenge's status
 * and headers whatever the client accepts, as the transport's other refusals are.
 */
export function firstJsonReply(
  body: Response | readonly Response[],
  how: FirstAnswer,
  extra?: Readonly<Record<string, string>>,
): HttpReply | undefined {
  const single = Array.isArray(body) ? undefined : (body as Response);
  const challenge = single === undefined ? undefined : how.challenge?.(single);
  const status = challenge?.status ?? (single === undefined ? 200 : (how.status?.(single) ?? 200));
  if (challenge === undefined && !answersJson(how.accept, how.mode, status)) return undefined;
  const base = challenge === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...challenge.headers };
  return { status, headers: extra === undefined ? base : { ...base, ...extra }, body };
}

/** Options of a {@link PostReply}. */
export interface PostReplyOptions {
  readonly accept: Acceptable;
  readonly mode: ResponseMode;
  /** The exchange; watched for the client going away only once a stream opens. */
  readonly exchange: HttpExchange;
  /** Opens the SSE stream when the reply switches to it. */
  readonly open: OpenStream;
  /** Extra response headers (`mcp-session-id` on an initialize answer). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** The HTTP status of a final response answered as JSON (2026-07-28 maps some errors). */
  readonly status?: ((response: Response) => number) | undefined;
  /**
   * The refusal a final response stands for (the 403 step-up for the server's INSUFFICIENT_SCOPE):
   * its status and headers replace the JSON answer's when it comes before anything was written.
   * Once an SSE stream has begun, the response goes on it like any other.
   */
  readonly challenge?: ((response: Response) => Challenge | undefined) | undefined;
  /** Error responses for invalid batch elements, answered before the others. */
  readonly invalid?: readonly ErrorResponse[] | undefined;
  /** Runs once when the reply is complete (final response out, or abandoned). */
  readonly done?: () => void;
}

/**
 * PostReply collects what the server sends for one POST. Its `reply` is the HTTP reply: JSON
 * when the final response came first, SSE as soon as the stream opened.
 */
export class PostReply {
  readonly #options: PostReplyOptions;
  /** The HTTP reply, once known. */
  #answer: HttpReply | undefined;
  /** Made only when `reply` is read before the answer is known. */
  #promise: Promise<HttpReply> | undefined;
  #resolve: ((reply: HttpReply) => void) | undefined;
  #state: 'pending' | 'stream' | 'done' = 'pending';
  #sink: StreamSink | undefined;
  /** True when the stream may be opened for a message before the final response. */
  readonly #canStream: boolean;

  constructor(options: PostReplyOptions) {
    this.#options = options;
    const { accept, mode } = options;
    this.#canStream = accept.sse && !(mode === 'json' && accept.json);
  }

  /**
   * The HTTP reply: the reply itself once it is known (a request answered synchronously makes
   * no promise), else a promise that resolves with it.
   */
  get reply(): HttpReply | Promise<HttpReply> {
    if (this.#answer !== undefined) return this.#answer;
    return (this.#promise ??= new Promise((resolve) => {
      this.#resolve = resolve;
    }));
  }

  /**
   * True while a client may still read what is sent: the reply is not known yet (its POST is
   * waiting), or its stream has a connection. False once the client hung up on the stream.
   */
  get attached(): boolean {
    if (this.#state === 'pending') return true;
    return this.#state === 'stream' && this.#sink?.attached === true;
  }

  /** True once the final response was handled (or the reply abandoned). */
  get done(): boolean {
    return this.#state === 'done';
  }

  /**
   * Sends a message that precedes the final response (a notification or a request related to
   * it). False when it cannot be delivered: the client accepts only JSON, or the reply is done.
   */
  push(message: Message): boolean {
    if (this.#state === 'done') return false;
    if (this.#state === 'pending') {
      if (!this.#canStream) return false;
      this.#openStream();
    }
    this.#sink?.send(message);
    return true;
  }

  /** Sends the final response (an array for a batch) and completes the reply. */
  final(response: Response | readonly Response[]): void {
    if (this.#state === 'done') return;
    const body = this.#withInvalid(response);
    if (this.#state === 'pending') {
      const json = firstJsonReply(body, this.#options, this.#options.headers);
      if (json !== undefined) {
        this.#finish(json);
        return;
      }
      this.#openStream();
    }
    this.#sink?.send(body);
    this.#sink?.finish();
    this.#finish(undefined);
  }

  /**
   * Closes the HTTP response early without ending the stream, so the client polls for the rest
   * with Last-Event-ID: the stream is opened first if needed. No-op for a JSON-only client.
   */
  disconnect(): void {
    if (this.#state === 'done') return;
    if (this.#state === 'pending') {
      if (!this.#canStream) return;
      this.#openStream();
    }
    this.#sink?.disconnect();
  }

  /**
   * Gives up: answers `reply` if nothing was answered yet; an open stream is sent `last` (the
   * error responses of the requests it carries, when none will be answered, after those of a
   * batch's invalid elements) and ends.
   */
  abandon(reply: HttpReply, last?: Response | readonly Response[]): void {
    if (this.#state === 'done') return;
    if (this.#state === 'stream') {
      if (last !== undefined) this.#sink?.send(this.#withInvalid(last));
      this.#sink?.finish();
    }
    this.#finish(reply);
  }

  #openStream(): void {
    const { sink, body } = this.#options.open(closeSignal(this.#options.exchange));
    this.#sink = sink;
    this.#state = 'stream';
    this.#settle({ status: 200, headers: this.#headers(SSE_HEADERS), body });
  }

  #finish(reply: HttpReply | undefined): void {
    this.#state = 'done';
    if (reply !== undefined) this.#settle(reply);
    this.#options.done?.();
  }

  /** Fixes the reply; the first one wins. */
  #settle(reply: HttpReply): void {
    if (this.#answer !== undefined) return;
    this.#answer = reply;
    this.#resolve?.(reply);
  }

  #headers(base: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
    const extra = this.#options.headers;
    return extra === undefined ? base : { ...base, ...extra };
  }

  #withInvalid(response: Response | readonly Response[]): Response | readonly Response[] {
    const invalid = this.#options.invalid;
    if (invalid === undefined || invalid.length === 0) return response;
    const responses: readonly Response[] = Array.isArray(response)
      ? response
      : [response as Response];
    return [...invalid, ...responses];
  }
}
