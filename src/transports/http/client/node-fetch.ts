// A fetch for Node written on node:net and node:tls: HTTP/1.1 with keep-alive, one write per
// request, and a response parser that does only what the Streamable HTTP client transport reads.
// The global fetch (undici) spends most of a small JSON-RPC exchange's CPU time in its own
// machinery (web streams, request cloning, timing info), and node:http's ClientRequest still
// costs several times a raw socket's; a gateway forwarding every call pays it on each.
//
// Scope, stated as the contract: http: and https: URLs; bodies of type string, bytes or
// URLSearchParams; the response body buffered (content-length, chunked or until close), except
// `text/event-stream`, which streams; redirects are returned, not followed (`redirect: 'manual'`
// semantics); no cookies, no proxy, no compression asked for (gzip, deflate and br are decoded
// when a buffered body comes compressed anyway). Failures reject as fetch does: a TypeError
// "fetch failed" with the cause, or the abort signal's reason.
import type { Socket } from 'node:net';
import { connect as netConnect } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { connect as tlsConnect } from 'node:tls';
import { BufferedResponse, NO_BODY_STATUS } from './buffered-response.js';
import {
  MAX_CHUNK_LINE,
  chunkSize,
  decoded,
  fieldLines,
  isTrailerLine,
  statusLine,
} from './http1-syntax.js';

/** What {@link createNodeFetch} returns: a fetch, plus `close()` for its idle connections. */
export interface NodeFetch {
  (input: string | URL, init?: RequestInit): Promise<Response>;
  /** Closes every idle connection; requests in flight finish. Later requests open new ones. */
  close(): void;
}

/** Options of {@link createNodeFetch}. */
export interface NodeFetchOptions {
  /** Most connections per origin; more requests wait for one. Default 256. */
  readonly maxSockets?: number;
  /** An idle connection is closed after this long (below servers' usual 5 s). Default 4000. */
  readonly idleTimeoutMs?: number;
  /** Largest response head (1xx heads before it included), and apart the trailers. Default 65 536. */
  readonly maxHeaderBytes?: number;
  /** Largest buffered (non-stream) response body, as received and once decoded. Default 64 MiB. */
  readonly maxBodyBytes?: number;
  /** TLS settings of https: connections (`ca`, `cert`, `key`, `rejectUnauthorized`, …). */
  readonly tls?: Omit<ConnectionOptions, 'host' | 'port' | 'servername' | 'socket'>;
}

const FORBIDDEN = new Set([
  'host',
  'content-length',
  'connection',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
]);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const BAD_VALUE = /[\r\n\0]/;
const CRLF2 = Buffer.from('\r\n\r\n');
const LF2 = Buffer.from('\n\n');
const EMPTY = Buffer.alloc(0);

/**
 * A fetch for Node over raw keep-alive connections: one pool of at most `maxSockets` per origin,
 * idle connections unreferenced (they never keep the process alive). Safe for concurrent use.
 */
export function createNodeFetch(options: NodeFetchOptions = {}): NodeFetch {
  const settings: Settings = {
    maxSockets: positive(options.maxSockets, 256, 'maxSockets'),
    idleTimeoutMs: positive(options.idleTimeoutMs, 4000, 'idleTimeoutMs'),
    maxHeaderBytes: positive(options.maxHeaderBytes, 65_536, 'maxHeaderBytes'),
    maxBodyBytes: positive(options.maxBodyBytes, 64 * 1024 * 1024, 'maxBodyBytes'),
    tls: options.tls ?? {},
  };
  const pools = new Map<string, Pool>();
  const targets = new Map<string, Target>();
  const fetch = (input: string | URL, init: RequestInit = {}): Promise<Response> => {
    let target: Target;
    let request: Request1;
    try {
      target = targetOf(input, targets);
      request = requestOf(target, init);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new TypeError(String(error)));
    }
    const signal = init.signal ?? undefined;
    if (signal?.aborted === true) return Promise.reject(abortReason(signal));
    let pool = pools.get(target.origin);
    if (pool === undefined) {
      pool = new Pool(target, settings);
      pools.set(target.origin, pool);
    }
    return pool.send(request, signal);
  };
  return Object.assign(fetch, {
    close() {
      for (const pool of pools.values()) pool.closeIdle();
    },
  });
}

interface Settings {
  readonly maxSockets: number;
  readonly idleTimeoutMs: number;
  readonly maxHeaderBytes: number;
  readonly maxBodyBytes: number;
  readonly tls: NodeFetchOptions['tls'];
}

/** A parsed URL: where to connect and what to put on the request line. */
interface Target {
  readonly origin: string;
  readonly secure: boolean;
  readonly hostname: string;
  readonly port: number;
  readonly hostHeader: string;
  readonly path: string;
}

/** A request ready to write. */
interface Request1 {
  readonly method: string;
  readonly head: string;
  readonly body: string | Buffer | undefined;
  /** Whether it may be sent again when a reused connection turns out closed. */
  readonly idempotent: boolean;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(
      `createNodeFetch: ${name} must be a positive integer, got ${String(value)}`,
    );
  }
  return value;
}

function targetOf(input: string | URL, cache: Map<string, Target>): Target {
  const key = typeof input === 'string' ? input : input.href;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  let url: URL;
  try {
    url = new URL(key);
  } catch (error) {
    throw new TypeError(`fetch: invalid URL ${JSON.stringify(key)}`, { cause: error });
  }
  const secure = url.protocol === 'https:';
  if (!secure && url.protocol !== 'http:') {
    throw new TypeError(`fetch: unsupported protocol ${url.protocol} (http: and https: only)`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new TypeError('fetch: a URL with credentials is not allowed');
  }
  const port = url.port === '' ? (secure ? 443 : 80) : Number(url.port);
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const target: Target = {
    origin: url.origin,
    secure,
    hostname,
    port,
    hostHeader: url.host,
    path: `${url.pathname}${url.search}`,
  };
  if (cache.size >= 256) cache.clear();
  cache.set(key, target);
  return target;
}

function requestOf(target: Target, init: RequestInit): Request1 {
  const method = (init.method ?? 'GET').toUpperCase();
  if (!TOKEN.test(method)) throw new TypeError(`fetch: invalid method ${JSON.stringify(method)}`);
  let head = `${method} ${target.path} HTTP/1.1\r\nhost: ${target.hostHeader}\r\n`;
  const has = { accept: false, type: false };
  const add = (name: string, value: string): void => {
    const lower = headerName(name);
    if (lower === null) return;
    const trimmed = value.trim();
    if (BAD_VALUE.test(trimmed)) {
      throw new TypeError(`fetch: invalid value of header ${name} (CR, LF or NUL)`);
    }
    if (lower === 'accept') has.accept = true;
    else if (lower === 'content-type') has.type = true;
    head += `${lower}: ${trimmed}\r\n`;
  };
  forEachHeader(init.headers, add);
  const { body, type } = bodyOf(init.body);
  if (body !== undefined && (method === 'GET' || method === 'HEAD')) {
    throw new TypeError(`fetch: a ${method} request cannot have a body`);
  }
  if (!has.accept) head += 'accept: */*\r\n';
  if (type !== undefined && !has.type) head += `content-type: ${type}\r\n`;
  const length =
    body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  if (body !== undefined || method === 'POST' || method === 'PUT' || method === 'PATCH') {
    head += `content-length: ${String(length)}\r\n`;
  }
  head += '\r\n';
  const idempotent =
    method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || method === 'DELETE';
  return { method, head, body, idempotent };
}

/** Header names already checked: their lower case, or null for one the fetch sets itself. */
const NAMES = new Map<string, string | null>();

/** The lower case of a valid header name; null for a name the fetch sets itself. Throws a TypeError for an invalid one. */
function headerName(name: string): string | null {
  const known = NAMES.get(name);
  if (known !== undefined) return known;
  if (!TOKEN.test(name)) throw new TypeError(`fetch: invalid header name ${JSON.stringify(name)}`);
  const lower = name.toLowerCase();
  const checked = FORBIDDEN.has(lower) ? null : lower;
  // Programs send a few names over and over; the cache stays small whatever they send.
  if (NAMES.size < 256) NAMES.set(name, checked);
  return checked;
}

function forEachHeader(
  headers: RequestInit['headers'],
  add: (name: string, value: string) => void,
): void {
  if (headers === undefined) return;
  if (headers instanceof Headers) {
    headers.forEach((value, name) => {
      add(name, value);
    });
  } else if (Array.isArray(headers)) {
    for (const pair of headers as unknown[]) {
      if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string') {
        throw new TypeError('fetch: each header must be a [name, value] pair of strings');
      }
      add(pair[0], typeof pair[1] === 'string' ? pair[1] : JSON.stringify(pair[1]));
    }
  } else {
    const record = headers as Record<string, unknown>;
    for (const name in record) {
      const value = record[name];
      if (value !== undefined) add(name, typeof value === 'string' ? value : JSON.stringify(value));
    }
  }
}

function bodyOf(body: RequestInit['body']): { body: string | Buffer | undefined; type?: string } {
  if (body === undefined || body === null) return { body: undefined };
  if (typeof body === 'string') return { body, type: 'text/plain;charset=UTF-8' };
  if (body instanceof Uint8Array)
    return { body: Buffer.from(body.buffer, body.byteOffset, body.length) };
  if (body instanceof ArrayBuffer) return { body: Buffer.from(body) };
  if (body instanceof URLSearchParams) {
    return { body: body.toString(), type: 'application/x-www-form-urlencoded;charset=UTF-8' };
  }
  throw new TypeError('fetch: the body must be a string, bytes or URLSearchParams');
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error
    ? reason
    : new DOMException('This operation was aborted', 'AbortError');
}

function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

/** The connections to one origin. */
class Pool {
  readonly #target: Target;
  readonly #settings: Settings;
  readonly #idle: Connection[] = [];
  readonly #waiting: (() => void)[] = [];
  #open = 0;

  constructor(target: Target, settings: Settings) {
    this.#target = target;
    this.#settings = settings;
  }

  async send(request: Request1, signal: AbortSignal | undefined): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const connection = await this.#acquire(signal);
      try {
        return await connection.exchange(request, signal);
      } catch (error) {
        const retry =
          error instanceof StaleConnection &&
          request.idempotent &&
          attempt === 0 &&
          signal?.aborted !== true;
        if (!retry) throw error instanceof StaleConnection ? fetchFailed(error.cause) : error;
      }
    }
  }

  closeIdle(): void {
    for (const connection of this.#idle.splice(0)) connection.destroy();
  }

  /** A connection of this pool: an idle one, a new one, or the next one freed. */
  #acquire(signal: AbortSignal | undefined): Promise<Connection> {
    for (;;) {
      const idle = this.#idle.pop();
      if (idle === undefined) break;
      if (idle.usable) return Promise.resolve(idle);
    }
    if (this.#open < this.#settings.maxSockets) return Promise.resolve(this.#connect());
    return new Promise<Connection>((resolve, reject) => {
      const wake = (): void => {
        signal?.removeEventListener('abort', onAbort);
        this.#acquire(signal).then(resolve, reject);
      };
      const onAbort = (): void => {
        const index = this.#waiting.indexOf(wake);
        if (index >= 0) this.#waiting.splice(index, 1);
        reject(abortReason(signal as AbortSignal));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(wake);
    });
  }

  #connect(): Connection {
    this.#open++;
    const { hostname, port, secure } = this.#target;
    const socket = secure
      ? tlsConnect({
          ...this.#settings.tls,
          host: hostname,
          port,
          servername: isIp(hostname) ? undefined : hostname,
          ALPNProtocols: ['http/1.1'],
        })
      : netConnect({ host: hostname, port });
    socket.setNoDelay(true);
    return new Connection(socket, this.#settings, {
      release: (connection) => {
        this.#release(connection);
      },
      closed: (connection) => {
        this.#closed(connection);
      },
    });
  }

  #release(connection: Connection): void {
    const next = this.#waiting.shift();
    this.#idle.push(connection);
    next?.();
  }

  #closed(connection: Connection): void {
    this.#open--;
    const index = this.#idle.indexOf(connection);
    if (index >= 0) this.#idle.splice(index, 1);
    this.#waiting.shift()?.();
  }
}

function isIp(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}

/** A reused connection closed before any byte of the response: the request may be sent again. */
class StaleConnection extends Error {}

interface PoolHooks {
  release(connection: Connection): void;
  closed(connection: Connection): void;
}

type Phase = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'eof';

/**
 * One socket and the exchange on it. Requests go one at a time (no pipelining); the response
 * parser is incremental. Listeners stay on the socket for its whole life.
 */
class Connection {
  readonly #socket: Socket;
  readonly #settings: Settings;
  readonly #hooks: PoolHooks;
  #used = false;
  #dead = false;
  #exchange: Exchange | undefined;

  constructor(socket: Socket, settings: Settings, hooks: PoolHooks) {
    this.#socket = socket;
    this.#settings = settings;
    this.#hooks = hooks;
    socket.on('data', (chunk: Buffer) => {
      this.#data(chunk);
    });
    socket.on('end', () => {
      this.#end();
    });
    socket.on('error', (error) => {
      this.#fail(error);
    });
    socket.on('close', () => {
      this.#close();
    });
    socket.on('timeout', () => {
      this.destroy();
    });
  }

  /** Whether it can carry a request now. */
  get usable(): boolean {
    return !this.#dead && this.#exchange === undefined && this.#socket.readyState === 'open';
  }

  destroy(error?: Error): void {
    this.#dead = true;
    this.#socket.destroy(error);
  }

  exchange(request: Request1, signal: AbortSignal | undefined): Promise<Response> {
    const reused = this.#used;
    this.#used = true;
    this.#socket.setTimeout(0);
    this.#socket.ref();
    return new Promise<Response>((resolve, reject) => {
      const exchange = new Exchange({ request, settings: this.#settings, reused }, resolve, reject);
      exchange.onResume = () => this.#socket.resume();
      exchange.onCancel = () => {
        this.destroy();
      };
      this.#exchange = exchange;
      if (signal !== undefined) {
        const onAbort = (): void => {
          const reason = abortReason(signal);
          exchange.fail(reason);
          this.destroy();
        };
        signal.addEventListener('abort', onAbort, { once: true });
        exchange.cleanup = () => {
          signal.removeEventListener('abort', onAbort);
        };
      }
      this.#write(request);
    });
  }

  #write(request: Request1): void {
    const { head, body } = request;
    if (body === undefined) this.#socket.write(head, 'latin1');
    else if (typeof body === 'string') this.#socket.write(head + body);
    else {
      this.#socket.cork();
      this.#socket.write(head, 'latin1');
      this.#socket.write(body);
      this.#socket.uncork();
    }
  }

  #data(chunk: Buffer): void {
    const exchange = this.#exchange;
    if (exchange === undefined) {
      this.destroy(); // bytes nobody asked for: the connection cannot be trusted any more
      return;
    }
    let outcome: Outcome;
    try {
      outcome = exchange.feed(chunk);
    } catch (error) {
      exchange.fail(fetchFailed(error));
      this.#exchange = undefined;
      this.destroy();
      return;
    }
    if (outcome === 'done') this.#finish(exchange.reusable);
    else if (outcome === 'pause') this.#socket.pause();
  }

  #end(): void {
    const exchange = this.#exchange;
    if (exchange === undefined) return;
    if (exchange.endOfStream()) this.#finish(false);
  }

  #fail(error: Error): void {
    const exchange = this.#exchange;
    this.#dead = true;
    if (exchange === undefined) return;
    exchange.fail(
      exchange.stale ? new StaleConnection('closed', { cause: error }) : fetchFailed(error),
    );
    this.#exchange = undefined;
  }

  #close(): void {
    this.#dead = true;
    const exchange = this.#exchange;
    if (exchange !== undefined) {
      const cause = new Error('the server closed the connection before the response ended');
      if (!exchange.endOfStream()) {
        exchange.fail(
          exchange.stale ? new StaleConnection('closed', { cause }) : fetchFailed(cause),
        );
      }
      this.#exchange = undefined;
    }
    this.#hooks.closed(this);
  }

  #finish(reusable: boolean): void {
    this.#exchange?.cleanup?.();
    this.#exchange = undefined;
    if (!reusable || this.#dead) {
      this.destroy();
      return;
    }
    this.#socket.setTimeout(this.#settings.idleTimeoutMs);
    this.#socket.unref();
    this.#hooks.release(this);
  }
}

type Outcome = 'more' | 'done' | 'pause';

/** One request's response, parsed as it arrives. */
class Exchange {
  readonly #request: Request1;
  readonly #settings: Settings;
  readonly #reused: boolean;
  #resolve: ((response: Response) => void) | undefined;
  #reject: ((error: Error) => void) | undefined;
  #phase: Phase = 'head';
  #pending: Buffer = EMPTY;
  /** Where `#pending` grows: a buffer with room to spare, so a head sent byte by byte is linear. */
  #room: Buffer = EMPTY;
  /** How far `#pending` was searched already for the end of the head or line it holds. */
  #scanned = 0;
  #received = 0;
  /** Bytes of the head so far (1xx heads included), then of the trailers. */
  #headBytes = 0;
  #status = 0;
  #statusText = '';
  #headers = new Map<string, string>();
  #remaining = 0;
  #chunks: Buffer[] = [];
  #bodyBytes = 0;
  #stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  reusable = true;
  streaming = false;
  cleanup: (() => void) | undefined;
  /** Set by the connection: the reader of a stream wants more (the socket was paused). */
  onResume: (() => void) | undefined;
  /** Set by the connection: the reader cancelled the stream (the connection is dropped). */
  onCancel: (() => void) | undefined;

  constructor(
    { request, settings, reused }: { request: Request1; settings: Settings; reused: boolean },
    resolve: (response: Response) => void,
    reject: (error: Error) => void,
  ) {
    this.#request = request;
    this.#settings = settings;
    this.#reused = reused;
    this.#resolve = resolve;
    this.#reject = reject;
  }

  /** A reused connection that failed before any response byte. */
  get stale(): boolean {
    return this.#reused && this.#received === 0;
  }

  feed(chunk: Buffer): Outcome {
    this.#received += chunk.length;
    let data = this.#pending.length === 0 ? chunk : this.#append(chunk);
    this.#pending = EMPTY;
    while (data.length > 0) {
      switch (this.#phase) {
        case 'head': {
          const rest = this.#readHead(data);
          if (typeof rest === 'string') return rest;
          data = rest;
          continue;
        }
        case 'length': {
          const take = Math.min(this.#remaining, data.length);
          const out = this.#body(take === data.length ? data : data.subarray(0, take));
          this.#remaining -= take;
          data = data.subarray(take);
          if (this.#remaining === 0) return this.#complete(data);
          if (out === 'pause') return 'pause';
          continue;
        }
        case 'eof':
          return this.#body(data);
        case 'chunk-size': {
          const end = data.indexOf('\r\n', this.#scanned);
          this.#scanned = 0;
          if ((end < 0 ? data.length - 1 : end) > MAX_CHUNK_LINE) {
            throw new Error(`a chunk size line is longer than ${String(MAX_CHUNK_LINE)} bytes`);
          }
          if (end < 0) return this.#wait(data, 1);
          const size = chunkSize(data.toString('latin1', 0, end));
          data = data.subarray(end + 2);
          this.#remaining = size;
          this.#phase = size === 0 ? 'trailers' : 'chunk-data';
          this.#headBytes = 0;
          continue;
        }
        case 'chunk-data': {
          const take = Math.min(this.#remaining, data.length);
          const out = this.#body(take === data.length ? data : data.subarray(0, take));
          this.#remaining -= take;
          data = data.subarray(take);
          if (this.#remaining === 0) this.#phase = 'chunk-end';
          if (out === 'pause' && data.length === 0) return 'pause';
          continue;
        }
        case 'chunk-end': {
          if (data.length < 2) {
            this.#pending = data;
            return 'more';
          }
          if (data[0] !== 13 || data[1] !== 10) throw new Error('a chunk does not end with CRLF');
          data = data.subarray(2);
          this.#phase = 'chunk-size';
          continue;
        }
        case 'trailers': {
          const rest = this.#readTrailer(data);
          if (typeof rest === 'string') return rest;
          data = rest;
          continue;
        }
      }
    }
    return 'more';
  }

  /** Reads a head (a 1xx one, or the response's) from `data`: what follows it, or the outcome. */
  #readHead(data: Buffer): Buffer | Outcome {
    // Up to 3 bytes of a CRLFCRLF not yet whole: the cap holds however the bytes are split.
    const from = this.#scanned;
    this.#scanned = 0;
    const end = data.indexOf(CRLF2, from);
    if (this.#headBytes + (end < 0 ? data.length - 3 : end) > this.#settings.maxHeaderBytes) {
      throw new Error(
        `the response head is larger than ${String(this.#settings.maxHeaderBytes)} bytes`,
      );
    }
    if (end < 0) {
      if (data.includes(LF2, from))
        throw new Error('a line of the response head ends in a bare LF');
      return this.#wait(data, 3);
    }
    this.#headBytes += end + 4;
    const final = this.#head(data.toString('latin1', 0, end));
    const rest = data.subarray(end + 4);
    // After an informational (1xx) head, the next head follows.
    return final && this.#bodiless() ? this.#complete(rest) : rest;
  }

  /** Reads a trailer line from `data`: what follows it, or the outcome. */
  #readTrailer(data: Buffer): Buffer | Outcome {
    const end = data.indexOf('\r\n', this.#scanned);
    this.#scanned = 0;
    if (this.#headBytes + (end < 0 ? data.length - 1 : end) > this.#settings.maxHeaderBytes) {
      throw new Error(
        `the trailers are larger than ${String(this.#settings.maxHeaderBytes)} bytes`,
      );
    }
    if (end < 0) return this.#wait(data, 1);
    if (end === 0) return this.#complete(data.subarray(2));
    const line = data.toString('latin1', 0, end);
    if (!isTrailerLine(line))
      throw new Error(`an invalid trailer line ${JSON.stringify(line.slice(0, 80))}`);
    this.#headBytes += end + 2;
    return data.subarray(end + 2);
  }

  /** Keeps `data` for the next chunk; its last `overlap` bytes may begin what is searched for. */
  #wait(data: Buffer, overlap: number): Outcome {
    this.#pending = data;
    this.#scanned = Math.max(0, data.length - overlap);
    return 'more';
  }

  /** `#pending` and then `chunk`, in `#room` (grown by doubling when short). */
  #append(chunk: Buffer): Buffer {
    const pending = this.#pending;
    const length = pending.length + chunk.length;
    let at = pending.byteOffset - this.#room.byteOffset;
    if (pending.buffer !== this.#room.buffer || at + length > this.#room.length) {
      // Bytes before `at` may be views a buffered body holds: a new room, never a move.
      this.#room = Buffer.allocUnsafeSlow(Math.max(2 * length, 256));
      at = 0;
      pending.copy(this.#room);
    }
    chunk.copy(this.#room, at + pending.length);
    return this.#room.subarray(at, at + length);
  }

  /** Whether the head just parsed has no body to wait for. */
  #bodiless(): boolean {
    return this.#phase === 'length' && this.#remaining === 0;
  }

  /** The peer ended the stream. Returns whether the response completed with it. */
  endOfStream(): boolean {
    if (this.#phase !== 'eof') return false;
    try {
      this.#complete();
    } catch (error) {
      this.fail(fetchFailed(error)); // a body that does not decode
    }
    return true;
  }

  fail(error: Error): void {
    this.cleanup?.();
    if (this.#reject !== undefined) {
      const reject = this.#reject;
      this.#resolve = undefined;
      this.#reject = undefined;
      reject(error);
    } else if (this.#stream !== undefined) {
      this.#stream.error(error);
      this.#stream = undefined;
    }
  }

  /** Parses a response head; false for an informational (1xx) one, which another follows. */
  #head(text: string): boolean {
    const lines = text.split('\r\n');
    const { http10, status, reason } = statusLine(lines[0] as string);
    const informational = status < 200;
    fieldLines(lines, informational ? new Map<string, string>() : this.#headers);
    if (informational) {
      if (status === 101)
        throw new Error('the server switched protocols (101), which fetch does not do');
      return false;
    }
    this.#status = status;
    this.#statusText = reason;
    const connection = this.#headers.get('connection')?.toLowerCase() ?? '';
    if (connection.includes('close') || (http10 && !connection.includes('keep-alive'))) {
      this.reusable = false;
    }
    this.#frame();
    return true;
  }

  /** Chooses how the body is delimited, and whether it streams. */
  #frame(): void {
    const headers = this.#headers;
    const status = this.#status;
    if (this.#request.method === 'HEAD' || NO_BODY_STATUS.has(status)) {
      this.#phase = 'length';
      this.#remaining = 0;
      return;
    }
    const encoding = headers.get('transfer-encoding');
    const length = headers.get('content-length');
    if (encoding !== undefined && length !== undefined) {
      throw new Error('both transfer-encoding and content-length (RFC 9112 §6.3: an error)');
    }
    if (encoding !== undefined) {
      if (!/(?:^|,)\s*chunked\s*$/i.test(encoding)) {
        throw new Error(`an unsupported transfer-encoding ${JSON.stringify(encoding)}`);
      }
      this.#phase = 'chunk-size';
    } else if (length !== undefined) {
      if (!/^\d+$/.test(length) || !Number.isSafeInteger(Number(length))) {
        throw new Error(`an invalid content-length ${JSON.stringify(length)}`);
      }
      this.#phase = 'length';
      this.#remaining = Number(length);
    } else {
      this.#phase = 'eof';
      this.reusable = false;
    }
    const type = headers.get('content-type') ?? '';
    const mediaType = type.split(';', 1)[0]?.trim().toLowerCase();
    if (mediaType === 'text/event-stream' && status >= 200 && status <= 599) this.#startStream();
  }

  #startStream(): void {
    this.streaming = true;
    const encoding = this.#headers.get('content-encoding');
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
      throw new Error(`a compressed event stream (${encoding}) is not supported`);
    }
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>(
      {
        start: (c) => {
          controller = c;
        },
        pull: () => {
          this.onResume?.();
        },
        cancel: () => {
          this.#stream = undefined;
          this.reusable = false;
          this.onCancel?.();
        },
      },
      { highWaterMark: 16 },
    );
    this.#stream = controller;
    const response = new Response(body, {
      status: this.#status,
      statusText: this.#statusText,
      headers: [...this.#headers],
    });
    this.#settle(response);
  }

  #body(data: Buffer): Outcome {
    if (data.length === 0) return 'more';
    if (this.#stream !== undefined) {
      this.#stream.enqueue(new Uint8Array(data));
      return (this.#stream.desiredSize ?? 1) <= 0 ? 'pause' : 'more';
    }
    if (this.streaming) return 'more'; // cancelled: drop
    this.#bodyBytes += data.length;
    if (this.#bodyBytes > this.#settings.maxBodyBytes) {
      throw new Error(
        `the response body is larger than ${String(this.#settings.maxBodyBytes)} bytes`,
      );
    }
    this.#chunks.push(data);
    return 'more';
  }

  /** The response ended; `rest` is what followed it (unasked bytes: the connection is not reused). */
  #complete(rest: Buffer = EMPTY): Outcome {
    if (rest.length > 0) this.reusable = false;
    this.#phase = 'head';
    if (this.#stream !== undefined) {
      this.#stream.close();
      this.#stream = undefined;
    } else if (!this.streaming) {
      const chunks = this.#chunks;
      let bytes =
        chunks.length === 0
          ? EMPTY
          : chunks.length === 1
            ? (chunks[0] as Buffer)
            : Buffer.concat(chunks);
      bytes = decoded(bytes, this.#headers.get('content-encoding'), this.#settings.maxBodyBytes);
      const response = new BufferedResponse({
        status: this.#status,
        statusText: this.#statusText,
        raw: this.#headers,
        bytes,
      });
      this.#settle(response as unknown as Response);
    }
    this.cleanup?.();
    return 'done';
  }

  #settle(response: Response): void {
    const resolve = this.#resolve;
    this.#resolve = undefined;
    this.#reject = undefined;
    resolve?.(response);
  }
}
