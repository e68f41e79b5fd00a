// The node:http face of the Streamable HTTP handler. It writes straight to ServerResponse (no
// Request/Response objects): the body is read into one Buffer under the size and time limits,
// JSON goes out with one writeHead + end, and SSE honours 'drain'.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isPromise } from '../../internal/maybe.js';
import type { BodyLimits, HttpExchange, HttpReply } from './exchange.js';
import { BodyError, JSON_HEADERS, isStreamBody } from './exchange.js';
import type { ConnectableFactory, StreamableHttpHandler } from './handler.js';
import { createStreamableHttpHandler } from './handler.js';
import type { StreamableHttpOptions } from './options.js';
import { LOOPBACK_HOSTS } from './options.js';
import { splitHost } from './security.js';

/** A node:http request listener. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Adapts a handler to node:http. Authentication a middleware stored as `req.auth` reaches
 * handlers as `ctx.transport.auth`. Failures never escape: the response becomes a 500.
 */
export function toNodeHandler(handler: StreamableHttpHandler): NodeHandler {
  const sent = (res: ServerResponse, reply: HttpReply): void => {
    try {
      write(res, reply);
    } catch {
      res.destroy(); // a reply node:http refuses (bad header bytes): drop the connection
    }
  };
  return (req, res) => {
    const exchange = new NodeExchange(req, res);
    const reply = handler.respond?.(exchange) ?? handler.handle(exchange);
    if (!isPromise(reply)) {
      sent(res, reply);
      return;
    }
    reply.then(
      (answered) => {
        sent(res, answered);
      },
      () => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      },
    );
  };
}

/** Creates a handler for `factory` and adapts it to node:http. */
export function createNodeHandler(
  factory: ConnectableFactory,
  options?: StreamableHttpOptions,
): NodeHandler {
  return toNodeHandler(createStreamableHttpHandler(factory, options));
}

class NodeExchange implements HttpExchange {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly auth: unknown;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  #controller: AbortController | undefined;

  constructor(req: IncomingMessage, res: ServerResponse) {
    this.method = req.method ?? 'GET';
    this.url = req.url ?? '/';
    this.headers = req.headers;
    this.auth = (req as { auth?: unknown }).auth;
    this.#req = req;
    this.#res = res;
  }

  /** Created on first use: most JSON exchanges never need one. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = new AbortController();
      this.#controller = controller;
      const res = this.#res;
      if (res.writableFinished || res.destroyed) {
        if (!res.writableFinished) controller.abort();
      } else {
        res.once('close', () => {
          if (!res.writableFinished) controller.abort(new Error('client disconnected'));
        });
      }
    }
    return this.#controller.signal;
  }

  onClose(listener: () => void): () => void {
    const res = this.#res;
    if (res.writableFinished) return noop;
    if (res.destroyed) {
      queueMicrotask(listener);
      return noop;
    }
    // 'close' comes once per response; `on` spares the wrapper `once` makes.
    const onClose = (): void => {
      if (!res.writableFinished) listener();
    };
    res.on('close', onClose);
    return () => {
      res.off('close', onClose);
    };
  }

  body(limits: BodyLimits): Promise<Uint8Array> {
    return readBody(this.#req, limits);
  }
}

function noop(): void {
  // nothing to stop
}

function readBody(req: IncomingMessage, limits: BodyLimits): Promise<Uint8Array> {
  const declared = Number(req.headers['content-length']);
  if (declared > limits.maxBytes) {
    return Promise.reject(
      new BodyError(413, `request body larger than ${String(limits.maxBytes)} bytes`),
    );
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    // Listeners stay on the request once it settles (it is done with then); `settled` makes
    // late events no-ops. node:http emits 'error' when the client aborts mid-body.
    const fail = (error: BodyError): void => {
      if (settled) return;
      settled = true;
      timer.cancel();
      req.pause();
      reject(error);
    };
    const timer = clockOf(limits.timeoutMs).add(() => {
      fail(new BodyError(408, `request body not received within ${String(limits.timeoutMs)} ms`));
    });
    req.on('data', (chunk: Buffer): void => {
      if (settled) return;
      size += chunk.length;
      if (size > limits.maxBytes) {
        fail(new BodyError(413, `request body larger than ${String(limits.maxBytes)} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', (): void => {
      if (settled) return;
      settled = true;
      timer.cancel();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    });
    req.on('error', (): void => {
      fail(new BodyError(400, 'the request body could not be read'));
    });
  });
}

/** A deadline of a {@link BodyClock}. */
class Deadline {
  readonly at: number;
  readonly expire: () => void;
  readonly #clock: BodyClock;

  constructor(clock: BodyClock, at: number, expire: () => void) {
    this.#clock = clock;
    this.at = at;
    this.expire = expire;
  }

  /** Stops the deadline; idempotent. */
  cancel(): void {
    this.#clock.cancel(this);
  }
}

/**
 * The deadlines of body reads with one timeout length, served by one timer: a setTimeout and
 * clearTimeout per request were 5-7 % of an in-process stateless call (bench/RESULTS.md).
 * Deadlines are added in the order they fall due (on the monotonic clock), so the timer only ever
 * waits for the first. It keeps the process alive only while a deadline is pending, as a timer
 * per read did.
 */
class BodyClock {
  readonly #ms: number;
  readonly #pending = new Set<Deadline>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(ms: number) {
    this.#ms = ms;
  }

  /** Calls `expire` once `ms` milliseconds have passed, unless cancelled first. */
  add(expire: () => void): Deadline {
    const pending = this.#pending;
    const deadline = new Deadline(this, performance.now() + this.#ms, expire);
    pending.add(deadline);
    if (this.#timer === undefined) this.#timer = setTimeout(this.#tick, this.#ms);
    else if (pending.size === 1) this.#timer.ref();
    return deadline;
  }

  /** Forgets `deadline`; the timer stops holding the process open once none is pending. */
  cancel(deadline: Deadline): void {
    const pending = this.#pending;
    if (pending.delete(deadline) && pending.size === 0) this.#timer?.unref();
  }

  readonly #tick = (): void => {
    this.#timer = undefined;
    const now = performance.now();
    for (const deadline of this.#pending) {
      if (deadline.at > now) {
        this.#timer = setTimeout(this.#tick, deadline.at - now);
        return;
      }
      this.#pending.delete(deadline);
      deadline.expire();
    }
  };
}

const clocks = new Map<number, BodyClock>();

/** The clock of one timeout length (there are as many as configured lengths: few). */
function clockOf(ms: number): BodyClock {
  let clock = clocks.get(ms);
  if (clock === undefined) {
    clock = new BodyClock(ms);
    clocks.set(ms, clock);
  }
  return clock;
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
    const text = JSON.stringify(body);
    res.writeHead(status, withLength(reply.headers, Buffer.byteLength(text)));
    res.end(text);
  }
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
async function pump(res: ServerResponse, body: AsyncIterable<string>): Promise<void> {
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

/** Options of {@link listen}: where to bind, plus the handler's options when given a factory. */
export interface ListenOptions extends StreamableHttpOptions {
  /** The address to bind. Default `127.0.0.1` (loopback only). */
  host?: string;
  /** The port; 0 picks a free one. Default 0. */
  port?: number;
}

/** A running server, from {@link listen}. */
export interface Listening {
  /** The MCP endpoint's URL (`http://127.0.0.1:<port>/mcp`). */
  readonly url: string;
  /** The bound port. */
  readonly port: number;
  /** The node:http server. */
  readonly server: Server;
  /** Stops listening and closes every session, stream and connection. Idempotent. */
  close(): Promise<void>;
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
  const { host = '127.0.0.1', port = 0, ...handlerOptions } = options;
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
  const server = createServer(toNodeHandler(handler));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${String(bound)}${handler.options.path}`,
    port: bound,
    server,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => {
          server.close(() => {
            resolve();
          });
        });
        await handler.close();
        server.closeAllConnections();
        await stopped;
      })();
      return closing;
    },
  };
}
