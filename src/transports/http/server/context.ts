// What the verb handlers (post.ts, get.ts, delete.ts, legacy-sse.ts) share: the resolved options,
// the session table, how to connect a server, and how a reply reaches its answer. Built once per
// handler in handler.ts.
import type { MaybePromise } from '../../../internal/maybe.js';
import { isPromise } from '../../../internal/maybe.js';
import type { BatchItem } from '../../../jsonrpc/codec.js';
import { ErrorCode } from '../../../jsonrpc/errors.js';
import type { ErrorResponse, Message } from '../../../jsonrpc/message.js';
import type { MessageInfo, Transport } from '../../../jsonrpc/transport.js';
import type { Connectable, ConnectOptions } from '../../../protocol/connectable.js';
import { McpErrorCode } from '../../../protocol/errors.js';
import type { LegacyRevision } from '../../../protocol/version.js';
import { LEGACY_REVISIONS, MODERN_REVISIONS } from '../../../protocol/version.js';
import type { Answer, HeaderMap, HttpExchange, HttpReply } from './exchange.js';
import { BodyError, emptyReply, errorReply, joined, refusedReply } from './exchange.js';
import type { LiveSet } from '../../../internal/live-set.js';
import type { ResolvedOptions } from './options.js';
import type { SessionSettings } from './session-settings.js';
import type { SessionTable } from './sessions.js';

/** The state one handler's verbs share. */
export interface HttpContext {
  readonly options: ResolvedOptions;
  readonly sessions: SessionTable;
  readonly settings: SessionSettings;
  /**
   * What closes with the handler: requests without a session still being served (a LiveSet,
   * not a Set: one entry per pending request).
   */
  readonly open: LiveSet<{ close(): Promise<void> }>;
  /** The factory's server for `exchange` (connect it with {@link connectServer}); throws or rejects when the factory does. */
  server(exchange: HttpExchange): Connectable | Promise<Connectable>;
  /** The 500 of an exchange whose serving failed; the failure goes to `onError`. */
  failed(error: unknown, exchange: HttpExchange): HttpReply;
  /**
   * Answers `reply` through `answer`: at once when it is at hand, else once it settles; a
   * rejected reply answers the 500 of `failed`.
   */
  settle(exchange: HttpExchange, reply: MaybePromise<HttpReply>, answer: Answer): void;
  /**
   * Reads `exchange`'s body under the handler's limits and answers, through `answer`, what
   * `next` makes of the bytes: a body that could not be read gets its status (bodyFailed), a
   * throw or a rejection of `next` the 500 of `failed`. `answer` is called once.
   */
  withBody(
    exchange: HttpExchange,
    next: (bytes: Uint8Array) => MaybePromise<HttpReply>,
    answer: Answer,
  ): void;
}

/** Connects `server` (a factory's answer) to `transport`, without an await when it is at hand. */
export function connectServer(
  server: MaybePromise<Connectable>,
  transport: Transport,
  options: ConnectOptions | undefined,
): Promise<unknown> {
  if (isPromise(server)) return server.then((ready) => ready.connect(transport, options));
  return server.connect(transport, options);
}

/** MessageInfo plus the hook that closes a POST's SSE response early (see docs/transports.md). */
export type HttpMessageInfo = MessageInfo & { closeSseStream?: () => void };

/**
 * The MessageInfo of a POST: its headers (made on first read) and the exchange's auth. No
 * signal: a session's requests follow their connection, and one served on its own its POST.
 */
export function headersInfo(exchange: HttpExchange): HttpMessageInfo {
  return new LazyInfo(exchange);
}

/** A MessageInfo whose `headers` are made on first read (a class: no per-object accessor). */
class LazyInfo implements HttpMessageInfo {
  readonly auth?: unknown;
  readonly #exchange: HttpExchange;
  #headers: Readonly<Record<string, string>> | undefined;

  constructor(exchange: HttpExchange) {
    if (exchange.auth !== undefined) this.auth = exchange.auth;
    this.#exchange = exchange;
  }

  get headers(): Readonly<Record<string, string>> {
    return (this.#headers ??= stringHeaders(this.#exchange.headers));
  }
}

/** The headers as strings only (node:http's object itself when it already is). */
function stringHeaders(headers: HeaderMap): Readonly<Record<string, string>> {
  for (const key in headers) {
    if (typeof headers[key] !== 'string') return copyHeaders(headers);
  }
  return headers as Readonly<Record<string, string>>;
}

function copyHeaders(headers: HeaderMap): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const key in headers) {
    const value = joined(headers[key]);
    if (value !== undefined) copy[key] = value;
  }
  return copy;
}

/** The problem with a legacy request's MCP-Protocol-Version, or the revision it names. */
export function legacyRevision(
  headers: HeaderMap,
  requestId: string | number | null,
): LegacyRevision | HttpReply {
  const value = joined(headers['mcp-protocol-version']);
  // Spec 2025-11-25 basic/transports#protocol-version-header: none means 2025-03-26.
  if (value === undefined) return '2025-03-26';
  const known = LEGACY_REVISIONS.find((r) => r === value);
  if (known !== undefined) return known;
  if ((MODERN_REVISIONS as readonly string[]).includes(value)) {
    return errorReply(400, {
      code: McpErrorCode.HeaderMismatch,
      message: `MCP-Protocol-Version ${value} needs _meta["io.modelcontextprotocol/protocolVersion"] in the body`,
      id: requestId,
    });
  }
  return errorReply(400, {
    code: ErrorCode.InvalidRequest,
    message: `unsupported MCP-Protocol-Version ${JSON.stringify(value)}`,
    id: requestId,
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The reply to a body that could not be read (too large, too slow, aborted). */
export function bodyFailed(error: unknown): HttpReply {
  const status = error instanceof BodyError ? error.status : 400;
  const message = error instanceof BodyError ? error.message : 'could not read the request body';
  // The rest of the body is not read: the connection cannot be reused.
  return refusedReply(status, message, { connection: 'close' });
}

/** Parses a body as UTF-8 JSON; an HttpReply describes why it could not be. */
export function parseJson(bytes: Uint8Array): { value: unknown } | HttpReply {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    const message = 'parse error: the body is not valid UTF-8';
    return errorReply(400, { code: ErrorCode.ParseError, message });
  }
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    const detail = error instanceof Error ? error.message : 'invalid JSON';
    return errorReply(400, { code: ErrorCode.ParseError, message: `parse error: ${detail}` });
  }
}

/** What a POST body holds, once parsed: one message, or a batch split into its parts. */
export type Payload =
  | { readonly kind: 'message'; readonly message: Message }
  | {
      readonly kind: 'batch';
      /** The valid elements, to deliver. */
      readonly items: readonly BatchItem[];
      /** The error responses of invalid elements, answered first. */
      readonly invalid: readonly ErrorResponse[];
      /** How many valid elements are requests. */
      readonly requests: number;
    };

/** True when a payload holds a request, so the POST waits for a response. */
export function wantsReply(payload: Payload): boolean {
  if (payload.kind === 'batch') return payload.requests > 0;
  return 'method' in payload.message && 'id' in payload.message;
}

/** The error responses a payload's invalid batch elements get. */
export function invalidOf(payload: Payload): readonly ErrorResponse[] {
  return payload.kind === 'batch' ? payload.invalid : [];
}

/** The 202 of a POST that holds no request. */
export const ACCEPTED: HttpReply = emptyReply(202);
