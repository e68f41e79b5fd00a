// Harness of the Streamable HTTP server tests: the same raw requests against both faces (node:http
// on a real 127.0.0.1 socket, and the fetch handler called in-process), an McpServer with tools
// that exercise streaming, cancellation and resumption, and SSE reading helpers.
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import type { Message } from '../../src/jsonrpc/message.js';
import type { Receiver, Transport } from '../../src/jsonrpc/transport.js';
import { McpServer } from '../../src/server/server.js';
import type { HttpMessageInfo } from '../../src/transports/http/server/context.js';
import { toFetchHandler } from '../../src/transports/http/server/fetch.js';
import type { StreamableHttpHandler } from '../../src/transports/http/server/handler.js';
import { createStreamableHttpHandler } from '../../src/transports/http/server/handler.js';
import { listen } from '../../src/transports/http/server/node.js';
import type { StreamableHttpOptions } from '../../src/transports/http/server/options.js';
import type { SseEvent } from '../../src/transports/http/sse.js';
import { SseParser } from '../../src/transports/http/sse.js';

export const MODERN = '2026-07-28';
export const ACCEPT_BOTH = 'application/json, text/event-stream';

/** A raw request: `body` objects are sent as JSON; defaults make a valid MCP POST. */
export interface RawInit {
  method?: string;
  path?: string;
  headers?: Record<string, string | undefined>;
  body?: unknown;
  signal?: AbortSignal;
}

/** One way of reaching the handler. */
export interface Face {
  readonly name: 'node' | 'fetch';
  readonly handler: StreamableHttpHandler;
  /** The bound port (node face only). */
  readonly port?: number;
  request(init?: RawInit): Promise<Response>;
  close(): Promise<void>;
}

/** The kinds of face every battery runs against. */
export const FACES = ['node', 'fetch'] as const;

function bodyOf(body: unknown): string | Uint8Array | undefined {
  if (body === undefined || typeof body === 'string' || body instanceof Uint8Array) return body;
  return JSON.stringify(body);
}

function headersOf(init: RawInit, host: string): Record<string, string> {
  const headers: Record<string, string> = { host };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if ((init.method ?? 'POST') === 'POST') headers['accept'] = ACCEPT_BOTH;
  const removed = new Set<string>();
  for (const [k, v] of Object.entries(init.headers ?? {})) {
    if (v === undefined) removed.add(k.toLowerCase());
    else headers[k.toLowerCase()] = v;
  }
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !removed.has(k)));
}

/** Starts `server` behind a handler, reachable through the `kind` face. */
export async function startFace(
  kind: 'node' | 'fetch',
  server: McpServer,
  options: StreamableHttpOptions = {},
): Promise<Face> {
  const handler = createStreamableHttpHandler(() => server, options);
  return faceOf(kind, handler);
}

/** Reaches an existing handler through the `kind` face. */
export async function faceOf(
  kind: 'node' | 'fetch',
  handler: StreamableHttpHandler,
): Promise<Face> {
  if (kind === 'fetch') {
    const fetchHandler = toFetchHandler(handler);
    return {
      name: kind,
      handler,
      request: (init = {}) => {
        const method = init.method ?? 'POST';
        const body = bodyOf(init.body);
        return fetchHandler(
          new Request(`http://localhost${init.path ?? '/mcp'}`, {
            method,
            headers: headersOf(init, 'localhost'),
            ...(body === undefined ? {} : { body: body as BodyInit }),
            ...(init.signal === undefined ? {} : { signal: init.signal }),
          }),
        );
      },
      close: () => handler.close(),
    };
  }
  const running = await listen(handler, { port: 0 });
  const host = `127.0.0.1:${String(running.port)}`;
  return {
    name: kind,
    handler,
    port: running.port,
    request: (init = {}) => nodeRequest(running.port, { ...init, headers: headersOf(init, host) }),
    close: () => running.close(),
  };
}

/** Sends a request over a real socket with exactly the given headers. */
export function nodeRequest(
  port: number,
  init: RawInit & { headers: Record<string, string> },
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: init.method ?? 'POST',
        path: init.path ?? '/mcp',
        headers: init.headers,
      },
      (res) => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) {
          if (typeof v === 'string') headers.set(k, v);
        }
        const status = res.statusCode ?? 0;
        const noBody = status === 204 || status === 304;
        const stream = noBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
        resolve(new Response(stream, { status, headers }));
      },
    );
    req.on('error', reject);
    init.signal?.addEventListener('abort', () => req.destroy(), { once: true });
    const body = bodyOf(init.body);
    req.end(body);
  });
}

/** Reads a response's SSE events as they arrive. */
export async function* events(response: Response): AsyncGenerator<SseEvent> {
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  if (reader === undefined) return;
  const queue: SseEvent[] = [];
  const parser = new SseParser((e) => queue.push(e));
  try {
    for (;;) {
      while (queue.length > 0) yield queue.shift()!;
      const next = await reader.read();
      if (next.done) break;
      parser.push(next.value);
    }
    while (queue.length > 0) yield queue.shift()!;
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** Collects every SSE event of a response until it ends. */
export async function allEvents(response: Response): Promise<SseEvent[]> {
  const all: SseEvent[] = [];
  for await (const e of events(response)) all.push(e);
  return all;
}

/** The JSON-RPC messages of SSE events (priming events, with empty data, are skipped). */
export function messages(list: readonly SseEvent[]): any[] {
  return list.filter((e) => e.data !== '').map((e) => JSON.parse(e.data));
}

/** The `_meta` of a 2026-07-28 request. */
export function modernMeta(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'raw-client', version: '1.0.0' },
    ...extra,
  };
}

/** A 2026-07-28 request with its standard headers (override any with `headers`). */
export function modernRequest(
  method: string,
  params: Record<string, unknown> = {},
  extra: {
    id?: number;
    headers?: Record<string, string | undefined>;
    meta?: Record<string, unknown>;
    name?: string;
  } = {},
): RawInit {
  const headers: Record<string, string | undefined> = {
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
  };
  const name = extra.name ?? params['name'] ?? params['uri'];
  if (typeof name === 'string') headers['mcp-name'] = name;
  return {
    headers: { ...headers, ...extra.headers },
    body: {
      jsonrpc: '2.0',
      id: extra.id ?? 1,
      method,
      params: { ...params, _meta: modernMeta(extra.meta) },
    },
  };
}

/** An initialize request body. */
export function initializeBody(revision = '2025-11-25', id = 0): object {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {
      protocolVersion: revision,
      capabilities: { elicitation: {} },
      clientInfo: { name: 'raw-client', version: '1.0.0' },
    },
  };
}

/** Opens a legacy session on `face`: initialize + initialized; returns its id. */
export async function openSession(face: Face, revision = '2025-11-25'): Promise<string> {
  const init = await face.request({ body: initializeBody(revision) });
  if (init.status !== 200)
    throw new Error(`initialize: ${String(init.status)} ${await init.text()}`);
  const id = init.headers.get('mcp-session-id');
  if (id === null) throw new Error('no session id');
  await init.text();
  const done = await face.request({
    headers: { 'mcp-session-id': id, 'mcp-protocol-version': revision },
    body: { jsonrpc: '2.0', method: 'notifications/initialized' },
  });
  if (done.status !== 202) throw new Error(`initialized: ${String(done.status)}`);
  return id;
}

/** A request of a legacy session. */
export function sessionRequest(
  session: string,
  body: unknown,
  headers: Record<string, string | undefined> = {},
): RawInit {
  return {
    headers: { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25', ...headers },
    body,
  };
}

/** A `tools/call` body. */
export function call(
  name: string,
  args: Record<string, unknown> = {},
  id: number | string = 1,
  meta?: object,
): object {
  return {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) },
  };
}

/** What the test server's tools let a test observe and steer. */
export interface Probes {
  /** Resolves with the abort reason when a `wait` call is cancelled. */
  aborted: Promise<unknown>;
  /** Lets every pending `wait` call finish. */
  release(): void;
  /** Resolves when a `wait` or `slow` call has started. */
  waiting: Promise<void>;
  /** Resolves once `count` calls of `wait` or `slow` have started. */
  started(count: number): Promise<void>;
}

/** Creates an McpServer with the tools the HTTP tests use. */
export function createTestServer(): { server: McpServer; probes: Probes } {
  const server = new McpServer({ name: 'http-test', version: '1.0.0' });
  let onAbort!: (reason: unknown) => void;
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started = 0;
  const watchers: { count: number; resolve: () => void }[] = [];
  const onWaiting = (): void => {
    started++;
    for (const w of watchers) if (started >= w.count) w.resolve();
  };
  const probes: Probes = {
    aborted: new Promise((resolve) => (onAbort = resolve)),
    waiting: new Promise((resolve) => watchers.push({ count: 1, resolve })),
    release: () => {
      release();
    },
    started: (count) =>
      started >= count
        ? Promise.resolve()
        : new Promise((resolve) => watchers.push({ count, resolve })),
  };
  const object = { type: 'object' } as const;
  server.tool(
    {
      name: 'echo',
      description: 'Echoes text.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    },
    (args) => (typeof args['text'] === 'string' ? args['text'] : ''),
  );
  server.tool(
    { name: 'progress', description: 'Reports progress.', inputSchema: object },
    async (_args, ctx) => {
      for (let i = 1; i <= 3; i++) await ctx.progress(i, 3, `step ${String(i)}`);
      return 'done';
    },
  );
  server.tool(
    { name: 'wait', description: 'Waits until released or cancelled.', inputSchema: object },
    async (_args, ctx) => {
      onWaiting();
      await new Promise<void>((resolve) => {
        ctx.signal.addEventListener('abort', () => {
          onAbort(ctx.signal.reason);
          resolve();
        });
        void released.then(resolve);
      });
      return ctx.signal.aborted ? 'aborted' : 'released';
    },
  );
  server.tool(
    {
      name: 'slow',
      description: 'Reports progress, then waits until released.',
      inputSchema: object,
    },
    async (_args, ctx) => {
      await ctx.progress(1, 2, 'started');
      onWaiting();
      await released;
      await ctx.progress(2, 2, 'released');
      return 'slow done';
    },
  );
  server.tool(
    {
      name: 'test_reconnection',
      description: 'Closes its own SSE stream, then answers.',
      inputSchema: object,
    },
    async (_args, ctx) => {
      const info = ctx.transport as HttpMessageInfo | undefined;
      info?.closeSseStream?.();
      await new Promise((resolve) => setTimeout(resolve, 20));
      await ctx.progress(1, 1, 'after the close');
      return 'reconnected';
    },
  );
  server.tool(
    { name: 'ask', description: 'Asks the user.', inputSchema: object },
    async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      } as never);
      return `hello ${String((answer.content as Record<string, unknown> | undefined)?.['name'])}`;
    },
  );
  server.tool(
    {
      name: 'deep',
      description: 'Takes anything.',
      inputSchema: { type: 'object', additionalProperties: true },
    },
    () => 'ok',
  );
  server.resource(
    { uri: 'test://café', name: 'cafe', description: 'A non-ASCII URI.' },
    () => 'crème',
  );
  return { server, probes };
}

/** Reads a response's raw text until `until` holds (then cancels the rest). */
export async function readTextUntil(
  response: Response,
  until: (text: string) => boolean,
): Promise<string> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  try {
    while (!until(text)) {
      const next = await reader.read();
      if (next.done) break;
      text += next.value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text;
}

/** Reads SSE events until `until` holds for one, returning all read so far (the stream stays open). */
export async function eventsUntil(
  iterator: AsyncGenerator<SseEvent>,
  until: (event: SseEvent) => boolean,
): Promise<SseEvent[]> {
  const seen: SseEvent[] = [];
  for (;;) {
    const next = await iterator.next();
    if (next.done === true) return seen;
    seen.push(next.value);
    if (until(next.value)) return seen;
  }
}

/**
 * A minimal Streamable HTTP client Transport (legacy sessions) on the global fetch, so the tests can
 * drive the server with mcpkit's own jsonrpc Connection. Not the real client transport.
 */
export class TestClientTransport implements Transport {
  readonly #url: string;
  #receiver: Receiver | undefined;
  #session: string | undefined;
  #revision = '2025-11-25';
  readonly #reading = new Set<Promise<void>>();

  constructor(url: string) {
    this.#url = url;
  }

  start(receiver: Receiver): Promise<void> {
    this.#receiver = receiver;
    return Promise.resolve();
  }

  async send(message: Message | readonly Message[]): Promise<void> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: ACCEPT_BOTH,
      'mcp-protocol-version': this.#revision,
    };
    if (this.#session !== undefined) headers['mcp-session-id'] = this.#session;
    const res = await fetch(this.#url, { method: 'POST', headers, body: JSON.stringify(message) });
    this.#session ??= res.headers.get('mcp-session-id') ?? undefined;
    if (res.status === 202) return;
    if (res.headers.get('content-type') === 'application/json') {
      this.#deliver(await res.json());
      return;
    }
    const reading = (async () => {
      for await (const e of events(res)) if (e.data !== '') this.#deliver(JSON.parse(e.data));
    })();
    this.#reading.add(reading);
    void reading.finally(() => this.#reading.delete(reading));
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.#reading]);
    if (this.#session !== undefined) {
      await fetch(this.#url, { method: 'DELETE', headers: { 'mcp-session-id': this.#session } });
    }
    this.#receiver?.closed();
  }

  #deliver(value: unknown): void {
    for (const m of Array.isArray(value) ? value : [value]) {
      const result = (m as { result?: { protocolVersion?: string } }).result;
      if (typeof result?.protocolVersion === 'string') this.#revision = result.protocolVersion;
      this.#receiver?.message(m as Message);
    }
  }
}
