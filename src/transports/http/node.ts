// The node:http face of the Streamable HTTP handler. It writes straight to ServerResponse (no
// Request/Response objects): the body is read into one Buffer under the size and time limits,
// JSON goes out with one writeHead + end, and SSE honours 'drain'.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isPromise } from '../../internal/maybe.js';
import type { BodyDone, BodyLimits, HttpExchange, HttpReply } from './exchange.js';
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
  const { serve } = handler;
  if (serve !== undefined) {
    return (req, res) => {
      serve(new NodeExchange(req, res), (reply) => {
        send(res, reply);
      });
    };
  }
  return (req, res) => {
    const exchange = new NodeExchange(req, res);
    const reply = handler.respond?.(exchange) ?? handler.handle(exchange);
    if (!isPromise(reply)) {
      send(res, reply);
      return;
    }
    reply.then(
      (answered) => {
        send(res, answered);
      },
      () => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      },
    );
  };
}

/** Writes a reply; one node:http refuses (bad header bytes) drops the connection. */
function send(res: ServerResponse, reply: HttpReply): void {
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
    return new Promise((resolve, reject) => {
      readBody(this.#req, limits, (body) => {
        if (body instanceof BodyError) reject(body);
        else resolve(body);
      });
    });
  }

  readBody(limits: BodyLimits, done: BodyDone): void {
    readBody(this.#req, limits, done);
  }
}

function noop(): void {
  // nothing to stop
}

/** Reads a request body under `limits`; `done` is called once (synchronously for a 413 on Content-Length). */
function readBody(req: IncomingMessage, limits: BodyLimits, done: BodyDone): void {
  const declared = Number(req.headers['content-length']);
  if (declared > limits.maxBytes) {
    done(new BodyError(413, `request body larger than ${String(limits.maxBytes)} bytes`));
    return;
  }
  (req as ReadingRequest)[READING] = new BodyRead(req, limits, done);
  // Shared listeners that find the read through the request (node calls them with `this` set
  // to it): no closures per request. They stay on once it settles (it is done with then).
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
}

const READING = Symbol('mcpkit body read');

type ReadingRequest = IncomingMessage & { [READING]?: BodyRead | undefined };

function onData(this: ReadingRequest, chunk: Buffer): void {
  this[READING]?.data(chunk);
}

function onEnd(this: ReadingRequest): void {
  this[READING]?.end();
}

function onError(this: ReadingRequest): void {
  this[READING]?.fail(new BodyError(400, 'the request body could not be read'));
}

/**
 * One body being read under its limits; also its own entry in the deadline list of its
 * {@link BodyClock}. Settles once; later events are no-ops.
 */
class BodyRead {
  readonly #req: ReadingRequest;
  readonly #limits: BodyLimits;
  readonly #done: BodyDone;
  readonly #clock: BodyClock;
  #chunks: Buffer[] = [];
  #size = 0;
  #settled = false;
  /** The clock's tick count when the read began, and the neighbours in its list. */
  started = 0;
  prev: BodyRead | undefined;
  next: BodyRead | undefined;

  constructor(req: ReadingRequest, limits: BodyLimits, done: BodyDone) {
    this.#req = req;
    this.#limits = limits;
    this.#done = done;
    this.#clock = clockOf(limits.timeoutMs);
    this.#clock.add(this);
  }

  data(chunk: Buffer): void {
    if (this.#settled) return;
    this.#size += chunk.length;
    if (this.#size > this.#limits.maxBytes) {
      this.fail(
        new BodyError(413, `request body larger than ${String(this.#limits.maxBytes)} bytes`),
      );
      return;
    }
    this.#chunks.push(chunk);
  }

  end(): void {
    if (this.#settle()) return;
    const chunks = this.#chunks;
    this.#done(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, this.#size));
  }

  fail(error: BodyError): void {
    if (this.#settle()) return;
    this.#req.pause();
    this.#done(error);
  }

  /** The clock's verdict: too slow. */
  expire(): void {
    this.fail(
      new BodyError(408, `request body not received within ${String(this.#limits.timeoutMs)} ms`),
    );
  }

  /** Marks the read settled; true when it already was. */
  #settle(): boolean {
    if (this.#settled) return true;
    this.#settled = true;
    this.#clock.remove(this);
    this.#req[READING] = undefined;
    return false;
  }
}

/** Ticks per timeout length: a read expires between one and 1.25 timeouts after it began. */
const TICKS = 4;

/**
 * The deadlines of body reads with one timeout length. No clock is read and nothing is
 * allocated per read: reads join a list in the order they began, a timer ticks four times per
 * timeout length while the list is not empty, and each tick expires the reads that have seen
 * five ticks (bench/RESULTS.md: a timer, or a Set and a clock reading, per request cost
 * throughput under load). The timer is unref'd: a read in progress holds its socket open anyway.
 */
class BodyClock {
  readonly #period: number;
  #ticks = 0;
  #head: BodyRead | undefined;
  #tail: BodyRead | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(ms: number) {
    this.#period = Math.max(1, Math.ceil(ms / TICKS));
  }

  /** Starts timing `read`. */
  add(read: BodyRead): void {
    read.started = this.#ticks;
    read.prev = this.#tail;
    read.next = undefined;
    if (this.#tail === undefined) this.#head = read;
    else this.#tail.next = read;
    this.#tail = read;
    if (this.#timer === undefined) {
      this.#timer = setInterval(this.#tick, this.#period);
      this.#timer.unref();
    }
  }

  /** Stops timing `read`; idempotent. */
  remove(read: BodyRead): void {
    const { prev, next } = read;
    if (prev === undefined && this.#head !== read) return; // not in the list
    if (prev === undefined) this.#head = next;
    else prev.next = next;
    if (next === undefined) this.#tail = prev;
    else next.prev = prev;
    read.prev = undefined;
    read.next = undefined;
  }

  readonly #tick = (): void => {
    const ticks = ++this.#ticks;
    let read = this.#head;
    while (read !== undefined && ticks - read.started > TICKS) {
      const next = read.next;
      read.expire(); // removes it
      read = next;
    }
    if (this.#head === undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
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
