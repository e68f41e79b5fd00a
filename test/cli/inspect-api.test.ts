// mcpkit inspect's backend over real sockets, without a browser: the gate (token, Host,
// Origin, no CORS, no traversal), input checks, and the API driving an in-process everything
// server over Streamable HTTP in both eras, plus a stdio server as a real child process.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEverythingServer } from '../../servers/everything/server.js';
import type { EverythingServer } from '../../servers/everything/server.js';
import { run as runCommand } from '../../src/cli/commands/inspect.js';
import type { Inspector, InspectorOptions } from '../../src/cli/inspect/server.js';
import { startInspector } from '../../src/cli/inspect/server.js';
import { McpServer } from '../../src/server/server.js';
import { parseTranscript } from '../../src/cli/transcript.js';
import type { Listening } from '../../src/transports/http/server/node.js';
import { createNodeHandler, listen } from '../../src/transports/http/server/node.js';
import { captureIo } from '../helpers/capture-io.js';

let everything: EverythingServer;
let upstream: Listening;
let uiDir = '';
const open: Inspector[] = [];
const streams: AbortController[] = [];

beforeAll(async () => {
  everything = createEverythingServer({ researchStepMs: 0, updateIntervalMs: 50 });
  await everything.ready;
  upstream = await listen(() => everything.server, { port: 0 });
  uiDir = await mkdtemp(join(tmpdir(), 'mcpkit-inspector-ui-'));
  await mkdir(join(uiDir, 'page', 'assets'), { recursive: true });
  await writeFile(join(uiDir, 'page', 'index.html'), '<!doctype html><title>inspector</title>');
  await writeFile(join(uiDir, 'page', 'assets', 'index-AbCdEf12.js'), 'console.log(1);');
  await writeFile(join(uiDir, 'page', 'assets', 'style.css'), 'body{}');
  await writeFile(join(uiDir, 'secret.txt'), 'outside the page folder');
});

afterAll(async () => {
  await upstream.close();
  await everything.close();
  await rm(uiDir, { recursive: true, force: true });
});

afterEach(async () => {
  for (const stream of streams.splice(0)) stream.abort();
  await Promise.all(open.splice(0).map((inspector) => inspector.close()));
});

async function start(options: InspectorOptions = {}): Promise<Inspector> {
  const inspector = await startInspector({ uiDir: join(uiDir, 'page'), ...options });
  open.push(inspector);
  return inspector;
}

const httpTarget = () => ({ kind: 'url' as const, url: upstream.url, headers: {} });

/** A raw HTTP request (fetch cannot set Host), answering status, headers and body text. */
function raw(
  inspector: Inspector,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const { port } = new URL(inspector.origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Calls the API with the token; `body` is sent as JSON. */
async function api(
  inspector: Inspector,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const response = await fetch(`${inspector.origin}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'X-Mcpkit-Token': inspector.token, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json() };
}

const request = async (inspector: Inspector, op: string, params: object, extra: object = {}) =>
  (await api(inspector, '/api/request', { op, params, ...extra })).json;

/** An open /api/events stream: the events so far, and a wait for one. */
interface Events {
  readonly all: { type: string; data: any }[];
  next(type: string, match?: (data: any) => boolean): Promise<any>;
  close(): void;
}

async function events(inspector: Inspector): Promise<Events> {
  const abort = new AbortController();
  streams.push(abort);
  const response = await fetch(`${inspector.origin}/api/events`, {
    headers: { 'X-Mcpkit-Token': inspector.token },
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const all: Events['all'] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const type = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (type !== undefined && data !== undefined) all.push({ type, data: JSON.parse(data) });
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    all,
    next: (type, match = () => true) =>
      vi.waitFor(
        () => {
          const found = all.find((e) => e.type === type && match(e.data));
          if (found === undefined) throw new Error(`no ${type} event yet`);
          return found.data;
        },
        { timeout: 10_000, interval: 20 },
      ),
    close: () => {
      abort.abort();
    },
  };
}

function textOf(result: any): string {
  return (result.content as { type: string; text?: string }[])
    .map((block) => block.text ?? '')
    .join('\n');
}

describe('the gate', () => {
  it('refuses the API without the token or with a wrong one (401)', async () => {
    const inspector = await start();
    const none = await raw(inspector, '/api/state');
    expect(none.status).toBe(401);
    expect(JSON.parse(none.text)).toEqual({ error: 'missing or wrong token' });
    const wrong = await raw(inspector, '/api/state', {
      headers: { 'X-Mcpkit-Token': `${inspector.token.slice(0, -1)}x` },
    });
    expect(wrong.status).toBe(401);
    const right = await raw(inspector, '/api/state', {
      headers: { 'X-Mcpkit-Token': inspector.token },
    });
    expect(right.status).toBe(200);
    expect(JSON.parse(right.text)).toMatchObject({ connected: false, allowStdio: false });
  });

  it('serves the page with the token in the URL, then by cookie only', async () => {
    const inspector = await start();
    expect(inspector.url).toBe(`${inspector.origin}/?token=${inspector.token}`);
    expect((await raw(inspector, '/')).status).toBe(401);
    expect((await raw(inspector, '/?token=wrong')).status).toBe(401);
    expect((await raw(inspector, '/assets/style.css')).status).toBe(401);
    const page = await raw(inspector, `/?token=${inspector.token}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<title>inspector</title>');
    const cookie = page.headers['set-cookie']?.[0] ?? '';
    expect(cookie).toBe(`mcpkit_inspector=${inspector.token}; HttpOnly; SameSite=Strict; Path=/`);
    const withCookie = { headers: { Cookie: `other=1; mcpkit_inspector=${inspector.token}` } };
    const script = await raw(inspector, '/assets/index-AbCdEf12.js', withCookie);
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toContain('immutable');
    const css = await raw(inspector, '/assets/style.css', withCookie);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('no-cache');
    expect((await raw(inspector, '/', withCookie)).status).toBe(200);
    expect((await raw(inspector, '/missing.js', withCookie)).status).toBe(404);
    // The API wants the header, not the cookie.
    expect((await raw(inspector, '/api/state', withCookie)).status).toBe(401);
  });

  it('refuses directory traversal', async () => {
    const inspector = await start();
    const headers = { Cookie: `mcpkit_inspector=${inspector.token}` };
    for (const path of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/..%5csecret.txt',
      '/%00index.html',
    ]) {
      const answer = await raw(inspector, path, { headers });
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.text, path).not.toContain('outside the page folder');
    }
  });

  it('refuses a foreign Host, a foreign Origin and any OPTIONS (403), and sends no CORS headers', async () => {
    const inspector = await start();
    const token = { 'X-Mcpkit-Token': inspector.token };
    const { port } = new URL(inspector.origin);
    const host = await raw(inspector, '/api/state', {
      headers: { ...token, Host: `evil.example:${port}` },
    });
    expect(host.status).toBe(403);
    expect(JSON.parse(host.text)).toEqual({ error: 'host not allowed' });
    const otherPort = await raw(inspector, `/?token=${inspector.token}`, {
      headers: { Host: '127.0.0.1:1' },
    });
    expect(otherPort.status).toBe(403);
    const origin = await raw(inspector, '/api/state', {
      headers: { ...token, Origin: 'http://evil.example' },
    });
    expect(origin.status).toBe(403);
    expect(JSON.parse(origin.text)).toEqual({ error: 'origin not allowed' });
    const rebound = await raw(inspector, '/api/state', {
      headers: { ...token, Origin: `https://127.0.0.1:${port}` },
    });
    expect(rebound.status).toBe(403);
    for (const name of ['localhost', '127.0.0.1', '[::1]']) {
      const ok = await raw(inspector, '/api/state', {
        headers: { ...token, Host: `${name}:${port}`, Origin: `http://${name}:${port}` },
      });
      expect(ok.status, name).toBe(200);
      expect(ok.headers['access-control-allow-origin']).toBeUndefined();
    }
    const preflight = await raw(inspector, '/api/state', {
      method: 'OPTIONS',
      headers: { Origin: inspector.origin, 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("bound to every interface (--host 0.0.0.0), takes this machine's addresses as Host too", async () => {
    const inspector = await start({ host: '0.0.0.0' });
    expect(inspector.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const { port } = new URL(inspector.origin);
    const token = { 'X-Mcpkit-Token': inspector.token };
    const external = Object.values(networkInterfaces())
      .flatMap((list) => list ?? [])
      .find((info) => info.family === 'IPv4' && !info.internal);
    if (external !== undefined) {
      const host = `${external.address}:${port}`;
      const ok = await raw(inspector, '/api/state', { headers: { ...token, Host: host } });
      expect(ok.status).toBe(200);
    }
    const foreign = await raw(inspector, '/api/state', {
      headers: { ...token, Host: `evil.example:${port}` },
    });
    expect(foreign.status).toBe(403);
  });

  it('serves a page saying the UI is not built when its folder is missing (the API still works)', async () => {
    const inspector = await start({ uiDir: join(uiDir, 'nothing-here') });
    const page = await raw(inspector, `/?token=${inspector.token}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('npm run build');
    expect((await api(inspector, '/api/state')).status).toBe(200);
  });
});

describe('input checks', () => {
  it('answers misuse with a 4xx and a clear message', async () => {
    const inspector = await start();
    const post = (path: string, body: string, type = 'application/json') =>
      raw(inspector, path, {
        method: 'POST',
        headers: { 'X-Mcpkit-Token': inspector.token, 'Content-Type': type },
        body,
      });
    const cases: [Promise<{ status: number; text: string }>, number, RegExp][] = [
      [post('/api/connect', '{"target":1}', 'text/plain'), 415, /application\/json/],
      [post('/api/connect', '{oops'), 400, /not valid JSON/],
      [post('/api/connect', '[1]'), 400, /JSON object/],
      [post('/api/connect', 'x'.repeat(1024 * 1024 + 1)), 413, /larger than/],
      [post('/api/connect', '{"target":{"kind":"ftp"}}'), 400, /target must be/],
      [post('/api/connect', '{"target":{"kind":"url","url":"file:///etc"}}'), 400, /http/],
      [
        post('/api/connect', '{"target":{"kind":"url","url":"http://x","headers":{"a b":"c"}}}'),
        400,
        /header name/,
      ],
      [
        post('/api/connect', `{"target":${JSON.stringify(httpTarget())},"mode":"1999-01-01"}`),
        400,
        /mode/,
      ],
      [
        post('/api/connect', '{"target":{"kind":"command","command":"node"}}'),
        403,
        /--allow-stdio/,
      ],
      [post('/api/request', '{"op":"callTool","params":{"name":"x"}}'), 409, /not connected/],
      [post('/api/request', '{"op":"frobnicate"}'), 400, /unknown op "frobnicate"/],
      [post('/api/request', '{"params":{}}'), 400, /"op"/],
      [post('/api/request', '{"op":"ping","params":[]}'), 400, /"params" must be an object/],
      [post('/api/cancel', '{"opId":"nope"}'), 404, /no running request/],
      [post('/api/answer', '{"requestId":"nope","result":{}}'), 404, /no pending question/],
      [post('/api/answer', '{"requestId":"nope"}'), 400, /"result"/],
      [post('/api/roots', '{"roots":[{"uri":"http://x"}]}'), 400, /file:\/\//],
      [post('/api/nothing', '{}'), 404, /no API/],
      [
        raw(inspector, '/api/connect', { headers: { 'X-Mcpkit-Token': inspector.token } }),
        405,
        /POST/,
      ],
    ];
    // A body over the cap without a Content-Length (chunked) gets its 413 too.
    const { port } = new URL(inspector.origin);
    const chunked = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: '/api/connect',
          method: 'POST',
          headers: { 'X-Mcpkit-Token': inspector.token, 'Content-Type': 'application/json' },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, text });
          });
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 20; i++) req.write('x'.repeat(64 * 1024));
      req.end();
    });
    cases.push([chunked, 413, /larger than/]);
    for (const [answer, status, message] of cases) {
      const { status: got, text } = await answer;
      expect({ got, text }).toMatchObject({ got: status });
      expect(JSON.parse(text).error).toMatch(message);
    }
  });
});

describe.each([
  ['auto', '2026-07-28', 'modern'],
  ['2025-11-25', '2025-11-25', 'legacy'],
] as const)('against everything over HTTP (mode %s)', (mode, revision, era) => {
  it('connects at start, lists, counts tokens, lints, and calls get-sum', async () => {
    const inspector = await start({ target: httpTarget(), mode });
    const stream = await events(inspector);
    const state = (await api(inspector, '/api/state')).json;
    expect(state).toMatchObject({ connected: true, connecting: false, mode, revision, era });
    expect(state.serverInfo.name).toBe('everything');
    expect(state.instructions).toContain('A test server');
    expect(state.tools.map((t: { name: string }) => t.name)).toContain('get-sum');
    expect(state.resources.length).toBeGreaterThan(0);
    expect(state.resourceTemplates.length).toBeGreaterThan(0);
    expect(state.prompts.map((p: { name: string }) => p.name)).toContain('args-prompt');
    expect(state.budget.tools['get-sum']).toBeGreaterThan(10);
    expect(state.budget.total).toBeGreaterThan(state.budget.tools['get-sum']);
    expect(typeof state.budget.tokenizer).toBe('string');
    expect(state.lint).toBeTypeOf('object');
    expect(state.target).toEqual({ kind: 'url', url: upstream.url, headers: {} });

    const sum = await request(inspector, 'callTool', {
      name: 'get-sum',
      arguments: { a: 7, b: 5 },
    });
    expect(sum.ok).toBe(true);
    expect(textOf(sum.result)).toContain('12');

    const bad = await request(inspector, 'callTool', {
      name: 'get-sum',
      arguments: { a: 'seven', b: 5 },
    });
    expect(bad).toMatchObject({ ok: true, result: { isError: true } });
    expect(textOf(bad.result)).toMatch(/a/);

    const unknown = await request(inspector, 'callTool', { name: 'no-such-tool' });
    expect(unknown).toMatchObject({ ok: false, error: { code: -32602, kind: 'protocol' } });

    const structured = await request(inspector, 'callTool', {
      name: 'get-structured-content',
      arguments: { location: 'New York' },
    });
    expect(structured).toMatchObject({ ok: true, outputCheck: { valid: true } });

    // The tools/call exchange is in the wire log, in both directions, and HTTP under it.
    const call = await stream.next(
      'wire',
      (e) => e.kind === 'jsonrpc' && e.dir === '>>' && e.method === 'tools/call',
    );
    expect(call.revision).toBe(revision);
    await stream.next(
      'wire',
      (e) =>
        e.kind === 'jsonrpc' && e.dir === '<<' && e.method === 'tools/call' && e.id === call.id,
    );
    await stream.next(
      'wire',
      (e) => e.kind === 'http' && e.http.method === 'POST' && e.http.status === 200,
    );
    const posted = stream.all.find(
      (e) => e.type === 'wire' && e.data.kind === 'http' && e.data.dir === '>>',
    );
    expect(posted?.data.http.headers['content-type']).toBe('application/json');
  });

  it('reports progress of a long call and cancels it', async () => {
    const inspector = await start({ target: httpTarget(), mode });
    const stream = await events(inspector);
    const call = request(
      inspector,
      'callTool',
      { name: 'trigger-long-running-operation', arguments: { duration: 10, steps: 100 } },
      { opId: 'long-1' },
    );
    const progress = await stream.next('progress', (p) => p.opId === 'long-1');
    const twice = await api(inspector, '/api/request', { op: 'ping', params: {}, opId: 'long-1' });
    expect(twice).toMatchObject({
      status: 409,
      json: { error: 'opId "long-1" is already running' },
    });
    expect(progress).toMatchObject({ opId: 'long-1', total: 100 });
    expect((await api(inspector, '/api/cancel', { opId: 'long-1' })).json).toEqual({ ok: true });
    const answer = await call;
    expect(answer).toMatchObject({ ok: false, error: { cancelled: true } });
    if (era === 'legacy') {
      await stream.next(
        'wire',
        (e) => e.kind === 'jsonrpc' && e.method === 'notifications/cancelled',
      );
    }
  });

  it('asks the page for an elicitation and passes its answer back', async () => {
    const inspector = await start({ target: httpTarget(), mode });
    const stream = await events(inspector);
    const call = request(inspector, 'callTool', {
      name: 'simulate-research-query',
      arguments: { topic: 'otters' },
    });
    const asked = await stream.next('elicit');
    expect(asked.params.message).toContain('otters');
    expect(asked.params.requestedSchema.properties.depth.enum).toContain('detailed');
    // A second page opened now sees the question too.
    const late = await events(inspector);
    await late.next('elicit', (e) => e.requestId === asked.requestId);
    const bad = await api(inspector, '/api/answer', {
      requestId: asked.requestId,
      result: { action: 'maybe' },
    });
    expect(bad.status).toBe(400);
    const answered = await api(inspector, '/api/answer', {
      requestId: asked.requestId,
      result: { action: 'accept', content: { depth: 'detailed' } },
    });
    expect(answered.json).toEqual({ ok: true });
    await stream.next('answered', (e) => e.requestId === asked.requestId);
    await late.next('answered', (e) => e.requestId === asked.requestId);
    const result = await call;
    expect(result.ok).toBe(true);
    expect(textOf(result.result)).toMatch(/detailed/i);
    expect(
      (await api(inspector, '/api/answer', { requestId: asked.requestId, result: {} })).status,
    ).toBe(404);
  });

  it('declines an elicitation the page never answers, and says it went away', async () => {
    const inspector = await start({ target: httpTarget(), mode, questionTimeoutMs: 200 });
    const stream = await events(inspector);
    const result = await request(inspector, 'callTool', {
      name: 'simulate-research-query',
      arguments: { topic: 'silence' },
    });
    const asked = await stream.next('elicit');
    await stream.next('answered', (e) => e.requestId === asked.requestId);
    expect(textOf(result.result)).toContain('declined');
  });

  it('refuses a sampling request the page never answers, and says it went away', async () => {
    const inspector = await start({ target: httpTarget(), mode, questionTimeoutMs: 200 });
    const stream = await events(inspector);
    const answer = await request(inspector, 'callTool', {
      name: 'sample-llm',
      arguments: { prompt: 'anyone?' },
    });
    const asked = await stream.next('sample');
    await stream.next('answered', (e) => e.requestId === asked.requestId);
    const shown = answer.ok ? textOf(answer.result) : answer.error.message;
    expect(shown).toContain('did not answer the sampling request in time');
  });

  it('sends a sampling request to the page: answered, then refused', async () => {
    const inspector = await start({ target: httpTarget(), mode });
    const stream = await events(inspector);
    const call = request(inspector, 'callTool', {
      name: 'sample-llm',
      arguments: { prompt: 'hi' },
    });
    const asked = await stream.next('sample');
    expect(asked.params.messages[0].content.text).toBe('hi');
    await api(inspector, '/api/answer', {
      requestId: asked.requestId,
      result: { content: { type: 'text', text: 'hello from the page' } },
    });
    expect(textOf((await call).result)).toContain('hello from the page');
    const refused = request(inspector, 'callTool', {
      name: 'sample-llm',
      arguments: { prompt: 'no' },
    });
    const second = await stream.next('sample', (e) => e.requestId !== asked.requestId);
    await api(inspector, '/api/answer', { requestId: second.requestId, error: 'not today' });
    const answer = await refused;
    const shown = answer.ok ? textOf(answer.result) : answer.error.message;
    expect(shown).toContain('not today');
  });

  it('subscribes to a resource and passes its updates on', async () => {
    const inspector = await start({ target: httpTarget(), mode });
    const stream = await events(inspector);
    const state = (await api(inspector, '/api/state')).json;
    const dynamic = (state.resources as { uri: string }[]).find((r) => r.uri.includes('/dynamic/'));
    expect(dynamic).toBeDefined();
    const read = await request(inspector, 'readResource', { uri: dynamic!.uri });
    expect(read.ok).toBe(true);
    expect(read.result.contents[0].uri).toBe(dynamic!.uri);
    expect(await request(inspector, 'subscribe', { uri: dynamic!.uri })).toEqual({
      ok: true,
      result: {},
    });
    await request(inspector, 'callTool', { name: 'toggle-subscriber-updates' });
    try {
      const update = await stream.next('resource_updated', (e) => e.uri === dynamic!.uri);
      expect(update.time).toBeTypeOf('number');
    } finally {
      await request(inspector, 'callTool', { name: 'toggle-subscriber-updates' });
    }
  });

  it('completes a prompt argument and gets the prompt', async () => {
    const inspector = await start({ target: httpTarget(), mode });
    const completed = await request(inspector, 'complete', {
      ref: { type: 'ref/prompt', name: 'args-prompt' },
      argument: { name: 'city', value: 'Po' },
    });
    expect(completed.ok).toBe(true);
    expect(completed.result.completion.values).toEqual(['Portland']);
    const badRef = await api(inspector, '/api/request', {
      op: 'complete',
      params: { ref: { type: 'ref/nothing' }, argument: { name: 'city', value: '' } },
    });
    expect(badRef.status).toBe(400);
    const prompt = await request(inspector, 'getPrompt', {
      name: 'args-prompt',
      arguments: { city: 'Portland', state: 'OR' },
    });
    expect(prompt.ok).toBe(true);
    expect(JSON.stringify(prompt.result.messages)).toContain('Portland, OR');
    const withContext = await request(inspector, 'complete', {
      ref: { type: 'ref/prompt', name: 'args-prompt' },
      argument: { name: 'state', value: '' },
      context: { arguments: { city: 'Portland' } },
    });
    expect(withContext.result.completion.values).toEqual(['OR', 'ME']);
  });

  it('offers roots, sets the log level and answers a ping', async () => {
    const inspector = await start({ target: httpTarget(), mode });
    const stream = await events(inspector);
    const roots = await api(inspector, '/api/roots', {
      roots: [{ uri: 'file:///tmp/project', name: 'project' }],
    });
    expect(roots.json.roots).toEqual([{ uri: 'file:///tmp/project', name: 'project' }]);
    const listed = await request(inspector, 'callTool', { name: 'get-roots-list' });
    expect(textOf(listed.result)).toContain('file:///tmp/project');
    expect(await request(inspector, 'setLogLevel', { level: 'debug' })).toEqual({
      ok: true,
      result: {},
    });
    await stream.next('state', (s) => s.logLevel === 'debug');
    expect(await request(inspector, 'ping', {})).toEqual({ ok: true, result: {} });
    const tools = await request(inspector, 'listTools', {});
    expect(tools.result.tools.length).toBeGreaterThan(5);
  });

  it('starts a tool call as a task and follows it to its result', async () => {
    const inspector = await start({ target: httpTarget(), mode });
    const stream = await events(inspector);
    const started = request(inspector, 'callTool', {
      name: 'simulate-research-query',
      arguments: { topic: 'tasks' },
      task: true,
    });
    const asked = await stream.next('elicit');
    await api(inspector, '/api/answer', {
      requestId: asked.requestId,
      result: { action: 'accept', content: { depth: 'overview' } },
    });
    const answer = await started;
    expect(answer.ok).toBe(true);
    // The server made it a task: the page gets its status as task events.
    const { taskId } = answer.result.task;
    expect(typeof taskId).toBe('string');
    await stream.next('task', (e) => e.task.taskId === taskId && e.task.status === 'completed');
    const result = await request(inspector, 'getTaskResult', { taskId });
    expect(result.ok).toBe(true);
    expect(textOf(result.result)).toContain('tasks');
  });

  it('passes log messages on at the level set', async () => {
    const inspector = await start({ target: httpTarget(), mode });
    const stream = await events(inspector);
    await request(inspector, 'setLogLevel', { level: 'debug' });
    await request(inspector, 'callTool', { name: 'toggle-simulated-logging' });
    try {
      const log = await stream.next('log', (e) => e.logger === 'everything');
      expect(log).toMatchObject({ level: 'info', data: 'simulated logging is on' });
    } finally {
      await request(inspector, 'callTool', { name: 'toggle-simulated-logging' });
    }
  });

  it('writes the session as a transcript', async () => {
    const inspector = await start({ target: httpTarget(), mode });
    await request(inspector, 'callTool', { name: 'get-sum', arguments: { a: 7, b: 5 } });
    const response = await fetch(`${inspector.origin}/api/transcript`, {
      headers: { 'X-Mcpkit-Token': inspector.token },
    });
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="mcpkit-transcript.txt"',
    );
    const text = await response.text();
    expect(text).toMatch(/^# mcpkit inspect transcript of http:\/\/127\.0\.0\.1:\d+\/mcp\n/);
    const transcript = parseTranscript(text);
    expect(transcript.revision).toBe(revision);
    const first = JSON.parse(transcript.steps[0]!.send);
    expect(first.method).toBe(era === 'modern' ? 'server/discover' : 'initialize');
    const call = transcript.steps.find((s) => s.send.includes('"tools/call"'));
    expect(call?.send).toContain('"a":7');
    expect(text).toMatch(/^<< .*The sum of 7 and 5 is 12/m);
    for (const line of text.split('\n').filter((l) => /^(>>|<<) /.test(l))) {
      expect(() => JSON.parse(line.slice(3))).not.toThrow();
    }
  });
});

describe('list changes', () => {
  it.each(['auto', '2025-11-25'] as const)(
    'sends list_changed and a State with the new list (mode %s)',
    async (mode) => {
      const server = new McpServer({ name: 'changing', version: '1.0.0' });
      server.tool(
        { name: 'first', description: 'The first tool of a server that grows.' },
        () => 'one',
      );
      const served = await listen(() => server, { port: 0 });
      try {
        const inspector = await start({
          target: { kind: 'url', url: served.url, headers: {} },
          mode,
        });
        const stream = await events(inspector);
        await stream.next('state');
        server.tool({ name: 'second', description: 'A tool added later.' }, () => 'two');
        expect(await stream.next('list_changed')).toEqual({ kind: 'tools' });
        const state = await stream.next('state', (s) =>
          (s.tools as { name: string }[]).some((t) => t.name === 'second'),
        );
        expect(state.budget.tools['second']).toBeGreaterThan(0);
      } finally {
        await served.close();
      }
    },
  );
});

describe('event streams and connections', () => {
  it('broadcasts to every page and forgets a page that went away', async () => {
    const inspector = await start();
    const one = await events(inspector);
    const two = await events(inspector);
    await one.next('state');
    await two.next('state');
    expect(inspector.eventStreams()).toBe(2);
    two.close();
    await vi.waitFor(() => {
      expect(inspector.eventStreams()).toBe(1);
    });
    await api(inspector, '/api/connect', { target: httpTarget(), mode: '2025-11-25' });
    await one.next('state', (s) => s.connected === true);
    // The wire log replays to a page opened later.
    const three = await events(inspector);
    await three.next('wire', (e) => e.kind === 'jsonrpc' && e.method === 'initialize');
    const disconnected = await api(inspector, '/api/disconnect', {});
    expect(disconnected.json).toMatchObject({ connected: false, tools: [] });
  });

  it('stamps each State, a later one larger, whichever way it is sent', async () => {
    // The page reads States from the stream and from answers, which may arrive out of order.
    const inspector = await start();
    const stream = await events(inspector);
    const first = await stream.next('state');
    const polled = (await api(inspector, '/api/state')).json;
    const target = httpTarget();
    const connected = await api(inspector, '/api/connect', { target, mode: '2025-11-25' });
    const event = await stream.next('state', (s) => s.connected === true);
    const disconnected = await api(inspector, '/api/disconnect', {});
    const stamps = [first, polled, event, connected.json, disconnected.json].map((s) => s.stamp);
    for (let i = 1; i < stamps.length; i++) expect(stamps[i]).toBeGreaterThan(stamps[i - 1]);
  });

  it('reports a server it cannot reach in the State (200)', async () => {
    const inspector = await start();
    const closed = await listen(() => everything.server, { port: 0 });
    const url = closed.url;
    await closed.close();
    const answer = await api(inspector, '/api/connect', {
      target: { kind: 'url', url, headers: { Authorization: 'Bearer secret-value' } },
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ connected: false, connecting: false });
    expect(answer.json.error).toContain('could not connect');
    expect(answer.json.target.headers).toEqual({ Authorization: '•••' });
  });

  it('authorizes URL targets through its auth hook unless an Authorization header is given', async () => {
    const handler = createNodeHandler(() => everything.server);
    const guarded = http.createServer((req, res) => {
      if (req.headers.authorization === 'Bearer from-hook') handler(req, res);
      else res.writeHead(401, { 'Content-Type': 'text/plain' }).end('sign in first');
    });
    await new Promise<void>((resolve) => guarded.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${String((guarded.address() as { port: number }).port)}/mcp`;
    const asked: string[] = [];
    const inspector = await start({
      auth: (target) => {
        asked.push(target);
        return {
          authorizer: {
            headers: () => Promise.resolve({ Authorization: 'Bearer from-hook' }),
            refused: () => Promise.resolve(false),
          },
        };
      },
    });
    try {
      const state = (await api(inspector, '/api/connect', { target: { kind: 'url', url } })).json;
      expect(state).toMatchObject({ connected: true });
      expect(asked).toEqual([url]);
      const own = (
        await api(inspector, '/api/connect', {
          target: { kind: 'url', url, headers: { Authorization: 'Bearer wrong' } },
        })
      ).json;
      expect(own.connected).toBe(false);
      expect(asked).toHaveLength(1);
    } finally {
      await inspector.close();
      guarded.closeAllConnections();
      await new Promise((resolve) => guarded.close(resolve));
    }
  });

  it('masks secret headers in the wire log', async () => {
    const inspector = await start({
      target: {
        kind: 'url',
        url: upstream.url,
        headers: { Authorization: 'Bearer s3cret', 'X-Api-Key': 'k' },
      },
      mode: '2025-11-25',
    });
    const stream = await events(inspector);
    await stream.next('wire', (e) => e.kind === 'http' && e.dir === '>>');
    const posted = stream.all.find(
      (e) => e.type === 'wire' && e.data.kind === 'http' && e.data.dir === '>>',
    );
    expect(posted?.data.http.headers).toMatchObject({ authorization: '•••', 'x-api-key': '•••' });
    expect(JSON.stringify(stream.all)).not.toContain('s3cret');
  });
});

/** A stdio MCP server in plain JavaScript (legacy only), run as a real child process. */
const STDIO_SERVER = `
const rl = require('node:readline').createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === 'initialize') {
    send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25',
      capabilities: { tools: {} }, serverInfo: { name: 'tiny-stdio', version: '1.0.0' } } });
  } else if (m.method === 'tools/list') {
    send({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'get-sum', inputSchema: {
      type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } }] } });
  } else if (m.method === 'tools/call') {
    const { a, b } = m.params.arguments;
    send({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: String(a + b) }] } });
  } else {
    send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'method not found' } });
  }
});
`;

describe('stdio targets', () => {
  const target = {
    kind: 'command' as const,
    command: process.execPath,
    args: ['-e', STDIO_SERVER],
  };

  it('are refused without allowStdio', async () => {
    const inspector = await start();
    const answer = await api(inspector, '/api/connect', { target });
    expect(answer.status).toBe(403);
    expect(answer.json).toEqual({ error: 'stdio targets need mcpkit inspect --allow-stdio' });
  });

  it('work with allowStdio: a child process is started and called', async () => {
    const inspector = await start({ allowStdio: true });
    const state = (await api(inspector, '/api/connect', { target })).json;
    expect(state).toMatchObject({ connected: true, revision: '2025-11-25', allowStdio: true });
    expect(state.serverInfo.name).toBe('tiny-stdio');
    expect(state.target).toEqual({ kind: 'command', command: process.execPath, args: target.args });
    const sum = await request(inspector, 'callTool', {
      name: 'get-sum',
      arguments: { a: 7, b: 5 },
    });
    expect(textOf(sum.result)).toBe('12');
  });

  it('report a command that cannot start in the State', async () => {
    const inspector = await start({ allowStdio: true });
    const state = (
      await api(inspector, '/api/connect', {
        target: { kind: 'command', command: join(uiDir, 'no-such-program') },
      })
    ).json;
    expect(state).toMatchObject({ connected: false, connecting: false });
    expect(state.error).toContain('could not connect');
  });

  it('are allowed when given at start', async () => {
    const inspector = await start({ target });
    expect((await api(inspector, '/api/state')).json).toMatchObject({
      connected: true,
      allowStdio: true,
    });
  });
});

describe('mcpkit inspect (the command, run in this process)', () => {
  /** Runs the command; resolves its output once it has printed the URL. */
  function runInspect(args: string[]) {
    // A scratch config folder: a sign-in must never touch the user's own.
    const { io, stdout, stderr } = captureIo({ MCPKIT_CONFIG_DIR: join(uiDir, 'config') });
    const done = runCommand(args, io);
    return { done, out: () => ({ stdout: stdout(), stderr: stderr() }) };
  }

  it('prints the URL with the token, serves until SIGTERM, then closes the session', async () => {
    const { done, out } = runInspect([
      upstream.url,
      '--mode',
      '2025-11-25',
      '-H',
      'Authorization: Bearer abc',
      '--no-open',
    ]);
    const url = await vi.waitFor(
      () => {
        const line = /^(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)$/m.exec(out().stdout)?.[1];
        if (line === undefined) throw new Error('no URL yet');
        return new URL(line);
      },
      { timeout: 10_000 },
    );
    const token = url.searchParams.get('token') ?? '';
    // The URL comes first; the connection follows.
    const state = await vi.waitFor(async () => {
      const answer = await (
        await fetch(new URL('/api/state', url), { headers: { 'X-Mcpkit-Token': token } })
      ).json();
      expect(answer.connected).toBe(true);
      return answer;
    });
    expect(state).toMatchObject({ connected: true, revision: '2025-11-25', mode: '2025-11-25' });
    await vi.waitFor(() => {
      expect(out().stderr).toContain('connected (2025-11-25)');
    });
    expect(state.target.headers).toEqual({ Authorization: '•••' });
    expect(out().stderr).toContain('inspecting http://127.0.0.1');
    process.emit('SIGTERM');
    expect(await done).toBe(0);
    expect(out().stderr).toContain('stopping (SIGTERM)');
    await expect(fetch(new URL('/api/state', url))).rejects.toThrow();
  });

  it('keeps serving when the server given cannot be reached, and says why', async () => {
    const gone = await listen(() => everything.server, { port: 0 });
    await gone.close();
    const { done, out } = runInspect([gone.url, '--no-open']);
    await vi.waitFor(() => {
      expect(out().stderr).toContain(`mcpkit inspect: could not connect to ${gone.url}`);
    });
    expect(out().stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    process.emit('SIGINT');
    expect(await done).toBe(0);
  });

  it('refuses bad flags (exit 3)', async () => {
    for (const args of [
      ['--mode', '1999-01-01'],
      ['--port', 'abc'],
      ['--port', '70000'],
      [upstream.url, '--', 'node', 'server.js'],
      ['not-a-url'],
    ]) {
      const { done, out } = runInspect([...args, '--no-open']);
      expect(await done, args.join(' ')).toBe(3);
      expect(out().stderr).toMatch(/mcpkit inspect: /);
    }
  });
});
