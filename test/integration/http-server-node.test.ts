// The node:http face: listen() on 127.0.0.1, a real fetch client, mcpkit's own jsonrpc Connection
// as the client (server-to-client requests included), shutdown, and session expiry.
import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Connection } from '../../src/jsonrpc/connection.js';
import { createNodeHandler, listen } from '../../src/transports/http/server/node.js';
import type { Listening } from '../../src/transports/http/server/node.js';
import { createFetchHandler } from '../../src/transports/http/server/fetch.js';
import {
  ACCEPT_BOTH,
  TestClientTransport,
  createTestServer,
  events,
  eventsUntil,
  initializeBody,
  nodeRequest,
  openSession,
  faceOf,
  sessionRequest,
} from './http-server-harness.js';
import { createStreamableHttpHandler } from '../../src/transports/http/server/handler.js';

const running: Listening[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(running.splice(0).map((r) => r.close()));
});

describe('listen()', () => {
  it('answers 503 on a connection beyond maxConnections, and serves again once one closes', async () => {
    const { server } = createTestServer();
    const r = await listen(() => server, { maxConnections: 2 });
    running.push(r);
    const held = await Promise.all(
      [0, 1].map(async () => {
        const socket = connect(r.port, '127.0.0.1');
        await new Promise((resolve) => socket.once('connect', resolve));
        return socket;
      }),
    );
    const post = () =>
      nodeRequest(r.port, {
        headers: {
          host: `127.0.0.1:${String(r.port)}`,
          'content-type': 'application/json',
          accept: ACCEPT_BOTH,
        },
        body: initializeBody(),
      });
    const refused = await post();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({
      error: { code: -32603, message: 'too many connections' },
    });
    held[0]!.destroy();
    // The close reaches the server asynchronously: retry until it did.
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      const res = await post();
      status = res.status;
      await res.text();
    }
    expect(status).toBe(200);
    held[1]!.destroy();
  });

  it('serves a factory on 127.0.0.1 to a plain fetch client', async () => {
    const { server } = createTestServer();
    const r = await listen(() => server);
    running.push(r);
    expect(r.url).toBe(`http://127.0.0.1:${String(r.port)}/mcp`);
    const res = await fetch(r.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH },
      body: JSON.stringify(initializeBody()),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toMatch(/^[0-9a-f]{32}$/);
    await res.text();
  });

  it('refuses to bind outside loopback without an explicit host allow-list', async () => {
    const { server } = createTestServer();
    await expect(listen(() => server, { host: '0.0.0.0' })).rejects.toThrow(TypeError);
  });

  it('closes open streams and sessions, and resolves', async () => {
    const { server } = createTestServer();
    const handler = createStreamableHttpHandler(() => server);
    const face = await faceOf('node', handler);
    const session = await openSession(face);
    const get = await face.request({
      method: 'GET',
      headers: { 'mcp-session-id': session, accept: 'text/event-stream' },
    });
    const stream = events(get);
    await eventsUntil(stream, () => true);
    await face.close();
    expect(handler.sessionCount).toBe(0);
    expect((await stream.next()).done).toBe(true);
  });

  it('exports ready-made node and fetch handlers', async () => {
    const { server } = createTestServer();
    expect(typeof createNodeHandler(() => server)).toBe('function');
    const fetchHandler = createFetchHandler(() => server);
    const res = await fetchHandler(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(initializeBody()),
      }),
    );
    expect(res.status).toBe(200);
  });
});

describe('a jsonrpc Connection as the client', () => {
  it('initializes, calls tools, and answers the server’s elicitation', async () => {
    const { server } = createTestServer();
    const r = await listen(() => server);
    running.push(r);
    const asked: unknown[] = [];
    const client = new Connection(new TestClientTransport(r.url), {
      onRequest: (request) => {
        asked.push(request.params);
        return Promise.resolve({ action: 'accept', content: { name: 'Grace' } });
      },
    });
    await client.start();
    const init = (await client.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: { elicitation: {} },
      clientInfo: { name: 'c', version: '1' },
    })) as { protocolVersion: string };
    expect(init.protocolVersion).toBe('2025-06-18');
    await client.notify('notifications/initialized');
    await expect(
      client.request('tools/call', { name: 'echo', arguments: { text: 't' } }),
    ).resolves.toEqual({
      content: [{ type: 'text', text: 't' }],
    });
    await expect(client.request('tools/call', { name: 'ask', arguments: {} })).resolves.toEqual({
      content: [{ type: 'text', text: 'hello Grace' }],
    });
    expect(asked).toEqual([expect.objectContaining({ message: 'name?' })]);
    const progress = await client.request('tools/call', {
      name: 'progress',
      arguments: {},
      _meta: { progressToken: 1 },
    });
    expect(progress).toEqual({ content: [{ type: 'text', text: 'done' }] });
    await client.close();
  });
});

describe('session expiry', () => {
  it('closes a session idle for longer than sessionIdleMs', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { server } = createTestServer();
    const handler = createStreamableHttpHandler(() => server, { sessionIdleMs: 60_000 });
    const face = await faceOf('fetch', handler);
    const session = await openSession(face);
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    vi.setSystemTime(Date.now() + 30_000);
    expect((await face.request(sessionRequest(session, ping))).status).toBe(200);
    vi.setSystemTime(Date.now() + 30_000);
    expect((await face.request(sessionRequest(session, ping))).status).toBe(200);
    const other = await openSession(face);
    vi.setSystemTime(Date.now() + 61_000);
    expect((await face.request(sessionRequest(session, ping))).status).toBe(404);
    // The sweep closed the other idle session too.
    expect(handler.sessionCount).toBe(0);
    expect((await face.request(sessionRequest(other, ping))).status).toBe(404);
    await face.close();
  });
});
