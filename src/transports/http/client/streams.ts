// The SSE streams of the Streamable HTTP client and how they are kept alive: a POST's response
// stream, resumed by GET with Last-Event-ID when it breaks before the response (the 2025-11-25
// polling pattern), and the standalone GET stream of a legacy session, reopened when it drops.
// Spec 2025-11-25 basic/transports#resumability-and-redelivery, #listening-for-messages-from-the-server.
import type { WireError } from '../../../jsonrpc/errors.js';
import { LocalError, LocalErrorCode } from '../../../jsonrpc/errors.js';
import type { Message } from '../../../jsonrpc/message.js';
import type { MessageInfo } from '../../../jsonrpc/transport.js';
import type { ReadOutcome, StreamCursor } from './events.js';
import { isMessageEvent, messagesIn, readEventStream } from './events.js';
import type { ReconnectPolicy } from './http.js';
import {
  discardBody,
  HttpErrorCode,
  httpErrorData,
  isEventStream,
  mediaTypeOf,
  readBodyText,
  reconnectDelay,
  sleep,
  statusLine,
} from './http.js';

/** What the streams need from the transport that owns them. */
export interface StreamHost {
  /** When and how often to reconnect. */
  readonly policy: ReconnectPolicy;
  /** Sends a GET for an SSE stream with the transport's headers; rejects on network failure. */
  open(lastEventId: string | undefined, signal: AbortSignal): Promise<Response>;
  /**
   * Called with a 404 answer to a GET: returns the session-expired error (and forgets the
   * session) when the GET carried a session id, else undefined.
   */
  expired(response: Response, text: string): WireError | undefined;
  /** Delivers one incoming message, with what is known of the stream it came on. */
  receive(message: Message, info?: MessageInfo): void;
  /** Reports a problem no caller is waiting for. */
  report(error: Error): void;
}

/** A POST whose response is an SSE stream, from the point of view of its reader. */
export interface PostStream {
  /** The response body. */
  readonly body: ReadableStream<Uint8Array>;
  /** Aborted when the request is cancelled or the transport closes. */
  readonly signal: AbortSignal;
  /** Whether a broken stream may be resumed (legacy revisions; 2026-07-28 streams are not). */
  readonly resumable: boolean;
  /** True once every request of the POST has its response. */
  answered(): boolean;
  /** Fails the requests still unanswered with `error`. */
  fail(error: WireError): void;
  /** What each message of this stream is delivered with (the request it answers). */
  readonly info?: MessageInfo | undefined;
}

/** A fresh cursor: no event id, no retry hint. */
export function newCursor(): StreamCursor {
  return { lastEventId: undefined, retryMs: undefined, received: 0 };
}

/** Reads one SSE body into the host. */
function pump(
  host: StreamHost,
  body: ReadableStream<Uint8Array>,
  {
    cursor,
    done,
    info,
  }: { cursor: StreamCursor; done?: () => boolean; info?: MessageInfo | undefined },
): Promise<ReadOutcome> {
  const report = (error: Error): void => {
    host.report(error);
  };
  return readEventStream(body, cursor, {
    event: (event) => {
      if (!isMessageEvent(event)) return;
      for (const message of messagesIn(event.data, report)) {
        cursor.received++;
        host.receive(message, info);
      }
    },
    error: report,
    ...(done === undefined ? {} : { done }),
  });
}

/**
 * Reads a POST's SSE stream until every request it carried is answered. When the stream ends
 * first (the server closed the connection to be polled, or the network failed) and it is
 * resumable with an event id, reconnects by GET with `Last-Event-ID` after the server's `retry`
 * delay and keeps reading; otherwise, or when reconnection fails, the unanswered requests fail
 * with a {@link HttpErrorCode.StreamEnded} (or SessionExpired) error. Never throws.
 */
export async function followPostStream(host: StreamHost, post: PostStream): Promise<void> {
  const cursor = newCursor();
  let body = post.body;
  const backoff = new EmptyStreams(host.policy);
  for (;;) {
    backoff.opened(cursor);
    await pump(host, body, { cursor, done: () => post.answered(), info: post.info });
    backoff.closed(cursor);
    if (post.signal.aborted || post.answered()) return;
    if (!post.resumable || cursor.lastEventId === undefined) {
      post.fail({
        code: HttpErrorCode.StreamEnded,
        message: 'the response stream ended before the response arrived',
      });
      return;
    }
    const next = await reopen(host, { cursor, empties: backoff.empties }, post.signal);
    if (next === undefined) return;
    if ('failure' in next) {
      post.fail(next.failure);
      return;
    }
    body = next.body;
  }
}

type Reopened = { body: ReadableStream<Uint8Array> } | { failure: WireError } | undefined;

/** Reconnects a broken stream by GET with Last-Event-ID; undefined when aborted meanwhile. */
async function reopen(
  host: StreamHost,
  stream: { cursor: StreamCursor; empties: number },
  signal: AbortSignal,
): Promise<Reopened> {
  const { cursor, empties } = stream;
  const { maxRetries } = host.policy;
  let problem = '';
  for (let failures = 0; failures <= maxRetries; failures++) {
    const delay = reconnectDelay(host.policy, { failures, retryMs: cursor.retryMs, empties });
    if (!(await sleep(delay, signal))) return undefined;
    let response: Response;
    try {
      response = await host.open(cursor.lastEventId, signal);
    } catch (error) {
      if (signal.aborted) return undefined;
      problem = describe(error);
      continue;
    }
    if (response.ok && isEventStream(response) && response.body !== null) {
      return { body: response.body };
    }
    const text = await readBodyText(response);
    if (response.status === 404) {
      const expired = host.expired(response, text);
      if (expired !== undefined) return { failure: expired };
    }
    problem = response.ok ? unexpectedType(response) : statusLine(response);
    if (response.status === 404 || response.status === 405) {
      return {
        failure: streamLost(`cannot resume the response stream: ${problem}`, response, text),
      };
    }
  }
  const attempts = `${maxRetries + 1} attempt${maxRetries === 0 ? '' : 's'}`;
  return {
    failure: {
      code: HttpErrorCode.StreamEnded,
      message: `cannot resume the response stream after ${attempts}: ${problem}`,
    },
  };
}

/**
 * Keeps the standalone GET stream of a legacy session open until `signal` aborts: reopens it
 * with `Last-Event-ID` after the server's `retry` delay when the server ends it, and with
 * backoff when opening fails. Stops silently on 405 (the server offers no such stream), and
 * with a report on 404 or after `maxRetries` consecutive failures. Never throws.
 */
export async function runStandaloneStream(host: StreamHost, signal: AbortSignal): Promise<void> {
  const cursor = newCursor();
  const backoff = new EmptyStreams(host.policy);
  let failures = 0;
  for (let attempt = 0; ; attempt++) {
    if (attempt > 0) {
      const delay = reconnectDelay(host.policy, {
        failures: Math.max(failures - 1, 0),
        retryMs: cursor.retryMs,
        empties: backoff.empties,
      });
      if (!(await sleep(delay, signal))) return;
    }
    let problem: string;
    try {
      const response = await host.open(cursor.lastEventId, signal);
      if (response.ok && isEventStream(response) && response.body !== null) {
        failures = 0;
        backoff.opened(cursor);
        await pump(host, response.body, { cursor });
        backoff.closed(cursor);
        if (signal.aborted) return;
        continue;
      }
      await discardBody(response);
      if (response.status === 405) return;
      problem = response.ok ? unexpectedType(response) : statusLine(response);
      if (response.status === 404) {
        host.report(standaloneError(`the session is gone (${problem})`));
        return;
      }
    } catch (error) {
      if (signal.aborted) return;
      problem = describe(error);
    }
    failures++;
    if (failures > host.policy.maxRetries) {
      host.report(standaloneError(`gave up after ${failures} failed attempts: ${problem}`));
      return;
    }
  }
}

/**
 * Counts the connections of a stream in a row that ended without a message, for the reconnect
 * backoff. A message resets it, and so does a connection that stayed open at least `maxDelayMs`
 * (a server that closes idle streams now and then is not misbehaving).
 */
class EmptyStreams {
  empties = 0;
  readonly #policy: ReconnectPolicy;
  #received = 0;
  #since = 0;

  constructor(policy: ReconnectPolicy) {
    this.#policy = policy;
  }

  opened(cursor: StreamCursor): void {
    this.#received = cursor.received;
    this.#since = Date.now();
  }

  closed(cursor: StreamCursor): void {
    const quiet = cursor.received === this.#received;
    const brief = Date.now() - this.#since < this.#policy.maxDelayMs;
    this.empties = quiet && brief ? this.empties + 1 : 0;
  }
}

function standaloneError(reason: string): LocalError {
  return new LocalError(LocalErrorCode.NotConnected, `standalone SSE stream closed: ${reason}`);
}

function streamLost(message: string, response: Response, text: string): WireError {
  return { code: HttpErrorCode.StreamEnded, message, data: httpErrorData(response, text) };
}

function unexpectedType(response: Response): string {
  return `unexpected content type ${mediaTypeOf(response) ?? '(none)'} instead of text/event-stream`;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause: unknown = error.cause;
  return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
}
