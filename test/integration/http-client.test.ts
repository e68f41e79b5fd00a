// The Streamable HTTP client transport against purpose-built fake servers on node:http (port 0,
// 127.0.0.1) that behave as the spec says, or misbehave where a test needs it. A jsonrpc
// Connection runs on top of the transport, as the client library will.
import { Buffer } from 'node:buffer';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Connection } from '../../src/jsonrpc/connection.js';
import { JsonRpcError, LocalError } from '../../src/jsonrpc/errors.js';
import type { Message, Notification, Request } from '../../src/jsonrpc/message.js';
import type {
  StreamableHttpClientOptions,
  StreamableHttpClientTransport,
} from '../../src/transports/http/client/transport.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import { HttpErrorCode } from '../../src/transports/http/client/http.js';
import type { SseEvent } from '../../src/transports/http/sse.js';
import { encodeSseEvent } from '../../src/transports/http/sse.js';

// ---- the fake server

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
}

type Handler = (req: Seen, res: ServerResponse) => unknown;

interface Fake {
  url: string;
  seen: Seen[];
  /** Requests of one HTTP method. */
  of(method: string): Seen[];
  close(): Promise<void>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fakeServer(handler: Handler): Promise<Fake> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const entry: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        json: body === '' ? undefined : JSON.parse(body),
      };
      seen.push(entry);
      Promise.resolve(handler(entry, res)).catch((error: unknown) => {
        res.destroy(error as Error);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const fake: Fake = {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    of: (method) => seen.filter((s) => s.method === method),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
  cleanups.push(() => fake.close());
  return fake;
}

function json(res: ServerResponse, body: unknown, headers: Record<string, string> = {}): true {
  res.writeHead(200, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
  return true;
}

function status(
  res: ServerResponse,
  code: number,
  body = '',
  headers: Record<string, string> = {},
): true {
  res.writeHead(code, headers);
  res.end(body);
  return true;
}

/** Starts an SSE response; `send` writes one event. */
function sse(res: ServerResponse, headers: Record<string, string> = {}) {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', ...headers });
  res.flushHeaders();
  return {
    send: (event: SseEvent) => res.write(encodeSseEvent(event)),
    message: (message: Message, id?: string) =>
      res.write(
        encodeSseEvent({ data: JSON.stringify(message), ...(id === undefined ? {} : { id }) }),
      ),
    end: () => res.end(),
  };
}

const result = (req: Seen, value: unknown): Message => ({
  jsonrpc: '2.0',
  id: req.json.id,
  result: value,
});

/** Resolves when `check` holds, polling every few milliseconds (no long sleeps). */
async function until(check: () => boolean, what = 'condition'): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

// ---- the client side

interface Client {
  transport: StreamableHttpClientTransport;
  connection: Connection;
  notes: Notification[];
  errors: Error[];
  transportErrors: Error[];
  closes: (Error | undefined)[];
}

async function client(
  url: string,
  options: StreamableHttpClientOptions = {},
  onRequest?: (request: Request) => Promise<unknown>,
): Promise<Client> {
  const transportErrors: Error[] = [];
  const transport = createStreamableHttpClientTransport(url, {
    onError: (error) => transportErrors.push(error),
    reconnect: { initialDelayMs: 5, maxDelayMs: 20, maxRetries: 2 },
    ...options,
  });
  const notes: Notification[] = [];
  const errors: Error[] = [];
  const closes: (Error | undefined)[] = [];
  const connection = new Connection(transport, {
    onNotification: (n) => notes.push(n),
    onError: (e) => errors.push(e),
    onClose: (e) => closes.push(e),
    ...(onRequest === undefined ? {} : { onRequest }),
  });
  await connection.start();
  cleanups.push(() => connection.close());
  return { transport, connection, notes, errors, transportErrors, closes };
}

const INIT_PARAMS = {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'test', version: '1.0.0' },
};

/** Runs the legacy handshake the way the client library will. */
async function initialize(c: Client, revision = '2025-11-25'): Promise<unknown> {
  const init = await c.connection.request('initialize', INIT_PARAMS);
  c.transport.setProtocolVersion(revision);
  await c.connection.notify('notifications/initialized');
  return init;
}

const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

// ---- tests

describe('Streamable HTTP client: sending', () => {
  it('POSTs JSON with both Accept types and delivers a JSON reply', async () => {
    const fake = await fakeServer((req, res) => {
      return json(res, result(req, { echo: req.json.params }));
    });
    const c = await client(fake.url);
    await expect(c.connection.request('ping', { n: 1 })).resolves.toEqual({ echo: { n: 1 } });
    const [post] = fake.of('POST');
    expect(post?.headers['accept']).toBe('application/json, text/event-stream');
    expect(post?.headers['content-type']).toBe('application/json');
    expect(post?.json).toEqual({ jsonrpc: '2.0', id: 1, method: 'ping', params: { n: 1 } });
    expect(post?.headers['mcp-session-id']).toBeUndefined();
  });

  it('delivers the notifications of an SSE reply before its response', async () => {
    const fake = await fakeServer((req, res) => {
      const stream = sse(res);
      const token = req.json.params._meta.progressToken;
      for (const progress of [1, 2]) {
        stream.message({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: token, progress },
        });
      }
      stream.message(result(req, { done: true }));
      return stream.end();
    });
    const c = await client(fake.url);
    const call = c.connection.request('tools/call', { name: 'slow', _meta: { progressToken: 7 } });
    // The call settles after both notifications have been dispatched.
    const seenAtResult = await call.then((value) => ({ value, notes: c.notes.length }));
    expect(seenAtResult).toEqual({ value: { done: true }, notes: 2 });
    expect(c.notes.map((n) => (n.params as { progress: number }).progress)).toEqual([1, 2]);
  });

  it('resolves a notification on 202 and reads no body', async () => {
    const fake = await fakeServer((_req, res) => {
      return status(res, 202);
    });
    const c = await client(fake.url);
    await c.connection.notify('notifications/message', { level: 'info', data: 'x' });
    expect(fake.of('POST')).toHaveLength(1);
  });

  it('delivers each response of a JSON batch reply', async () => {
    const fake = await fakeServer((req, res) => {
      json(
        res,
        req.json.map((m: Request) => ({ jsonrpc: '2.0', id: m.id, result: { id: m.id } })),
      );
    });
    const received: Message[] = [];
    const transport = createStreamableHttpClientTransport(fake.url);
    cleanups.push(() => transport.close());
    await transport.start({ message: (m) => received.push(m), closed: () => undefined });
    await transport.send([
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', id: 'b', method: 'ping' },
    ]);
    expect(received).toEqual([
      { jsonrpc: '2.0', id: 'a', result: { id: 'a' } },
      { jsonrpc: '2.0', id: 'b', result: { id: 'b' } },
    ]);
  });

  it('sends custom headers on every request, calling a function each time', async () => {
    let n = 0;
    const fake = await fakeServer((req, res) => {
      if (req.method === 'GET') return status(res, 405);
      if (req.method === 'DELETE') return status(res, 200);
      if (req.json.method === 'initialize')
        return json(res, result(req, {}), { 'Mcp-Session-Id': 's1' });
      if (req.json.id === undefined) return status(res, 202);
      return json(res, result(req, {}));
    });
    const c = await client(fake.url, {
      headers: () => ({ Authorization: `Bearer t${++n}`, Accept: 'x/y' }),
    });
    await initialize(c);
    await c.connection.request('ping');
    await until(() => fake.of('GET').length === 1, 'GET');
    await c.connection.close();
    expect(fake.seen.map((s) => s.method).sort()).toEqual([
      'DELETE',
      'GET',
      'POST',
      'POST',
      'POST',
    ]);
    const tokens = fake.seen.map((s) => s.headers['authorization']);
    expect(new Set(tokens)).toEqual(
      new Set(['Bearer t1', 'Bearer t2', 'Bearer t3', 'Bearer t4', 'Bearer t5']),
    );
    // The protocol's own headers win over custom ones.
    expect(fake.of('POST')[0]?.headers['accept']).toBe('application/json, text/event-stream');
  });
});

describe('Streamable HTTP client: sessions', () => {
  it('stores the session id, sends it with the version header, and DELETEs it on close', async () => {
    const fake = await fakeServer((req, res) => {
      if (req.method === 'GET') return status(res, 405);
      if (req.method === 'DELETE') return status(res, 200);
      if (req.json.method === 'initialize')
        return json(res, result(req, { protocolVersion: '2025-06-18' }), {
          'Mcp-Session-Id': 'abc-123',
        });
      if (req.json.id === undefined) return status(res, 202);
      return json(res, result(req, {}));
    });
    const c = await client(fake.url);
    // As the Client does: initialized goes out before it tells the transport the revision.
    await c.connection.request('initialize', INIT_PARAMS);
    await c.connection.notify('notifications/initialized');
    c.transport.setProtocolVersion('2025-06-18');
    expect(c.transport.sessionId).toBe('abc-123');
    await c.connection.request('tools/list');
    await until(() => fake.of('GET').length === 1, 'GET');
    await c.connection.close();
    const [init, initialized, list] = fake.of('POST');
    expect(init?.headers['mcp-session-id']).toBeUndefined();
    expect(init?.headers['mcp-protocol-version']).toBeUndefined();
    expect(initialized?.headers['mcp-session-id']).toBe('abc-123');
    expect(initialized?.headers['mcp-protocol-version']).toBe('2025-06-18');
    expect(fake.of('GET')[0]?.headers['mcp-protocol-version']).toBe('2025-06-18');
    expect(list?.headers['mcp-session-id']).toBe('abc-123');
    const [del] = fake.of('DELETE');
    expect(del?.headers['mcp-session-id']).toBe('abc-123');
    expect(c.transportErrors).toEqual([]); // the GET's 405 is silent
    expect(c.closes).toEqual([undefined]);
  });

  it('reports an expired session (404) in-band and forgets the session id', async () => {
    const fake = await fakeServer((req, res) => {
      if (req.method !== 'POST') return status(res, 405);
      if (req.json.method === 'initialize')
        return json(res, result(req, {}), { 'Mcp-Session-Id': 'old' });
      if (req.json.id === undefined) return status(res, 202);
      if (req.headers['mcp-session-id'] === 'old') return status(res, 404, 'no such session');
      return json(res, result(req, { fresh: true }));
    });
    const c = await client(fake.url);
    await initialize(c);
    const error = await c.connection.request('tools/list').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({
      code: HttpErrorCode.SessionExpired,
      message: 'session expired (HTTP 404): reconnect to start a new session',
      data: { status: 404, body: 'no such session' },
    });
    expect(c.transport.sessionId).toBeUndefined();
    await c.connection.request('tools/list');
    expect(fake.of('POST').at(-1)?.headers['mcp-session-id']).toBeUndefined();
  });

  it('opens the standalone GET stream once initialized and serves what it carries', async () => {
    let served: Seen | undefined;
    const fake = await fakeServer((req, res) => {
      if (req.method === 'DELETE') return status(res, 405);
      if (req.method === 'GET') {
        const stream = sse(res);
        stream.message({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }, 'g1');
        stream.message({ jsonrpc: '2.0', id: 'srv-1', method: 'roots/list' }, 'g2');
        return true;
      }
      if (req.json.method === 'initialize')
        return json(res, result(req, {}), { 'Mcp-Session-Id': 's' });
      if (req.json.result !== undefined) served = req;
      return status(res, 202);
    });
    const c = await client(fake.url, {}, (request) =>
      Promise.resolve({ roots: [], method: request.method }),
    );
    await initialize(c);
    await until(() => served !== undefined, 'the reply to roots/list');
    expect(c.notes).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
    expect(served?.json).toEqual({
      jsonrpc: '2.0',
      id: 'srv-1',
      result: { roots: [], method: 'roots/list' },
    });
    const [get] = fake.of('GET');
    expect(get?.headers['accept']).toBe('text/event-stream');
    expect(get?.headers['mcp-session-id']).toBe('s');
    expect(get?.headers['last-event-id']).toBeUndefined();
  });

  it('backs off from a stream that ends at once with retry: 0, instead of reconnecting in a loop', async () => {
    const fake = await fakeServer((req, res) => {
      if (req.method === 'DELETE') return status(res, 405);
      if (req.method === 'GET') {
        const stream = sse(res);
        stream.send({ id: 'e', retry: 0, data: '' });
        return stream.end();
      }
      if (req.json.method === 'initialize')
        return json(res, result(req, {}), { 'Mcp-Session-Id': 's' });
      return status(res, 202);
    });
    const c = await client(fake.url, {
      reconnect: { minDelayMs: 20, initialDelayMs: 5, maxDelayMs: 10_000, maxRetries: 2 },
    });
    await initialize(c);
    await until(() => fake.of('GET').length >= 3, 'three GETs');
    // Doubling from 20 ms: about 7 GETs in the next second; a loop on retry: 0 made thousands.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(fake.of('GET').length).toBeLessThan(12);
  });

  it('answers a flood of server requests a few POSTs at a time, and drops what overflows its queue', async () => {
    const flood = async (count: number, answers: { concurrency: number; queue: number }) => {
      let inFlight = 0;
      let most = 0;
      let answered = 0;
      const fake = await fakeServer(async (req, res) => {
        if (req.method === 'DELETE') return status(res, 405);
        if (req.method === 'GET') {
          const stream = sse(res);
          for (let id = 1; id <= count; id++)
            stream.message({ jsonrpc: '2.0', id, method: 'ping' });
          return true;
        }
        if (req.json.method === 'initialize')
          return json(res, result(req, {}), { 'Mcp-Session-Id': 's' });
        if (req.json.method !== undefined) return status(res, 202);
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 2));
        inFlight--;
        answered++;
        return status(res, 202);
      });
      const c = await client(fake.url, { answers });
      await initialize(c);
      return { c, most: () => most, answered: () => answered };
    };
    const all = await flood(300, { concurrency: 4, queue: 1000 });
    await until(() => all.answered() === 300, 'every answer');
    expect(all.most()).toBeLessThanOrEqual(4);
    const over = await flood(100, { concurrency: 2, queue: 10 });
    await until(() => over.c.errors.length > 0, 'a dropped answer reported');
    expect(over.c.errors[0]?.message).toMatch(/answer dropped/);
    await until(() => over.answered() >= 12, 'the answers that fit');
    expect(over.answered()).toBeLessThan(100);
  });

  it('reopens a dropped standalone stream with Last-Event-ID after the retry delay', async () => {
    const fake = await fakeServer((req, res) => {
      if (req.method === 'DELETE') return status(res, 405);
      if (req.method === 'GET') {
        const n = fake.of('GET').length;
        const stream = sse(res);
        stream.send({ id: `g${n}`, retry: 10, data: '' });
        stream.message({ jsonrpc: '2.0', method: 'notifications/message', params: { n } });
        if (n < 3) stream.end();
        return true;
      }
      if (req.json.method === 'initialize')
        return json(res, result(req, {}), { 'Mcp-Session-Id': 's' });
      return status(res, 202);
    });
    const c = await client(fake.url);
    await initialize(c);
    await until(() => c.notes.length === 3, 'three notifications');
    expect(fake.of('GET').map((g) => g.headers['last-event-id'])).toEqual([undefined, 'g1', 'g2']);
    expect(c.notes.map((n) => (n.params as { n: number }).n)).toEqual([1, 2, 3]);
  });
  it('resumes a given session: the standalone stream opens at start', async () => {
    const fake = await fakeServer((req, res) => {
      if (req.method === 'GET') {
        const stream = sse(res);
        return stream.message({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' });
      }
      return status(res, 405);
    });
    const c = await client(fake.url, { sessionId: 'kept', protocolVersion: '2025-06-18' });
    await until(() => c.notes.length === 1, 'the notification');
    const [get] = fake.of('GET');
    expect(get?.headers['mcp-session-id']).toBe('kept');
    expect(get?.headers['mcp-protocol-version']).toBe('2025-06-18');
  });

  it('answers a server request that arrives on a POST stream', async () => {
    const fake = await fakeServer((req, res) => {
      if (req.json.result !== undefined) {
        status(res, 202);
        const stream = pending;
        return stream?.message({ jsonrpc: '2.0', id: 1, result: { got: req.json.result } });
      }
      pending = sse(res);
      return pending.message({
        jsonrpc: '2.0',
        id: 'e-1',
        method: 'elicitation/create',
        params: {},
      });
    });
    let pending: ReturnType<typeof sse> | undefined;
    const c = await client(fake.url, {}, () => Promise.resolve({ action: 'accept', content: {} }));
    await expect(c.connection.request('tools/call', { name: 'ask' })).resolves.toEqual({
      got: { action: 'accept', content: {} },
    });
    expect(fake.of('POST')[1]?.json).toEqual({
      jsonrpc: '2.0',
      id: 'e-1',
      result: { action: 'accept', content: {} },
    });
  });
});

describe('Streamable HTTP client: resumption', () => {
  it('polls a stream the server closed, by GET with Last-Event-ID, and delivers the result once', async () => {
    const fake = await fakeServer((req, res) => {
      if (req.method === 'DELETE') return status(res, 405);
      if (req.method === 'POST') {
        if (req.json.method === 'initialize')
          return json(res, result(req, {}), { 'Mcp-Session-Id': 's' });
        if (req.json.id === undefined) return status(res, 202);
        // Priming event with an id and a retry hint, then the connection closes: no result yet.
        const stream = sse(res);
        stream.send({ id: 'e1', retry: 15, data: '' });
        stream.end();
        callId = req.json.id;
        return true;
      }
      const lastEventId = req.headers['last-event-id'];
      if (lastEventId === undefined) return status(res, 405); // no standalone stream here
      const stream = sse(res);
      if (lastEventId === 'e1') {
        stream.message(
          { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } },
          'e2',
        );
        stream.end(); // closed again: poll once more
        return true;
      }
      // The result, replayed twice (a server that re-sends after a reconnect).
      const answer = { jsonrpc: '2.0' as const, id: callId as number, result: { ok: true } };
      stream.message(answer, 'e3');
      stream.message(answer, 'e3');
      return stream.end();
    });
    let callId: unknown;
    const c = await client(fake.url);
    await initialize(c);
    await expect(c.connection.request('tools/call', { name: 'slow' })).resolves.toEqual({
      ok: true,
    });
    const resumptions = fake.of('GET').filter((g) => g.headers['last-event-id'] !== undefined);
    expect(resumptions.map((g) => g.headers['last-event-id'])).toEqual(['e1', 'e2']);
    expect(resumptions[0]?.headers['mcp-session-id']).toBe('s');
    expect(c.notes.map((n) => n.method)).toEqual(['notifications/progress']);
    await until(() => fake.of('GET').length >= 3);
    expect(c.errors).toEqual([]); // no duplicate response reached the connection
  });

  it('honours the retry hint over its own backoff', async () => {
    const times: number[] = [];
    const fake = await fakeServer((req, res) => {
      times.push(performance.now());
      if (req.method === 'POST') {
        const stream = sse(res);
        stream.send({ id: 'p', retry: 40, data: '' });
        stream.end();
        return true;
      }
      const stream = sse(res);
      stream.message({ jsonrpc: '2.0', id: 1, result: 'late' });
      return stream.end();
    });
    const c = await client(fake.url, { reconnect: { initialDelayMs: 0, maxDelayMs: 0 } });
    await expect(c.connection.request('slow')).resolves.toBe('late');
    expect(fake.seen.map((s) => s.method)).toEqual(['POST', 'GET']);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(35);
  });

  it('fails the call when a stream ends without an event id to resume from', async () => {
    const fake = await fakeServer((_req, res) => {
      const stream = sse(res);
      stream.send({
        data: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: {} }),
      });
      return stream.end();
    });
    const c = await client(fake.url);
    await expect(c.connection.request('slow')).rejects.toMatchObject({
      code: HttpErrorCode.StreamEnded,
      message: 'the response stream ended before the response arrived',
    });
    expect(fake.of('GET')).toHaveLength(0);
  });

  it('gives up after maxRetries failed resumptions', async () => {
    const fake = await fakeServer((req, res) => {
      if (req.method === 'GET') return status(res, 503);
      const stream = sse(res);
      stream.send({ id: 'x', data: '' });
      return stream.end();
    });
    const c = await client(fake.url, {
      reconnect: { initialDelayMs: 1, maxDelayMs: 4, maxRetries: 2 },
    });
    await expect(c.connection.request('slow')).rejects.toMatchObject({
      code: HttpErrorCode.StreamEnded,
      message: 'cannot resume the response stream after 3 attempts: HTTP 503 Service Unavailable',
    });
    expect(fake.of('GET')).toHaveLength(3);
  });
});

describe('Streamable HTTP client: 2026-07-28 requests', () => {
  it('sends the standard headers, Base64-encoding a non-ASCII tool name', async () => {
    const fake = await fakeServer((req, res) => {
      return json(res, result(req, {}));
    });
    const c = await client(fake.url, { protocolVersion: '2025-11-25' });
    await c.connection.request('tools/call', {
      name: 'get_weather',
      arguments: {},
      _meta: modernMeta,
    });
    await c.connection.request('tools/call', { name: 'météo ☀', arguments: {}, _meta: modernMeta });
    await c.connection.request('resources/read', { uri: 'file:///a b.txt', _meta: modernMeta });
    await c.connection.request('prompts/get', { name: '=?base64?x?=', _meta: modernMeta });
    await c.connection.request('tools/list', { _meta: modernMeta });
    const headers = fake.of('POST').map((p) => ({
      version: p.headers['mcp-protocol-version'],
      method: p.headers['mcp-method'],
      name: p.headers['mcp-name'],
    }));
    const b64 = (s: string) => `=?base64?${Buffer.from(s, 'utf8').toString('base64')}?=`;
    expect(headers).toEqual([
      { version: '2026-07-28', method: 'tools/call', name: 'get_weather' },
      { version: '2026-07-28', method: 'tools/call', name: b64('météo ☀') },
      { version: '2026-07-28', method: 'resources/read', name: 'file:///a b.txt' },
      { version: '2026-07-28', method: 'prompts/get', name: b64('=?base64?x?=') },
      { version: '2026-07-28', method: 'tools/list', name: undefined },
    ]);
  });

  it('adds the per-message headers of the send options (Mcp-Param-*)', async () => {
    const fake = await fakeServer((req, res) => json(res, result(req, {})));
    const received: Message[] = [];
    const transport = createStreamableHttpClientTransport(fake.url);
    cleanups.push(() => transport.close());
    await transport.start({ message: (m) => received.push(m), closed: () => undefined });
    const params = { name: 'sql', arguments: { region: 'us-west1' }, _meta: modernMeta };
    await transport.send(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params },
      { headers: { 'Mcp-Param-Region': 'us-west1', 'Mcp-Method': 'forged' } },
    );
    const [post] = fake.of('POST');
    expect(post?.headers['mcp-param-region']).toBe('us-west1');
    expect(post?.headers['mcp-method']).toBe('tools/call');
    expect(received).toHaveLength(1);
  });

  it('delivers a JSON-RPC error sent with HTTP 400 in-band', async () => {
    const fake = await fakeServer((req, res) => {
      res.writeHead(400, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: req.json.id,
          error: {
            code: -32022,
            message: 'unsupported protocol version',
            data: { supported: ['2025-11-25'], requested: '2026-07-28' },
          },
        }),
      );
    });
    const c = await client(fake.url);
    const error = await c.connection
      .request('tools/list', { _meta: modernMeta })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({ code: -32022, data: { supported: ['2025-11-25'] } });
  });

  it('cancels a request by aborting its POST, and ignores anything after', async () => {
    let closedByClient = false;
    const fake = await fakeServer((_req, res) => {
      const stream = sse(res);
      stream.message({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 0 } });
      res.on('close', () => (closedByClient = true));
    });
    const c = await client(fake.url);
    const call = c.connection
      .request('tools/call', { name: 'long', _meta: modernMeta })
      .catch((e: unknown) => e);
    await until(() => c.notes.length === 1, 'progress');
    expect(c.transport.cancel(1)).toBe(true);
    expect(c.transport.cancel(1)).toBe(false);
    await until(() => closedByClient, 'the server to see the stream close');
    await c.connection.close();
    expect(await call).toBeInstanceOf(LocalError);
  });

  it('2026-07-28: a notifications/cancelled closes the POST instead of being sent', async () => {
    let closedByClient = false;
    const fake = await fakeServer((_req, res) => {
      const stream = sse(res);
      stream.message({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 0 } });
      res.on('close', () => (closedByClient = true));
    });
    const c = await client(fake.url);
    c.transport.setProtocolVersion('2026-07-28');
    const call = c.connection
      .request('tools/call', { name: 'long', _meta: modernMeta })
      .catch((e: unknown) => e);
    await until(() => c.notes.length === 1, 'progress');
    await c.transport.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1, reason: 'user' },
    });
    await until(() => closedByClient, 'the server to see the stream close');
    // A late notice for a request already over is dropped too: nothing else is POSTed.
    await c.transport.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1 },
    });
    expect(fake.of('POST').map((r) => r.json?.method)).toEqual(['tools/call']);
    await c.connection.close();
    expect(await call).toBeInstanceOf(LocalError);
  });

  it('aborts the POST when the send signal aborts', async () => {
    let closedByClient = false;
    const fake = await fakeServer((_req, res) => {
      sse(res);
      res.on('close', () => (closedByClient = true));
    });
    const received: Message[] = [];
    const transport = createStreamableHttpClientTransport(fake.url);
    cleanups.push(() => transport.close());
    await transport.start({ message: (m) => received.push(m), closed: () => undefined });
    const controller = new AbortController();
    await transport.send(
      { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'x', _meta: modernMeta } },
      { signal: controller.signal },
    );
    controller.abort();
    await until(() => closedByClient, 'the server to see the stream close');
    expect(received).toEqual([]);
  });
});

describe('Streamable HTTP client: failures', () => {
  it('surfaces 401 as an error carrying the status and WWW-Authenticate', async () => {
    const challenge =
      'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp"';
    const fake = await fakeServer((_req, res) => {
      status(res, 401, '{"error":"invalid_token"}', {
        'WWW-Authenticate': challenge,
        'Content-Type': 'application/json',
      });
    });
    const c = await client(fake.url);
    const error = await c.connection.request('tools/list').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({
      code: HttpErrorCode.HttpStatus,
      message: 'HTTP 401 Unauthorized',
      data: {
        status: 401,
        statusText: 'Unauthorized',
        wwwAuthenticate: challenge,
        body: '{"error":"invalid_token"}',
      },
    });
    // A notification has no call to reject: its send rejects instead.
    await expect(c.connection.notify('notifications/initialized')).rejects.toMatchObject({
      code: HttpErrorCode.HttpStatus,
      data: { status: 401 },
    });
  });

  it('delivers the JSON-RPC refusal of a legacy server of initialize without falling back', async () => {
    const fake = await fakeServer((_req, res) => {
      return status(
        res,
        400,
        '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server already initialized"},"id":null}',
        { 'Content-Type': 'application/json' },
      );
    });
    const c = await client(fake.url);
    const error = await c.connection.request('initialize', INIT_PARAMS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({
      code: -32000,
      message: 'Bad Request: Server already initialized',
    });
    expect(fake.seen.map((s) => s.method)).toEqual(['POST']);
  });

  it('reports a standalone stream the server refuses with 404', async () => {
    const fake = await fakeServer((req, res) => status(res, req.method === 'GET' ? 404 : 405));
    const c = await client(fake.url, { sessionId: 'gone' });
    await until(() => c.transportErrors.length === 1, 'the report');
    expect(c.transportErrors[0]?.message).toMatch(/standalone SSE stream closed: .*HTTP 404/);
    expect(fake.of('GET')).toHaveLength(1);
  });

  it('reports bad JSON in an SSE event and keeps reading', async () => {
    const fake = await fakeServer((req, res) => {
      const stream = sse(res);
      stream.send({ data: '{not json' });
      stream.message(result(req, 'fine'));
      return stream.end();
    });
    const c = await client(fake.url);
    await expect(c.connection.request('x')).resolves.toBe('fine');
    expect(c.transportErrors).toHaveLength(1);
    expect(c.transportErrors[0]?.message).toMatch(/invalid message in SSE event skipped/);
  });

  it('decodes a UTF-8 character split across chunks', async () => {
    const fake = await fakeServer(async (req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      const bytes = Buffer.from(
        encodeSseEvent({ data: JSON.stringify(result(req, 'héllo ☀')) }),
        'utf8',
      );
      const cut = bytes.indexOf(0xe2) + 1; // inside the three bytes of ☀
      res.write(bytes.subarray(0, cut));
      await new Promise((r) => setTimeout(r, 20));
      res.end(bytes.subarray(cut));
    });
    const c = await client(fake.url);
    await expect(c.connection.request('x')).resolves.toBe('héllo ☀');
  });

  it('rejects a call with NOT_CONNECTED when nothing listens', async () => {
    const fake = await fakeServer((_req, res) => {
      status(res, 500);
    });
    await fake.close();
    const c = await client(fake.url);
    const error = await c.connection.request('x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({ code: 'NOT_CONNECTED' });
  });

  it('closes promptly against a hung server, and only once', async () => {
    // Never answers anything, DELETE included.
    const fake = await fakeServer(() => undefined);
    const c = await client(fake.url, {
      sessionId: 'stuck',
      openStandaloneStream: false,
      closeTimeoutMs: 30,
    });
    const call = c.connection.request('x').catch((e: unknown) => e);
    await until(() => fake.of('POST').length === 1, 'the POST');
    const started = performance.now();
    await Promise.all([c.transport.close(), c.transport.close()]);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await call).toMatchObject({ code: 'CONNECTION_CLOSED' });
    expect(c.closes).toEqual([undefined]);
    expect(fake.of('DELETE')[0]?.headers['mcp-session-id']).toBe('stuck');
    await expect(c.transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
    });
  });
});
