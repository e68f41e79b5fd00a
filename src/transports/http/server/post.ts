// POST on the MCP endpoint: check the framing, read and parse the body, then route by era
// (docs/transports.md): a body whose `_meta` names a protocol version is 2026-07-28 and its
// request is served on its own (sessionless.ts); otherwise `initialize` opens a legacy session,
// `Mcp-Session-Id` finds one (legacy-session.ts), and in stateless mode every request is served
// on its own as well.
import type { MaybePromise } from '../../../internal/maybe.js';
import type { BatchItem } from '../../../jsonrpc/codec.js';
import { decodeValue } from '../../../jsonrpc/codec.js';
import { ErrorCode } from '../../../jsonrpc/errors.js';
import type { ErrorResponse, Message } from '../../../jsonrpc/message.js';
import { isRequest } from '../../../jsonrpc/message.js';
import type { ConnectOptions } from '../../../protocol/connectable.js';
import type { LegacyRevision } from '../../../protocol/version.js';
import { MODERN_REVISIONS, MetaKey, metaProtocolVersion } from '../../../protocol/version.js';
import type { HttpContext, Payload } from './context.js';
import { legacyRevision, parseJson } from './context.js';
import type { Answer, HttpExchange, HttpReply } from './exchange.js';
import { errorReply, joined, jsonReply, refusedReply } from './exchange.js';
import type { Acceptable } from './media-type.js';
import { checkJsonContentType, parseAccept } from './media-type.js';
import { serveInSession, serveInitialize, sessionOf } from './legacy-session.js';
import { serveModern, serveSessionless } from './sessionless.js';

/**
 * Serves a POST to the MCP endpoint through `answer`. Waits only for the body: from there on, a
 * request the server answers synchronously is answered with no promise made.
 */
export function handlePost(ctx: HttpContext, exchange: HttpExchange, answer: Answer): void {
  const accept = checkPost(exchange);
  if (!('json' in accept)) {
    answer(accept);
    return;
  }
  ctx.withBody(exchange, (bytes) => servePost(ctx, exchange, { accept, bytes }), answer);
}

/** The framing checks of a POST: what the client accepts, or the reply that refuses it. */
function checkPost(exchange: HttpExchange): Acceptable | HttpReply {
  const { headers } = exchange;
  const refused = checkJsonContentType(joined(headers['content-type']));
  if (refused !== undefined) return refusedReply(415, refused);
  const accept = parseAccept(joined(headers['accept']));
  if (!accept.json && !accept.sse) {
    return refusedReply(406, 'Accept must allow application/json or text/event-stream');
  }
  return accept;
}

/** Serves a POST whose body was read. */
function servePost(
  ctx: HttpContext,
  exchange: HttpExchange,
  body: { accept: Acceptable; bytes: Uint8Array },
): MaybePromise<HttpReply> {
  const { accept } = body;
  const parsed = parseJson(body.bytes);
  if (!('value' in parsed)) return parsed;
  const decoded = decodeValue(parsed.value, ctx.options.decode);
  switch (decoded.kind) {
    case 'invalid':
      return jsonReply(400, decoded.response);
    case 'message':
      return routeMessage(ctx, exchange, { accept, message: decoded.message });
    case 'batch':
      return routeBatch(ctx, exchange, { accept, items: decoded.items });
  }
}

/** The `_meta` protocol version of a request or notification, if it names one (2026-07-28). */
function modernVersion(message: Message): unknown {
  return 'method' in message ? metaProtocolVersion(message.params) : undefined;
}

/**
 * True when the headers name 2026-07-28 and no session, for a body without the _meta version:
 * a malformed 2026-07-28 request (-32602, 400; SEP-2575), not a legacy one. With Mcp-Session-Id
 * it is a legacy request whose header disagrees with its session (sessionOf answers -32020).
 */
function modernWithoutMeta(headers: HttpExchange['headers']): boolean {
  const named = joined(headers['mcp-protocol-version']);
  if (named === undefined || joined(headers['mcp-session-id']) !== undefined) return false;
  return (MODERN_REVISIONS as readonly string[]).includes(named);
}

function routeMessage(
  ctx: HttpContext,
  exchange: HttpExchange,
  post: { accept: Acceptable; message: Message },
): MaybePromise<HttpReply> {
  const { message } = post;
  const version = modernVersion(message);
  if (version !== undefined) {
    // Fields named one by one: a spread followed by properties (`{ ...post, version }`) takes
    // V8's slow runtime path on Node 20, about 1.5 µs a time (bench/RESULTS.md).
    const modern = { accept: post.accept, message, version, id: idOf(message) };
    return serveModern(ctx, exchange, modern);
  }
  if (isRequest(message) && modernWithoutMeta(exchange.headers)) {
    const missing = `_meta["${MetaKey.ProtocolVersion}"] is required`;
    return errorReply(400, { code: ErrorCode.InvalidParams, message: missing, id: message.id });
  }
  const payload: Payload = { kind: 'message', message };
  const isInitialize = 'id' in message && 'method' in message && message.method === 'initialize';
  if (!ctx.options.sessions) {
    // initialize carries its revision in the body; the header is checked on what follows.
    const revision = isInitialize ? '2025-03-26' : legacyRevision(exchange.headers, idOf(message));
    if (typeof revision !== 'string') return revision;
    return serveSessionless(ctx, exchange, {
      payload,
      accept: post.accept,
      options: statelessOptions(revision),
      status: undefined,
    });
  }
  if (isInitialize && joined(exchange.headers['mcp-session-id']) === undefined) {
    return serveInitialize(ctx, exchange, { accept: post.accept, request: message });
  }
  const session = sessionOf(ctx, exchange, idOf(message));
  if ('status' in session) return session;
  if (isInitialize) {
    return errorReply(400, {
      code: ErrorCode.InvalidRequest,
      message: 'the session is already initialized',
      id: idOf(message),
    });
  }
  return serveInSession(ctx, exchange, { accept: post.accept, payload, session });
}

async function routeBatch(
  ctx: HttpContext,
  exchange: HttpExchange,
  post: { accept: Acceptable; items: readonly BatchItem[] },
): Promise<HttpReply> {
  const valid: BatchItem[] = [];
  const invalid: ErrorResponse[] = [];
  let requests = 0;
  for (const item of post.items) {
    if ('invalid' in item) {
      invalid.push(item.invalid);
      continue;
    }
    const { message } = item;
    if (modernVersion(message) !== undefined) return batchRefused('2026-07-28 has no batches');
    if ('method' in message && message.method === 'initialize') {
      return batchRefused('initialize must not be part of a batch');
    }
    if ('method' in message && 'id' in message) requests++;
    valid.push(item);
  }
  const payload: Payload = { kind: 'batch', items: valid, invalid, requests };
  if (!ctx.options.sessions) {
    const revision = legacyRevision(exchange.headers, null);
    if (typeof revision !== 'string') return revision;
    if (revision !== '2025-03-26') return batchRefused(`${revision} has no batches`);
    return serveSessionless(ctx, exchange, {
      payload,
      accept: post.accept,
      options: statelessOptions(revision),
      status: undefined,
    });
  }
  const session = sessionOf(ctx, exchange, null);
  if ('status' in session) return session;
  // Spec 2025-03-26 basic/transports allows batches; later legacy revisions removed them.
  if (session.revision !== '2025-03-26') {
    return batchRefused(`batches are allowed only in 2025-03-26, not ${String(session.revision)}`);
  }
  for (const item of valid) {
    const m = 'message' in item ? item.message : undefined;
    if (m !== undefined && isRequest(m) && session.inFlight(m.id)) {
      return batchRefused(`request id ${JSON.stringify(m.id)} is already in flight`);
    }
  }
  return serveInSession(ctx, exchange, { accept: post.accept, payload, session });
}

function batchRefused(reason: string): HttpReply {
  return refusedReply(400, `invalid request: ${reason}`);
}

/** The ConnectOptions of stateless mode at `revision`: one frozen object per revision. */
function statelessOptions(revision: LegacyRevision): ConnectOptions {
  let options = STATELESS.get(revision);
  if (options === undefined) {
    options = Object.freeze({ legacyStateless: Object.freeze({ revision }) });
    STATELESS.set(revision, options);
  }
  return options;
}

const STATELESS = new Map<LegacyRevision, ConnectOptions>();

/** The id of a message, or null. */
export function idOf(message: Message): string | number | null {
  return 'id' in message ? message.id : null;
}
