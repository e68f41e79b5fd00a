// The Streamable HTTP server under bad input: every malformed request gets its clear error, and
// the server keeps answering good requests afterwards. Both faces; raw sockets for what a fetch
// client cannot send (truncated and stalled bodies).
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Face } from './http-server-harness.js';
import {
  FACES,
  call,
  createTestServer,
  initializeBody,
  modernRequest,
  openSession,
  sessionRequest,
  startFace,
} from './http-server-harness.js';
import type { StreamableHttpOptions } from '../../src/transports/http/server/options.js';

const faces: Face[] = [];
afterEach(async () => {
  await Promise.all(faces.splice(0).map((f) => f.close()));
});

/** Writes raw bytes to the server and collects everything it answers until it closes. */
function raw(
  port: number,
  send: (write: (text: string) => void, end: () => void) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      resolve(received);
    });
    send(
      (text) => socket.write(text),
      () => socket.end(),
    );
  });
}

describe.each(FACES)('Streamable HTTP, bad input (%s)', (kind) => {
  async function start(options: StreamableHttpOptions = {}) {
    const { server } = createTestServer();
    const face = await startFace(kind, server, options);
    faces.push(face);
    const session = await openSession(face);
    /** The good request every bad one is followed by. */
    const stillServes = async () => {
      const res = await face.request(sessionRequest(session, call('echo', { text: 'ok' }, 99)));
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ id: 99, result: { content: [{ text: 'ok' }] } });
    };
    return { face, session, stillServes };
  }

  it('refuses wrong content types with 415', async () => {
    const { face, session, stillServes } = await start();
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    for (const type of [
      undefined,
      'text/plain',
      'application/jsonx',
      'application/json; charset=latin1',
      'text/event-stream',
      'nonsense',
    ]) {
      const res = await face.request({
        ...sessionRequest(session, ping, { 'content-type': type }),
      });
      expect(res.status, String(type)).toBe(415);
      expect(await res.json()).toMatchObject({ id: null, error: { code: -32600 } });
      await stillServes();
    }
    const utf8 = await face.request(
      sessionRequest(session, ping, { 'content-type': 'Application/JSON; charset="UTF-8"' }),
    );
    expect(utf8.status).toBe(200);
    await utf8.text();
  });

  it('refuses bodies over the cap with 413', async () => {
    const { face, session, stillServes } = await start({ maxBodyBytes: 1024 });
    const big = call('echo', { text: 'x'.repeat(2000) });
    const res = await face.request(sessionRequest(session, big));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { code: -32600 } });
    await stillServes();
  });

  it('answers unparseable bodies with 400 and -32700 (id null), invalid messages with -32600', async () => {
    const { face, session, stillServes } = await start();
    const bodies: [string | Uint8Array, number][] = [
      ['{"jsonrpc":"2.0","id":1,', -32700],
      ['', -32700],
      [new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), -32700],
      ['{"foo":1}', -32600],
      ['[]', -32600],
      ['"just a string"', -32600],
      ['{"jsonrpc":"2.0","id":{},"method":"ping"}', -32600],
      ['['.repeat(100_000) + ']'.repeat(100_000), -32600],
    ];
    for (const [body, code] of bodies) {
      const res = await face.request(sessionRequest(session, body));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code } });
      await stillServes();
    }
  });

  it('refuses request ids that are floats or unsafe integers with 400, -32600 and id null', async () => {
    const { face, session, stillServes } = await start();
    for (const id of ['1.5', '9007199254740993']) {
      const ping = `{"jsonrpc":"2.0","id":${id},"method":"ping"}`;
      const modern = modernRequest('ping');
      const modernText = JSON.stringify(modern.body).replace('"id":1,', `"id":${id},`);
      for (const init of [sessionRequest(session, ping), { ...modern, body: modernText }]) {
        const res = await face.request(init);
        expect(res.status, `${id} ${String(init.headers?.['mcp-session-id'])}`).toBe(400);
        expect(await res.json()).toMatchObject({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600 },
        });
      }
      await stillServes();
    }
  });

  it('survives deeply nested arguments', async () => {
    const { face, session, stillServes } = await start();
    const depth = 200_000;
    const text = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"deep","arguments":{"x":${'['.repeat(depth)}${']'.repeat(depth)}}}}`;
    const res = await face.request(sessionRequest(session, text));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: 5 });
    await stillServes();
  });

  it('answers unknown and deleted sessions with 404', async () => {
    const { face, stillServes } = await start();
    const doomed = await openSession(face);
    const del = await face.request({ method: 'DELETE', headers: { 'mcp-session-id': doomed } });
    expect(del.status).toBe(200);
    for (const id of [doomed, 'x'.repeat(500), '../../etc/passwd']) {
      const res = await face.request(sessionRequest(id, { jsonrpc: '2.0', id: 1, method: 'ping' }));
      expect(res.status).toBe(404);
      await res.text();
      await stillServes();
    }
  });

  it('refuses a disallowed Host or Origin with 403 and a JSON-RPC error', async () => {
    const { face, session, stillServes } = await start();
    const attempts: Record<string, string>[] = [
      { host: 'evil.example.com' },
      { host: 'localhost.evil.example.com' },
      { origin: 'http://evil.example.com' },
      { origin: 'null' },
      { origin: 'file://' },
    ];
    for (const headers of attempts) {
      const res = await face.request({ headers, body: initializeBody() });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      expect(res.headers.get('mcp-session-id')).toBeNull();
      await stillServes();
    }
    const local = await face.request({
      headers: { origin: 'http://localhost:5173' },
      ...sessionRequest(
        session,
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { origin: 'http://127.0.0.1:8080' },
      ),
    });
    expect(local.status).toBe(200);
    await local.text();
  });

  it('honours explicit allow-lists', async () => {
    const { server } = createTestServer();
    const face = await startFace(kind, server, {
      allowedHosts: ['mcp.example.com', 'localhost:1'],
      allowedOrigins: ['https://app.example.com'],
    });
    faces.push(face);
    const attempt = (headers: Record<string, string>) =>
      face.request({ headers, body: initializeBody() });
    const ok = await attempt({ host: 'mcp.example.com:8443', origin: 'https://app.example.com' });
    expect(ok.status).toBe(200);
    await ok.text();
    for (const headers of [
      { host: 'localhost:2' },
      { host: 'mcp.example.com', origin: 'http://app.example.com' },
      { host: 'mcp.example.com', origin: 'https://localhost' },
    ]) {
      const res = await attempt(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      await res.text();
    }
  });

  it('answers CORS preflights and exposes the MCP headers when enabled', async () => {
    const { server } = createTestServer();
    const face = await startFace(kind, server, { cors: { maxAgeSeconds: 60 } });
    faces.push(face);
    const origin = 'http://localhost:3000';
    const preflight = await face.request({
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-session-id',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    expect(preflight.headers.get('access-control-allow-headers')).toBe(
      'content-type, mcp-session-id',
    );
    expect(preflight.headers.get('access-control-allow-methods')).toContain('DELETE');
    expect(preflight.headers.get('access-control-max-age')).toBe('60');
    const init = await face.request({ headers: { origin }, body: initializeBody() });
    expect(init.headers.get('access-control-allow-origin')).toBe(origin);
    expect(init.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id');
    await init.text();
    const evil = await face.request({
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example.com' },
    });
    expect(evil.status).toBe(403);
    await evil.text();
    const { server: plain } = createTestServer();
    const noCors = await startFace(kind, plain);
    faces.push(noCors);
    const refused = await noCors.request({ method: 'OPTIONS', headers: { origin } });
    expect(refused.status).toBe(405);
  });

  it('keeps modern header mismatches from reaching the server', async () => {
    const { face, stillServes } = await start();
    const res = await face.request(
      modernRequest(
        'tools/call',
        { name: 'echo', arguments: {} },
        { headers: { 'mcp-name': 'wait' } },
      ),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ id: 1, error: { code: -32020 } });
    await stillServes();
  });
});

describe('Streamable HTTP, broken bodies on a socket (node)', () => {
  async function start(options: StreamableHttpOptions = {}) {
    const { server } = createTestServer();
    const face = await startFace('node', server, options);
    faces.push(face);
    return face;
  }
  const head = (port: number, length: number) =>
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${String(port)}\r\nContent-Type: application/json\r\n` +
    `Accept: application/json\r\nContent-Length: ${String(length)}\r\n\r\n`;

  it('times a stalled body out with 408 and closes the connection', async () => {
    const face = await start({ bodyTimeoutMs: 30 });
    const answer = await raw(face.port!, (write) => {
      write(head(face.port!, 100) + '{"jsonrpc":');
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer.toLowerCase()).toContain('connection: close');
    const ok = await face.request({ body: initializeBody() });
    expect(ok.status).toBe(200);
    await ok.text();
  });

  it('survives a truncated body and a chunked body over the cap', async () => {
    const face = await start({ maxBodyBytes: 256 });
    await raw(face.port!, (write, end) => {
      write(head(face.port!, 100) + '{"jsonrpc":"2.0"');
      end();
    });
    const chunked = await raw(face.port!, (write) => {
      write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${String(face.port!)}\r\nContent-Type: application/json\r\n` +
          'Transfer-Encoding: chunked\r\n\r\n',
      );
      for (let i = 0; i < 20; i++) write(`10\r\n${'x'.repeat(16)}\r\n`);
    });
    expect(chunked).toMatch(/^HTTP\/1\.1 413/);
    const declared = await raw(face.port!, (write) => {
      write(head(face.port!, 1_000_000));
    });
    expect(declared).toMatch(/^HTTP\/1\.1 413/);
    const ok = await face.request({ body: initializeBody() });
    expect(ok.status).toBe(200);
    await ok.text();
  });
});

describe('Streamable HTTP, broken bodies in-process (fetch)', () => {
  it('times out a stalled stream (408) and reports a failing one (400)', async () => {
    const { server } = createTestServer();
    const face = await startFace('fetch', server, { bodyTimeoutMs: 20 });
    faces.push(face);
    const { toFetchHandler } = await import('../../src/transports/http/server/fetch.js');
    const fetchHandler = toFetchHandler(face.handler);
    const post = (body: ReadableStream<Uint8Array>) =>
      fetchHandler(
        new Request('http://localhost/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          duplex: 'half',
        } as RequestInit),
      );
    const stalled = await post(new ReadableStream({ pull: () => new Promise(() => undefined) }));
    expect(stalled.status).toBe(408);
    const failing = await post(
      new ReadableStream({
        pull(controller) {
          controller.error(new Error('boom'));
        },
      }),
    );
    expect(failing.status).toBe(400);
    const ok = await face.request({ body: initializeBody() });
    expect(ok.status).toBe(200);
  });
});
