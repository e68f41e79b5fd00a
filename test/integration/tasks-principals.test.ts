// Tasks with authorization on: a principal sees only its own tasks, in both eras, and one
// principal's flood neither evicts another's tasks nor takes every running place (issue #36,
// point 2). Over real HTTP with a bearer-token gate.
import { describe, expect, it } from 'vitest';
import { McpServer } from '../../src/server/index.js';
import type { TasksOptions } from '../../src/ext/tasks/index.js';
import { MemoryTaskStore, tasks } from '../../src/ext/tasks/index.js';
import { AuthError } from '../../src/protocol/auth.js';
import {
  allEvents,
  initializeBody,
  messages,
  modernRequest,
  sessionRequest,
  startFace,
} from './http-server-harness.js';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const terminal = (task: any) => ['completed', 'failed', 'cancelled'].includes(task.status);

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    });
  });
}

const auth = {
  resource: 'https://mcp.example.com/mcp',
  authorizationServers: ['https://as.example.com'],
  verify: (token: string) => {
    if (!token.startsWith('user-')) throw new AuthError('invalid_token', 'unknown token');
    return { subject: token, clientId: 'c', scopes: [], expiresAt: undefined, claims: {} };
  },
};
/** A server on a real socket, with `hold` (a task that runs until cancelled) and `must`. */
async function principals(options: TasksOptions) {
  const server = new McpServer({ name: 'tasks', version: '1.0.0' }, { onError: () => {} });
  server.extend(tasks(options));
  server.tool({ name: 'must', description: 'Only as a task.', task: 'required' }, () => 'must');
  server.tool({ name: 'hold', description: 'Runs until cancelled.', task: 'required' }, (_a, ctx) =>
    wait(60_000, ctx.signal).then(() => 'held'),
  );
  const face = await startFace('node', server, { auth });
  const as = async (token: string, method: string, params: Record<string, unknown>) => {
    const init = modernRequest(method, params, {
      meta: { 'io.modelcontextprotocol/clientCapabilities': TASKS },
      ...(typeof params['taskId'] === 'string' ? { name: params['taskId'] } : {}),
    });
    const response = await face.request({
      ...init,
      headers: { ...init.headers, authorization: `Bearer ${token}` },
    });
    return await response.json();
  };
  const settled = async (token: string, taskId: string) => {
    for (let i = 0; i < 100; i++) {
      const task = await as(token, 'tasks/get', { taskId });
      if (terminal(task.result)) return task.result;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('the task did not end');
  };
  return { face, as, settled };
}

describe("tasks: one principal cannot see another's", () => {
  it('a task made with one token is unknown (-32602) to another', async () => {
    const { face, as } = await principals({});
    try {
      const created = await as('user-a', 'tools/call', { name: 'must', arguments: {} });
      expect(created.result.resultType).toBe('task');
      const mine = await as('user-a', 'tasks/get', { taskId: created.result.taskId });
      expect(mine.result.taskId).toBe(created.result.taskId);
      const theirs = await as('user-b', 'tasks/get', { taskId: created.result.taskId });
      expect(theirs.error).toMatchObject({ code: -32602 });
    } finally {
      await face.close();
    }
  });
  it('2025-11-25: tasks/list, tasks/get, tasks/result and tasks/cancel keep to the principal', async () => {
    const { face } = await principals({});
    let ids = 0;
    const open = async (token: string): Promise<string> => {
      const init = await face.request({
        headers: { authorization: `Bearer ${token}` },
        body: initializeBody('2025-11-25'),
      });
      const session = init.headers.get('mcp-session-id');
      await init.text();
      if (session === null) throw new Error(`no session for ${token}`);
      const done = await face.request(
        sessionRequest(
          session,
          { jsonrpc: '2.0', method: 'notifications/initialized' },
          { authorization: `Bearer ${token}` },
        ),
      );
      await done.text();
      return session;
    };
    const ask = async (
      who: { token: string; session: string },
      method: string,
      params: Record<string, unknown>,
    ): Promise<any> => {
      const id = ++ids;
      const response = await face.request(
        sessionRequest(
          who.session,
          { jsonrpc: '2.0', id, method, params },
          { authorization: `Bearer ${who.token}` },
        ),
      );
      const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim();
      const all =
        type === 'text/event-stream'
          ? messages(await allEvents(response))
          : [await response.json()];
      return all.find((m: any) => m.id === id);
    };
    try {
      const a = { token: 'user-a', session: await open('user-a') };
      const b = { token: 'user-b', session: await open('user-b') };
      const created = await ask(a, 'tools/call', { name: 'must', arguments: {}, task: {} });
      const { taskId } = created.result.task;
      const listed = async (who: typeof a) =>
        ((await ask(who, 'tasks/list', {})).result.tasks as any[]).map((t) => t.taskId);
      expect(await listed(a)).toContain(taskId);
      expect(await listed(b)).not.toContain(taskId);
      for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
        expect((await ask(b, method, { taskId })).error, method).toMatchObject({ code: -32602 });
      }
      const result = await ask(a, 'tasks/result', { taskId });
      expect(result.result.content).toEqual([{ type: 'text', text: 'must' }]);
    } finally {
      await face.close();
    }
  });
});

describe('tasks: one principal cannot crowd out another', () => {
  it("a flood of one principal's tasks does not evict another's (maxTasks)", async () => {
    const { face, as, settled } = await principals({
      store: new MemoryTaskStore({ maxTasks: 10 }),
    });
    try {
      const alice = await as('user-alice', 'tools/call', { name: 'must', arguments: {} });
      await settled('user-alice', alice.result.taskId);
      for (let i = 0; i < 15; i++) {
        const bob = await as('user-bob', 'tools/call', { name: 'must', arguments: {} });
        await settled('user-bob', bob.result.taskId);
      }
      const mine = await as('user-alice', 'tasks/get', { taskId: alice.result.taskId });
      expect(mine.result).toMatchObject({ status: 'completed' });
    } finally {
      await face.close();
    }
  });

  it('tasks running at once are capped per principal: the call over it is refused, others go on', async () => {
    const { face, as } = await principals({ maxRunningPerOwner: 2 });
    try {
      const held: string[] = [];
      for (let i = 0; i < 2; i++) {
        held.push(
          (await as('user-bob', 'tools/call', { name: 'hold', arguments: {} })).result.taskId,
        );
      }
      const refused = await as('user-bob', 'tools/call', { name: 'hold', arguments: {} });
      expect(refused.error).toMatchObject({ code: -32603 });
      expect(refused.error.message).toMatch(/2 tasks running/);
      const alice = await as('user-alice', 'tools/call', { name: 'hold', arguments: {} });
      expect(alice.result).toMatchObject({ resultType: 'task', status: 'working' });
      // A task that ends gives its place back.
      await as('user-bob', 'tasks/cancel', { taskId: held[0] });
      let again: any;
      for (let i = 0; i < 100; i++) {
        again = await as('user-bob', 'tools/call', { name: 'hold', arguments: {} });
        if (again.result !== undefined) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(again.result).toMatchObject({ resultType: 'task' });
      for (const taskId of [held[1], again.result.taskId]) {
        await as('user-bob', 'tasks/cancel', { taskId });
      }
      await as('user-alice', 'tasks/cancel', { taskId: alice.result.taskId });
    } finally {
      await face.close();
    }
  });

  it('tasks running at once are capped in total (maxRunning)', async () => {
    const { face, as } = await principals({ maxRunning: 2, maxRunningPerOwner: 5 });
    try {
      const a = await as('user-alice', 'tools/call', { name: 'hold', arguments: {} });
      const b = await as('user-bob', 'tools/call', { name: 'hold', arguments: {} });
      const refused = await as('user-carol', 'tools/call', { name: 'hold', arguments: {} });
      expect(refused.error).toMatchObject({ code: -32603 });
      expect(refused.error.message).toMatch(/2 tasks running/);
      await as('user-alice', 'tasks/cancel', { taskId: a.result.taskId });
      await as('user-bob', 'tasks/cancel', { taskId: b.result.taskId });
    } finally {
      await face.close();
    }
  });
});
