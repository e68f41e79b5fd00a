// The gate of `mcpkit inspect` (#26), with plain HTTP requests (no browser needed): the page and
// its API answer only with the access token, and only to loopback Host and Origin headers, the
// DNS-rebinding defence the official Inspector's proxy lacked (CVE-2025-49596). No CORS headers,
// ever; stdio targets only when started with --allow-stdio.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Inspector } from '../../src/cli/inspect/server.js';
import { startInspector } from '../../src/cli/inspect/server.js';
import { look } from '../helpers/browser.js';
import { browserSkip, chromiumSuite, suiteName, UI_DIR, uiMissing } from './harness.js';

/** What one raw HTTP exchange gave. */
interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with exactly these headers (node:http lets a test set Host, unlike fetch). */
function send(
  inspector: Inspector,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  const { port } = new URL(inspector.origin);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: Number(port),
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Whether any header of the answer is a CORS header. */
function hasCors(answer: Answer): boolean {
  return Object.keys(answer.headers).some((name) => name.startsWith('access-control-'));
}

describe('mcpkit inspect: token, Host and Origin checks', () => {
  let inspector: Inspector;
  let token: string;
  let port: string;
  beforeAll(async () => {
    inspector = await startInspector({ uiDir: UI_DIR });
    token = inspector.token;
    port = new URL(inspector.origin).port;
  });
  afterAll(async () => {
    await inspector.close();
  });

  it('listens on loopback with a long random token in its URL', () => {
    expect(inspector.origin).toBe(`http://127.0.0.1:${port}`);
    expect(inspector.url).toBe(`http://127.0.0.1:${port}/?token=${encodeURIComponent(token)}`);
    expect(token.length).toBeGreaterThanOrEqual(32);
  });

  it('answers the API with the token', async () => {
    const answer = await send(inspector, {
      path: '/api/state',
      headers: { 'x-mcpkit-token': token },
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ connected: false, allowStdio: false });
    expect(hasCors(answer)).toBe(false);
  });

  it('refuses an API request without the token, or with a wrong one (401)', async () => {
    for (const headers of [{}, { 'x-mcpkit-token': `${token}x` }, { 'x-mcpkit-token': '' }]) {
      const answer = await send(inspector, { path: '/api/state', headers });
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toEqual({ error: 'missing or wrong token' });
    }
  });

  it('refuses the page without the token, or with a wrong one (401)', async () => {
    for (const path of ['/', '/?token=nope', `/?token=${token.slice(1)}`]) {
      const answer = await send(inspector, { path });
      expect(answer.status).toBe(401);
      expect(answer.body).not.toMatch(/<html/i);
    }
  });

  it.skipIf(uiMissing !== undefined)(
    `serves the page with the token and sets a strict cookie${uiMissing === undefined ? '' : ` (skipped: ${uiMissing})`}`,
    async () => {
      const answer = await send(inspector, { path: `/?token=${encodeURIComponent(token)}` });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      const cookie = String(answer.headers['set-cookie']);
      expect(cookie).toContain(`mcpkit_inspector=${token}`);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Strict/i);
    },
  );

  it.skipIf(uiMissing !== undefined)(
    `serves the page's files only with the cookie, and nothing outside its folder${uiMissing === undefined ? '' : ` (skipped: ${uiMissing})`}`,
    async () => {
      const html = readFileSync(join(UI_DIR, 'index.html'), 'utf8');
      const asset = /(?:src|href)="\.?\/?(assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(asset, html).toBeDefined();
      const path = `/${asset ?? ''}`;
      expect((await send(inspector, { path })).status).toBe(401);
      const wrong = await send(inspector, { path, headers: { cookie: 'mcpkit_inspector=nope' } });
      expect(wrong.status).toBe(401);
      const cookie = `mcpkit_inspector=${token}`;
      const served = await send(inspector, { path, headers: { cookie } });
      expect(served.status).toBe(200);
      expect(served.headers['content-type']).toMatch(/^text\/javascript/);
      for (const outside of [
        '/../package.json',
        '/%2e%2e/package.json',
        '/assets/..%2f..%2fpackage.json',
      ]) {
        const answer = await send(inspector, { path: outside, headers: { cookie } });
        expect(answer.status, outside).toBeGreaterThanOrEqual(400);
        expect(answer.body, outside).not.toContain('"name": "mcpkit"');
      }
    },
  );

  it('refuses a foreign Origin even with the token (403)', async () => {
    for (const origin of [
      'http://evil.example',
      `http://evil.example:${port}`,
      `https://127.0.0.1:${port}`,
      'null',
    ]) {
      const answer = await send(inspector, {
        path: '/api/state',
        headers: { 'x-mcpkit-token': token, origin },
      });
      expect(answer.status, origin).toBe(403);
      expect(JSON.parse(answer.body)).toEqual({ error: 'origin not allowed' });
      expect(hasCors(answer)).toBe(false);
    }
  });

  it('accepts its own loopback Origin', async () => {
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
      const answer = await send(inspector, {
        path: '/api/state',
        headers: { 'x-mcpkit-token': token, origin },
      });
      expect(answer.status, origin).toBe(200);
    }
  });

  it('refuses a foreign Host, the DNS-rebinding case (403)', async () => {
    for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1:${Number(port) + 1}`]) {
      const answer = await send(inspector, {
        path: '/api/state',
        headers: { 'x-mcpkit-token': token, host },
      });
      expect(answer.status, host).toBe(403);
      expect(JSON.parse(answer.body)).toEqual({ error: 'host not allowed' });
    }
  });

  it('answers a preflight (OPTIONS) with 403 and no CORS headers', async () => {
    const answer = await send(inspector, {
      method: 'OPTIONS',
      path: '/api/state',
      headers: {
        origin: 'http://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-mcpkit-token',
      },
    });
    expect(answer.status).toBe(403);
    expect(hasCors(answer)).toBe(false);
  });

  it('takes only JSON bodies (415 otherwise)', async () => {
    const answer = await send(inspector, {
      method: 'POST',
      path: '/api/request',
      headers: { 'x-mcpkit-token': token, 'content-type': 'text/plain' },
      body: '{"op":"ping","params":{}}',
    });
    expect(answer.status).toBe(415);
  });

  it('refuses a stdio target unless started with --allow-stdio (403)', async () => {
    const answer = await send(inspector, {
      method: 'POST',
      path: '/api/connect',
      headers: { 'x-mcpkit-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({
        target: { kind: 'command', command: process.execPath, args: ['-e', 'process.exit(0)'] },
      }),
    });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toEqual({
      error: 'stdio targets need mcpkit inspect --allow-stdio',
    });
  });
});

describe.skipIf(browserSkip !== undefined)(
  suiteName('mcpkit inspect: a page from another origin cannot drive it (Chromium)'),
  { timeout: 60_000 },
  () => {
    const suite = chromiumSuite();
    const { cleanups } = suite;

    it('refuses every request a foreign page can make, so no command runs', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mcpkit-inspect-csrf-'));
      cleanups.add(() => {
        rmSync(dir, { recursive: true, force: true });
        return Promise.resolve();
      });
      const marker = join(dir, 'pwned');
      const inspector = await startInspector({ uiDir: UI_DIR, allowStdio: true });
      cleanups.add(() => inspector.close());
      // What the attacker wants: the inspector to start a command of theirs.
      const connect = JSON.stringify({
        target: {
          kind: 'command',
          command: process.execPath,
          args: ['-e', `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x')`],
        },
      });
      const evil = createServer((_req, res) => {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(attackPage(inspector.origin, connect));
      });
      await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
      cleanups.add(() => new Promise((resolve) => evil.close(resolve)));
      const { port } = evil.address() as AddressInfo;
      const context = await suite.browser.newContext();
      cleanups.add(() => context.close());
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${String(port)}/`);
      await look(page.getByText('attacks done')).toBeVisible();
      const outcomes = JSON.parse((await page.getByRole('log').textContent()) ?? '[]') as string[];
      // Every fetch failed or got an opaque answer the page cannot read.
      expect(outcomes).toEqual([
        'read state: refused',
        'connect (simple POST): opaque',
        'connect (JSON with a guessed token): refused',
      ]);
      const answer = await send(inspector, {
        path: '/api/state',
        headers: { 'x-mcpkit-token': inspector.token },
      });
      expect(JSON.parse(answer.body)).toMatchObject({ connected: false });
      expect(existsSync(marker)).toBe(false);
    });
  },
);

/** A page that tries, from its own origin, what a malicious site would; it logs the outcomes. */
function attackPage(target: string, connect: string): string {
  const script = `
    const target = ${JSON.stringify(target)};
    const outcomes = [];
    const attempt = async (name, run) => {
      try {
        const res = await run();
        outcomes.push(name + ': ' + (res.type === 'opaque' ? 'opaque' : 'read ' + res.status));
      } catch {
        outcomes.push(name + ': refused');
      }
    };
    (async () => {
      await attempt('read state', () => fetch(target + '/api/state'));
      await attempt('connect (simple POST)', () =>
        fetch(target + '/api/connect', { method: 'POST', mode: 'no-cors', body: ${JSON.stringify(connect)},
          headers: { 'content-type': 'text/plain' } }));
      await attempt('connect (JSON with a guessed token)', () =>
        fetch(target + '/api/connect', { method: 'POST', body: ${JSON.stringify(connect)},
          headers: { 'content-type': 'application/json', 'x-mcpkit-token': 'guess' } }));
      document.getElementById('log').textContent = JSON.stringify(outcomes);
      document.getElementById('done').textContent = 'attacks done';
    })();
  `;
  return `<!doctype html><title>evil</title><div role="log" id="log"></div><p id="done"></p><script>${script}</script>`;
}
