// The deprecated HTTP+SSE transport of 2024-11-05, served on request next to Streamable HTTP:
// GET /sse announces the endpoint, POST /messages answers 202, the response rides the stream.
import { afterEach, describe, expect, it } from 'vitest';
import type { Face } from './http-server-harness.js';
import {
  FACES,
  call,
  createTestServer,
  events,
  eventsUntil,
  initializeBody,
  startFace,
} from './http-server-harness.js';

const faces: Face[] = [];
afterEach(async () => {
  await Promise.all(faces.splice(0).map((f) => f.close()));
});

describe.each(FACES)('HTTP+SSE (2024-11-05) (%s)', (kind) => {
  async function start(enableLegacySse = true) {
    const { server } = createTestServer();
    const face = await startFace(kind, server, { enableLegacySse });
    faces.push(face);
    return face;
  }

  it('round-trips initialize and a tool call over the event stream', async () => {
    const face = await start();
    const abort = new AbortController();
    const res = await face.request({
      method: 'GET',
      path: '/sse',
      headers: { accept: 'text/event-stream' },
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const stream = events(res);
    const [endpoint] = await eventsUntil(stream, () => true);
    expect(endpoint).toMatchObject({ event: 'endpoint' });
    expect(endpoint!.data).toMatch(/^\/messages\?sessionId=[0-9a-f]{32}$/);
    const post = (body: unknown) => face.request({ path: endpoint!.data, body });
    const init = await post(initializeBody('2024-11-05', 1));
    expect(init.status).toBe(202);
    expect(await init.text()).toBe('');
    const [initialized] = await eventsUntil(stream, () => true);
    expect(initialized).toMatchObject({ event: 'message' });
    expect(JSON.parse(initialized!.data)).toMatchObject({
      id: 1,
      result: { protocolVersion: '2024-11-05' },
    });
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    expect((await post(call('echo', { text: 'old' }, 2))).status).toBe(202);
    const [answer] = await eventsUntil(stream, () => true);
    expect(JSON.parse(answer!.data)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: { content: [{ type: 'text', text: 'old' }] },
    });
    expect(face.handler.sessionCount).toBe(1);
    await stream.return(undefined);
    abort.abort();
  });

  it('refuses unknown sessions (404), a missing one (400), bad bodies (400/415)', async () => {
    const face = await start();
    const unknown = await face.request({ path: '/messages?sessionId=nope', body: call('echo') });
    expect(unknown.status).toBe(404);
    await unknown.text();
    const missing = await face.request({ path: '/messages', body: call('echo') });
    expect(missing.status).toBe(400);
    await missing.text();
    const res = await face.request({
      method: 'GET',
      path: '/sse',
      headers: { accept: 'text/event-stream' },
    });
    const stream = events(res);
    const [endpoint] = await eventsUntil(stream, () => true);
    const broken = await face.request({ path: endpoint!.data, body: '{' });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: { code: -32700 } });
    const text = await face.request({
      path: endpoint!.data,
      body: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    await text.text();
    const wrongVerb = await face.request({ method: 'GET', path: '/messages' });
    expect(wrongVerb.status).toBe(405);
    await stream.return(undefined);
  });

  it('ends the session when its stream closes', async () => {
    const face = await start();
    const abort = new AbortController();
    const res = await face.request({
      method: 'GET',
      path: '/sse',
      headers: { accept: 'text/event-stream' },
      signal: abort.signal,
    });
    const stream = events(res);
    const [endpoint] = await eventsUntil(stream, () => true);
    abort.abort();
    await stream.return(undefined);
    for (let i = 0; i < 50 && face.handler.sessionCount > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(face.handler.sessionCount).toBe(0);
    const late = await face.request({ path: endpoint!.data, body: call('echo') });
    expect(late.status).toBe(404);
  });

  it('is off unless enabled', async () => {
    const face = await start(false);
    const res = await face.request({
      method: 'GET',
      path: '/sse',
      headers: { accept: 'text/event-stream' },
    });
    expect(res.status).toBe(404);
  });
});
