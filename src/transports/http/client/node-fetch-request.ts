// The request side of createNodeFetch: its checked settings, a URL parsed into where to connect
// and what to put on the request line, a fetch init made into a head and body ready to write
// (invalid names, values and bodies throw a TypeError before anything is sent), and the errors a
// fetch rejects with.
import type { ConnectionOptions } from 'node:tls';
import { onAbort } from '../../../internal/abort.js';
import type { CancellableInit, FetchCancellation } from './http.js';
import { FETCH_CANCELLATION } from './http.js';

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

/** createNodeFetch's options, checked and defaulted. */
export interface Settings {
  readonly maxSockets: number;
  readonly idleTimeoutMs: number;
  readonly maxHeaderBytes: number;
  readonly maxBodyBytes: number;
  readonly tls: Omit<ConnectionOptions, 'host' | 'port' | 'servername' | 'socket'>;
}

/** A parsed URL: where to connect and what to put on the request line. */
export interface Target {
  readonly origin: string;
  readonly secure: boolean;
  readonly hostname: string;
  readonly port: number;
  readonly hostHeader: string;
  readonly path: string;
}

/** A request ready to write. */
export interface Request1 {
  readonly method: string;
  readonly head: string;
  readonly body: string | Buffer | undefined;
  /** Whether it may be sent again when a reused connection turns out closed. */
  readonly idempotent: boolean;
}
export function targetOf(input: string | URL, cache: Map<string, Target>): Target {
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

export function requestOf(target: Target, init: RequestInit): Request1 {
  const method = methodOf(init.method);
  let head = `${method} ${target.path} HTTP/1.1\r\nhost: ${target.hostHeader}\r\n`;
  const fields = new FieldLines();
  const { headers } = init;
  if (headers !== undefined) {
    // A record, as the client transports give, is read in place; any other form as pairs.
    if (isRecord(headers)) {
      for (const name in headers) fields.add(name, headers[name]);
    } else {
      for (const [name, value] of pairsOf(headers)) fields.add(name, value);
    }
    head += fields.text;
  }
  const { body, type: bodyType } = bodyOf(init.body);
  if (body !== undefined && (method === 'GET' || method === 'HEAD')) {
    throw new TypeError(`fetch: a ${method} request cannot have a body`);
  }
  if (!fields.accept) head += 'accept: */*\r\n';
  if (bodyType !== undefined && !fields.type) head += `content-type: ${bodyType}\r\n`;
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

/** The method of a request, upper case; throws a TypeError for one that is not a token. */
function methodOf(given: string | undefined): string {
  if (given === undefined || given === 'POST') return given ?? 'GET';
  const method = given.toUpperCase();
  if (!TOKEN.test(method)) throw new TypeError(`fetch: invalid method ${JSON.stringify(method)}`);
  return method;
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

/** The field lines of a request's headers, checked, and whether they hold accept and content-type. */
class FieldLines {
  text = '';
  accept = false;
  type = false;

  /** Adds header `name` (skipped when undefined, or one the fetch sets itself). Throws a TypeError for an invalid one. */
  add(name: string, value: unknown): void {
    if (value === undefined) return;
    const lower = headerName(name);
    if (lower === null) return;
    this.text += `${lower}: ${headerValue(name, value)}\r\n`;
    if (lower === 'accept') this.accept = true;
    else if (lower === 'content-type') this.type = true;
  }
}

/** A header's value as sent: a string (other values as JSON), trimmed; throws a TypeError on CR, LF or NUL. */
function headerValue(name: string, given: unknown): string {
  const value = typeof given === 'string' ? given : JSON.stringify(given);
  const last = value.length - 1;
  // trim() only where an end may be whitespace: most values need none.
  const trimmed =
    last >= 0 && (edgeMayTrim(value.charCodeAt(0)) || edgeMayTrim(value.charCodeAt(last)))
      ? value.trim()
      : value;
  if (BAD_VALUE.test(trimmed)) {
    throw new TypeError(`fetch: invalid value of header ${name} (CR, LF or NUL)`);
  }
  return trimmed;
}

/** Whether a character may be whitespace that `trim` removes (every one that is, and more). */
function edgeMayTrim(c: number): boolean {
  return c <= 32 || c >= 127;
}

function isRecord(headers: HeadersInit): headers is Record<string, string> {
  return !(headers instanceof Headers) && !Array.isArray(headers);
}

/** The headers of a Headers object or an array of pairs, as pairs (checked). */
function pairsOf(headers: Headers | readonly unknown[]): [string, unknown][] {
  const pairs: [string, unknown][] = [];
  if (headers instanceof Headers) {
    headers.forEach((value, name) => {
      pairs.push([name, value]);
    });
    return pairs;
  }
  for (const pair of headers) {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string') {
      throw new TypeError('fetch: each header must be a [name, value] pair of strings');
    }
    pairs.push([pair[0], pair[1]]);
  }
  return pairs;
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

/** What a fetch cancelled with `reason` rejects with: the reason when an Error, else an AbortError. */
export function abortError(reason: unknown): Error {
  return reason instanceof Error
    ? reason
    : new DOMException('This operation was aborted', 'AbortError');
}

/**
 * The cancellation of a fetch `init`: its {@link FETCH_CANCELLATION} (no AbortSignal made), else
 * its `signal`, followed through a listener; undefined for neither.
 */
export function cancellationOf(init: CancellableInit): FetchCancellation | undefined {
  const own = init[FETCH_CANCELLATION];
  if (own !== undefined) return own;
  const signal = init.signal ?? undefined;
  return signal === undefined ? undefined : new SignalCancellation(signal);
}

/** An AbortSignal as a FetchCancellation. */
class SignalCancellation implements FetchCancellation {
  readonly #signal: AbortSignal;

  constructor(signal: AbortSignal) {
    this.#signal = signal;
  }

  get aborted(): boolean {
    return this.#signal.aborted;
  }

  get reason(): unknown {
    return this.#signal.reason as unknown;
  }

  follow(listener: (reason: unknown) => void): () => void {
    return onAbort(this.#signal, listener);
  }
}

export function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}
