// Redis faults, with real Redis: a private redis-server (started here on a free 127.0.0.1 port,
// never the shared one) stopped mid-run (requests that need the store answer 503 at once, the
// health endpoint 503) and started again on the same port (requests succeed again); Redis
// unreachable at start (connectRedis fails clearly, or starts degraded and recovers); a session
// expiring while its GET stream is open; 10 000 sessions left behind expire by their TTL (on the
// shared Redis, under a private prefix); a process closing gracefully leaves its streams' events
// for another process to replay. Needs MCPKIT_TEST_REDIS_URL, and /usr/bin/redis-server for the
// private instance.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { RedisConnection } from '../../src/stores/redis/index.js';
import {
  RedisUnavailableError,
  connectRedis,
  createRedisEventStore,
  createRedisSessionStore,
  redisHealthCheck,
} from '../../src/stores/redis/index.js';
import { McpServer } from '../../src/server/index.js';
import type { StreamableHttpOptions } from '../../src/transports/http/server/options.js';
import type { SessionStore } from '../../src/transports/http/server/session-store.js';
import { freePort } from '../helpers/balancer.js';
import type { Face } from './http-server-harness.js';
import type { SseEvent } from '../../src/transports/http/sse.js';
import {
  call,
  events,
  eventsUntil,
  initializeBody,
  messages,
  openSession,
  sessionRequest,
  startFace,
} from './http-server-harness.js';

const SHARED_URL = process.env['MCPKIT_TEST_REDIS_URL'];
const REDIS_SERVER = '/usr/bin/redis-server';
const hasBinary = existsSync(REDIS_SERVER);
if (SHARED_URL === undefined) {
  console.log('skipping the Redis fault tests: MCPKIT_TEST_REDIS_URL is not set');
} else if (!hasBinary) {
  console.log(`skipping the Redis restart tests: ${REDIS_SERVER} is missing`);
}

const faces: Face[] = [];
const clients: RedisConnection[] = [];
afterEach(async () => {
  await Promise.all(faces.splice(0).map((f) => f.close()));
  await Promise.all(clients.splice(0).map((c) => c.quit().catch(() => undefined)));
});

/** A private redis-server on `port`, keeping its data across a restart (RDB saved on SIGTERM). */
class PrivateRedis {
  readonly port: number;
  readonly #dir = mkdtempSync(join(tmpdir(), 'mcpkit-redis-'));
  #child: ChildProcess | undefined;

  constructor(port: number) {
    this.port = port;
  }

  get url(): string {
    return `redis://127.0.0.1:${String(this.port)}`;
  }

  async start(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.#dir];
    args.push('--save', '3600 1', '--appendonly', 'no', '--protected-mode', 'no');
    this.#child = spawn(REDIS_SERVER, args, { stdio: 'ignore' });
    for (let i = 0; i < 200; i++) {
      if (await accepts(this.port)) return;
      await sleep(25);
    }
    throw new Error(`redis-server did not start on port ${String(this.port)}`);
  }

  async stop(): Promise<void> {
    const child = this.#child;
    this.#child = undefined;
    if (child === undefined || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.#dir, { recursive: true, force: true });
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = netConnect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      resolve(false);
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `probe` until it holds (the client reconnects with its backoff). */
async function eventually(probe: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await probe()) return;
    await sleep(50);
  }
  throw new Error(`never: ${what}`);
}

/** A process-like server on `client`: its own McpServer and handler, the shared stores. */
async function processOn(
  client: RedisConnection,
  prefix: string,
  extra: StreamableHttpOptions = {},
): Promise<Face> {
  const server = new McpServer({ name: 'faults', version: '1.0.0' }, { onError: () => {} });
  server.tool({ name: 'ping', description: 'Answers pong.' }, () => 'pong');
  const face = await startFace('node', server, {
    sessionStore: createRedisSessionStore({ client, prefix: `${prefix}:sessions` }),
    eventStore: createRedisEventStore({ client, prefix: `${prefix}:events` }),
    health: { check: redisHealthCheck(client, { timeoutMs: 500 }) },
    ...extra,
  });
  faces.push(face);
  return face;
}

async function health(face: Face): Promise<{ status: number; body: unknown }> {
  const response = await face.request({ method: 'GET', path: '/healthz' });
  return { status: response.status, body: await response.json() };
}

const prefixOf = (name: string): string =>
  `mcpkit-test-faults:${name}:${String(process.pid)}:${String(Date.now())}`;

describe.skipIf(SHARED_URL === undefined || !hasBinary)('a private Redis that goes away', () => {
  const instances: PrivateRedis[] = [];
  afterAll(async () => {
    await Promise.all(instances.map((r) => r.dispose()));
  });

  async function privateRedis(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    instances.push(redis);
    return redis;
  }

  it('stopped mid-run: 503 at once; started again on the same port: served again', async () => {
    const redis = await privateRedis();
    await redis.start();
    const client = await connectRedis(redis.url, { maxReconnectDelayMs: 100 });
    clients.push(client);
    const prefix = prefixOf('restart');
    const a = await processOn(client, prefix);
    const b = await processOn(client, prefix);
    const session = await openSession(a);
    expect((await b.request(sessionRequest(session, call('ping', {}, 1)))).status).toBe(200);
    expect(await health(a)).toEqual({ status: 200, body: { status: 'ok', redis: 'ok' } });

    await redis.stop();
    // A process that must read the store to serve the session: 503 with a JSON-RPC error, at once.
    const c = await processOn(client, prefix);
    const started = Date.now();
    const refused = await c.request(sessionRequest(session, call('ping', {}, 2)));
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32603, message: expect.stringContaining('session store is unavailable') },
    });
    // A new session cannot be written either.
    const opening = await a.request({ body: initializeBody() });
    expect(opening.status).toBe(503);
    expect(await opening.json()).toMatchObject({ error: { code: -32603 } });
    expect(Date.now() - started).toBeLessThan(5000); // never the test's own timeout: no hang
    const down = await health(a);
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ status: 'unavailable', redis: 'unreachable' });

    await redis.start();
    await eventually(async () => (await health(c)).status === 200, 'healthy again');
    // The record survived the restart: C resumes the session; new sessions open.
    const served = await c.request(sessionRequest(session, call('ping', {}, 3)));
    expect(served.status).toBe(200);
    expect(await served.json()).toMatchObject({ id: 3, result: { content: [{ text: 'pong' }] } });
    expect(await openSession(b)).toMatch(/^[0-9a-f]{32}$/);
  });

  it('unreachable at start: connectRedis fails with a clear error', async () => {
    const port = await freePort();
    const failed = connectRedis(`redis://127.0.0.1:${String(port)}`);
    await expect(failed).rejects.toThrow(RedisUnavailableError);
    await expect(failed).rejects.toThrow(`cannot reach Redis at redis://127.0.0.1:${String(port)}`);
  });

  it('unreachable at start, started in the background: 503 until Redis comes, then served', async () => {
    const redis = await privateRedis();
    const errors: unknown[] = [];
    const client = await connectRedis(redis.url, {
      startup: 'background',
      maxReconnectDelayMs: 100,
      onError: (error) => errors.push(error),
    });
    clients.push(client);
    expect(client.isReady).toBe(false);
    const a = await processOn(client, prefixOf('late'));
    expect((await a.request({ body: initializeBody() })).status).toBe(503);
    expect((await health(a)).status).toBe(503);
    expect(errors.length).toBeGreaterThan(0);

    await redis.start();
    await eventually(async () => (await health(a)).status === 200, 'healthy');
    const session = await openSession(a);
    expect((await a.request(sessionRequest(session, call('ping', {}, 1)))).status).toBe(200);
  });
});

describe.skipIf(SHARED_URL === undefined)('a process closing gracefully', () => {
  it('ends its GET stream; its events stay for another process to replay', async () => {
    const client = await connectRedis(SHARED_URL ?? '');
    clients.push(client);
    const prefix = prefixOf('handover');
    const stores = (): StreamableHttpOptions => ({
      sessionStore: createRedisSessionStore({ client, prefix: `${prefix}:sessions` }),
      eventStore: createRedisEventStore({ client, prefix: `${prefix}:events` }),
    });
    const server = new McpServer({ name: 'leaving', version: '1.0.0' }, { onError: () => {} });
    server.tool({ name: 'ping', description: 'Answers pong.' }, () => 'pong');
    const a = await startFace('node', server, { ...stores(), retryMs: 300 });
    const b = await processOn(client, prefix, stores());
    const session = await openSession(a);
    const stream = await a.request({
      method: 'GET',
      headers: { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
    });
    expect(stream.status).toBe(200);
    const seen = events(stream);
    const [priming] = await eventsUntil(seen, () => true);
    expect(priming?.id).toBeDefined();
    // A message for the client on the GET stream: a tool list change.
    server.tool({ name: 'late', description: 'Added later.' }, () => 'late');
    const sent = await eventsUntil(seen, (e) => e.data.includes('list_changed'));
    expect(messages(sent).map((m: { method: string }) => m.method)).toContain(
      'notifications/tools/list_changed',
    );

    await a.handler.close({ graceMs: 1000 });
    const rest: SseEvent[] = [];
    for (;;) {
      const next = await seen.next();
      if (next.done === true) break;
      rest.push(next.value);
    }
    expect(rest.every((e) => e.data === '')).toBe(true);
    // The client reconnects elsewhere with the last id it saw before the list change.
    const resumed = await b.request({
      method: 'GET',
      headers: {
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-11-25',
        'last-event-id': priming?.id ?? '',
      },
    });
    expect(resumed.status).toBe(200);
    const replayed = await eventsUntil(events(resumed), (e) => e.data.includes('list_changed'));
    expect(replayed.some((e) => e.data.includes('notifications/tools/list_changed'))).toBe(true);
  });
});

describe.skipIf(SHARED_URL === undefined)('sessions that expire in the shared Redis', () => {
  async function shared(): Promise<RedisConnection> {
    const client = await connectRedis(SHARED_URL ?? '');
    clients.push(client);
    return client;
  }

  it('a session expiring while its GET stream is open: 404 on every process that did not hold it', async () => {
    const client = await shared();
    const prefix = prefixOf('expiry');
    const sessionStore = createRedisSessionStore({
      client,
      prefix: `${prefix}:sessions`,
      ttlMs: 400,
    });
    const a = await processOn(client, prefix, { sessionStore });
    const b = await processOn(client, prefix, { sessionStore });
    const session = await openSession(a);
    const controller = new AbortController();
    const stream = await a.request({
      method: 'GET',
      headers: { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    await eventually(
      async () => (await sessionStore.load(session)) === undefined,
      'the record expired',
    );
    expect((await b.request(sessionRequest(session, call('ping', {}, 1)))).status).toBe(404);
    controller.abort();
  });

  it('a session expiring while its GET stream is open: the holding process ends the stream and answers 404', async () => {
    const client = await shared();
    const prefix = prefixOf('expiry-held');
    const sessionStore = createRedisSessionStore({
      client,
      prefix: `${prefix}:sessions`,
      ttlMs: 400,
    });
    const a = await processOn(client, prefix, { sessionStore });
    const session = await openSession(a);
    const stream = await a.request({
      method: 'GET',
      headers: { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
    });
    expect(stream.status).toBe(200);
    // The stream ends by itself once the holder finds the record gone (no request comes in).
    await stream.text();
    expect(await sessionStore.load(session)).toBeUndefined();
    expect((await a.request(sessionRequest(session, call('ping', {}, 1)))).status).toBe(404);
  });

  it('10 000 sessions created and left: one key each, all gone after the TTL', async () => {
    const client = await shared();
    const prefix = `${prefixOf('many')}:sessions`;
    const store: SessionStore = createRedisSessionStore({ client, prefix, ttlMs: 1500 });
    const record = {
      revision: '2025-11-25' as const,
      capabilities: {},
      clientInfo: { name: 'left-behind', version: '1.0.0' },
      owner: undefined,
    };
    const ids = Array.from({ length: 10_000 }, (_, i) => `s${String(i)}`);
    for (let i = 0; i < ids.length; i += 1000) {
      await Promise.all(ids.slice(i, i + 1000).map((id) => store.save(id, record)));
    }
    // Sessions opened through the handler are written with the same TTL.
    const a = await processOn(client, prefixOf('many-http'), { sessionStore: store });
    const opened = await openSession(a);
    const keys = (): Promise<number> => countKeys(client, `${prefix}:*`);
    expect(await keys()).toBe(10_001);
    const ttl = await (client as unknown as Pttl).pTTL(`${prefix}:${opened}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(1500);
    await eventually(async () => (await keys()) === 0, 'every key expired');
  });
});

interface Pttl {
  pTTL(key: string): Promise<number>;
}

/** The keys matching `pattern`, counted with SCAN (never KEYS on a shared Redis). */
async function countKeys(client: RedisConnection, pattern: string): Promise<number> {
  const scanner = client as unknown as {
    scanIterator(options: { MATCH: string; COUNT: number }): AsyncIterable<string[]>;
  };
  let count = 0;
  for await (const batch of scanner.scanIterator({ MATCH: pattern, COUNT: 1000 })) {
    count += batch.length;
  }
  return count;
}
