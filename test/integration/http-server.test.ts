// The Streamable HTTP server, legacy sessions: lifecycle, framing, streaming and every status
// code, run against both faces (node:http on a socket, and the fetch handler in-process).
import { afterEach, describe, expect, it } from 'vitest';
import type { Face } from './http-server-harness.js';
import type { SseEvent } from '../../src/transports/http/sse.js';
import {
  FACES,
  allEvents,
  call,
  createTestServer,
  events,
  eventsUntil,
  initializeBody,
  messages,
  openSession,
  readTextUntil,
  sessionRequest,
  startFace,
} from './http-server-harness.js';
import type { StreamableHttpOptions } from '../../src/transports/http/server/options.js';
import { McpServer } from '../../src/server/index.js';

const faces: Face[] = [];
afterEach(async () => {
  await Promise.all(faces.splice(0).map((f) => f.close()));
});

describe.each(FACES)('Streamable HTTP, legacy sessions (%s)', (kind) => {
  async function start(options: StreamableHttpOptions = {}) {
    const { server, probes } = createTestServer();
    const face = await startFace(kind, server, options);
    faces.push(face);
    return { face, probes, server };
  }

  it('runs a session: initialize, tools/list, DELETE, then 404', async () => {
    const { face } = await start();
    const init = await face.request({ body: initializeBody() });
    expect(init.status).toBe(200);
    expect(init.headers.get('content-type')).toBe('application/json');
    const session = init.headers.get('mcp-session-id')!;
    expect(session).toMatch(/^[0-9a-f]{32}$/);
    expect(await init.json()).toMatchObject({ id: 0, result: { protocolVersion: '2025-11-25' } });
    const initialized = await face.request(
      sessionRequest(session, { jsonrpc: '2.0', method: 'notifications/initialized' }),
    );
    expect(initialized.status).toBe(202);
    expect(await initialized.text()).toBe('');
    const list = await face.request(
      sessionRequest(session, { jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    );
    expect(list.status).toBe(200);
    const body = await list.json();
    expect(body.result.tools.map((t: { name: string }) => t.name)).toContain('echo');
    expect(face.handler.sessionCount).toBe(1);
    const del = await face.request({ method: 'DELETE', headers: { 'mcp-session-id': session } });
    expect(del.status).toBe(200);
    expect(face.handler.sessionCount).toBe(0);
    const after = await face.request(
      sessionRequest(session, { jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    );
    expect(after.status).toBe(404);
    expect(await after.json()).toMatchObject({ error: { code: -32600 } });
  });

  it('streams progress over SSE, then the result', async () => {
    const { face } = await start();
    const session = await openSession(face);
    const res = await face.request(
      sessionRequest(session, call('progress', {}, 7, { progressToken: 'p' })),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const list = await allEvents(res);
    expect(list[0]).toMatchObject({ data: '', retry: 1000 });
    expect(list[0]!.id).toBeDefined();
    const sent = messages(list);
    expect(sent.map((m) => m.method ?? 'result')).toEqual([
      'notifications/progress',
      'notifications/progress',
      'notifications/progress',
      'result',
    ]);
    expect(sent[0].params).toMatchObject({ progressToken: 'p', progress: 1, total: 3 });
    expect(sent[3]).toMatchObject({ id: 7, result: { content: [{ text: 'done' }] } });
    expect(new Set(list.map((e) => e.id)).size).toBe(list.length);
  });

  it('answers a JSON-only client with the final response alone', async () => {
    const { face } = await start();
    const session = await openSession(face);
    const res = await face.request(
      sessionRequest(session, call('progress', {}, 3, { progressToken: 'p' }), {
        accept: 'application/json',
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toMatchObject({ id: 3, result: { content: [{ text: 'done' }] } });
  });

  it('answers an SSE-only client with a stream, even for a plain result', async () => {
    const { face } = await start();
    const session = await openSession(face);
    const res = await face.request(
      sessionRequest(session, call('echo', { text: 'hi' }), { accept: 'text/event-stream' }),
    );
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(messages(await allEvents(res))).toEqual([
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } },
    ]);
  });

  it('treats a missing or */* Accept as both, and refuses neither with 406', async () => {
    const { face } = await start();
    const session = await openSession(face);
    const ping = (accept: string | undefined) =>
      face.request(sessionRequest(session, { jsonrpc: '2.0', id: 1, method: 'ping' }, { accept }));
    const none = await ping(undefined);
    expect([none.status, none.headers.get('content-type')]).toEqual([200, 'application/json']);
    await none.text();
    const any = await ping('*/*');
    expect(any.status).toBe(200);
    await any.text();
    const refused = await ping('text/html');
    expect(refused.status).toBe(406);
    expect(await refused.json()).toMatchObject({ id: null, error: { code: -32600 } });
    const zero = await ping('application/json;q=0, text/event-stream;q=0');
    expect(zero.status).toBe(406);
    await zero.text();
  });

  it('follows responseMode: sse streams every answer, json never streams', async () => {
    const sse = (await start({ responseMode: 'sse' })).face;
    const s1 = await openSession(sse);
    const streamed = await sse.request(sessionRequest(s1, call('echo', { text: 'x' })));
    expect(streamed.headers.get('content-type')).toBe('text/event-stream');
    expect(messages(await allEvents(streamed))[0]).toMatchObject({ id: 1 });
    const json = (await start({ responseMode: 'json' })).face;
    const s2 = await openSession(json);
    const plain = await json.request(
      sessionRequest(s2, call('progress', {}, 1, { progressToken: 1 })),
    );
    expect(plain.headers.get('content-type')).toBe('application/json');
    expect(await plain.json()).toMatchObject({ id: 1, result: {} });
  });

  it('needs a session id (400), a live one (404), and a known protocol version (400)', async () => {
    const { face } = await start();
    const session = await openSession(face);
    const ping = { jsonrpc: '2.0', id: 9, method: 'ping' };
    const missing = await face.request({ body: ping });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ id: 9, error: { code: -32600 } });
    const unknown = await face.request(sessionRequest('0'.repeat(32), ping));
    expect(unknown.status).toBe(404);
    await unknown.text();
    const noVersion = await face.request(
      sessionRequest(session, ping, { 'mcp-protocol-version': undefined }),
    );
    expect(noVersion.status).toBe(200);
    await noVersion.text();
    const older = await face.request(
      sessionRequest(session, ping, { 'mcp-protocol-version': '2025-03-26' }),
    );
    expect(older.status).toBe(200);
    await older.text();
    const bad = await face.request(
      sessionRequest(session, ping, { 'mcp-protocol-version': '1999-01-01' }),
    );
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ id: 9, error: { code: -32600 } });
    const modern = await face.request(
      sessionRequest(session, ping, { 'mcp-protocol-version': '2026-07-28' }),
    );
    expect(modern.status).toBe(400);
    expect(await modern.json()).toMatchObject({ error: { code: -32020 } });
    const reinit = await face.request(sessionRequest(session, initializeBody()));
    expect(reinit.status).toBe(400);
    await reinit.text();
  });

  it('answers batches as a JSON array in 2025-03-26 only', async () => {
    const { face } = await start();
    const old = await openSession(face, '2025-03-26');
    const batch = [
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      call('echo', { text: 'b' }, 'b'),
      { nonsense: true },
    ];
    const res = await face.request(
      sessionRequest(old, batch, { 'mcp-protocol-version': '2025-03-26' }),
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toHaveLength(3);
    expect(body[0]).toMatchObject({ id: null, error: { code: -32600 } });
    expect(body.slice(1)).toEqual(
      expect.arrayContaining([
        { jsonrpc: '2.0', id: 'a', result: {} },
        expect.objectContaining({ id: 'b', result: expect.anything() }),
      ]),
    );
    const notes = await face.request(
      sessionRequest(old, [{ jsonrpc: '2.0', method: 'notifications/initialized' }]),
    );
    expect(notes.status).toBe(202);
    const modern = await openSession(face);
    const refused = await face.request(sessionRequest(modern, batch));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ id: null, error: { code: -32600 } });
    const withInit = await face.request({ body: [initializeBody()] });
    expect(withInit.status).toBe(400);
    await withInit.text();
  });

  it('refuses a batch of more messages than maxBatchMessages as a whole (-32600), with or without a session', async () => {
    const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
    const headers = { 'mcp-protocol-version': '2025-03-26' };
    for (const sessions of [true, false]) {
      const { face } = await start({ maxBatchMessages: 3, sessions });
      const session = sessions ? await openSession(face, '2025-03-26') : '';
      const post = (body: unknown) =>
        face.request(sessions ? sessionRequest(session, body, headers) : { headers, body });
      const fits = await post([ping(1), ping(2), ping(3)]);
      expect(fits.status).toBe(200);
      expect(await fits.json()).toHaveLength(3);
      const over = await post([ping(1), ping(2), ping(3), ping(4)]);
      expect(over.status).toBe(400);
      expect(await over.json()).toMatchObject({
        id: null,
        error: {
          code: -32600,
          message: expect.stringMatching(/4 messages exceeds the limit of 3/),
        },
      });
    }
  });

  it('carries a server request on the POST stream and takes the answer as a new POST', async () => {
    const { face } = await start();
    const session = await openSession(face);
    const res = await face.request(sessionRequest(session, call('ask', {}, 5)));
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const stream = events(res);
    const [question] = messages(await eventsUntil(stream, (e) => e.data !== ''));
    expect(question).toMatchObject({ method: 'elicitation/create', params: { message: 'name?' } });
    const answer = await face.request(
      sessionRequest(session, {
        jsonrpc: '2.0',
        id: question.id,
        result: { action: 'accept', content: { name: 'Ada' } },
      }),
    );
    expect(answer.status).toBe(202);
    const rest = messages(await eventsUntil(stream, () => false));
    expect(rest).toEqual([
      { jsonrpc: '2.0', id: 5, result: { content: [{ type: 'text', text: 'hello Ada' }] } },
    ]);
  });

  it('opens one GET stream per session (409 for a second) and sends unrelated messages on it', async () => {
    const { face, server } = await start();
    const session = await openSession(face);
    const get = () =>
      face.request({
        method: 'GET',
        headers: { 'mcp-session-id': session, accept: 'text/event-stream' },
      });
    const first = await get();
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/event-stream');
    const stream = events(first);
    const [priming] = await eventsUntil(stream, () => true);
    expect(priming).toMatchObject({ data: '', retry: 1000 });
    const second = await get();
    expect(second.status).toBe(409);
    await second.text();
    server.tool(
      { name: 'late', description: 'Registered late.', inputSchema: { type: 'object' } },
      () => 'x',
    );
    const [changed] = messages(await eventsUntil(stream, (e) => e.data !== ''));
    expect(changed).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    const wrongAccept = await face.request({
      method: 'GET',
      headers: { 'mcp-session-id': session, accept: 'application/json' },
    });
    expect(wrongAccept.status).toBe(406);
    await wrongAccept.text();
    await stream.return(undefined);
  });

  it('answers DELETE without a session with 400, an unknown one with 404, other verbs with 405', async () => {
    const { face } = await start();
    const missing = await face.request({ method: 'DELETE' });
    expect(missing.status).toBe(400);
    await missing.text();
    const unknown = await face.request({ method: 'DELETE', headers: { 'mcp-session-id': 'nope' } });
    expect(unknown.status).toBe(404);
    await unknown.text();
    const put = await face.request({ method: 'PUT', body: {} });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST, DELETE');
    const elsewhere = await face.request({ path: '/other', body: {} });
    expect(elsewhere.status).toBe(404);
    const get = await face.request({ method: 'GET', headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(400);
    await get.text();
  });

  it('sends keep-alive comments on a quiet stream', async () => {
    const { face } = await start({ keepAliveMs: 10 });
    const session = await openSession(face);
    const res = await face.request({
      method: 'GET',
      headers: { 'mcp-session-id': session, accept: 'text/event-stream' },
    });
    const text = await readTextUntil(res, (t) => t.includes(': keep-alive'));
    expect(text).toContain(': keep-alive\n\n');
  });

  it('evicts the least recently used idle session when full, and refuses when all are busy', async () => {
    const { face, probes } = await start({ maxSessions: 2 });
    const a = await openSession(face);
    const b = await openSession(face);
    const c = await openSession(face);
    expect(face.handler.sessionCount).toBe(2);
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const gone = await face.request(sessionRequest(a, ping));
    expect(gone.status).toBe(404);
    await gone.text();
    // b and c busy: a request in flight on each.
    const waits = [b, c].map((s) => face.request(sessionRequest(s, call('wait', {}, 2))));
    await probes.started(2);
    const full = await face.request({ body: initializeBody() });
    expect(full.status).toBe(503);
    expect(await full.json()).toMatchObject({ error: { code: -32603 } });
    probes.release();
    for (const w of waits) expect((await w).status).toBe(200);
  });

  it('evicts, when full, a session whose only activity is a server request its client hung up on', async () => {
    const { face } = await start({ maxSessions: 2 });
    for (const id of [5, 6]) {
      const session = await openSession(face);
      const hangUp = new AbortController();
      const res = await face.request({
        ...sessionRequest(session, call('ask', {}, id)),
        signal: hangUp.signal,
      });
      const stream = events(res);
      await eventsUntil(stream, (e) => e.data !== '');
      hangUp.abort();
      await stream.return(undefined);
    }
    // The hang-ups reach the server asynchronously: retry until one did (503 until then).
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      const next = await face.request({ body: initializeBody() });
      status = next.status;
      await next.text();
    }
    expect(status).toBe(200);
    expect(face.handler.sessionCount).toBe(2);
  });

  it('times out a request to a client that never answers: the tool gets an error it can report, the client a cancel', async () => {
    const server = new McpServer({ name: 'timeouts', version: '1.0.0' }, { inputTimeoutMs: 50 });
    server.tool(
      { name: 'ask', description: 'Asks.', inputSchema: { type: 'object' } },
      async (_args, ctx) => {
        await ctx.elicit({ message: 'name?', requestedSchema: { type: 'object', properties: {} } });
        return 'answered';
      },
    );
    const face = await startFace(kind, server);
    faces.push(face);
    const session = await openSession(face);
    const res = await face.request(sessionRequest(session, call('ask', {}, 5)));
    const sent = messages(await allEvents(res));
    expect(sent.map((m) => m.method ?? 'result')).toEqual([
      'elicitation/create',
      'notifications/cancelled',
      'result',
    ]);
    expect(sent[1].params).toMatchObject({ requestId: sent[0].id });
    expect(sent[2]).toMatchObject({ id: 5, result: { isError: true } });
    expect(sent[2].result.content[0].text).toMatch(/elicitation\/create.*timed out after 50 ms/);
  });

  it('a request the client cancels gets no response, and its POST ends: 202 before any message, else its stream closes', async () => {
    const aborted: string[] = [];
    const server = new McpServer({ name: 'cancels', version: '1.0.0' }, { onError: () => {} });
    server.tool(
      { name: 'wait', description: 'Waits until cancelled.', inputSchema: { type: 'object' } },
      async (_args, ctx) => {
        await ctx.progress(1);
        await new Promise((resolve) => {
          ctx.signal.addEventListener('abort', resolve);
        });
        aborted.push(String(ctx.requestId));
        return 'too late';
      },
    );
    const face = await startFace(kind, server);
    faces.push(face);
    const session = await openSession(face);
    const cancel = (id: number) =>
      face.request(
        sessionRequest(session, {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: id, reason: 'not needed' },
        }),
      );
    // As JSON: nothing was sent before the cancel (no progress token, so no progress either).
    const json = face.request(
      sessionRequest(session, call('wait', {}, 41), { accept: 'application/json' }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await cancel(41)).status).toBe(202);
    const plain = await json;
    expect(plain.status).toBe(202);
    expect(await plain.text()).toBe('');
    // On SSE, after a progress notification opened the stream: the stream ends, no result in it.
    const body = { ...call('wait', {}, 42) } as { params: Record<string, unknown> };
    body.params['_meta'] = { progressToken: 'p42' };
    const streamed = await face.request(
      sessionRequest(session, body, { accept: 'application/json, text/event-stream' }),
    );
    expect(streamed.headers.get('content-type')).toContain('text/event-stream');
    const stream = events(streamed);
    await eventsUntil(stream, (e) => e.data.includes('notifications/progress'));
    expect((await cancel(42)).status).toBe(202);
    const rest: SseEvent[] = [];
    for await (const e of stream) rest.push(e);
    expect(messages(rest).filter((m) => m.id === 42)).toEqual([]);
    expect(aborted.sort()).toEqual(['41', '42']);
  });

  it('mints no session for a failed initialize answered on SSE', async () => {
    const { face } = await start();
    const bad = await face.request({
      headers: { accept: 'text/event-stream' },
      body: { jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: 7 } },
    });
    expect(bad.headers.get('mcp-session-id')).toBeNull();
    expect(messages(await allEvents(bad))).toMatchObject([{ id: 2, error: { code: -32602 } }]);
    expect(face.handler.sessionCount).toBe(0);
  });

  it('forgets a session its server closed, and one whose initialize failed', async () => {
    const { face, server } = await start();
    const session = await openSession(face);
    await server.close();
    const res = await face.request(
      sessionRequest(session, { jsonrpc: '2.0', id: 1, method: 'ping' }),
    );
    expect(res.status).toBe(404);
    await res.text();
    const bad = await face.request({
      body: { jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: 7 } },
    });
    expect(bad.status).toBe(200);
    expect(bad.headers.get('mcp-session-id')).toBeNull();
    expect(await bad.json()).toMatchObject({ id: 2, error: { code: -32602 } });
    expect(face.handler.sessionCount).toBe(0);
  });

  it('ends open streams and pending requests on close', async () => {
    const { face, probes } = await start();
    const session = await openSession(face);
    const get = await face.request({
      method: 'GET',
      headers: { 'mcp-session-id': session, accept: 'text/event-stream' },
    });
    const pending = face.request(sessionRequest(session, call('wait', {}, 3)));
    await probes.waiting;
    await face.close();
    expect((await allEvents(get)).length).toBeGreaterThanOrEqual(1);
    const answered = await pending;
    expect(answered.status).toBe(404);
  });
});
