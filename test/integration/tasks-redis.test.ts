// The Redis TaskStore (mcpkit/stores/redis) on a real Redis: the store's contract (records,
// TTL expiry, the per-principal list, signals), then two servers with their own connections
// sharing it: a task made on one is read, answered and cancelled through the other. Needs
// MCPKIT_TEST_REDIS_URL (`.ci/run` sets it).
import process from 'node:process';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../src/server/index.js';
import { tasks } from '../../src/ext/tasks/index.js';
import type { RedisClientLike } from '../../src/stores/redis/index.js';
import { createRedisTaskStore } from '../../src/stores/redis/index.js';
import type { TaskRecord } from '../../src/ext/tasks/index.js';
import { expectPerOwnerQuota, quotaRecord } from '../helpers/task-store-quota.js';
import { connectWire } from '../helpers/wire.js';

const URL_ = process.env['MCPKIT_TEST_REDIS_URL'];
if (URL_ === undefined)
  console.log('skipping the Redis task store tests: MCPKIT_TEST_REDIS_URL is not set');
const WITH_TASKS = {
  capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} }, elicitation: {} },
};

describe.skipIf(URL_ === undefined)('the Redis task store', () => {
  const clients: { quit(): Promise<unknown> }[] = [];
  const prefix = `mcpkit-test:${String(process.pid)}:${String(Date.now())}`;
  async function client(): Promise<RedisClientLike> {
    const made = createClient({ url: URL_ ?? '' });
    await made.connect();
    clients.push(made);
    // node-redis's client is a RedisClientLike as it is.
    const like: RedisClientLike = made;
    return like;
  }
  beforeAll(() => undefined);
  afterAll(async () => {
    for (const made of clients) await made.quit();
  });

  it("keeps records, lists a principal's, expires them with their TTL, and carries signals", async () => {
    const store = createRedisTaskStore({ client: await client(), prefix });
    const now = new Date().toISOString();
    const record: TaskRecord = {
      taskId: 'r-1',
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: 60_000,
      owner: 'alice',
      expiresAt: Date.now() + 60_000,
    };
    await store.create(record);
    await store.create({ ...record, taskId: 'r-short', expiresAt: Date.now() + 30 });
    await store.create({ ...record, taskId: 'r-bob', owner: 'bob' });
    expect(await store.get('r-1')).toEqual(record);
    await store.put({ ...record, status: 'completed', result: { content: [] } });
    expect(await store.get('r-1')).toMatchObject({ status: 'completed' });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await store.get('r-short')).toBeUndefined();
    // A write after expiry does not bring the task back (with no TTL, forever).
    await store.put({ ...record, taskId: 'r-short', status: 'completed' });
    expect(await store.get('r-short')).toBeUndefined();
    const raw = createClient({ url: URL_ ?? '' });
    await raw.connect();
    clients.push(raw);
    expect(await raw.exists(`${prefix}:task:r-short`)).toBe(0);
    // A write to a live task keeps its TTL.
    expect(await raw.pTTL(`${prefix}:task:r-1`)).toBeGreaterThan(0);
    expect((await store.list('alice')).map((r) => r.taskId)).toEqual(['r-1']);
    const received = new Promise((resolve) => {
      store.subscribe('r-1', resolve);
    });
    await store.signal('r-1', { kind: 'cancel' });
    expect(await received).toEqual({ kind: 'cancel' });
    await store.close();
  });

  it('keeps maxTasksPerOwner per owner: its own oldest finished task goes, else it is refused', async () => {
    const store = createRedisTaskStore({
      client: await client(),
      prefix: `${prefix}:q`,
      maxTasksPerOwner: 4,
    });
    await expectPerOwnerQuota(store, 4, 'redis');
    await store.close();
  });

  it("an owner's index expires with its longest-lived task, refreshed on each add", async () => {
    const raw = await client();
    const store = createRedisTaskStore({ client: raw, prefix: `${prefix}:x` });
    const index = `${prefix}:x:owner:${btoa('ix').replace(/=+$/, '')}`;
    await store.create({
      ...quotaRecord('x-1', 'ix', Date.now() + 1),
      expiresAt: Date.now() + 5_000,
    });
    const first = Number(await (raw as any).pTTL(index));
    expect(first).toBeGreaterThan(4_000);
    expect(first).toBeLessThanOrEqual(5_000);
    await store.create({
      ...quotaRecord('x-2', 'ix', Date.now() + 2),
      expiresAt: Date.now() + 20_000,
    });
    expect(Number(await (raw as any).pTTL(index))).toBeGreaterThan(19_000);
    // A shorter-lived task added later does not shorten it.
    await store.create({
      ...quotaRecord('x-3', 'ix', Date.now() + 3),
      expiresAt: Date.now() + 1_000,
    });
    expect(Number(await (raw as any).pTTL(index))).toBeGreaterThan(18_000);
    // A task that never expires keeps its index for good.
    await store.create({ ...quotaRecord('x-4', 'ix', Date.now() + 4), expiresAt: undefined });
    expect(Number(await (raw as any).pTTL(index))).toBe(-1);
    expect((await store.list('ix')).map((r) => r.taskId)).toEqual(['x-1', 'x-2', 'x-3', 'x-4']);
    await store.close();
  });

  it('two servers sharing it: read, answered and cancelled through the other', async () => {
    const seen = { aborted: 0 };
    const define = async () => {
      const server = new McpServer({ name: 'shared', version: '1.0.0' }, { onError: () => {} });
      const store = createRedisTaskStore({ client: await client(), prefix: `${prefix}:b` });
      server.extend(tasks({ store }));
      server.tool(
        { name: 'ask', description: 'Asks, then waits.', task: 'optional' },
        async (_args, ctx) => {
          const answer = await ctx.elicit({
            message: 'go?',
            requestedSchema: { type: 'object', properties: { go: { type: 'boolean' } } },
          });
          await new Promise((resolve, reject) => {
            const timer = setTimeout(resolve, 60_000);
            ctx.signal.addEventListener('abort', () => {
              clearTimeout(timer);
              seen.aborted++;
              reject(new Error('aborted'));
            });
          });
          return answer.action;
        },
      );
      return server;
    };
    const a = await connectWire(await define());
    const b = await connectWire(await define());
    try {
      const created = await a.modern('tools/call', { name: 'ask', arguments: {} }, WITH_TASKS);
      const poll = async (done: (t: any) => boolean) => {
        for (let i = 0; i < 100; i++) {
          const task = await b.modern('tasks/get', { taskId: created.taskId }, WITH_TASKS);
          if (done(task)) return task;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        throw new Error('not there');
      };
      const parked = await poll((t) => t.status === 'input_required');
      const [key] = Object.keys(parked.inputRequests);
      await b.modern(
        'tasks/update',
        {
          taskId: created.taskId,
          inputResponses: { [key!]: { action: 'accept', content: { go: true } } },
        },
        WITH_TASKS,
      );
      await poll((t) => t.status === 'working');
      await b.modern('tasks/cancel', { taskId: created.taskId }, WITH_TASKS);
      expect((await poll((t) => t.status === 'cancelled')).status).toBe('cancelled');
      expect(seen.aborted).toBe(1);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
