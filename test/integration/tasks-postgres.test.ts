// The PostgreSQL TaskStore (mcpkit/stores/postgres) on a real database: the store's own contract,
// then two server processes sharing it (a task made on one is read, answered and cancelled
// through the other, tasks/update and tasks/cancel reaching the handler by LISTEN/NOTIFY), a task
// that outlives a restart of the process that ran it, and one that was still working then. Needs MCPKIT_TEST_POSTGRES_URL (`.ci/run` sets it).
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import process from 'node:process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresTaskStore } from '../../src/stores/postgres/index.js';
import type { TaskRecord } from '../../src/ext/tasks/index.js';
import { expectPerOwnerQuota } from '../helpers/task-store-quota.js';

const URL_ = process.env['MCPKIT_TEST_POSTGRES_URL'];
if (URL_ === undefined)
  console.log('skipping the PostgreSQL task store tests: MCPKIT_TEST_POSTGRES_URL is not set');
const SERVER = fileURLToPath(new URL('./fixtures/tasks-server.mjs', import.meta.url));
const TASKS = { 'io.modelcontextprotocol/tasks': {} };

/** Starts the task server fixture on `port` (0: any); resolves with it and its URL. */
async function startServer(port = 0): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [SERVER, URL_ ?? '', String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const line = /^(http:\/\/\S+)\n/m.exec(seen);
      if (line?.[1] !== undefined) resolve(line[1]);
    });
    child.once('exit', (code) => {
      reject(new Error(`the task server exited (${String(code)})`));
    });
  });
  return { child, url };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/** One 2026-07-28 request to `url`, declaring the tasks extension. */
async function call(url: string, method: string, params: Record<string, unknown>): Promise<any> {
  const name = params['name'] ?? params['taskId'];
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { extensions: TASKS, elicitation: {} },
          'io.modelcontextprotocol/clientInfo': { name: 'pg-test', version: '1.0.0' },
        },
      },
    }),
  });
  const body = (await response.json()) as { result?: any; error?: any };
  if (body.error !== undefined) throw Object.assign(new Error(body.error.message), body.error);
  return body.result;
}

async function until(url: string, taskId: string, done: (task: any) => boolean): Promise<any> {
  for (let i = 0; i < 200; i++) {
    const task = await call(url, 'tasks/get', { taskId });
    if (done(task)) return task;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the task did not get there');
}

describe.skipIf(URL_ === undefined)('the PostgreSQL task store', () => {
  let pool: pg.Pool;
  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: URL_, max: 4 });
    await pool.query(
      'DROP TABLE IF EXISTS mcpkit_test_store; DROP TABLE IF EXISTS mcpkit_test_tasks',
    );
  });
  afterAll(async () => {
    await pool.end();
  });

  it('keeps records, replaces them, hides expired ones, and carries signals', async () => {
    const store = createPostgresTaskStore({ pool, table: 'mcpkit_test_store' });
    const now = new Date().toISOString();
    const record: TaskRecord = {
      taskId: 't-1',
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: 60_000,
      owner: 'alice',
      expiresAt: Date.now() + 60_000,
    };
    await store.create(record);
    expect(await store.get('t-1')).toEqual(record);
    await store.put({ ...record, status: 'completed', result: { content: [] } });
    expect(await store.get('t-1')).toMatchObject({ status: 'completed', result: { content: [] } });
    await store.create({ ...record, taskId: 't-gone', expiresAt: Date.now() - 1 });
    expect(await store.get('t-gone')).toBeUndefined();
    const received = new Promise((resolve) => {
      store.subscribe('t-1', resolve);
    });
    await store.signal('t-1', { kind: 'cancel' });
    expect(await received).toEqual({ kind: 'cancel' });
    await store.close();
    expect(() => createPostgresTaskStore({ pool, table: 'bad; drop' })).toThrow(TypeError);
    expect(() => createPostgresTaskStore({ pool, sweepIntervalMs: -1 })).toThrow(TypeError);
  });

  it('keeps maxTasksPerOwner per owner: its own oldest finished task goes, else it is refused', async () => {
    const store = createPostgresTaskStore({
      pool,
      table: 'mcpkit_test_store',
      maxTasksPerOwner: 4,
    });
    await expectPerOwnerQuota(store, 4, 'pg');
    await store.close();
    expect(() => createPostgresTaskStore({ pool, maxTasksPerOwner: 0 })).toThrow(TypeError);
  });

  it('creating a task sweeps expired rows away (at most once per interval)', async () => {
    const store = createPostgresTaskStore({ pool, table: 'mcpkit_test_store' });
    await store.ready;
    const now = new Date().toISOString();
    const old = {
      taskId: 't-expired',
      status: 'completed',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: 1,
    };
    await pool.query(
      `INSERT INTO mcpkit_test_store (task_id, owner, expires_at, record)
       VALUES ($1, NULL, now() - interval '1 minute', $2)`,
      [old.taskId, JSON.stringify(old)],
    );
    const rows = async () =>
      (await pool.query('SELECT 1 FROM mcpkit_test_store WHERE task_id = $1', ['t-expired']))
        .rowCount;
    expect(await rows()).toBe(1);
    await store.create({
      ...old,
      taskId: 't-new',
      status: 'working',
      ttlMs: 60_000,
      owner: undefined,
      expiresAt: Date.now() + 60_000,
    });
    for (let i = 0; i < 100 && (await rows()) !== 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await rows()).toBe(0);
    await store.close();
  });

  it('a task made on one process is read, answered and cancelled through another', async () => {
    const a = await startServer();
    const b = await startServer();
    try {
      const created = await call(a.url, 'tools/call', { name: 'wait', arguments: { ms: 60_000 } });
      expect(created.resultType).toBe('task');
      expect((await call(b.url, 'tasks/get', { taskId: created.taskId })).status).toBe('working');
      await call(b.url, 'tasks/cancel', { taskId: created.taskId });
      const cancelled = await until(b.url, created.taskId, (t) => t.status !== 'working');
      expect(cancelled.status).toBe('cancelled');
      // tasks/update through b reaches the handler waiting on a (LISTEN/NOTIFY).
      const asked = await call(a.url, 'tools/call', { name: 'ask', arguments: {} });
      const parked = await until(b.url, asked.taskId, (t) => t.status === 'input_required');
      expect(parked.inputRequests).toMatchObject({ word: { method: 'elicitation/create' } });
      await call(b.url, 'tasks/update', {
        taskId: asked.taskId,
        inputResponses: { word: { action: 'accept', content: { word: 'hello' } } },
      });
      const answered = await until(b.url, asked.taskId, (t) => t.status === 'completed');
      expect(answered.result.content[0].text).toBe(`hello from ${String(a.child.pid)}`);
    } finally {
      await stop(a.child);
      await stop(b.child);
    }
  });

  it('a finished task outlives a restart of its process', async () => {
    const first = await startServer();
    const port = new URL(first.url).port;
    const created = await call(first.url, 'tools/call', { name: 'wait', arguments: { ms: 10 } });
    const done = await until(first.url, created.taskId, (t) => t.status === 'completed');
    await stop(first.child);
    const again = await startServer(Number(port));
    try {
      const after = await call(again.url, 'tasks/get', { taskId: created.taskId });
      expect(after).toMatchObject({ status: 'completed', result: done.result });
      expect(after.result.content[0].text).toContain(`done by ${String(first.child.pid)}`);
    } finally {
      await stop(again.child);
    }
  });

  it('a task still working when its process stops stays working (until its TTL) after a restart', async () => {
    const first = await startServer();
    const port = new URL(first.url).port;
    const created = await call(first.url, 'tools/call', {
      name: 'wait',
      arguments: { ms: 60_000 },
    });
    await stop(first.child);
    const again = await startServer(Number(port));
    try {
      // Nothing runs it any more; the store keeps what was last written (docs/tasks.md).
      const after = await call(again.url, 'tasks/get', { taskId: created.taskId });
      expect(after).toMatchObject({ taskId: created.taskId, status: 'working' });
      expect(after.ttlMs).toBe(created.ttlMs);
      expect(await call(again.url, 'tasks/cancel', { taskId: created.taskId })).toMatchObject({});
    } finally {
      await stop(again.child);
    }
  });
});
