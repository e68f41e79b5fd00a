// The tasks extension on the server (io.modelcontextprotocol/tasks, SEP-2663, 2026-07-28): a
// task tool's call becomes a task for a client that declares the extension; tasks/get,
// tasks/update and tasks/cancel drive it; what the server emits is valid against the
// extension's schema (spec/ext/tasks/schema.json). Raw JSON-RPC over the in-memory pair; the
// per-principal rules over HTTP are in tasks-principals.test.ts.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonRpcError } from '../../src/jsonrpc/errors.js';
import { McpServer } from '../../src/server/index.js';
import type { TasksOptions } from '../../src/ext/tasks/index.js';
import { tasks } from '../../src/ext/tasks/index.js';
import { assertValidAgainstSpec, createSpecAjv } from '../helpers/spec-schema.js';
import type { Wire } from '../helpers/wire.js';
import { connectWire, modernMeta } from '../helpers/wire.js';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const WITH_TASKS = { capabilities: { ...TASKS, elicitation: {} } };

const schema = JSON.parse(
  readFileSync(new URL('../../spec/ext/tasks/schema.json', import.meta.url), 'utf8'),
) as { $schema: string; $defs: Record<string, unknown> };
const ajv = createSpecAjv(schema as Parameters<typeof createSpecAjv>[0], { validateSchema: false });
ajv.addSchema(schema, 'tasks');

/** Asserts `value` is valid as the extension's definition `type`. */
function expectValid(type: string, value: unknown): void {
  const validate = ajv.getSchema(`tasks#/$defs/${type}`);
  if (validate === undefined) throw new Error(`no definition ${type}`);
  expect(validate(value), `${type}: ${JSON.stringify(validate.errors)}`).toBe(true);
}

/** Resolves after `ms`, or rejects when `signal` aborts. */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    });
  });
}

function taskServer(options: TasksOptions = {}) {
  const seen = { aborted: 0 };
  const server = new McpServer({ name: 'tasks', version: '1.0.0' }, { onError: () => {} });
  server.extend(tasks(options));
  server.tool({ name: 'quick', description: 'Not a task.' }, () => 'quick');
  server.tool({ name: 'slow', description: 'A task.', task: 'optional' }, async (_args, ctx) => {
    try {
      await ctx.progress(1, 2, 'half way');
      await wait(150, ctx.signal);
      return 'slow done';
    } catch (error) {
      seen.aborted++;
      throw error;
    }
  });
  server.tool({ name: 'must', description: 'Only as a task.', task: 'required' }, () => 'must');
  server.tool({ name: 'meta', description: 'Has its own _meta.', task: 'required' }, () => ({
    content: [{ type: 'text' as const, text: 'meta' }],
    _meta: { 'example.com/trace': 'abc' },
  }));
  server.tool({ name: 'oops', description: 'Fails as a tool.', task: 'optional' }, () => {
    throw new Error('tool failure');
  });
  server.tool({ name: 'broken', description: 'Fails the protocol.', task: 'optional' }, () => {
    throw new JsonRpcError(-32603, 'protocol failure', { where: 'broken' });
  });
  server.tool({ name: 'ask', description: 'Asks twice.', task: 'optional' }, async (_args, ctx) => {
    const schema = { type: 'object' as const, properties: { v: { type: 'string' as const } } };
    const [a, b] = await Promise.all([
      ctx.elicit({ message: 'a?', requestedSchema: schema }, { key: 'a' }),
      ctx.elicit({ message: 'b?', requestedSchema: schema }, { key: 'b' }),
    ]);
    return `${String(a.content?.['v'])} ${String(b.content?.['v'])}`;
  });
  server.tool(
    {
      name: 'later',
      description: 'Asks, then becomes a task.',
      task: { support: 'required', start: 'handler' },
    },
    async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      });
      await ctx.startTask();
      return `hello ${String(answer.content?.['name'])}`;
    },
  );
  server.tool(
    {
      name: 'twice',
      description: 'Starts its task twice at once.',
      task: { support: 'required', start: 'handler' },
    },
    async (_args, ctx) => {
      await Promise.all([ctx.startTask(), ctx.startTask()]);
      return 'twice';
    },
  );
  return { server, seen };
}

let wire: Wire | undefined;
afterEach(async () => {
  await wire?.close();
  wire = undefined;
});

async function until(w: Wire, taskId: string, done: (task: any) => boolean): Promise<any> {
  for (let i = 0; i < 100; i++) {
    const task = await w.modern('tasks/get', { taskId }, WITH_TASKS);
    if (done(task)) return task;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the task did not get there');
}
const terminal = (task: any) => ['completed', 'failed', 'cancelled'].includes(task.status);

describe('tasks: creation and results', () => {
  it('a handler that starts its task twice at once makes one task, and gives its place back', async () => {
    wire = await connectWire(taskServer({ maxRunning: 1 }).server);
    for (let i = 0; i < 2; i++) {
      const created = await wire.modern('tools/call', { name: 'twice', arguments: {} }, WITH_TASKS);
      expect(created).toMatchObject({ resultType: 'task' });
      expect(await until(wire, created.taskId, terminal)).toMatchObject({ status: 'completed' });
    }
  });

  it('answers a task tool with a flat CreateTaskResult, found at once, completed with the result', async () => {
    wire = await connectWire(taskServer().server);
    const created = await wire.modern('tools/call', { name: 'slow', arguments: {} }, WITH_TASKS);
    expectValid('CreateTaskResult', created);
    expect(created).toMatchObject({
      resultType: 'task',
      status: 'working',
      ttlMs: 3_600_000,
      pollIntervalMs: 500,
    });
    expect(created).not.toHaveProperty('task');
    const first = await wire.modern('tools/call', { name: 'slow', arguments: {} }, WITH_TASKS);
    const right = await wire.modern('tasks/get', { taskId: first.taskId }, WITH_TASKS);
    expect(right.taskId).toBe(first.taskId);
    expectValid('GetTaskResult', right);
    // The handler's progress message is the task's status message while it works.
    const working = await until(wire, created.taskId, (t) => t.statusMessage !== undefined);
    expect(working).toMatchObject({ status: 'working', statusMessage: 'half way' });
    const done = await until(wire, created.taskId, terminal);
    expectValid('GetTaskResult', done);
    expect(done).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'slow done' }] },
      resultType: 'complete',
    });
  });

  it('a tool error completes the task (isError); a protocol error fails it with the error', async () => {
    wire = await connectWire(taskServer().server);
    const oops = await wire.modern('tools/call', { name: 'oops', arguments: {} }, WITH_TASKS);
    expect(await until(wire, oops.taskId, terminal)).toMatchObject({
      status: 'completed',
      result: { isError: true, content: [{ type: 'text', text: 'tool failure' }] },
    });
    const broken = await wire.modern('tools/call', { name: 'broken', arguments: {} }, WITH_TASKS);
    const failed = await until(wire, broken.taskId, terminal);
    expectValid('GetTaskResult', failed);
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'protocol failure', data: { where: 'broken' } },
    });
    expect(failed).not.toHaveProperty('result');
  });

  it('without the extension: optional tools answer plainly, required ones and tasks/* get -32021', async () => {
    wire = await connectWire(taskServer().server);
    expect(await wire.modern('tools/call', { name: 'slow', arguments: {} })).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'slow done' }],
    });
    const required = { code: -32021, data: { requiredCapabilities: TASKS } };
    await expect(wire.modern('tools/call', { name: 'must', arguments: {} })).rejects.toMatchObject(
      required,
    );
    await expect(wire.modern('tasks/get', { taskId: 'x' })).rejects.toMatchObject(required);
    // tasks/result and tasks/list are 2025-11-25 methods, not the extension's.
    await expect(wire.modern('tasks/list', {}, WITH_TASKS)).rejects.toMatchObject({ code: -32601 });
  });

  it('subscriptions/listen with taskIds: -32021 without the extension, else notifications/tasks', async () => {
    wire = await connectWire(taskServer({ pollIntervalMs: 20 }).server);
    await expect(
      wire.modern('subscriptions/listen', { notifications: { taskIds: ['x'] } }),
    ).rejects.toMatchObject({ code: -32021, data: { requiredCapabilities: TASKS } });
    const created = await wire.modern('tools/call', { name: 'slow', arguments: {} }, WITH_TASKS);
    const stop = new AbortController();
    const listening = wire.client
      .request(
        'subscriptions/listen',
        {
          notifications: { taskIds: [created.taskId, 'unknown'], toolsListChanged: true },
          _meta: modernMeta({}, WITH_TASKS.capabilities),
        },
        { signal: stop.signal },
      )
      .catch(() => undefined);
    const told = (status: string) =>
      wire?.notifications.find(
        (n) => n.method === 'notifications/tasks' && (n.params as any).status === status,
      );
    for (let i = 0; i < 100 && told('completed') === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    stop.abort();
    await listening;
    const ack = wire.notifications.find(
      (n) => n.method === 'notifications/subscriptions/acknowledged',
    );
    expect((ack?.params as any).notifications).toEqual({
      toolsListChanged: true,
      taskIds: [created.taskId],
    });
    expectValid('TaskSubscriptionAcknowledgedNotifications', { taskIds: [created.taskId] });
    const first = wire.notifications.find((n) => n.method === 'notifications/tasks');
    expect(first?.params).toMatchObject({ taskId: created.taskId, status: 'working' });
    const done = told('completed');
    expect(done?.params).toMatchObject({
      taskId: created.taskId,
      result: { content: [{ type: 'text', text: 'slow done' }] },
    });
    const { _meta, ...task } = done?.params as Record<string, unknown>;
    expect(_meta).toHaveProperty(['io.modelcontextprotocol/subscriptionId']);
    expectValid('TaskStatusNotificationParams', task);
  });

  it('advertises the extension in server/discover', async () => {
    wire = await connectWire(taskServer().server);
    const discovered = await wire.modern('server/discover', {});
    expect(discovered.capabilities.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} });
  });

  it('unknown, and expired after ttlMs: -32602', async () => {
    wire = await connectWire(taskServer({ ttlMs: 50 }).server);
    await expect(wire.modern('tasks/get', { taskId: 'nope' }, WITH_TASKS)).rejects.toMatchObject({
      code: -32602,
    });
    const slow = await wire.modern('tools/call', { name: 'must', arguments: {} }, WITH_TASKS);
    expect(slow.ttlMs).toBe(50);
    await new Promise((resolve) => setTimeout(resolve, 80));
    await expect(
      wire.modern('tasks/get', { taskId: slow.taskId }, WITH_TASKS),
    ).rejects.toMatchObject({ code: -32602 });
  });
});

describe('tasks: input and cancellation', () => {
  it('parks on input (input_required, the requests listed), takes answers in parts, then completes', async () => {
    wire = await connectWire(taskServer().server);
    const created = await wire.modern('tools/call', { name: 'ask', arguments: {} }, WITH_TASKS);
    const parked = await until(
      wire,
      created.taskId,
      (t) => Object.keys(t.inputRequests ?? {}).length === 2,
    );
    expectValid('GetTaskResult', parked);
    expect(parked.status).toBe('input_required');
    expect(parked.inputRequests.a).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'a?' },
    });
    const ack = await wire.modern(
      'tasks/update',
      {
        taskId: created.taskId,
        inputResponses: { a: { action: 'accept', content: { v: 'one' } }, zzz: {} },
      },
      WITH_TASKS,
    );
    expectValid('UpdateTaskResult', ack);
    const half = await until(wire, created.taskId, (t) => t.inputRequests?.a === undefined);
    expect(Object.keys(half.inputRequests)).toEqual(['b']);
    expect(half.status).toBe('input_required');
    await wire.modern(
      'tasks/update',
      {
        taskId: created.taskId,
        inputResponses: { b: { action: 'accept', content: { v: 'two' } } },
      },
      WITH_TASKS,
    );
    expect(await until(wire, created.taskId, terminal)).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'one two' }] },
    });
  });

  it('tasks/cancel aborts the handler and the task ends cancelled; again, it is a no-op ack', async () => {
    const { server, seen } = taskServer();
    wire = await connectWire(server);
    const created = await wire.modern('tools/call', { name: 'slow', arguments: {} }, WITH_TASKS);
    const ack = await wire.modern('tasks/cancel', { taskId: created.taskId }, WITH_TASKS);
    expectValid('CancelTaskResult', ack);
    const cancelled = await until(wire, created.taskId, terminal);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled).not.toHaveProperty('result');
    expect(seen.aborted).toBe(1);
    expect(await wire.modern('tasks/cancel', { taskId: created.taskId }, WITH_TASKS)).toMatchObject(
      {
        resultType: 'complete',
      },
    );
  });

  it('start "handler": input by multi round-trip first, then the task', async () => {
    wire = await connectWire(taskServer().server);
    const first = await wire.modern('tools/call', { name: 'later', arguments: {} }, WITH_TASKS);
    expect(first.resultType).toBe('input_required');
    expect(first).not.toHaveProperty('taskId');
    const [key] = Object.keys(first.inputRequests);
    const second = await wire.modern(
      'tools/call',
      {
        name: 'later',
        arguments: {},
        inputResponses: { [key!]: { action: 'accept', content: { name: 'Ada' } } },
        requestState: first.requestState,
      },
      WITH_TASKS,
    );
    expectValid('CreateTaskResult', second);
    expect(second).not.toHaveProperty('requestState');
    expect(await until(wire, second.taskId, terminal)).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'hello Ada' }] },
    });
  });

  it('2025-11-25 core tasks: params.task makes one, tasks/result delivers its question and result', async () => {
    const asked: unknown[] = [];
    wire = await connectWire(taskServer().server, {
      onRequest: (request) => {
        asked.push(request.params);
        const name = (request.params as { message: string }).message === 'a?' ? 'one' : 'two';
        return { action: 'accept', content: { v: name } };
      },
    });
    await wire.initialize('2025-11-25', { elicitation: {} });
    // A tool that requires a task, called without one: -32601 (2025-11-25 tools#task-support).
    await expect(wire.request('tools/call', { name: 'must', arguments: {} })).rejects.toMatchObject(
      {
        code: -32601,
      },
    );
    const created = await wire.request('tools/call', {
      name: 'ask',
      arguments: {},
      task: { ttl: 60_000 },
    });
    expect(created.task).toMatchObject({ status: 'working', ttl: 60_000, pollInterval: 500 });
    const result = await wire.request('tasks/result', { taskId: created.task.taskId });
    expect(result).toMatchObject({
      content: [{ type: 'text', text: 'one two' }],
      _meta: { 'io.modelcontextprotocol/related-task': { taskId: created.task.taskId } },
    });
    // The result's own _meta is kept, the related task added.
    const own = await wire.request('tools/call', { name: 'meta', arguments: {}, task: {} });
    expect(await wire.request('tasks/result', { taskId: own.task.taskId })).toMatchObject({
      content: [{ type: 'text', text: 'meta' }],
      _meta: {
        'example.com/trace': 'abc',
        'io.modelcontextprotocol/related-task': { taskId: own.task.taskId },
      },
    });
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatchObject({
      _meta: { 'io.modelcontextprotocol/related-task': { taskId: created.task.taskId } },
    });
    const listed = await wire.request('tasks/list', {});
    expect(listed.tasks.map((t: any) => t.taskId)).toContain(created.task.taskId);
    await expect(
      wire.request('tasks/cancel', { taskId: created.task.taskId }),
    ).rejects.toMatchObject({
      code: -32602,
    });
    // The core tasks' shapes of 2025-11-25 (a task-augmented call answers CreateTaskResult).
    assertValidAgainstSpec('2025-11-25', 'CreateTaskResult', created);
    assertValidAgainstSpec('2025-11-25', 'ListTasksResult', listed);
    const got = await wire.request('tasks/get', { taskId: created.task.taskId });
    assertValidAgainstSpec('2025-11-25', 'GetTaskResult', got);
    expect(got.status).toBe('completed');
  });

  it('older revisions call a task tool as a plain tool', async () => {
    wire = await connectWire(taskServer().server);
    await wire.initialize('2025-06-18');
    expect(await wire.request('tools/call', { name: 'must', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'must' }],
    });
  });
});
