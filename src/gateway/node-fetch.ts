// A fetch over node:http(s) with a keep-alive agent, for the gateway's HTTP upstreams. Node's
// global fetch (undici) spends most of a forwarded call's CPU time in its own machinery (web
// streams, request cloning, timing info); this one does only what the Streamable HTTP client
// transport reads: status, headers, and the body (whole for JSON and errors, streamed for SSE).
import type { Agent as HttpAgent, IncomingMessage } from 'node:http';
import { Agent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

/** What the HTTP client transport calls fetch with. */
export type NodeFetch = (url: string, init: RequestInit) => Promise<Response>;

/** Options of {@link createNodeFetch}. */
export interface NodeFetchOptions {
  /** Most sockets per upstream origin. Default 256. */
  readonly maxSockets?: number;
}

/**
 * A fetch for http: and https: URLs over node:http(s), keeping connections alive. The request
 * body must be a string or bytes (what the transport sends); the response body is buffered
 * unless it is `text/event-stream`, which is streamed. Rejects as fetch does on network
 * failures (TypeError) and aborts (the signal's reason).
 */
export function createNodeFetch(options: NodeFetchOptions = {}): NodeFetch {
  const maxSockets = options.maxSockets ?? 256;
  const agents = {
    http: new Agent({ keepAlive: true, maxSockets }),
    https: new HttpsAgent({ keepAlive: true, maxSockets }),
  };
  return (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const target = new URL(url);
      const secure = target.protocol === 'https:';
      if (!secure && target.protocol !== 'http:') {
        reject(new TypeError(`fetch: unsupported protocol ${target.protocol}`));
        return;
      }
      const signal = init.signal ?? undefined;
      if (signal?.aborted === true) {
        reject(signal.reason as Error);
        return;
      }
      const method = init.method ?? 'GET';
      const agent: HttpAgent = secure ? agents.https : agents.http;
      const send = secure ? httpsRequest : httpRequest;
      const req = send(target, { method, headers: plainHeaders(init.headers), agent }, (res) => {
        respond(res, method).then(resolve, reject);
      });
      const onAbort = () => {
        req.destroy(signal?.reason as Error);
        reject(signal?.reason as Error);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      req.once('close', () => signal?.removeEventListener('abort', onAbort));
      req.once('error', (error) => {
        reject(
          signal?.aborted === true
            ? (signal.reason as Error)
            : new TypeError('fetch failed', { cause: error }),
        );
      });
      const body = init.body;
      if (body === undefined || body === null) req.end();
      else if (typeof body === 'string' || body instanceof Uint8Array) req.end(body);
      else {
        req.destroy();
        reject(new TypeError('fetch: the body must be a string or bytes'));
      }
    });
}

/** The response: null body, buffered body, or streamed event stream. */
async function respond(res: IncomingMessage, method: string): Promise<Response> {
  const status = res.statusCode ?? 0;
  const init = { status, statusText: res.statusMessage ?? '', headers: responseHeaders(res) };
  if (status === 204 || status === 205 || status === 304 || method === 'HEAD') {
    res.resume();
    return bufferedResponse(res, Buffer.alloc(0));
  }
  const mediaType = (res.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType === 'text/event-stream') {
    return new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, init);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
  return bufferedResponse(res, bytes);
}

/**
 * A buffered response: what the transport reads of one (status, ok, headers.get, text, body),
 * without the cost of a Response and its Headers (a Response is made only if `body` is read).
 */
function bufferedResponse(res: IncomingMessage, bytes: Buffer): Response {
  const status = res.statusCode ?? 0;
  const raw = res.headers;
  let full: Response | undefined;
  const whole = (): Response =>
    (full ??= new Response(bytes.length === 0 ? null : (bytes as unknown as BodyInit), {
      status,
      statusText: res.statusMessage ?? '',
      headers: responseHeaders(res),
    }));
  const light = {
    status,
    statusText: res.statusMessage ?? '',
    ok: status >= 200 && status < 300,
    headers: {
      get(name: string): string | null {
        const value = raw[name.toLowerCase()];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(', ') : value;
      },
      has(name: string): boolean {
        return raw[name.toLowerCase()] !== undefined;
      },
    },
    text: () => Promise.resolve(bytes.toString('utf8')),
    json: () => Promise.resolve(JSON.parse(bytes.toString('utf8')) as unknown),
    get body() {
      return whole().body;
    },
  };
  return light as unknown as Response;
}

function plainHeaders(headers: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers === undefined) return out;
  new Headers(headers).forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

function responseHeaders(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(res.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(key, item);
    else if (value !== undefined) headers.set(key, value);
  }
  return headers;
}
