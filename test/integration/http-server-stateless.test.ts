// The Streamable HTTP server in legacy stateless mode (`sessions: false`): every POST reaches a
// fresh connection at the revision its MCP-Protocol-Version names. Both faces.
import { afterEach, describe, expect, it } from 'vitest';
import type { Face } from './http-server-harness.js';
import { assertValidMessage } from '../helpers/spec-schema.js';
import {
  FACES,
  allEvents,
  call,
  createTestServer,
  initializeBody,
  messages,
  startFace,
} from './http-server-harness.js';

const faces: Face[] = [];
afterEach(async () => {
  await Promise.all(faces.splice(0).map((f) => f.close()));
});

describe.each(FACES)('Streamable HTTP, legacy stateless mode (%s)', (kind) => {
  async function start() {
    const { server, probes } = createTestServer();
    const face = await startFace(kind, server, { sessions: false });
    faces.push(face);
    return { face, probes };
  }

  it('answers initialize without a session, then serves requests on fresh connections', async () => {
    const { face } = await start();
    const init = await face.request({ body: initializeBody('2025-06-18') });
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toBeNull();
    expect(await init.json()).toMatchObject({ result: { protocolVersion: '2025-06-18' } });
    const echo = await face.request({
      headers: { 'mcp-protocol-version': '2025-06-18' },
      body: call('echo', { text: 'stateless' }),
    });
    expect(await echo.json()).toMatchObject({ result: { content: [{ text: 'stateless' }] } });
    const note = await face.request({
      body: { jsonrpc: '2.0', method: 'notifications/initialized' },
    });
    expect(note.status).toBe(202);
    const progress = await face.request({ body: call('progress', {}, 2, { progressToken: 9 }) });
    expect(progress.headers.get('content-type')).toBe('text/event-stream');
    const list = await allEvents(progress);
    expect(list.every((e) => e.id === undefined)).toBe(true);
    expect(messages(list)).toHaveLength(4);
  });

  it('refuses GET and DELETE with 405, a bad protocol version with 400', async () => {
    const { face } = await start();
    const get = await face.request({ method: 'GET', headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const del = await face.request({ method: 'DELETE' });
    expect(del.status).toBe(405);
    const bad = await face.request({
      headers: { 'mcp-protocol-version': 'bogus' },
      body: { jsonrpc: '2.0', id: 1, method: 'ping' },
    });
    expect(bad.status).toBe(400);
    await bad.text();
  });

  it('takes batches at 2025-03-26 (the default) and refuses them later', async () => {
    const { face } = await start();
    const batch = [call('echo', { text: 'a' }, 1), call('echo', { text: 'b' }, 2)];
    const ok = await face.request({ body: batch });
    expect(ok.status).toBe(200);
    expect((await ok.json()).map((r: { id: number }) => r.id).sort()).toEqual([1, 2]);
    const late = await face.request({
      headers: { 'mcp-protocol-version': '2025-11-25' },
      body: batch,
    });
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({ error: { code: -32600 } });
  });

  it('cancels a request when its client goes away', async () => {
    const { face, probes } = await start();
    const abort = new AbortController();
    const pending = face.request({ body: call('wait', {}, 1), signal: abort.signal });
    await probes.waiting;
    abort.abort();
    // Over a socket the client sees its own abort; in-process, the handler's 503 for a closed request.
    const outcome = await pending.then(
      (r) => r.status,
      () => 'aborted',
    );
    expect([503, 'aborted']).toContain(outcome);
    await expect(probes.aborted).resolves.toBeDefined();
  });

  it('fails a request to the client at once: a stateless client declared no capabilities', async () => {
    const { face } = await start();
    const asked = await face.request({
      headers: { 'mcp-protocol-version': '2025-11-25', accept: 'application/json' },
      body: call('ask', {}, 3),
    });
    expect(asked.status).toBe(200);
    const body = (await asked.json()) as {
      result: { isError: boolean; content: { text: string }[] };
    };
    expect(body.result.isError).toBe(true);
    expect(body.result.content[0]?.text).toMatch(/does not support elicitation/);
    assertValidMessage('2025-11-25', body);
    // The server keeps serving; the answer, served alone too, validates against the revision.
    const echo = await face.request({
      headers: { 'mcp-protocol-version': '2025-11-25', accept: 'application/json' },
      body: call('echo', { text: 'after' }, 4),
    });
    const answer: unknown = await echo.json();
    expect(answer).toMatchObject({ result: { content: [{ text: 'after' }] } });
    assertValidMessage('2025-11-25', answer);
  });

  it('answers 503 and cancels a running request when the handler closes', async () => {
    const { face, probes } = await start();
    const pending = face.request({ body: call('wait', {}, 4) });
    await probes.waiting;
    await face.close();
    const outcome = await pending.then(
      async (r) => ({ status: r.status, body: await r.text() }),
      () => 'aborted',
    );
    if (typeof outcome !== 'string') {
      expect(outcome.status).toBe(503);
      expect(outcome.body).toMatch(/request closed/);
    }
    await expect(probes.aborted).resolves.toBeDefined();
  });
});
