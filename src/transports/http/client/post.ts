// How the Streamable HTTP client sends one message (or batch) by POST and accepts the answer:
// JSON, an SSE stream read in the background (client-streams.ts), 202, or a refusal turned into
// JSON-RPC error responses for the requests the POST carried.
// Spec 2025-11-25 basic/transports#sending-messages-to-the-server.
import { encode } from '../../../jsonrpc/codec.js';
import type { Message, RequestId } from '../../../jsonrpc/message.js';
import type { SendOptions } from '../../../jsonrpc/transport.js';
import { messagesIn } from './events.js';
import { LazySignal } from '../../../internal/abort.js';
import { isPromise } from '../../../internal/maybe.js';
import { noop } from '../../../internal/noop.js';
import type { HeaderFields } from './headers.js';
import { modernRevisionOf, setMcpHeaders } from './headers.js';
import type { CancellableInit, FetchLike, HeadersOption } from './http.js';
import {
  FETCH_CANCELLATION,
  closedError,
  customHeaders,
  discardBody,
  HttpErrorCode,
  isInitialize,
  isInitialized,
  linkSignal,
  mediaTypeOf,
  readBodyText,
  refusedPost,
  requestIdsOf,
  statusLine,
  unreachable,
} from './http.js';
import type { LiveEntry, LiveSet } from '../../../internal/live-set.js';
import type { Carrier, Ledger } from './ledger.js';
import type { ClientSession } from './session.js';
import { followPostStream } from './streams.js';

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

/** One POST being handled. */
export interface Post {
  readonly message: Message | readonly Message[];
  /** The message, when the POST carried one (not a batch). */
  readonly single: Message | undefined;
  readonly ids: readonly RequestId[];
  /** Whether the POST carries a 2026-07-28 request (whose stream is not resumable). */
  readonly modern: boolean;
  /** The session id the POST carried. */
  readonly session: string | undefined;
  /**
   * Aborts the POST (close, cancel, the caller's signal): its AbortSignal is made only when
   * something reads it (a fetch that takes no {@link FETCH_CANCELLATION}, an SSE stream).
   */
  readonly control: LazySignal;
  /** Detaches the caller's abort signal. */
  readonly unlink: () => void;
  /** The POST's entry among the host's controllers. */
  readonly entry: LiveEntry<Carrier>;
}

/** What a POST needs from the transport that sends it. */
export interface PostHost {
  /** The MCP endpoint. */
  readonly url: URL;
  /** The fetch every POST goes through. */
  readonly fetch: FetchLike;
  /** Whether `fetch` takes the POST's cancellation as {@link FETCH_CANCELLATION}, not a signal. */
  readonly followsCancellation: boolean;
  /** The transport's options; `headers` is read for each POST. */
  readonly options: { readonly headers?: HeadersOption | undefined };
  /** Which requests await a response, and on which POST. */
  readonly ledger: Ledger;
  readonly session: ClientSession;
  /** Every POST and stream in flight, aborted by close. */
  readonly controllers: LiveSet<Carrier>;
  /** Whether the transport is closed. */
  closed(): boolean;
  /** Records that a POST succeeded: the server speaks Streamable HTTP, so no fallback. */
  confirm(): void;
  /** Opens the standalone GET stream, unless it is open, unwanted or not yet possible. */
  openStandalone(): void;
  /** Reports a problem no caller is waiting for. Must not throw. */
  readonly report: (error: Error) => void;
  /** Whether a refused POST is retried over the HTTP+SSE transport. */
  shouldFallBack(post: Post, response: Response, text: string): boolean;
  /** Connects the HTTP+SSE transport and sends the POST's message again over it. */
  fallBack(post: Post, response: Response, text: string): Promise<void>;
}

const ACCEPT_BOTH = 'application/json, text/event-stream';

/**
 * POSTs one message (or batch) and resolves once the server accepted it; the responses arrive
 * through the host's ledger. Rejects when the headers option fails, when the server is
 * unreachable, or when a POST without requests is refused.
 */
export async function sendPost(
  host: PostHost,
  message: Message | readonly Message[],
  options: HttpSendOptions,
): Promise<void> {
  const single = Array.isArray(message) ? undefined : (message as Message);
  const ids = requestIdsOf(message);
  const modern = single !== undefined && modernRevisionOf(single) !== undefined;
  // A new session starts without an id; 2026-07-28 has no sessions.
  const session = isInitialize(single) || modern ? undefined : host.session.id;
  const control = new LazySignal(NO_SOURCES);
  const entry = host.controllers.add(control);
  host.ledger.track(ids, control);
  if (isInitialize(single)) host.session.awaitInitialize(single.id);
  const { signal } = options;
  const unlink =
    signal === undefined
      ? noop
      : linkSignal(signal, (reason) => {
          host.ledger.abandon(control, reason);
        });
  const post: Post = { message, single, ids, modern, session, control, unlink, entry };
  // One async function for the POST and one for its answer: each more was a promise and a turn.
  let handedOver = false;
  try {
    let headers: HeaderFields;
    try {
      const custom = customHeaders(host.options.headers);
      headers = isPromise(custom) ? await custom : custom;
      setPostHeaders(host, post, { headers, extra: options.headers });
    } catch (error) {
      // The headers option failed, or a header is not a valid header: nothing was sent.
      host.ledger.release(ids);
      throw error;
    }
    let response: Response;
    try {
      response = await host.fetch(host.url.href, postInit(host, post, headers));
    } catch (error) {
      throw fetchFailure(host, post, error);
    }
    handedOver = await accept(host, post, response);
  } finally {
    if (!handedOver) finish(host, post);
  }
}

/** Sets on `headers` the `extra` headers of the message, then the MCP headers of `post`. */
function setPostHeaders(
  host: PostHost,
  post: Post,
  { headers, extra }: { headers: HeaderFields; extra: HttpSendOptions['headers'] },
): void {
  if (extra !== undefined) {
    for (const [name, value] of Object.entries(extra)) headers[name.toLowerCase()] = value;
  }
  setMcpHeaders(headers, {
    accept: ACCEPT_BOTH,
    sessionId: post.session,
    protocolVersion: isInitialize(post.single) ? undefined : host.session.protocolVersion,
    message: post.message,
  });
}

/** The fetch init of `post` (its body encoded here: a message that fails to encode fails the fetch). */
function postInit(host: PostHost, post: Post, headers: HeaderFields): CancellableInit {
  const init: CancellableInit = { method: 'POST', headers, body: encode(post.message) };
  if (host.followsCancellation) init[FETCH_CANCELLATION] = post.control;
  else init.signal = post.control.signal;
  return init;
}

/** What a POST whose fetch failed with `error` rejects with. */
function fetchFailure(host: PostHost, post: Post, error: unknown): unknown {
  if (host.closed()) return closedError();
  // An aborted POST rejects with the abort's own reason (AbortSignal contract).
  const { control } = post;
  if (control.aborted) return control.reason;
  host.ledger.release(post.ids);
  return unreachable(host.url.href, error);
}

/** Handles the response to a POST; true when a background reader now owns the POST. */
async function accept(host: PostHost, post: Post, response: Response): Promise<boolean> {
  if (!response.ok) {
    await refused(host, post, response);
    return false;
  }
  host.confirm();
  if (isInitialize(post.single)) host.session.adopt(response);
  // 202 to a request: its response will come on another stream.
  if (post.ids.length === 0 || response.status === 202) {
    await discardBody(response);
    if (isInitialized(post.single)) host.openStandalone();
    return false;
  }
  const type = mediaTypeOf(response);
  if (type === 'text/event-stream' && response.body !== null) {
    const { control, ids } = post;
    void followPostStream(host.session.streams, {
      body: response.body,
      signal: control.signal,
      resumable: !post.modern,
      answered: () => host.ledger.settled(ids, control),
      // What the server sends on this stream belongs to the request it carries.
      info: ids.length === 1 ? { relatedRequestId: ids[0] as RequestId } : undefined,
      fail: (error) => {
        host.ledger.fail(ids, control, error);
      },
    }).finally(() => {
      finish(host, post);
    });
    return true;
  }
  if (type === 'application/json') {
    let text: string;
    try {
      text = await response.text();
    } catch {
      if (!post.control.aborted) {
        host.ledger.fail(post.ids, post.control, {
          code: HttpErrorCode.StreamEnded,
          message: 'the response body was cut short',
        });
      }
      return false;
    }
    deliverJson(host, post, { response, text });
    return false;
  }
  await discardBody(response);
  host.ledger.fail(post.ids, post.control, {
    code: HttpErrorCode.HttpStatus,
    message: `unexpected content type ${type ?? '(none)'} in the response (${statusLine(response)})`,
    data: { status: response.status },
  });
  return false;
}

/** Delivers the messages of a JSON answer; its requests it did not answer fail. */
function deliverJson(
  host: PostHost,
  post: Post,
  { response, text }: { response: Response; text: string },
): void {
  for (const message of messagesIn(text, host.report)) host.ledger.receive(message);
  if (host.ledger.settled(post.ids, post.control)) return;
  host.ledger.fail(post.ids, post.control, {
    code: HttpErrorCode.HttpStatus,
    message: `the response body (${statusLine(response)}) held no response to this request`,
    data: { status: response.status, body: text.slice(0, 4096) },
  });
}

async function refused(host: PostHost, post: Post, response: Response): Promise<void> {
  const text = await readBodyText(response);
  if (host.shouldFallBack(post, response, text)) {
    await host.fallBack(post, response, text);
    return;
  }
  const expired =
    response.status === 404 ? host.session.expired(post.session, response, text) : undefined;
  if (expired !== undefined) {
    if (post.ids.length === 0) throw expired;
    host.ledger.fail(post.ids, post.control, expired.toWire());
    return;
  }
  const { responses, error } = refusedPost(response, text, post.ids);
  if (post.ids.length === 0) throw error;
  for (const reply of responses) host.ledger.receive(reply);
}

/** A POST's LazySignal follows nothing: it aborts by its own `abort` only. */
const NO_SOURCES = (): readonly [] => [];

/** A POST is over (its stream too): close no longer needs to abort it. */
function finish(host: PostHost, post: Post): void {
  post.unlink();
  host.controllers.delete(post.entry);
}
