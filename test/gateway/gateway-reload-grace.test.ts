// Hot reload removing an endpoint while calls run on it (#40 point 6): `mcpkit gateway --http`
// (run in process, its config file rewritten) serves `/mcp/a`, `/mcp/b` and `/mcp/c` over one
// upstream whose `slow` tool answers only when the test releases it; of each pair of calls, one
// is answered as JSON and one on its POST's stream. Removing `a` while its calls are held: a new
// request to `a` gets 404 while they are in flight, `a`'s GET stream ends, the calls then
// complete with their real results, and `b`'s session keeps working throughout. Removing `c`
// while its calls are held past the grace (5 s): each fails with an error once the grace runs
// out, not at the client's own timeout. Real parts: an HTTP upstream on 127.0.0.1, the gateway
// on port 0, official SDK v1 clients.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { McpServer } from '../../src/server/index.js';
import { listen } from '../../src/transports/http/server/node.js';
import type { WatchedSession } from './harness.js';
import { failureOf, reloadWith, serveGateway, watchedSession } from './harness.js';

const info = { name: 'reload-grace-test', version: '1.0.0' };

/** A promise and what settles it. */
interface Deferred {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
}

function deferred(): Deferred {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/**
 * The upstream: `echo`, and `slow`, whose call with `{ key }` sends progress (when asked for),
 * tells `arrived(key)`, and answers `slow <key>` once `release(key)` is called (or once its
 * request is cancelled).
 */
async function upstream() {
  const gates = new Map<string, { arrived: Deferred; released: Deferred }>();
  const gate = (key: string) => {
    let found = gates.get(key);
    if (found === undefined) {
      found = { arrived: deferred(), released: deferred() };
      gates.set(key, found);
    }
    return found;
  };
  const server = new McpServer({ name: 'up', version: '1' });
  server.tool({ name: 'echo', inputSchema: { type: 'object' } }, (args) => {
    return `echo ${JSON.stringify(args)}`;
  });
  server.tool({ name: 'slow', inputSchema: { type: 'object' } }, async (args, ctx) => {
    const key = String(args['key']);
    void ctx.progress(0, 1, 'started');
    gate(key).arrived.resolve();
    const cancelled = new Promise<void>((resolve) => {
      ctx.signal.addEventListener(
        'abort',
        () => {
          resolve();
        },
        { once: true },
      );
    });
    await Promise.race([gate(key).released.promise, cancelled]);
    return `slow ${key}`;
  });
  const listening = await listen(() => server, { port: 0 });
  return {
    listening,
    arrived: (key: string) => gate(key).arrived.promise,
    release: (key: string) => {
      gate(key).released.resolve();
    },
  };
}

/** A session of `url` whose GET stream is open. */
async function session(url: string): Promise<WatchedSession> {
  const opened = await watchedSession(url, info);
  await vi.waitFor(() => {
    expect(opened.requests.some((r) => r.method === 'GET' && r.status === 200)).toBe(true);
  });
  return opened;
}

/**
 * Calls `slow` with `key` in `session` (`streamed`: with a progress token, so that its reply is
 * a stream); the client gives up after 15 s.
 */
function slow(session: WatchedSession, key: string, streamed: boolean) {
  return session.client.callTool({ name: 'slow', arguments: { key } }, undefined, {
    timeout: 15_000,
    ...(streamed ? { onprogress: () => undefined } : {}),
  });
}

/** The status of a `tools/list` POSTed to `url` in session `id` (what a new request gets). */
async function statusOf(url: string, id: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': id,
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  await response.body?.cancel();
  return response.status;
}

describe('hot reload removing an endpoint with a call in flight (mcpkit gateway --http)', () => {
  let up: Awaited<ReturnType<typeof upstream>>;
  let file: string;
  let done: Promise<number>;
  let stderr: () => string;
  let url = '';
  let b: WatchedSession;
  let bSession: string | undefined;

  const reload = (names: string[]) =>
    reloadWith(
      file,
      {
        mcpServers: { u: { url: up.listening.url } },
        endpoints: Object.fromEntries(names.map((name) => [name, { servers: ['u'] }])),
      },
      stderr,
    );
  /** `b` answers a call, in the session it opened. */
  const bWorks = async (n: number) => {
    const result = await b.client.callTool({ name: 'echo', arguments: { n } });
    expect(result.content).toEqual([{ type: 'text', text: `echo {"n":${String(n)}}` }]);
    expect(b.transport.sessionId).toBe(bSession);
  };

  beforeAll(async () => {
    up = await upstream();
    file = join(mkdtempSync(join(tmpdir(), 'mcpkit-gw-reload-grace-')), 'gateway.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: { u: { url: up.listening.url } },
        endpoints: { a: { servers: ['u'] }, b: { servers: ['u'] }, c: { servers: ['u'] } },
      }),
    );
    ({ done, url, stderr } = await serveGateway([
      '--config',
      file,
      '--http',
      '127.0.0.1:0',
      '--json',
    ]));
    b = await session(`${url}/b`);
    bSession = b.transport.sessionId;
  });

  afterAll(async () => {
    for (const key of ['one', 'one-streamed', 'two', 'two-streamed']) up.release(key);
    await b.client.close();
    process.emit('SIGTERM');
    expect(await done).toBe(0);
    await up.listening.close();
  });

  it('answers 404 at once, ends the GET stream, and lets the calls in flight finish', async () => {
    const a = await session(`${url}/a`);
    const aSession = a.transport.sessionId ?? '';
    let settled = 0;
    // One answered as JSON, one on its POST's stream (its progress opens it).
    const calls = [slow(a, 'one', false), slow(a, 'one-streamed', true)];
    for (const call of calls) void call.finally(() => settled++).catch(() => undefined);
    await Promise.all([up.arrived('one'), up.arrived('one-streamed')]);

    const reloaded = reload(['b', 'c']);
    // A new request to `a` is not routed any more while the calls are held, nor is the client's.
    await vi.waitFor(
      async () => {
        expect(await statusOf(`${url}/a`, aSession)).toBe(404);
      },
      { timeout: 3_000, interval: 50 },
    );
    expect((await failureOf(a.client.listTools())).code).toBe(404);
    // The GET stream ended: the client's reconnection is refused.
    await vi.waitFor(
      () => {
        expect(a.requests.some((r) => r.method === 'GET' && r.status === 404)).toBe(true);
      },
      { timeout: 3_000 },
    );
    await bWorks(1);
    expect(settled).toBe(0);

    up.release('one');
    up.release('one-streamed');
    const [plain, streamed] = await Promise.all(calls);
    expect(plain?.content).toEqual([{ type: 'text', text: 'slow one' }]);
    expect(streamed?.content).toEqual([{ type: 'text', text: 'slow one-streamed' }]);
    expect(await reloaded).toMatchObject({
      event: 'reloaded',
      endpoints: { added: [], removed: ['a'], changed: [] },
    });
    await bWorks(2);
    await a.client.close();
  });

  it('ends the calls still in flight when the grace runs out, each with an error', async () => {
    const c = await session(`${url}/c`);
    const plain = failureOf(slow(c, 'two', false));
    const streamed = failureOf(slow(c, 'two-streamed', true));
    await Promise.all([up.arrived('two'), up.arrived('two-streamed')]);
    const reloaded = reload(['b']);
    await vi.waitFor(
      async () => {
        expect(await statusOf(`${url}/c`, c.transport.sessionId ?? '')).toBe(404);
      },
      { timeout: 3_000, interval: 50 },
    );
    await bWorks(3);

    // Not the client's own timeout (15 s): the gateway ended both calls at the grace's end.
    // The one still waiting for its POST's reply gets 404; the one on its stream gets an error
    // response there (its client would otherwise resume the stream at a path that is gone).
    expect(await plain).toMatchObject({
      code: 404,
      message: expect.stringContaining('session terminated'),
    });
    expect(await streamed).toMatchObject({
      code: -32603,
      message: expect.stringContaining('session closed before the request was answered'),
    });
    expect(await reloaded).toMatchObject({ event: 'reloaded', endpoints: { removed: ['c'] } });
    await bWorks(4);
    const initializes = b.requests.filter((r) => r.body.includes('"initialize"'));
    expect(initializes).toHaveLength(1);
    expect(b.requests.filter((r) => r.method === 'GET' && r.status !== 200)).toEqual([]);
    await c.client.close();
  });
});
