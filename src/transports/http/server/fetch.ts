// The fetch face of the Streamable HTTP handler: `(Request) => Promise<Response>`, for Workers,
// Deno, Bun, Hono and anything else built on the Fetch API. SSE bodies are ReadableStreams.
import { encode } from '../../../jsonrpc/codec.js';
import { noop } from '../../../internal/noop.js';
import type { BodyDone, BodyLimits, HttpExchange, HttpReply } from './exchange.js';
import { BodyError, isStreamBody } from './exchange.js';
import type { ConnectableFactory, StreamableHttpHandler } from './handler.js';
import { createStreamableHttpHandler } from './handler.js';
import type { StreamableHttpOptions } from './options.js';

/** What a fetch-runtime caller may pass along with a request. */
export interface FetchExtra {
  /** Authentication a middleware established; handlers see it as `ctx.transport.auth`. */
  auth?: unknown;
}

/** A fetch handler. */
export type FetchHandler = (request: Request, extra?: FetchExtra) => Promise<Response>;

/**
 * Adapts a handler to the Fetch API. A client going away is seen through `request.signal` or the
 * cancellation of the response body, whichever the runtime provides.
 */
export function toFetchHandler(handler: StreamableHttpHandler): FetchHandler {
  return async (request, extra) => {
    const exchange = new FetchExchange(request, extra?.auth);
    const reply = await new Promise<HttpReply>((resolve) => {
      handler.serve(exchange, resolve);
    });
    return toResponse(reply, exchange);
  };
}

/** Creates a handler for `factory` and adapts it to the Fetch API. */
export function createFetchHandler(
  factory: ConnectableFactory,
  options?: StreamableHttpOptions,
): FetchHandler {
  return toFetchHandler(createStreamableHttpHandler(factory, options));
}

/**
 * One Request as the core sees it. Made cheaply, because most exchanges are one JSON POST: the
 * client going away (the request's signal, or the response body cancelled) is watched only once
 * the core asks (`onClose`).
 */
class FetchExchange implements HttpExchange {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  auth?: unknown;
  readonly #request: Request;
  #listeners: (() => void)[] | undefined;
  #gone = false;
  /** Listening to request.signal (from the first `signal` or `onClose` until the client goes). */
  #watching = false;

  constructor(request: Request, auth: unknown) {
    this.#request = request;
    const target = requestTarget(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    // A Request built by hand has no Host header: its URL says where it was sent.
    headers['host'] ??= target.host;
    this.method = request.method.toUpperCase();
    this.url = target.path;
    this.headers = headers;
    if (auth !== undefined) this.auth = auth;
  }

  onClose(listener: () => void): () => void {
    if (this.#gone) {
      queueMicrotask(listener);
      return noop;
    }
    (this.#listeners ??= []).push(listener);
    this.#watch();
    return () => {
      const listeners = this.#listeners;
      const at = listeners?.indexOf(listener) ?? -1;
      if (at !== -1) listeners?.splice(at, 1);
    };
  }

  readBody(limits: BodyLimits, done: BodyDone): void {
    readBody(this.#request, limits).then(done, (error: unknown) => {
      done(error instanceof BodyError ? error : new BodyError(400, 'could not read the body'));
    });
  }

  /** The client went away: the request aborted, or the response body was cancelled. */
  readonly clientGone = (): void => {
    if (this.#gone) return;
    this.#gone = true;
    this.#unwatch();
    const listeners = this.#listeners;
    this.#listeners = undefined;
    for (const listener of listeners ?? []) listener();
  };

  #watch(): void {
    if (this.#watching || this.#gone) return;
    const signal = this.#request.signal;
    if (signal.aborted) {
      queueMicrotask(this.clientGone);
      return;
    }
    this.#watching = true;
    signal.addEventListener('abort', this.clientGone, { once: true });
  }

  #unwatch(): void {
    if (!this.#watching) return;
    this.#watching = false;
    this.#request.signal.removeEventListener('abort', this.clientGone);
  }
}

/** The path and query of a serialized request URL, and its host, without parsing a URL object. */
function requestTarget(url: string): { path: string; host: string } {
  const authority = url.indexOf('//');
  if (authority === -1) {
    const parsed = new URL(url);
    return { path: parsed.pathname + parsed.search, host: parsed.host };
  }
  const hash = url.indexOf('#', authority + 2);
  const end = hash === -1 ? url.length : hash;
  const slash = url.indexOf('/', authority + 2);
  const pathAt = slash === -1 || slash > end ? end : slash;
  const query = url.indexOf('?', authority + 2);
  const hostEnd = query !== -1 && query < pathAt ? query : pathAt;
  const path = url.slice(pathAt, end);
  let host = url.slice(authority + 2, hostEnd);
  const at = host.lastIndexOf('@');
  if (at !== -1) host = host.slice(at + 1);
  return { path: path === '' || path[0] === '?' ? `/${path}` : path, host };
}

async function readBody(request: Request, limits: BodyLimits): Promise<Uint8Array> {
  const length = request.headers.get('content-length');
  const declared = Number(length);
  const tooLarge = (): BodyError =>
    new BodyError(413, `request body larger than ${String(limits.maxBytes)} bytes`);
  if (declared > limits.maxBytes) throw tooLarge();
  const stream = request.body;
  if (stream === null) return new Uint8Array(0);
  if (length !== null && Number.isSafeInteger(declared) && declared >= 0) {
    return readDeclared(request, limits, tooLarge);
  }
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new BodyError(408, `request body not received within ${String(limits.timeoutMs)} ms`));
    }, limits.timeoutMs);
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), timeout]);
      if (next.done) break;
      size += next.value.byteLength;
      if (size > limits.maxBytes) throw tooLarge();
      chunks.push(next.value);
    }
  } catch (error) {
    void reader.cancel().catch(noop);
    throw error instanceof BodyError
      ? error
      : new BodyError(400, 'the request body could not be read');
  } finally {
    clearTimeout(timer);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Reads a body whose declared length is within the limit in one `arrayBuffer()` (a runtime's
 * server enforces Content-Length; what came is checked against the limit all the same): one
 * race against the timeout instead of one per chunk read.
 */
async function readDeclared(
  request: Request,
  limits: BodyLimits,
  tooLarge: () => BodyError,
): Promise<Uint8Array> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new BodyError(408, `request body not received within ${String(limits.timeoutMs)} ms`));
    }, limits.timeoutMs);
  });
  let buffer: ArrayBuffer;
  try {
    buffer = await Promise.race([request.arrayBuffer(), timeout]);
  } catch (error) {
    throw error instanceof BodyError
      ? error
      : new BodyError(400, 'the request body could not be read');
  } finally {
    clearTimeout(timer);
  }
  if (buffer.byteLength > limits.maxBytes) throw tooLarge();
  return new Uint8Array(buffer);
}

const encoder = new TextEncoder();

function toResponse(reply: HttpReply, exchange: FetchExchange): Response {
  const { body, status, headers } = reply;
  if (body === null) return new Response(null, { status, headers });
  if (!isStreamBody(body)) return new Response(encode(body), { status, headers });
  const iterator = body[Symbol.asyncIterator]();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done === true) controller.close();
      else {
        const chunk = next.value;
        controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      }
    },
    async cancel() {
      // The client went away.
      exchange.clientGone();
      await iterator.return?.();
    },
  });
  return new Response(stream, { status, headers });
}
