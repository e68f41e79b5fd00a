// The Streamable HTTP server, 2026-07-28: no sessions, the standard headers checked against the
// body, errors mapped to HTTP statuses, cancellation by closing the response, and
// subscriptions/listen as a long-lived stream. Both faces.
import { afterEach, describe, expect, it } from 'vitest';
import type { Face } from './http-server-harness.js';
import {
  FACES,
  MODERN,
  allEvents,
  createTestServer,
  events,
  eventsUntil,
  messages,
  modernMeta,
  modernRequest,
  readTextUntil,
  startFace,
} from './http-server-harness.js';
import type { StreamableHttpOptions } from '../../src/transports/http/server/options.js';
import { McpServer } from '../../src/server/index.js';

const faces: Face[] = [];
afterEach(async () => {
  await Promise.all(faces.splice(0).map((f) => f.close()));
});

function sentinel(value: string): string {
  return `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

describe.each(FACES)('Streamable HTTP, 2026-07-28 (%s)', (kind) => {
  async function start(options: StreamableHttpOptions = {}) {
    const { server, probes } = createTestServer();
    const face = await startFace(kind, server, options);
    faces.push(face);
    return { face, probes, server };
  }

  it('serves a request with its standard headers, without a session', async () => {
    const { face } = await start();
    const res = await face.request(
      modernRequest(
        'tools/call',
        { name: 'echo', arguments: { text: 'now' } },
        { headers: { 'mcp-session-id': 'ignored' } },
      ),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const body = await res.json();
    expect(body).toMatchObject({
      id: 1,
      result: { resultType: 'complete', content: [{ type: 'text', text: 'now' }] },
    });
    expect(body.result._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({
      name: 'http-test',
    });
    expect(face.handler.sessionCount).toBe(0);
  });

  it('rejects missing or disagreeing headers with 400 HeaderMismatch (-32020)', async () => {
    const { face } = await start();
    const cases: [string, Record<string, string | undefined>, string?][] = [
      ['no version', { 'mcp-protocol-version': undefined }],
      ['other version', { 'mcp-protocol-version': '2025-11-25' }],
      ['no method', { 'mcp-method': undefined }],
      ['other method', { 'mcp-method': 'tools/list' }],
      ['no name', { 'mcp-name': undefined }],
      ['other name', { 'mcp-name': 'progress' }],
      ['bad sentinel', { 'mcp-name': '=?base64?***?=' }],
      ['case of the method', { 'mcp-method': 'Tools/Call' }],
    ];
    for (const [what, headers] of cases) {
      const res = await face.request(
        modernRequest('tools/call', { name: 'echo', arguments: {} }, { id: 4, headers }),
      );
      expect(res.status, what).toBe(400);
      const body = await res.json();
      expect(body, what).toMatchObject({ jsonrpc: '2.0', id: 4, error: { code: -32020 } });
    }
    const ok = await face.request(modernRequest('tools/call', { name: 'echo', arguments: {} }));
    expect(ok.status).toBe(200);
    await ok.text();
  });

  it('compares Mcp-Name after decoding the Base64 sentinel', async () => {
    const { face } = await start();
    const uri = 'test://café';
    const encoded = await face.request(
      modernRequest('resources/read', { uri }, { headers: { 'mcp-name': sentinel(uri) } }),
    );
    expect(encoded.status).toBe(200);
    expect(await encoded.json()).toMatchObject({ result: { contents: [{ uri, text: 'crème' }] } });
    const plainAscii = await face.request(
      modernRequest(
        'resources/read',
        { uri: 'test://cafe' },
        { headers: { 'mcp-name': sentinel('test://cafe') } },
      ),
    );
    expect(plainAscii.status).toBe(200); // any value may be encoded; this one is an unknown resource
    expect(await plainAscii.json()).toMatchObject({ error: { code: -32602 } });
    const wrong = await face.request(
      modernRequest(
        'resources/read',
        { uri },
        { headers: { 'mcp-name': sentinel('test://other') } },
      ),
    );
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: { code: -32020 } });
  });

  it('maps an unsupported version to 400 (-32022) and an unknown method to 404 (-32601)', async () => {
    const { face } = await start();
    const future = '2099-01-01';
    const res = await face.request({
      headers: { 'mcp-protocol-version': future, 'mcp-method': 'tools/list' },
      body: {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/list',
        params: { _meta: modernMeta({ 'io.modelcontextprotocol/protocolVersion': future }) },
      },
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ id: 2, error: { code: -32022, data: { requested: future } } });
    expect(body.error.data.supported).toContain(MODERN);
    const unknown = await face.request(modernRequest('tools/nope'));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: -32601 } });
    const legacyOnly = await face.request(
      modernRequest('resources/subscribe', { uri: 'test://café' }),
    );
    expect(legacyOnly.status).toBe(404);
    await legacyOnly.text();
  });

  it("answers the server's -32602 for a missing or malformed _meta key with 400, other -32602s with 200", async () => {
    const { face } = await start();
    const capabilities = 'io.modelcontextprotocol/clientCapabilities';
    // The server checks _meta (the transport only compares headers with the body); the error
    // names the key, and that is what makes it a 400 (SEP-2575).
    const missing = await face.request(
      modernRequest('tools/list', {}, { meta: { [capabilities]: undefined } }),
    );
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({
      id: 1,
      error: { code: -32602, data: { metaKey: capabilities } },
    });
    const malformed = await face.request(
      modernRequest('tools/list', {}, { meta: { [capabilities]: 'all of them' } }),
    );
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({
      error: { code: -32602, data: { metaKey: capabilities } },
    });
    const unknownTool = await face.request(modernRequest('tools/call', { name: 'nope' }));
    expect(unknownTool.status).toBe(200);
    expect(await unknownTool.json()).toMatchObject({ error: { code: -32602 } });
  });

  it('streams progress over SSE without event ids', async () => {
    const { face } = await start();
    const res = await face.request(
      modernRequest(
        'tools/call',
        { name: 'progress', arguments: {} },
        { meta: { progressToken: 'm' } },
      ),
    );
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const list = await allEvents(res);
    expect(list.every((e) => e.id === undefined && e.retry === undefined)).toBe(true);
    const sent = messages(list);
    expect(sent.map((m) => m.method ?? 'result')).toEqual([
      'notifications/progress',
      'notifications/progress',
      'notifications/progress',
      'result',
    ]);
  });

  it('cancels the request when the client closes the response (ctx.signal aborts)', async () => {
    const { face, probes } = await start();
    const abort = new AbortController();
    const pending = face.request({
      ...modernRequest('tools/call', { name: 'wait', arguments: {} }),
      signal: abort.signal,
    });
    await probes.waiting;
    abort.abort();
    await pending
      .then(
        (r) => r.text(),
        () => undefined,
      )
      .catch(() => undefined);
    await expect(probes.aborted).resolves.toBeDefined();
    // The server carries on.
    const ok = await face.request(modernRequest('tools/list'));
    expect(ok.status).toBe(200);
    await ok.text();
  });

  it('keeps subscriptions/listen open with keep-alives until the client leaves', async () => {
    const { face, server } = await start({ keepAliveMs: 10 });
    const abort = new AbortController();
    const res = await face.request({
      ...modernRequest('subscriptions/listen', { notifications: { toolsListChanged: true } }),
      signal: abort.signal,
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const stream = events(res);
    const [ack] = messages(await eventsUntil(stream, (e) => e.data !== ''));
    expect(ack).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true } },
    });
    server.tool(
      { name: 'later', description: 'Added while listening.', inputSchema: { type: 'object' } },
      () => 'x',
    );
    const [changed] = messages(await eventsUntil(stream, (e) => e.data !== ''));
    expect(changed).toMatchObject({ method: 'notifications/tools/list_changed' });
    await stream.return(undefined);
    abort.abort();
    const again = await face.request({
      ...modernRequest('subscriptions/listen', { notifications: {} }),
    });
    const text = await readTextUntil(again, (t) => t.includes(': keep-alive'));
    expect(text).toContain(': keep-alive');
  });

  it('refuses a subscriptions/listen stream beyond maxListenStreams, and takes one again when a slot frees', async () => {
    const server = new McpServer({ name: 'listen-cap', version: '1.0.0' }, { maxListenStreams: 2 });
    const face = await startFace(kind, server);
    faces.push(face);
    const listen = (signal?: AbortSignal) =>
      face.request({
        ...modernRequest('subscriptions/listen', { notifications: { toolsListChanged: true } }),
        ...(signal === undefined ? {} : { signal }),
      });
    const open = [new AbortController(), new AbortController()];
    const streams = [];
    for (const abort of open) {
      const stream = events(await listen(abort.signal));
      await eventsUntil(stream, (e) => e.data !== '');
      streams.push(stream);
    }
    const refused = await listen();
    expect(refused.status).toBe(200);
    expect(await refused.json()).toMatchObject({
      error: {
        code: -32603,
        message: expect.stringMatching(/too many subscriptions\/listen streams .*limit 2/),
      },
    });
    open[0]!.abort();
    await streams[0]!.return(undefined);
    // The freed slot reaches the server asynchronously: retry until it did.
    let acknowledged = false;
    for (let attempt = 0; attempt < 50 && !acknowledged; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20));
      const abort = new AbortController();
      const res = await listen(abort.signal);
      acknowledged = res.headers.get('content-type') === 'text/event-stream';
      abort.abort();
      await res.body?.cancel().catch(() => undefined);
    }
    expect(acknowledged).toBe(true);
    open[1]!.abort();
    await streams[1]!.return(undefined);
  });

  it('answers notifications with 202 (headers optional, but checked when sent), and refuses GET, DELETE and batches', async () => {
    const { face } = await start();
    const note = await face.request({
      headers: { 'mcp-protocol-version': MODERN, 'mcp-method': 'notifications/cancelled' },
      body: {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 1, _meta: modernMeta() },
      },
    });
    expect(note.status).toBe(202);
    const bare = await face.request({
      body: {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 1, _meta: modernMeta() },
      },
    });
    expect(bare.status).toBe(202);
    const wrong = await face.request({
      headers: { 'mcp-method': 'notifications/other' },
      body: {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 1, _meta: modernMeta() },
      },
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ id: null, error: { code: -32020 } });
    const get = await face.request({
      method: 'GET',
      headers: { 'mcp-protocol-version': MODERN, accept: 'text/event-stream' },
    });
    expect(get.status).toBe(405);
    const del = await face.request({
      method: 'DELETE',
      headers: { 'mcp-protocol-version': MODERN },
    });
    expect(del.status).toBe(405);
    const one = modernRequest('ping');
    const batch = await face.request({ headers: one.headers!, body: [one.body] });
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({ error: { code: -32600 } });
  });

  it('asks for client input with an input_required result, not a server request', async () => {
    const { face } = await start();
    const res = await face.request(
      modernRequest(
        'tools/call',
        { name: 'ask', arguments: {} },
        {
          meta: { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } },
        },
      ),
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.result.resultType).toBe('input_required');
    const missing = await face.request(modernRequest('tools/call', { name: 'ask', arguments: {} }));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: { code: -32021 } });
  });
});
