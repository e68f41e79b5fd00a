// The tasks extension for a client (`client.extend(tasksClient())`): declares the extension to
// 2026-07-28 servers and drives a tools/call the server answers with a task (SEP-2663) to its
// result; sends a 2025-11-25 tools/call as a task when the server takes tool calls as tasks and
// the call or the tool's listing asks for one (core tasks); and gives the task methods as an API.
import { isObject } from '../../../internal/json.js';
import type {
  CallOptions,
  CallToolResult,
  ClientExtension,
  ClientExtensionHost,
  ClientToolCall,
  ClientToolCallHook,
} from '../../../client/index.js';
import type { Task } from '../protocol.js';
import { TASKS_EXTENSION } from '../protocol.js';
import type { TaskIo } from './drive.js';
import { driveLegacyTask, driveTask } from './drive.js';

declare module '../../../client/types.js' {
  interface CallOptions {
    /**
     * With the tasks extension (`tasksClient()`), 2025-11-25: call the tool as a task
     * (`params.task`), even where the tool allows a plain call (a tool that requires one is
     * called as a task anyway). In 2026-07-28 the server decides.
     */
    task?: boolean;
    /** With the tasks extension, 2025-11-25: the task's requested `ttl`, in milliseconds. */
    taskTtlMs?: number;
    /**
     * With the tasks extension, when the call runs as a task: receives the task's status and
     * status message each time either changes (as tasks/get shows them), from the first state
     * on, with the task's id (what getTask, getTaskResult and cancelTask take).
     */
    onTaskStatus?: (status: string, message: string | undefined, taskId: string) => void;
  }
}

/** The task methods over one client (what `client.extend(tasksClient())` gives). */
export interface TasksApi {
  /**
   * Starts a tool call as a task and resolves without waiting for it: `{ task }` (then follow it
   * with getTask, updateTask, cancelTask, getTaskResult), or `{ result }` when the server
   * answered at once (2026-07-28: the server decides whether a call becomes a task).
   */
  callToolAsTask(
    name: string,
    args?: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<{ task: Task } | { result: CallToolResult }>;
  /** A task's current state (`tasks/get`): its status, and its input requests, result or error. */
  getTask(taskId: string, options?: CallOptions): Promise<Task>;
  /** Answers a 2026-07-28 task's input requests (`tasks/update`). */
  updateTask(
    taskId: string,
    inputResponses: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<void>;
  /** Asks the server to cancel a task (`tasks/cancel`); the task may still end otherwise. */
  cancelTask(taskId: string, options?: CallOptions): Promise<void>;
  /**
   * A task's result, once it has one: 2025-11-25 `tasks/result` (which waits); 2026-07-28 polls
   * tasks/get, answering input requests with the client's handlers. A failed task rejects with
   * its error; a cancelled one with LocalError.
   */
  getTaskResult(taskId: string, options?: CallOptions): Promise<CallToolResult>;
  /** The tasks the server keeps for this client (2025-11-25 `tasks/list`; one page). */
  listTasks(options?: CallOptions & { cursor?: string }): Promise<Task[]>;
}

/** The 2026-07-28 methods, each naming its task in `params.taskId` (and `Mcp-Name`). */
const MODERN = {
  kind: 'request',
  direction: 'client-to-server',
  revisions: ['2026-07-28'],
  nameParam: 'taskId',
} as const;

/** The tasks extension for `client.extend(tasksClient())`. */
export function tasksClient(): ClientExtension<TasksApi> {
  return {
    id: TASKS_EXTENSION,
    settings: {},
    // 2025-11-25 has the core tasks instead (no extension to declare).
    revisions: ['2026-07-28'],
    methods: { 'tasks/get': MODERN, 'tasks/update': MODERN, 'tasks/cancel': MODERN },
    results: {
      task: (result, call) => driveTask(result, call.io, call.options),
    },
    toolCall: legacyTaskCall,
    bind: tasksApi,
  };
}

/**
 * A 2025-11-25 tools/call as a task when the server takes tool calls as tasks
 * (`capabilities.tasks.requests.tools.call`) and `options.task` asks for one or the tool's
 * listing says it requires one (`execution.taskSupport`; the tools are listed first then).
 */
const legacyTaskCall: ClientToolCallHook = (call, next) => {
  // Not an async function: a call that is no task is `next()`'s promise itself, not one more
  // promise resolved with it (two turns and a promise of every 2026-07-28 call; issue 40 point 8).
  if (call.revision !== '2025-11-25' || !takesToolTasks(call.serverCapabilities)) return next();
  return legacyTask(call, next);
};

/** {@link legacyTaskCall} of a server that takes tool calls as tasks. */
async function legacyTask(
  call: ClientToolCall,
  next: Parameters<ClientToolCallHook>[1],
): ReturnType<ClientToolCallHook> {
  const { options } = call;
  if (options.task !== true) {
    const execution = (await call.tool())?.['execution'];
    if (!isObject(execution) || execution['taskSupport'] !== 'required') return next();
  }
  const ttl = options.taskTtlMs === undefined ? {} : { ttl: options.taskTtlMs };
  const params = { name: call.name, arguments: call.arguments, task: ttl };
  const created = await call.io.request('tools/call', params, options);
  return driveLegacyTask(created, call.io, options);
}

/** Whether a 2025-11-25 server takes tools/call as a task (`tasks.requests.tools.call`). */
function takesToolTasks(capabilities: unknown): boolean {
  const tasks = isObject(capabilities) ? capabilities['tasks'] : undefined;
  const requests = isObject(tasks) ? tasks['requests'] : undefined;
  const tools = isObject(requests) ? requests['tools'] : undefined;
  return isObject(tools) && isObject(tools['call']);
}

function tasksApi(host: ClientExtensionHost): TasksApi {
  const io: TaskIo = {
    request: (method, params, options) => host.request(method, params, options),
    fulfil: (inputRequests, signal) => host.fulfil(inputRequests, signal),
    report: (error) => {
      host.report(error);
    },
  };
  return {
    async callToolAsTask(name, args = {}, options = {}) {
      const params = { name, arguments: args };
      if (host.era === 'legacy') {
        const ttl = options.taskTtlMs === undefined ? {} : { ttl: options.taskTtlMs };
        const created = await host.request('tools/call', { ...params, task: ttl }, options);
        if (isObject(created['task'])) return { task: created['task'] as unknown as Task };
        return { result: created as CallToolResult };
      }
      const answer = await host.request('tools/call', params, { ...options, raw: true });
      if (answer['resultType'] === 'task') {
        const task = Object.fromEntries(Object.entries(answer).filter(([k]) => k !== 'resultType'));
        return { task: task as unknown as Task };
      }
      return { result: answer as CallToolResult };
    },
    async getTask(taskId, options = {}) {
      return (await host.request('tasks/get', { taskId }, options)) as unknown as Task;
    },
    async updateTask(taskId, inputResponses, options = {}) {
      await host.request('tasks/update', { taskId, inputResponses }, options);
    },
    async cancelTask(taskId, options = {}) {
      await host.request('tasks/cancel', { taskId }, options);
    },
    async getTaskResult(taskId, options = {}) {
      if (host.era === 'legacy') {
        const waits = { ...options, noTimeout: true };
        return (await host.request('tasks/result', { taskId }, waits)) as CallToolResult;
      }
      const task = await host.request('tasks/get', { taskId }, options);
      return (await driveTask(task, io, options)) as CallToolResult;
    },
    async listTasks(options = {}) {
      const { cursor, ...rest } = options;
      const params = cursor === undefined ? {} : { cursor };
      const result = await host.request('tasks/list', params, rest);
      return Array.isArray(result['tasks']) ? (result['tasks'] as Task[]) : [];
    },
  };
}
