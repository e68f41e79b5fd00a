// The client's side of tasks (#21): how it paces its polls (PollPace), an aborted callTool
// cancelling its task (tasks/cancel reaching the handler's signal) in both generations, and the
// explicit API (callToolAsTask, getTask, updateTask) answering a task's question by hand.
// mcpkit's client against mcpkit's server over the in-memory pair, frames recorded.
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '../../src/client/index.js';
import type { ClientOptions } from '../../src/client/index.js';
import { PollPace, tasksClient } from '../../src/ext/tasks/index.js';
import type { TasksApi } from '../../src/ext/tasks/index.js';
import { McpServer } from '../../src/server/index.js';
import { tasks } from '../../src/ext/tasks/index.js';
import { createMemoryPair } from '../../src/transports/memory.js';

describe('PollPace', () => {
  it('keeps the suggested interval while the task changes, backs off (bounded) while it does not', () => {
    const pace = new PollPace();
    const task = { status: 'working', lastUpdatedAt: 't0', pollIntervalMs: 500 };
    expect(pace.next(task)).toBe(500);
    const waits = Array.from({ length: 8 }, () => pace.next(task));
    expect(waits.slice(0, 3)).toEqual([750, 1125, 1688]);
    expect(waits.at(-1)).toBe(5_000);
    // A change (a new message, a new update time) starts again from the suggestion.
    expect(pace.next({ ...task, statusMessage: 'half way' })).toBe(500);
    expect(pace.next({ ...task, statusMessage: 'half way' })).toBe(750);
  });

  it('without a suggestion, grows from a short first wait; a long suggestion is kept as is', () => {
    const pace = new PollPace();
    const task = { status: 'working', lastUpdatedAt: 't0' };
    const waits = Array.from({ length: 12 }, () => pace.next(task));
    expect(waits[0]).toBe(375);
    for (let i = 1; i < waits.length; i++) expect(waits[i]).toBeGreaterThanOrEqual(waits[i - 1]!);
    expect(waits.at(-1)).toBe(5_000);
    const slow = new PollPace();
    const long = { status: 'working', pollIntervalMs: 8_000 };
    expect([slow.next(long), slow.next(long), slow.next(long)]).toEqual([8_000, 8_000, 8_000]);
    // Bounded: a silly suggestion is clamped.
    expect(new PollPace().next({ status: 'working', pollIntervalMs: 1 })).toBe(50);
  });
});

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function taskServer() {
  const seen = { aborted: 0, started: 0 };
  const server = new McpServer({ name: 'tasks', version: '1.0.0' }, { onError: () => {} });
  server.extend(tasks({ pollIntervalMs: 20 }));
  server.tool(
    { name: 'wait', description: 'Waits to be cancelled.', task: 'required' },
    (_a, ctx) => {
      seen.started++;
      return new Promise<string>((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => {
          seen.aborted++;
          reject(new Error('aborted'));
        });
      });
    },
  );
  server.tool({ name: 'ask', description: 'Asks a name.', task: 'required' }, async (_a, ctx) => {
    const answer = await ctx.elicit(
      {
        message: 'name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      },
      { key: 'name' },
    );
    return `hello ${String(answer.content?.['name'])}`;
  });
  return { server, seen };
}

async function connect(server: McpServer, options: ClientOptions) {
  const methods: string[] = [];
  const [a, b] = createMemoryPair({
    onFrame: (from, text) => {
      const message = JSON.parse(text) as { method?: string };
      if (from === 'a' && message.method !== undefined) methods.push(message.method);
    },
  });
  await server.connect(b);
  const client = new Client({ name: 'test-client', version: '1.0.0' }, options);
  const tasks: TasksApi = client.extend(tasksClient());
  clients.push(client);
  await client.connect(a);
  return { client, tasks, methods };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(check()).toBe(true);
}

describe('client: tasks', () => {
  for (const mode of ['auto', { pin: '2025-11-25' }] as const) {
    const era = mode === 'auto' ? '2026-07-28' : '2025-11-25';
    it(`an aborted callTool cancels its task, and the handler sees it (${era})`, async () => {
      const { server, seen } = taskServer();
      const { client, methods } = await connect(server, {
        mode,
        onElicit: () => ({ action: 'decline' }),
      });
      const stop = new AbortController();
      const call = client.callTool('wait', {}, { signal: stop.signal, task: true });
      await until(() => seen.started === 1);
      stop.abort(new Error('enough'));
      await expect(call).rejects.toBeDefined();
      await until(() => seen.aborted === 1);
      expect(methods).toContain('tasks/cancel');
    });
  }

  it('tasksClient() declares the extension to 2026-07-28 servers only (2025-11-25 has core tasks)', async () => {
    const declared: unknown[] = [];
    for (const mode of [{ pin: '2025-11-25' as const }, 'auto' as const]) {
      const server = new McpServer({ name: 'plain', version: '1.0.0' });
      server.use((ctx, next) => {
        if (ctx.method === 'tools/list') declared.push(ctx.client?.capabilities.extensions);
        return next();
      });
      const { client } = await connect(server, { mode });
      await client.listTools();
    }
    expect(declared).toEqual([undefined, { 'io.modelcontextprotocol/tasks': {} }]);
  });

  it('updateTask answers a task question by hand (callToolAsTask, getTask, updateTask)', async () => {
    const { server } = taskServer();
    // The handler declares elicitation; the answer is given by hand, not by this handler.
    const { tasks } = await connect(server, {
      mode: 'auto',
      onElicit: () => ({ action: 'decline' }),
    });
    const started = await tasks.callToolAsTask('ask', {});
    if (!('task' in started)) throw new Error('expected a task');
    const { taskId } = started.task;
    let task = await tasks.getTask(taskId);
    for (let i = 0; i < 200 && task.status !== 'input_required'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      task = await tasks.getTask(taskId);
    }
    expect(task.status).toBe('input_required');
    expect(task).toMatchObject({ inputRequests: { name: { method: 'elicitation/create' } } });
    await tasks.updateTask(taskId, { name: { action: 'accept', content: { name: 'Ada' } } });
    const result = await tasks.getTaskResult(taskId);
    expect(result.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
    expect((await tasks.getTask(taskId)).status).toBe('completed');
  });
});
