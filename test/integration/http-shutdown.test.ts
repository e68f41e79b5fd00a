// Graceful shutdown of the Streamable HTTP server (`close({ graceMs })` of listen and of the
// handler): new connections are refused and new requests get 503, GET streams end at once with a
// `retry` hint, a request in flight finishes within the grace period, and close returns when the
// period runs out even if it does not; the health endpoint reports 503 while closing.
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '../../src/client/index.js';
import { McpServer } from '../../src/server/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import type { EventStore } from '../../src/transports/http/server/event-store.js';
import { MemoryEventStore } from '../../src/transports/http/server/event-store.js';
import { createStreamableHttpHandler } from '../../src/transports/http/server/handler.js';
import type { Listening } from '../../src/transports/http/server/node.js';
import { listen } from '../../src/transports/http/server/node.js';
import type { SseEvent } from '../../src/transports/http/sse.js';
import type { RawInit } from './http-server-harness.js';
import {
  ACCEPT_BOTH,
  call,
  events,
  eventsUntil,
  faceOf,
  initializeBody,
  MODERN,
  modernRequest,
  nodeRequest,
  readTextUntil,
} from './http-server-harness.js';

/** A server whose `slow` tool waits until released; `started` resolves when it runs. */
function slowServer() {
  let release: () => void = () => undefined;
  let started: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  const server = new McpServer({ name: 'shutdown', version: '1.0.0' }, { onError: () => {} });
  server.tool({ name: 'slow', description: 'Waits until released.' }, async (_args, ctx) => {
    // With a progress token, its POST's reply becomes a stream.
    void ctx.progress(0, 1);
    started();
    await released;
    return 'finished';
  });
  return { server, release, running };
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => Promise.resolve(c()).catch(() => undefined)));
});

/** A request to `running` over a new connection, with valid MCP headers. */
function requestTo(running: Listening, init: RawInit = {}): Promise<Response> {
  const headers: Record<string, string> = { host: `127.0.0.1:${String(running.port)}` };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  for (const [k, v] of Object.entries(init.headers ?? {})) if (v !== undefined) headers[k] = v;
  return nodeRequest(running.port, { ...init, headers });
}

async function openSession(running: Listening): Promise<string> {
  const init = await requestTo(running, {
    body: initializeBody(),
    headers: { accept: ACCEPT_BOTH },
  });
  expect(init.status).toBe(200);
  await init.text();
  const id = init.headers.get('mcp-session-id') ?? '';
  const done = await requestTo(running, {
    body: { jsonrpc: '2.0', method: 'notifications/initialized' },
    headers: { accept: ACCEPT_BOTH, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
  });
  expect(done.status).toBe(202);
  return id;
}

function inSession(id: string, accept = 'application/json'): Record<string, string> {
  return { accept, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };
}

/**
 * Opens an HTTP+SSE (2024-11-05) session on `running` and calls its `slow` tool with `id`: the
 * session's stream, read past the initialize answer, and what POSTs a message to the session.
 */
async function legacySseCall(
  running: Listening,
  id: number,
): Promise<{ stream: AsyncGenerator<SseEvent>; post: (body: object) => Promise<void> }> {
  const sse = await requestTo(running, {
    method: 'GET',
    path: '/sse',
    headers: { accept: 'text/event-stream' },
  });
  const stream = events(sse);
  const [endpoint] = await eventsUntil(stream, () => true);
  const post = async (body: object) => {
    const posted = await requestTo(running, { path: endpoint?.data ?? '', body });
    expect(posted.status).toBe(202);
    await posted.text();
  };
  await post(initializeBody('2024-11-05', 1));
  await eventsUntil(stream, () => true);
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  await post(call('slow', {}, id));
  return { stream, post };
}

/** The messages of an SSE stream's events, in order. */
function messagesOf(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line.length > 'data: '.length)
    .map((line) => JSON.parse(line.slice('data: '.length)) as unknown);
}

/** The error a request without a session gets on its stream when the grace runs out. */
function serverClosed(id: number | string) {
  const error = { code: -32603, message: 'server closed before the request was answered' };
  return { jsonrpc: '2.0', id, error };
}

describe('graceful shutdown of listen', () => {
  it('finishes a request in flight, ends the GET stream with a retry hint, refuses new connections', async () => {
    const { server, release, running: toolRunning } = slowServer();
    cleanups.push(release);
    const running = await listen(() => server, { retryMs: 750 });
    cleanups.push(() => running.close());
    const id = await openSession(running);
    const stream = await requestTo(running, {
      method: 'GET',
      headers: inSession(id, 'text/event-stream'),
    });
    expect(stream.status).toBe(200);
    const post = requestTo(running, { body: call('slow', {}, 5), headers: inSession(id) });
    await toolRunning;

    const closing = running.close({ graceMs: 30_000 });
    // The GET stream ends at once; its last words are the retry hint.
    const text = await readTextUntil(stream, () => false);
    expect(text.trimEnd().endsWith('retry: 750')).toBe(true);
    // A new connection is refused; a kept-alive one gets 503.
    const later = await requestTo(running, {
      body: call('slow', {}, 9),
      headers: inSession(id),
    }).then(
      (response) => response.status,
      () => 'refused',
    );
    expect([503, 'refused']).toContain(later);

    release();
    const answered = await post;
    expect(answered.status).toBe(200);
    const body = (await answered.json()) as { id: number; result: { content: { text: string }[] } };
    expect(body.id).toBe(5);
    expect(body.result.content[0]?.text).toBe('finished');
    await closing;
  });

  it('returns when the grace period runs out, though a request still runs', async () => {
    const { server, release, running: toolRunning } = slowServer();
    cleanups.push(release);
    const running = await listen(() => server, {});
    cleanups.push(() => running.close());
    const id = await openSession(running);
    const post = requestTo(running, { body: call('slow', {}, 6), headers: inSession(id) }).then(
      (response) => response.status,
      () => 'connection closed',
    );
    await toolRunning;
    await running.close({ graceMs: 200 });
    // Cut: an error status (the session ended with the process) or the connection closed.
    const outcome = await post;
    expect(outcome === 'connection closed' || (typeof outcome === 'number' && outcome >= 400)).toBe(
      true,
    );
  });

  it('sends a request still answering on its stream an error when the grace runs out', async () => {
    const { server, release, running: toolRunning } = slowServer();
    cleanups.push(release);
    const running = await listen(() => server, {});
    cleanups.push(() => running.close());
    const id = await openSession(running);
    const post = await requestTo(running, {
      body: call('slow', {}, 7, { progressToken: 'p' }),
      headers: inSession(id, ACCEPT_BOTH),
    });
    expect(post.headers.get('content-type')).toContain('text/event-stream');
    await toolRunning;
    const [text] = await Promise.all([
      readTextUntil(post, () => false),
      running.close({ graceMs: 200 }),
    ]);
    // Its client is not left to resume a stream whose answer cannot come.
    const last = text
      .trim()
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .pop();
    expect(JSON.parse(last?.slice('data: '.length) ?? '')).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32603, message: 'session closed before the request was answered' },
    });
  });

  it('ends the streams though the event store never settles what a close asks of it', async () => {
    const { server, release, running: toolRunning } = slowServer();
    cleanups.push(release);
    const memory = new MemoryEventStore();
    const eventStore: EventStore = {
      // Asynchronous, as a store across the network: the stream's close waits behind it.
      append: async (stream, message) => {
        await new Promise((resolve) => setImmediate(resolve));
        return memory.append(stream, message);
      },
      replayAfter: (eventId) => memory.replayAfter(eventId),
      forget: () => new Promise<void>(() => undefined), // a store that stalled
    };
    const running = await listen(() => server, { eventStore });
    cleanups.push(() => running.close());
    const id = await openSession(running);
    const post = await requestTo(running, {
      body: call('slow', {}, 8, { progressToken: 'p' }),
      headers: inSession(id, ACCEPT_BOTH),
    });
    await toolRunning;
    const [text] = await Promise.all([
      readTextUntil(post, () => false),
      running.close({ graceMs: 100 }),
    ]);
    expect(messagesOf(text).pop()).toEqual({
      jsonrpc: '2.0',
      id: 8,
      error: { code: -32603, message: 'session closed before the request was answered' },
    });
  });

  it('sends a 2026-07-28 request streaming past the grace an error response, then ends its stream', async () => {
    const { server, release, running: toolRunning } = slowServer();
    cleanups.push(release);
    const running = await listen(() => server, {});
    cleanups.push(() => running.close());
    const args = { name: 'slow', arguments: {} };
    const post = await requestTo(
      running,
      modernRequest('tools/call', args, {
        id: 8,
        meta: { progressToken: 'p' },
        headers: { accept: ACCEPT_BOTH },
      }),
    );
    expect(post.headers.get('content-type')).toContain('text/event-stream');
    await toolRunning;
    const [text] = await Promise.all([
      readTextUntil(post, () => false),
      running.close({ graceMs: 200 }),
    ]);
    // The progress sent, then the error: the stream ended after it (readTextUntil read to the end).
    const messages = messagesOf(text);
    expect(messages[0]).toMatchObject({ method: 'notifications/progress' });
    expect(messages.at(-1)).toEqual(serverClosed(8));
  });

  it('sends the requests of a legacy stateless batch still streaming their error responses', async () => {
    const { server, release, running: toolRunning } = slowServer();
    cleanups.push(release);
    const running = await listen(() => server, { sessions: false });
    cleanups.push(() => running.close());
    const post = await requestTo(running, {
      body: [call('slow', {}, 'a', { progressToken: 'p' }), { jsonrpc: '2.0', id: 'b' }],
      headers: { accept: ACCEPT_BOTH, 'mcp-protocol-version': '2025-03-26' },
    });
    expect(post.headers.get('content-type')).toContain('text/event-stream');
    await toolRunning;
    const [text] = await Promise.all([
      readTextUntil(post, () => false),
      running.close({ graceMs: 200 }),
    ]);
    // The batch's answer: the invalid element's error, then the request's.
    const last = messagesOf(text).at(-1) as unknown[];
    expect(last).toHaveLength(2);
    expect(last[0]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(last[1]).toEqual(serverClosed('a'));
  });

  it('does not start the elements of a legacy stateless batch left when it closes', async () => {
    let closeNow: () => void = () => undefined;
    let laterRan = false;
    const server = new McpServer({ name: 'shutdown', version: '1.0.0' }, { onError: () => {} });
    server.tool({ name: 'closing', description: 'Closes the server.' }, async (_args, ctx) => {
      void ctx.progress(0, 1);
      closeNow();
      await new Promise<void>(() => undefined);
      return 'never';
    });
    server.tool({ name: 'later', description: 'Notes that it ran.' }, () => {
      laterRan = true;
      return 'ran';
    });
    const running = await listen(() => server, { sessions: false });
    cleanups.push(() => running.close());
    let closed: Promise<void> = Promise.resolve();
    closeNow = () => {
      closed = running.close();
    };
    const post = await requestTo(running, {
      body: [call('closing', {}, 'a', { progressToken: 'p' }), call('later', {}, 'b')],
      headers: { accept: ACCEPT_BOTH, 'mcp-protocol-version': '2025-03-26' },
    });
    expect(post.headers.get('content-type')).toContain('text/event-stream');
    const text = await readTextUntil(post, () => false);
    await closed;
    // Both cut alike: the element that ran and the one the close came before.
    expect(messagesOf(text).at(-1)).toEqual([serverClosed('a'), serverClosed('b')]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(laterRan).toBe(false);
  });

  it('sends an HTTP+SSE (2024-11-05) request in flight past the grace an error on the stream', async () => {
    const { server, release, running: toolRunning } = slowServer();
    cleanups.push(release);
    const running = await listen(() => server, { enableLegacySse: true });
    cleanups.push(() => running.close());
    const { stream } = await legacySseCall(running, 7);
    await toolRunning;
    const [rest] = await Promise.all([
      eventsUntil(stream, () => false),
      running.close({ graceMs: 200 }),
    ]);
    // The error, then the stream ended (eventsUntil read to its end).
    expect(JSON.parse(rest.at(-1)?.data ?? '')).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32603, message: 'session closed before the request was answered' },
    });
  });

  it('sends an HTTP+SSE request the error though a request reusing its id was refused', async () => {
    const { server, release, running: toolRunning } = slowServer();
    cleanups.push(release);
    const running = await listen(() => server, { enableLegacySse: true });
    cleanups.push(() => running.close());
    const { stream, post } = await legacySseCall(running, 9);
    await toolRunning;
    await post(call('slow', {}, 9));
    const [refusal] = await eventsUntil(stream, () => true);
    expect(JSON.parse(refusal?.data ?? '')).toMatchObject({ id: 9, error: {} });
    const [rest] = await Promise.all([
      eventsUntil(stream, () => false),
      running.close({ graceMs: 200 }),
    ]);
    expect(JSON.parse(rest.at(-1)?.data ?? '')).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: { code: -32603, message: 'session closed before the request was answered' },
    });
  });

  it('lets an HTTP+SSE (2024-11-05) request in flight finish within the grace', async () => {
    const { server, release, running: toolRunning } = slowServer();
    cleanups.push(release);
    const running = await listen(() => server, { enableLegacySse: true });
    cleanups.push(() => running.close());
    const { stream } = await legacySseCall(running, 8);
    await toolRunning;
    const closing = running.close({ graceMs: 30_000 });
    release();
    const rest = await eventsUntil(stream, () => false);
    await closing;
    const answers = rest.map((event) => JSON.parse(event.data) as { id?: number });
    expect(answers.filter((message) => message.id === 8)).toMatchObject([
      { id: 8, result: { content: [{ text: 'finished' }] } },
    ]);
  });

  it("ends an mcpkit client's 2026-07-28 call past the grace with the error, not a hang", async () => {
    const { server, release, running: toolRunning } = slowServer();
    cleanups.push(release);
    const running = await listen(() => server, {});
    cleanups.push(() => running.close());
    const client = new Client({ name: 'c', version: '1.0.0' }, { mode: { pin: MODERN } });
    cleanups.push(() => client.close());
    await client.connect(createStreamableHttpClientTransport(running.url));
    const progress: number[] = [];
    const call = client.callTool('slow', {}, { onProgress: (p) => progress.push(p) }).then(
      () => 'answered',
      (error: unknown) => error,
    );
    await toolRunning;
    await running.close({ graceMs: 200 });
    expect(await call).toMatchObject({
      code: -32603,
      message: 'server closed before the request was answered',
    });
    expect(progress).toEqual([0]);
  });

  it("ends an official v2 client's 2026-07-28 call past the grace with the error, not a hang", async () => {
    const { server, release, running: toolRunning } = slowServer();
    cleanups.push(release);
    const running = await listen(() => server, {});
    cleanups.push(() => running.close());
    const client = new ClientV2(
      { name: 'v2', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    cleanups.push(() => client.close());
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    const call = client
      .callTool({ name: 'slow', arguments: {} }, { onprogress: () => undefined, timeout: 60_000 })
      .then(
        () => 'answered',
        (error: unknown) => error,
      );
    await toolRunning;
    await running.close({ graceMs: 200 });
    expect(await call).toMatchObject({
      code: -32603,
      message: expect.stringContaining('server closed before the request was answered'),
    });
  });

  it('refuses a negative grace period', async () => {
    const running = await listen(() => slowServer().server, {});
    cleanups.push(() => running.close());
    await expect(running.close({ graceMs: -1 })).rejects.toThrow(TypeError);
  });
});

describe('graceful shutdown of the handler (fetch face)', () => {
  it('answers new requests 503 and /healthz 503 while a 2026-07-28 request finishes', async () => {
    const { server, release, running: toolRunning } = slowServer();
    const handler = createStreamableHttpHandler(() => server, { health: true });
    const face = await faceOf('fetch', handler);
    cleanups.push(() => face.close());
    expect((await face.request({ method: 'GET', path: '/healthz' })).status).toBe(200);
    const inFlight = face.request(modernRequest('tools/call', { name: 'slow', arguments: {} }));
    await toolRunning;

    const closing = handler.close({ graceMs: 30_000 });
    const refused = await face.request(modernRequest('tools/list', {}, { id: 2 }));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32603, message: 'server closed' },
    });
    const health = await face.request({ method: 'GET', path: '/healthz' });
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: 'unavailable', error: 'shutting down' });

    release();
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    const text = await answered.text();
    expect(text).toContain('finished');
    await closing;
    // Later calls share the first call's promise.
    await handler.close();
  });

  it('without a grace period closes at once, as before', async () => {
    const { server, release, running: toolRunning } = slowServer();
    cleanups.push(release);
    const handler = createStreamableHttpHandler(() => server, {});
    const face = await faceOf('fetch', handler);
    const inFlight = face.request(modernRequest('tools/call', { name: 'slow', arguments: {} }));
    await toolRunning;
    await handler.close();
    const answered = await inFlight;
    expect(answered.status).toBeGreaterThanOrEqual(400);
  });
});
