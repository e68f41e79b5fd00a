// A user's own HTTP middleware in front of the MCP endpoint (the `middleware` option), on both
// faces: a request-id header on every reply, a custom API-key check whose principal the tools
// see, where it sits in the chain (probes and refused requests never reach it; it runs before
// the bearer gate), and a middleware that throws (500, reported, the endpoint keeps serving).
import { afterEach, describe, expect, it } from 'vitest';
import { AuthError } from '../../src/protocol/auth.js';
import type { AuthInfo } from '../../src/protocol/auth.js';
import { McpServer } from '../../src/server/server.js';
import type { HttpMiddleware } from '../../src/transports/http/index.js';
import { createFetchHandler } from '../../src/transports/http/index.js';
import { listen } from '../../src/transports/http/server/node.js';
import type { StreamableHttpOptions } from '../../src/transports/http/server/options.js';
import type {
  SessionRecord,
  SessionStore,
} from '../../src/transports/http/server/session-store.js';
import type { Face } from './http-server-harness.js';
import {
  FACES,
  modernRequest,
  openSession,
  sessionRequest,
  startFace,
} from './http-server-harness.js';

/** Stamps every reply with the request's `x-request-id`, or a counter when it has none. */
function requestId(seen: string[]): HttpMiddleware {
  let next = 0;
  return (exchange, answer, go) => {
    const given = exchange.headers['x-request-id'];
    const id = typeof given === 'string' ? given : `r${String(++next)}`;
    seen.push(`${exchange.method} ${exchange.url}`);
    go(exchange, (reply) => {
      answer({ ...reply, headers: { ...reply.headers, 'x-request-id': id } });
    });
  };
}

/** A custom check: `x-api-key` must name a known client, which becomes the principal. */
const apiKey: HttpMiddleware = (exchange, answer, next) => {
  const key = exchange.headers['x-api-key'];
  if (key !== 'k-alice') {
    answer({ status: 401, headers: { 'content-type': 'text/plain' }, body: null });
    return;
  }
  exchange.auth = { client: 'alice' };
  next(exchange, answer);
};

function testServer(): McpServer {
  const server = new McpServer({ name: 'mw', version: '1.0.0' }, { onError: () => {} });
  server.tool({ name: 'who' }, (_args, ctx) => JSON.stringify(ctx.transport?.auth ?? null));
  return server;
}

const faces: Face[] = [];
afterEach(async () => {
  await Promise.all(faces.splice(0).map((face) => face.close()));
});

async function start(kind: 'node' | 'fetch', options: StreamableHttpOptions): Promise<Face> {
  const face = await startFace(kind, testServer(), options);
  faces.push(face);
  return face;
}

async function textOf(response: Response): Promise<string> {
  const body = (await response.json()) as { result?: { content?: { text?: string }[] } };
  return body.result?.content?.[0]?.text ?? JSON.stringify(body);
}

describe.each(FACES)('HTTP middleware of ones own (%s face)', (kind) => {
  it('adds a request-id header to every reply of the endpoint', async () => {
    const seen: string[] = [];
    const face = await start(kind, { middleware: [requestId(seen)] });
    const call = modernRequest('tools/call', { name: 'who', arguments: {} });
    const given = await face.request({
      ...call,
      headers: { ...call.headers, 'x-request-id': 'abc' },
    });
    expect(given.status).toBe(200);
    expect(given.headers.get('x-request-id')).toBe('abc');
    expect(await textOf(given)).toBe('null');
    const minted = await face.request(modernRequest('tools/list'));
    expect(minted.headers.get('x-request-id')).toBe('r1');
    // A refusal of the endpoint itself (405) passes through it too.
    const refused = await face.request({ method: 'PUT' });
    expect([refused.status, refused.headers.get('x-request-id')]).toEqual([405, 'r2']);
    expect(seen).toEqual(['POST /mcp', 'POST /mcp', 'PUT /mcp']);
  });

  it('runs a custom auth check whose principal the tools see', async () => {
    const face = await start(kind, { middleware: [apiKey] });
    const call = modernRequest('tools/call', { name: 'who', arguments: {} });
    const refused = await face.request(call);
    expect(refused.status).toBe(401);
    const admitted = await face.request({
      ...call,
      headers: { ...call.headers, 'x-api-key': 'k-alice' },
    });
    expect(admitted.status).toBe(200);
    expect(await textOf(admitted)).toBe('{"client":"alice"}');
  });

  it('runs in order, after the guard, health and 404, and never for what they answer', async () => {
    const seen: string[] = [];
    const face = await start(kind, { middleware: [requestId(seen), apiKey], health: true });
    const health = await face.request({ method: 'GET', path: '/healthz' });
    expect([health.status, health.headers.get('x-request-id')]).toEqual([200, null]);
    const elsewhere = await face.request({ method: 'GET', path: '/other' });
    expect(elsewhere.status).toBe(404);
    const badHost = await face.request({
      ...modernRequest('tools/list'),
      headers: { host: 'evil.example' },
    });
    expect(badHost.status).toBe(403);
    expect(seen).toEqual([]);
    // The first stamps the refusal of the second.
    const refused = await face.request(modernRequest('tools/list'));
    expect([refused.status, refused.headers.get('x-request-id')]).toEqual([401, 'r1']);
  });

  it('runs before the bearer gate, and may stamp its refusals', async () => {
    const seen: string[] = [];
    const principal: AuthInfo = {
      subject: 'alice',
      clientId: 'c',
      scopes: [],
      expiresAt: undefined,
      claims: {},
    };
    const face = await start(kind, {
      middleware: [requestId(seen)],
      auth: {
        resource: 'http://localhost/mcp',
        authorizationServers: ['https://auth.example.com'],
        verify: (token) => {
          if (token === 'good') return principal;
          throw new AuthError('invalid_token', 'the access token is not valid');
        },
      },
    });
    const refused = await face.request(modernRequest('tools/list'));
    expect([refused.status, refused.headers.get('x-request-id')]).toEqual([401, 'r1']);
    expect(refused.headers.get('www-authenticate')).toContain('Bearer');
    const call = modernRequest('tools/call', { name: 'who', arguments: {} });
    const admitted = await face.request({
      ...call,
      headers: { ...call.headers, authorization: 'Bearer good' },
    });
    expect([admitted.status, admitted.headers.get('x-request-id')]).toEqual([200, 'r2']);
    expect(JSON.parse(await textOf(admitted))).toMatchObject({ subject: 'alice' });
  });

  it('answers 500 for a middleware that throws, reports it, and keeps serving', async () => {
    const errors: string[] = [];
    let calls = 0;
    const flaky: HttpMiddleware = (exchange, answer, next) => {
      if (++calls === 1) throw new Error('flaky broke');
      next(exchange, answer);
    };
    const face = await start(kind, {
      middleware: [flaky],
      onError: (error, where) => {
        errors.push(`${where}: ${(error as Error).message}`);
      },
    });
    const broken = await face.request(modernRequest('tools/list'));
    expect(broken.status).toBe(500);
    expect(errors).toEqual(['POST /mcp: flaky broke']);
    const served = await face.request(modernRequest('tools/list'));
    expect(served.status).toBe(200);
    // The exchange that failed is not left counted as in flight: close is prompt.
    const started = Date.now();
    await face.handler.close({ graceMs: 2000 });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('HTTP middleware through the sugar', () => {
  it('listen(factory, { middleware }) and createFetchHandler(factory, { middleware })', async () => {
    const seen: string[] = [];
    const server = testServer();
    const running = await listen(() => server, { middleware: [requestId(seen)] });
    try {
      const call = modernRequest('tools/list');
      const response = await fetch(running.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(call.headers as Record<string, string>),
        },
        body: JSON.stringify(call.body),
      });
      expect([response.status, response.headers.get('x-request-id')]).toEqual([200, 'r1']);
    } finally {
      await running.close();
    }
    const handle = createFetchHandler(() => server, { middleware: [requestId(seen)] });
    const call = modernRequest('tools/list');
    const response = await handle(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(call.headers as Record<string, string>),
        },
        body: JSON.stringify(call.body),
      }),
    );
    expect([response.status, response.headers.get('x-request-id')]).toEqual([200, 'r1']);
    expect(seen).toEqual(['POST /mcp', 'POST /mcp']);
  });
});

describe('the session store link', () => {
  it('serves from the copy held here when the store throws at once on a refresh', async () => {
    const records = new Map<string, SessionRecord>();
    const store: SessionStore = {
      ttlMs: 20, // a refresh is due every 10 ms
      save: (id, record) => {
        records.set(id, record);
        return Promise.resolve();
      },
      load: (id) => Promise.resolve(records.get(id)),
      delete: (id) => {
        records.delete(id);
        return Promise.resolve();
      },
      touch: () => {
        throw new Error('store broke');
      },
    };
    const errors: string[] = [];
    const face = await start('node', {
      sessionStore: store,
      onError: (error, where) => {
        errors.push(`${where}: ${(error as Error).message}`);
      },
    });
    const session = await openSession(face);
    await new Promise((resolve) => setTimeout(resolve, 15));
    const listed = await face.request(
      sessionRequest(session, { jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    );
    expect(listed.status).toBe(200);
    expect(errors).toContain('session store: store broke');
  });
});
