// The node:http face of the Streamable HTTP handler. It writes straight to ServerResponse (no
// Request/Response objects): the body is read into one Buffer under the size and time limits,
// JSON goes out with one writeHead + end, and SSE honours 'drain'.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { noop } from '../../../internal/noop.js';
import { encodePieces } from '../../../jsonrpc/codec.js';
import type { BodyDone, BodyLimits, HttpExchange, HttpReply, SseChunk } from './exchange.js';
import { ErrorCode } from '../../../jsonrpc/errors.js';
import { JSON_HEADERS, errorReply, isStreamBody } from './exchange.js';
import type { ConnectableFactory, StreamableHttpHandler } from './handler.js';
import { createStreamableHttpHandler } from './handler.js';
import type { CloseOptions, StreamableHttpOptions } from './options.js';
import { LOOPBACK_HOSTS } from './options.js';
import { readBody } from './node-body.js';
import { lingerOnClose } from './node-linger.js';
import { splitHost } from './security.js';

export type { CloseOptions } from './options.js';

/** A node:http request listener. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Adapts a handler to node:http. Authentication a middleware stored as `req.auth` reaches
 * handlers as `ctx.transport.auth`. Failures never escape: the response becomes a 500.
 */
export function toNodeHandler(handler: StreamableHttpHandler): NodeHandler {
  return (req, res) => {
    try {
      handler.serve(new NodeExchange(req, res), (reply) => {
        send(res, reply);
      });
    } catch {
      failed(res); // a handler's own bug: never let it reach node:http's listener
    }
  };
}

/** Answers 500 to a request whose handler failed (or ends a response already begun). */
function failed(res: ServerResponse): void {
  if (!res.headersSent) res.writeHead(500);
  res.end();
}

/** Writes a reply; one node:http refuses (bad header bytes) drops the connection. */
function send(res: ServerResponse, reply: HttpReply): void {
  // Only a refused body closes the connection: let the client finish sending and read why.
  if (reply.headers['connection'] === 'close') lingerOnClose(res.socket);
  try {
    write(res, reply);
  } catch {
    res.destroy();
  }
}

/** Creates a handler for `factory` and adapts it to node:http. */
export function createNodeHandler(
  factory: ConnectableFactory,
  options?: StreamableHttpOptions,
): NodeHandler {
  return toNodeHandler(createStreamableHttpHandler(factory, options));
}

/** One node:http request as the core sees it: its body read by events, its close by 'close'. */
class NodeExchange implements HttpExchange {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  auth: unknown;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;

  constructor(req: IncomingMessage, res: ServerResponse) {
    this.method = req.method ?? 'GET';
    this.url = req.url ?? '/';
    this.headers = req.headers;
    this.auth = (req as { auth?: unknown }).auth;
    this.#req = req;
    this.#res = res;
  }

  onClose(listener: () => void): () => void {
    const res = this.#res;
    if (res.writableFinished) return noop;
    if (res.destroyed) {
      queueMicrotask(listener);
      return noop;
    }
    // 'close' comes once per response; `on` spares the wrapper `once` makes. Stopping forgets
    // the listener and leaves the handler on (it dies with the response): `off` costs more.
    let watching: (() => void) | undefined = listener;
    res.on('close', () => {
      if (watching !== undefined && !res.writableFinished) watching();
    });
    return () => {
      watching = undefined;
    };
  }

  readBody(limits: BodyLimits, done: BodyDone): void {
    readBody(this.#req, limits, done);
  }
}

function write(res: ServerResponse, reply: HttpReply): void {
  if (res.destroyed) return;
  const { body, status } = reply;
  if (body === null) {
    // Content-Length: 0 rather than an empty chunked body (none on statuses that have no body).
    const empty = status === 204 || status === 304 || status < 200;
    res.writeHead(status, empty ? reply.headers : withLength(reply.headers, 0));
    res.end();
  } else if (isStreamBody(body)) {
    res.writeHead(reply.status, reply.headers);
    res.flushHeaders();
    pump(res, body).catch(() => {
      res.destroy();
    });
  } else {
    // With its length: writeHead fixes the head at once, so without Content-Length node:http
    // would frame the body as chunked (more bytes, and a writev of four buffers).
    const text = encodePieces(body, true);
    if (typeof text !== 'string') {
      writePieces(res, reply, text);
      return;
    }
    res.writeHead(status, withLength(reply.headers, Buffer.byteLength(text)));
    res.end(text);
  }
}

/**
 * Writes a body given in pieces (one a large text), each as it is: joined, a large text would be
 * copied once more, and once again when node:http puts the head before it (issue #44).
 */
function writePieces(
  res: ServerResponse,
  reply: HttpReply,
  pieces: readonly (string | Uint8Array)[],
): void {
  let length = 0;
  for (const piece of pieces) length += Buffer.byteLength(piece);
  res.writeHead(reply.status, withLength(reply.headers, length));
  const last = pieces.length - 1;
  for (let i = 0; i < last; i++) res.write(pieces[i]);
  res.end(pieces[last]);
}

/**
 * The headers plus Content-Length, as the flat name/value list writeHead takes (no copy of the
 * object, which may be shared and frozen; the list is cheaper for node:http to walk).
 */
function withLength(headers: Readonly<Record<string, string>>, length: number): string[] {
  if (headers === JSON_HEADERS)
    return ['content-type', 'application/json', 'content-length', String(length)];
  const flat: string[] = [];
  for (const name in headers) flat.push(name, headers[name] as string);
  flat.push('content-length', String(length));
  return flat;
}

/** Copies SSE text to the response, waiting for 'drain' when the socket is backed up. */
async function pump(res: ServerResponse, body: AsyncIterable<SseChunk>): Promise<void> {
  const iterator = body[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done === true || res.destroyed) break;
      if (!res.write(next.value)) await drained(res);
    }
  } finally {
    await iterator.return?.();
    res.end();
  }
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

const OVER_LIMIT = Symbol('mcpkit over the connection limit');
type CountedSocket = Socket & { [OVER_LIMIT]?: boolean };

const TOO_MANY_CONNECTIONS: HttpReply = errorReply(
  503,
  { code: ErrorCode.InternalError, message: 'too many connections' },
  { 'retry-after': '1', connection: 'close' },
);

/** Marks each connection opened while `max` others are open; node:http then answers it 503. */
function countConnections(server: Server, max: number): void {
  let open = 0;
  server.on('connection', (socket: CountedSocket) => {
    if (open >= max) {
      socket[OVER_LIMIT] = true;
      return;
    }
    open++;
    socket.once('close', () => {
      open--;
    });
  });
}

/** Options of {@link listen}: where to bind, plus the handler's options when given a factory. */
export interface ListenOptions extends StreamableHttpOptions {
  /** The address to bind. Default `127.0.0.1` (loopback only). */
  host?: string;
  /** The port; 0 picks a free one. Default 0. */
  port?: number;
  /**
   * Most open connections. A request on a connection beyond it is answered 503 (`Retry-After`,
   * -32603 "too many connections") and its connection closed. Default 10 000.
   */
  maxConnections?: number;
}

/** A running server, from {@link listen}. */
export interface Listening {
  /** The MCP endpoint's URL (`http://127.0.0.1:<port>/mcp`). */
  readonly url: string;
  /** The bound port. */
  readonly port: number;
  /** The node:http server. */
  readonly server: Server;
  /**
   * Stops listening (new connections are refused) and closes every session, stream and
   * connection. With `graceMs`, requests in flight get that long to finish first, while new
   * requests on open connections get 503 and GET streams end with a `retry` hint (the handler's
   * `close`). Idempotent: later calls return the first call's promise.
   */
  close(options?: CloseOptions): Promise<void>;
}

/**
 * Serves a handler, or a factory, on node:http. Binding outside loopback with a factory
 * requires explicit `allowedHosts` (a TypeError otherwise), so that the Host check is never
 * silently wrong.
 */
export async function listen(
  target: StreamableHttpHandler | ConnectableFactory,
  options: ListenOptions = {},
): Promise<Listening> {
  const { host = '127.0.0.1', port = 0, maxConnections = 10_000, ...handlerOptions } = options;
  if (!(maxConnections >= 1)) throw new TypeError('maxConnections must be at least 1');
  const loopback = LOOPBACK_HOSTS.includes(
    splitHost(host.includes(':') ? `[${host}]` : host)?.name ?? '',
  );
  if (typeof target === 'function' && !loopback && handlerOptions.allowedHosts === undefined) {
    throw new TypeError(
      `binding to ${host} needs explicit allowedHosts (the default allows loopback names only)`,
    );
  }
  const handler =
    typeof target === 'function' ? createStreamableHttpHandler(target, handlerOptions) : target;
  const serve = toNodeHandler(handler);
  let closing: Promise<void> | undefined;
  const server = createServer((req, res) => {
    // Once closing, every answer ends its connection: keep-alive clients reconnect elsewhere.
    if (closing !== undefined) res.shouldKeepAlive = false;
    if ((req.socket as CountedSocket)[OVER_LIMIT] === true) send(res, TOO_MANY_CONNECTIONS);
    else serve(req, res);
  });
  countConnections(server, maxConnections);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${String(bound)}${handler.options.path}`,
    port: bound,
    server,
    close(options) {
      const graceMs = options?.graceMs ?? 0;
      if (!(graceMs >= 0)) return Promise.reject(new TypeError('graceMs must be at least 0'));
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => {
          server.close(() => {
            resolve();
          });
        });
        await handler.close(options);
        server.closeAllConnections();
        await stopped;
      })();
      return closing;
    },
  };
}
