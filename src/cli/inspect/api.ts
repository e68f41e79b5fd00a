// The inspector's HTTP API under /api/ (see the contract of issue #26): JSON in, JSON out, each
// input checked with a 4xx that says what is wrong. The caller has already checked Host, Origin
// and the token.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, asObject, requireString } from './api-error.js';
import { APPS_POST_ROUTES, appsConfig } from './apps.js';
import type { EventHub } from './events.js';
import type { InspectorSession } from './session.js';
import { parseMode, parseTarget } from './inputs.js';
import type { WireLog } from './wire-log.js';
import { messageOf } from '../../internal/message-of.js';

/** The largest request body taken. */
export const MAX_BODY_BYTES: number = 1024 * 1024;

/** How many wire entries a new event stream gets first. */
export const WIRE_REPLAY = 500;

/** What the routes work on. */
export interface ApiContext {
  readonly session: InspectorSession;
  readonly hub: EventHub;
  readonly log: WireLog;
  /** The port of the MCP Apps sandbox listener (sandbox.ts), once it listens. */
  sandboxPort: number | undefined;
}

type Route = (
  ctx: ApiContext,
  body: Record<string, unknown>,
  res: ServerResponse,
) => Promise<unknown>;

const GET_ROUTES: Readonly<Record<string, (ctx: ApiContext, res: ServerResponse) => void>> = {
  '/api/state': (ctx, res) => {
    sendJson(res, 200, ctx.session.state());
  },
  '/api/events': (ctx, res) => {
    ctx.hub.open(res, [
      ['state', ctx.session.state()],
      ...ctx.log.entries(WIRE_REPLAY).map((entry) => ['wire', entry] as const),
      ...ctx.session.pendingEvents(),
    ]);
  },
  '/api/apps/config': (ctx, res) => {
    sendJson(res, 200, appsConfig(ctx));
  },
  '/api/transcript': (ctx, res) => {
    res.writeHead(200, {
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Disposition': 'attachment; filename="mcpkit-transcript.txt"',
      'Cache-Control': 'no-store',
    });
    res.end(ctx.session.transcript());
  },
};

const POST_ROUTES: Readonly<Record<string, Route>> = {
  '/api/connect': (ctx, body) => {
    const target = parseTarget(body['target']);
    return ctx.session.connect(target, parseMode(body['mode']));
  },
  '/api/disconnect': (ctx) => ctx.session.disconnect(),
  '/api/request': (ctx, body) => {
    const op = requireString(body, 'op', '/api/request');
    const params = body['params'] ?? {};
    const object = asObject(params);
    if (object === undefined) throw new ApiError(400, '/api/request: "params" must be an object');
    const opId = body['opId'];
    if (opId !== undefined && (typeof opId !== 'string' || opId === '')) {
      throw new ApiError(400, '/api/request: "opId" must be a non-empty string');
    }
    const timeoutMs = body['timeoutMs'];
    if (
      timeoutMs !== undefined &&
      !(Number.isSafeInteger(timeoutMs) && (timeoutMs as number) > 0)
    ) {
      throw new ApiError(400, '/api/request: "timeoutMs" must be a positive integer');
    }
    return ctx.session.request(op, object, {
      ...(opId === undefined ? {} : { opId }),
      ...(timeoutMs === undefined ? {} : { timeoutMs: timeoutMs as number }),
    });
  },
  '/api/cancel': (ctx, body) => {
    const opId = requireString(body, 'opId', '/api/cancel');
    if (!ctx.session.cancel(opId))
      throw new ApiError(404, `no running request with opId "${opId}"`);
    return Promise.resolve({ ok: true });
  },
  '/api/answer': (ctx, body) => {
    const requestId = requireString(body, 'requestId', '/api/answer');
    if (body['result'] === undefined && body['error'] === undefined) {
      throw new ApiError(
        400,
        '/api/answer: give "result" (or "error" to refuse a sampling request)',
      );
    }
    ctx.session.answer(requestId, body);
    return Promise.resolve({ ok: true });
  },
  '/api/roots': (ctx, body) => ctx.session.setRoots(body['roots']),
  ...APPS_POST_ROUTES,
};

/** Answers one /api/ request. Never rejects. */
export async function handleApi(
  ctx: ApiContext,
  exchange: { req: IncomingMessage; res: ServerResponse },
  pathname: string,
): Promise<void> {
  const { req, res } = exchange;
  try {
    const get = GET_ROUTES[pathname];
    const post = POST_ROUTES[pathname];
    if (get === undefined && post === undefined) throw new ApiError(404, `no API at ${pathname}`);
    if (get !== undefined) {
      if (req.method !== 'GET') throw methodNotAllowed(res, 'GET');
      get(ctx, res);
      return;
    }
    if (post === undefined || req.method !== 'POST') throw methodNotAllowed(res, 'POST');
    const body = await readBody(req);
    const result = await post(ctx, body, res);
    sendJson(res, 200, result);
  } catch (error) {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (error instanceof ApiError) sendJson(res, error.status, { error: error.message });
    else sendJson(res, 500, { error: messageOf(error) });
  }
}

function methodNotAllowed(res: ServerResponse, allowed: string): ApiError {
  res.setHeader('Allow', allowed);
  return new ApiError(405, `use ${allowed} for this API`);
}

/**
 * The request's JSON body as an object (`{}` when empty). Throws ApiError: 415 for a body that
 * is not `application/json`, 413 past {@link MAX_BODY_BYTES}, 400 for bad JSON or a non-object.
 */
export async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const text = await bodyText(req);
  if (text.trim() === '') return {};
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\s*(?:;|$)/i.test(type)) {
    throw new ApiError(415, 'send the body as Content-Type: application/json');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, `the body is not valid JSON: ${(error as Error).message}`);
  }
  const object = asObject(parsed);
  if (object === undefined) throw new ApiError(400, 'the body must be a JSON object');
  return object;
}

/**
 * The body as text. Past {@link MAX_BODY_BYTES} rejects with ApiError(413) at once and drains
 * the rest unread, so that the answer can still be sent on the connection.
 */
function bodyText(req: IncomingMessage): Promise<string> {
  const tooLarge = () =>
    new ApiError(413, `the request body is larger than ${String(MAX_BODY_BYTES)} bytes`);
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
    req.resume();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      req.resume();
      reject(tooLarge());
    };
    req.on('data', onData);
    req.once('end', () => {
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.once('error', reject);
  });
}

/** Sends `value` as JSON with `status`. */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
  });
  res.end(body);
}
