// The fetch face of the Streamable HTTP handler: `(Request) => Promise<Response>`, for Workers,
// Deno, Bun, Hono and anything else built on the Fetch API. SSE bodies are ReadableStreams.
import type { BodyLimits, HttpExchange, HttpReply } from './exchange.js';
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
    const controller = new AbortController();
    const abort = (): void => {
      controller.abort(new Error('client disconnected'));
    };
    if (request.signal.aborted) abort();
    else request.signal.addEventListener('abort', abort, { once: true });
    const exchange = fetchExchange(request, controller.signal, extra?.auth);
    const reply = await handler.handle(exchange);
    return toResponse(reply, abort);
  };
}

/** Creates a handler for `factory` and adapts it to the Fetch API. */
export function createFetchHandler(
  factory: ConnectableFactory,
  options?: StreamableHttpOptions,
): FetchHandler {
  return toFetchHandler(createStreamableHttpHandler(factory, options));
}

function fetchExchange(request: Request, signal: AbortSignal, auth: unknown): HttpExchange {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // A Request built by hand has no Host header: its URL says where it was sent.
  headers['host'] ??= url.host;
  const exchange: HttpExchange = {
    method: request.method.toUpperCase(),
    url: url.pathname + url.search,
    headers,
    signal,
    body: (limits) => readBody(request, limits),
    ...(auth === undefined ? {} : { auth }),
  };
  return exchange;
}

async function readBody(request: Request, limits: BodyLimits): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length'));
  const tooLarge = (): BodyError =>
    new BodyError(413, `request body larger than ${String(limits.maxBytes)} bytes`);
  if (declared > limits.maxBytes) throw tooLarge();
  const stream = request.body;
  if (stream === null) return new Uint8Array(0);
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
    void reader.cancel().catch(() => undefined);
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

const encoder = new TextEncoder();

function toResponse(reply: HttpReply, abort: () => void): Response {
  const { body, status, headers } = reply;
  if (body === null) return new Response(null, { status, headers });
  if (!isStreamBody(body)) return new Response(JSON.stringify(body), { status, headers });
  const iterator = body[Symbol.asyncIterator]();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done === true) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      // The client went away.
      abort();
      await iterator.return?.();
    },
  });
  return new Response(stream, { status, headers });
}
