// A Redis that is connected but silent (stopped with SIGSTOP, a half-open network), with real
// Redis behind a stalling proxy (test/helpers/stall-proxy.ts; the shared Redis itself is never
// stopped): every command waits at most connectRedis's `commandTimeoutMs`, so a request that
// needs Redis answers 503 within it instead of waiting for Redis; once Redis answers again,
// requests are served again. Needs MCPKIT_TEST_REDIS_URL.
import process from 'node:process';
import { afterEach, describe, expect, it } from 'vitest';
import type { RedisConnection } from '../../src/stores/redis/index.js';
import {
  RedisTimeoutError,
  RedisUnavailableError,
  connectRedis,
  createRedisChangeBus,
  createRedisEventStore,
  createRedisSessionStore,
  createRedisTaskStore,
  redisHealthCheck,
} from '../../src/stores/redis/index.js';
import { McpServer } from '../../src/server/index.js';
import { startServe } from '../helpers/balancer.js';
import type { StallProxy } from '../helpers/stall-proxy.js';
import { startStallProxy } from '../helpers/stall-proxy.js';
import type { Face } from './http-server-harness.js';
import {
  call,
  initializeBody,
  openSession,
  sessionRequest,
  startFace,
} from './http-server-harness.js';

const SHARED_URL = process.env['MCPKIT_TEST_REDIS_URL'];
if (SHARED_URL === undefined) {
  console.log('skipping the stalled Redis tests: MCPKIT_TEST_REDIS_URL is not set');
}

const faces: Face[] = [];
const clients: RedisConnection[] = [];
const proxies: StallProxy[] = [];
afterEach(async () => {
  for (const proxy of proxies) proxy.resume();
  await Promise.all(faces.splice(0).map((f) => f.close()));
  await Promise.all(clients.splice(0).map((c) => c.quit().catch(() => undefined)));
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

async function stallable(): Promise<StallProxy> {
  const proxy = await startStallProxy(SHARED_URL ?? '');
  proxies.push(proxy);
  return proxy;
}

/**
 * Resumes the proxy after `ms` whatever happens: without a time limit the awaited answer then
 * comes late (and the test's timing assertion fails) rather than never.
 */
function releaseAfter(proxy: StallProxy, ms: number): () => void {
  const timer = setTimeout(() => {
    proxy.resume();
  }, ms);
  return () => {
    clearTimeout(timer);
  };
}

/** How long `promise` takes to settle, and how. */
async function timed<T>(promise: Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const started = Date.now();
  try {
    const value = await promise;
    return { ms: Date.now() - started, value };
  } catch (error) {
    return { ms: Date.now() - started, error };
  }
}

async function eventually(probe: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never: ${what}`);
}

const prefixOf = (name: string): string =>
  `mcpkit-test-stalled:${name}:${String(process.pid)}:${String(Date.now())}`;

async function processOn(client: RedisConnection, prefix: string): Promise<Face> {
  const server = new McpServer({ name: 'stalled', version: '1.0.0' }, { onError: () => {} });
  server.tool({ name: 'ping', description: 'Answers pong.' }, () => 'pong');
  const face = await startFace('node', server, {
    sessionStore: createRedisSessionStore({ client, prefix: `${prefix}:sessions` }),
    eventStore: createRedisEventStore({ client, prefix: `${prefix}:events` }),
    health: { check: redisHealthCheck(client, { timeoutMs: 500 }) },
    onError: () => {},
  });
  faces.push(face);
  return face;
}

describe.skipIf(SHARED_URL === undefined)('a Redis that stalls (connected, silent)', () => {
  it('requests that need it answer 503 within the command time limit; served again after', async () => {
    const proxy = await stallable();
    const client = await connectRedis(proxy.url, { commandTimeoutMs: 500 });
    clients.push(client);
    const prefix = prefixOf('requests');
    const a = await processOn(client, prefix);
    const session = await openSession(a);

    proxy.stall();
    const release = releaseAfter(proxy, 4000);
    // A process that must read the store to serve the session.
    const b = await processOn(client, prefix);
    const resumed = await timed(b.request(sessionRequest(session, call('ping', {}, 1))));
    expect(resumed.value?.status).toBe(503);
    expect(await resumed.value?.json()).toMatchObject({
      error: { code: -32603, message: expect.stringContaining('session store is unavailable') },
    });
    expect(resumed.ms).toBeLessThan(2000);
    // A new session cannot be written either.
    const opening = await timed(a.request({ body: initializeBody() }));
    expect(opening.value?.status).toBe(503);
    expect(opening.ms).toBeLessThan(2000);
    expect((await a.request({ method: 'GET', path: '/healthz' })).status).toBe(503);
    release();

    proxy.resume();
    await eventually(
      async () => (await b.request(sessionRequest(session, call('ping', {}, 2)))).status === 200,
      'served again',
    );
    expect((await a.request({ method: 'GET', path: '/healthz' })).status).toBe(200);
    expect(await openSession(a)).toMatch(/^[0-9a-f]{32}$/);
  });

  it('every store fails within the limit: tasks, events, sessions, the change bus', async () => {
    const proxy = await stallable();
    const client = await connectRedis(proxy.url, { commandTimeoutMs: 300 });
    clients.push(client);
    const prefix = prefixOf('stores');
    const tasks = createRedisTaskStore({ client, prefix: `${prefix}:tasks` });
    const record = {
      taskId: 'before',
      owner: undefined,
      status: 'working',
      createdAt: new Date().toISOString(),
      expiresAt: Date.now() + 60_000,
    } as unknown as Parameters<typeof tasks.create>[0];
    await tasks.create(record); // its subscriber connects before the stall
    const events = createRedisEventStore({ client, prefix: `${prefix}:events` });
    const sessions = createRedisSessionStore({ client, prefix: `${prefix}:sessions` });
    const bus = createRedisChangeBus({ client, prefix });
    // A store whose subscriber connection would be made during the stall.
    const fresh = createRedisTaskStore({ client, prefix: `${prefix}:fresh`, onError: () => {} });

    proxy.stall();
    const release = releaseAfter(proxy, 4000);
    const attempts = await Promise.all([
      timed(tasks.get('before')),
      timed(tasks.create({ ...record, taskId: 'during' })),
      timed(tasks.list(undefined)),
      timed(fresh.create({ ...record, taskId: 'fresh' })),
      timed(Promise.resolve(events.append('stream', null))),
      timed(sessions.load('session')),
      timed(bus.publish({ list: 'tools' } as never)),
      timed(client.get(`${prefix}:anything`)),
    ]);
    release();
    proxy.resume();
    for (const attempt of attempts) {
      expect(attempt.ms).toBeLessThan(1500);
      expect(attempt.error).toBeInstanceOf(RedisTimeoutError);
      expect(attempt.error).toBeInstanceOf(RedisUnavailableError);
      expect((attempt.error as Error).message).toMatch(/did not answer within 300 ms/);
    }
    await tasks.close();
    await fresh.close();
  });

  it('quit on a stalled Redis ends the connection within the limit', async () => {
    const proxy = await stallable();
    const client = await connectRedis(proxy.url, { commandTimeoutMs: 300 });
    clients.push(client);
    proxy.stall();
    const quit = await timed(client.quit());
    expect(quit.error).toBeInstanceOf(RedisTimeoutError);
    expect(quit.ms).toBeLessThan(1000);
    expect((client as unknown as { isOpen: boolean }).isOpen).toBe(false);
  });

  it('the default limit is a few seconds', async () => {
    const proxy = await stallable();
    const client = await connectRedis(proxy.url);
    clients.push(client);
    proxy.stall();
    const release = releaseAfter(proxy, 8000);
    const attempt = await timed(client.get(`${prefixOf('default')}:key`));
    release();
    expect(attempt.error).toBeInstanceOf(Error);
    expect(attempt.ms).toBeGreaterThanOrEqual(1900);
    expect(attempt.ms).toBeLessThan(3500);
  });

  it('mcpkit serve --redis-timeout: a legacy session opened during a stall is refused with 503 in time', async () => {
    const proxy = await stallable();
    const served = await startServe(
      [
        'everything',
        '--redis',
        proxy.url,
        '--redis-prefix',
        prefixOf('cli').replace(/[^A-Za-z0-9_.:-]/g, '-'),
        '--redis-timeout',
        '300',
      ],
      { MCPKIT_STATE_SECRET: 'a-state-secret-of-at-least-32-characters!' },
    );
    try {
      const initialize = (): Promise<Response> =>
        fetch(served.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify(initializeBody()),
        });
      expect((await initialize()).status).toBe(200);
      proxy.stall();
      const release = releaseAfter(proxy, 4000);
      const refused = await timed(initialize());
      release();
      expect(refused.value?.status).toBe(503);
      expect(refused.ms).toBeLessThan(1500);
      proxy.resume();
      await eventually(async () => (await initialize()).status === 200, 'served again');
    } finally {
      await served.close();
    }
  });
});
