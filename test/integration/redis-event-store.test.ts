// The Redis Streams event store (mcpkit/stores/redis) on a real Redis: its contract (ids that name their
// stream, replay after an id, priming events, trimmed or unknown ids, forget, expiry), then a
// server whose legacy stream is resumed with Last-Event-ID from it. Needs MCPKIT_TEST_REDIS_URL.
import process from 'node:process';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../src/server/index.js';
import type { RedisStreamClientLike } from '../../src/stores/redis/index.js';
import { createRedisEventStore } from '../../src/stores/redis/index.js';
import {
  ACCEPT_BOTH,
  allEvents,
  call,
  createTestServer,
  faceOf,
  messages,
  openSession,
  sessionRequest,
  startFace,
} from './http-server-harness.js';
import { createStreamableHttpHandler } from '../../src/transports/http/server/handler.js';

const URL_ = process.env['MCPKIT_TEST_REDIS_URL'];
if (URL_ === undefined)
  console.log('skipping the Redis event store tests: MCPKIT_TEST_REDIS_URL is not set');

describe.skipIf(URL_ === undefined)('the Redis Streams event store', () => {
  let redis: ReturnType<typeof createClient>;
  let client: RedisStreamClientLike;
  const prefix = `mcpkit-test-events:${String(process.pid)}:${String(Date.now())}`;
  beforeAll(async () => {
    redis = createClient({ url: URL_ ?? '' });
    await redis.connect();
    client = redis;
  });
  afterAll(async () => {
    await redis.quit();
  });

  it('replays what followed an event, skips priming events, refuses unknown and trimmed ids', async () => {
    const store = createRedisEventStore({ client, prefix, maxEventsPerStream: 5 });
    const priming = await store.append('s1/0', null);
    expect(priming).toMatch(/^s1\/0@\d+-\d+$/);
    const a = await store.append('s1/0', { jsonrpc: '2.0', method: 'a' });
    await store.append('s1/0', { jsonrpc: '2.0', id: 1, result: {} });
    const replay = await store.replayAfter(priming);
    expect(replay?.streamId).toBe('s1/0');
    expect(replay?.events.map((e) => e.message)).toEqual([
      { jsonrpc: '2.0', method: 'a' },
      { jsonrpc: '2.0', id: 1, result: {} },
    ]);
    expect((await store.replayAfter(a))?.events).toHaveLength(1);
    expect(await store.replayAfter('s1/0@1-1')).toBeUndefined();
    expect(await store.replayAfter('nonsense')).toBeUndefined();
    // Far past its bound, the stream is trimmed: the first id is gone, so no partial replay.
    for (let i = 0; i < 300; i++)
      await store.append('s1/0', { jsonrpc: '2.0', method: `n${String(i)}` });
    expect(await store.replayAfter(priming)).toBeUndefined();
    await store.forget?.('s1/0');
    expect(await redis.exists(`${prefix}:s1/0`)).toBe(0);
  });

  it('lets a stream expire when idle', async () => {
    const store = createRedisEventStore({ client, prefix, maxAgeMs: 50 });
    const id = await store.append('s2/0', { jsonrpc: '2.0', method: 'x' });
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await store.replayAfter(id)).toBeUndefined();
  });

  it('serves resumption: a stream the tool closed is resumed with Last-Event-ID', async () => {
    const { server } = createTestServer();
    const face = await startFace('node', server, {
      eventStore: createRedisEventStore({ client, prefix }),
    });
    try {
      const session = await openSession(face);
      const res = await face.request(
        sessionRequest(session, call('test_reconnection', {}, 11, { progressToken: 't' })),
      );
      const first = await allEvents(res);
      expect(first[0]?.id).toMatch(/@\d+-\d+$/);
      const resumed = await face.request({
        method: 'GET',
        headers: {
          'mcp-session-id': session,
          accept: 'text/event-stream',
          'last-event-id': first[0]!.id!,
        },
      });
      expect(resumed.status).toBe(200);
      const rest = await allEvents(resumed);
      expect(messages(rest).map((m) => m.method ?? m.id)).toEqual(['notifications/progress', 11]);
    } finally {
      await face.close();
    }
  });

  it("sends a request still streaming when the close's grace runs out its error before the stream ends", async () => {
    // The error is stored in Redis before it is written: the close waits for it, then ends the stream.
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const server = new McpServer({ name: 'slow', version: '1.0.0' }, { onError: () => {} });
    server.tool({ name: 'slow', description: 'Never answers.' }, async (_args, ctx) => {
      void ctx.progress(0, 1);
      started();
      await new Promise(() => undefined);
      return 'never';
    });
    const handler = createStreamableHttpHandler(() => server, {
      eventStore: createRedisEventStore({ client, prefix }),
    });
    const face = await faceOf('node', handler);
    try {
      const session = await openSession(face);
      const body = call('slow', {}, 12, { progressToken: 't' });
      const res = await face.request(sessionRequest(session, body, { accept: ACCEPT_BOTH }));
      await running;
      const [events] = await Promise.all([allEvents(res), handler.close({ graceMs: 100 })]);
      expect(messages(events).map((m) => m.method ?? m.id)).toEqual(['notifications/progress', 12]);
      expect(messages(events).at(-1)).toEqual({
        jsonrpc: '2.0',
        id: 12,
        error: { code: -32603, message: 'session closed before the request was answered' },
      });
    } finally {
      await face.close();
    }
  });
});
