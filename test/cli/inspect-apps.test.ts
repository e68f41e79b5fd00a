// mcpkit inspect as an MCP Apps host, over real sockets without a browser: the sandbox listener
// (another origin: its own port, no API, Host-checked, the proxy framable by the inspector only,
// views served with their CSP as a header), and /api/apps/ (a view's resource read and checked,
// app-only tools allowed, model-only ones and another connection's refused, the app channel of
// the wire log kept out of the transcript). The browser side is test/inspector/apps.test.ts.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Inspector } from '../../src/cli/inspect/server.js';
import { startInspector } from '../../src/cli/inspect/server.js';
import { DEFAULT_APP_CSP } from '../../src/ext/apps/index.js';
import type { Listening } from '../../src/transports/http/server/node.js';
import { listen } from '../../src/transports/http/server/node.js';
import { createAppsServer } from '../fixtures/apps-server.js';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request with exactly these headers (node:http lets a test set Host and Origin). */
function send(
  origin: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: Number(url.port),
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: url.host, ...options.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

let inspector: Inspector;
let upstream: Listening;

beforeAll(async () => {
  const server = createAppsServer();
  upstream = await listen(() => server);
  inspector = await startInspector({ target: { kind: 'url', url: upstream.url, headers: {} } });
});

afterAll(async () => {
  await inspector.close();
  await upstream.close();
});

/** POST /api/<path> with the token. */
async function api(path: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const answer = await send(inspector.origin, {
    method: 'POST',
    path: `/api/${path}`,
    headers: { 'x-mcpkit-token': inspector.token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: answer.status, json: JSON.parse(answer.body) as unknown };
}

async function connection(): Promise<number> {
  const state = await send(inspector.origin, {
    path: '/api/state',
    headers: { 'x-mcpkit-token': inspector.token },
  });
  return (JSON.parse(state.body) as { connection: number }).connection;
}

describe('the sandbox origin', () => {
  it('is another port of the same host, with no API and no page of the inspector', async () => {
    const sandbox = new URL(inspector.sandboxOrigin);
    expect(sandbox.hostname).toBe(new URL(inspector.origin).hostname);
    expect(sandbox.port).not.toBe(new URL(inspector.origin).port);
    const headers = { 'x-mcpkit-token': inspector.token };
    expect((await send(inspector.sandboxOrigin, { path: '/api/state', headers })).status).toBe(404);
    expect((await send(inspector.sandboxOrigin, { path: '/' })).status).toBe(404);
  });

  it('is refused by the inspector, token or not', async () => {
    const answer = await send(inspector.origin, {
      path: '/api/state',
      headers: { 'x-mcpkit-token': inspector.token, origin: inspector.sandboxOrigin },
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toContain('origin not allowed');
  });

  it('checks Host (DNS rebinding) and serves the proxy to the inspector page only', async () => {
    const proxy = `/proxy?host=${encodeURIComponent(inspector.origin)}`;
    const rebound = await send(inspector.sandboxOrigin, {
      path: proxy,
      headers: { host: 'attacker.example' },
    });
    expect(rebound.status).toBe(403);
    const other = await send(inspector.sandboxOrigin, { path: '/proxy?host=http://evil.example' });
    expect(other.status).toBe(400);
    const page = await send(inspector.sandboxOrigin, { path: proxy });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain(
      `frame-ancestors ${inspector.origin}`,
    );
    expect(page.body).toContain("PREFIX + 'proxy-ready'");
    expect(page.body).not.toContain(inspector.token);
  });

  it('serves a view with its CSP as a header, handed over from its own origin only', async () => {
    const body = JSON.stringify({ html: '<p>view</p>' });
    const json = { 'content-type': 'application/json' };
    const stranger = await send(inspector.sandboxOrigin, {
      method: 'POST',
      path: '/view',
      headers: { ...json, origin: 'null' },
      body,
    });
    expect(stranger.status).toBe(403);
    const taken = await send(inspector.sandboxOrigin, {
      method: 'POST',
      path: '/view',
      headers: { ...json, origin: inspector.sandboxOrigin },
      body,
    });
    expect(taken.status).toBe(200);
    const { url } = JSON.parse(taken.body) as { url: string };
    const view = await send(inspector.sandboxOrigin, { path: url });
    expect(view.body).toBe('<p>view</p>');
    const policies = view.headers['content-security-policy'];
    expect(policies).toContain(DEFAULT_APP_CSP);
    expect(policies).toContain(`frame-ancestors ${inspector.sandboxOrigin}`);
  });
});

describe('/api/apps/', () => {
  it("reads a view's resource and checks it", async () => {
    const answer = await api('apps/resource', {
      uri: 'ui://apps-fixture/greeting',
      connection: await connection(),
    });
    expect(answer.status).toBe(200);
    const view = answer.json as { html: string; policy: string; prefersBorder: boolean };
    expect(view.html).toContain('Greeting view');
    expect(view.policy).toBe(DEFAULT_APP_CSP);
    expect(view.prefersBorder).toBe(true);
    const notUi = await api('apps/resource', { uri: 'https://x', connection: 1 });
    expect(notUi.status).toBe(400);
  });

  it('lets a view call app-visible tools of its own connection only', async () => {
    const current = await connection();
    const appOnly = await api('apps/call', { name: 'refresh-greeting', connection: current });
    expect(appOnly.json).toMatchObject({ result: { content: [{ text: 'Refreshed 1 time(s)' }] } });
    const modelOnly = await api('apps/call', { name: 'model-secret', connection: current });
    expect(modelOnly.json).toMatchObject({ error: { code: -32600 } });
    const stale = await api('apps/call', { name: 'refresh-greeting', connection: current - 1 });
    expect(stale.json).toMatchObject({ error: { code: -32600 } });
    expect(JSON.stringify(stale.json)).toContain('its own server only');
  });

  it('logs the app channel in the wire log, apart from the transcript', async () => {
    const logged = await api('apps/log', {
      entries: [{ dir: '>>', view: 'v1', message: { jsonrpc: '2.0', id: 1, method: 'ping' } }],
    });
    expect(logged.status).toBe(200);
    const bad = await api('apps/log', { entries: [{ dir: 'up', view: 'v1', message: {} }] });
    expect(bad.status).toBe(400);
    const transcript = await send(inspector.origin, {
      path: '/api/transcript',
      headers: { 'x-mcpkit-token': inspector.token },
    });
    expect(transcript.body).not.toContain('"method":"ping"');
    expect(transcript.body).toContain('"io.modelcontextprotocol/ui"');
  });
});
