// The tasks extension as a server extension (`server.extend(tasks())`): SEP-2663's 2026-07-28
// methods and capability, the 2025-11-25 core tasks (tasks/get, tasks/result, tasks/list,
// tasks/cancel and the `tasks` capability), its tools' `task` field and `ctx.startTask()`, and
// the `taskIds` filter of subscriptions/listen. See docs/tasks.md.
import type {
  ExtensionCapability,
  ExtensionMethod,
  ServerExtension,
  ToolDefinition,
} from '../../../server/index.js';
import { TASKS_EXTENSION } from '../protocol.js';
import type { TaskOption } from './call.js';
import { compileTask, taskCalls } from './call.js';
import { TASK_METHODS, taskIdsFilter } from './methods.js';
import type { TaskSettings } from './run.js';
import { RunningTasks } from './run.js';
import type { TaskStore } from './store.js';
import { MemoryTaskStore, limitOption } from './store.js';

declare module '../../../server/types.js' {
  // The type parameters are the interface's own (a merged declaration repeats them).
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ToolDefinition<TInput, TOutput> {
    /**
     * Runs the tool as a task (with `server.extend(tasks())`; the tasks extension on 2026-07-28,
     * SEP-2663; 2025-11-25 core tasks) for a client that can take one: the call is answered with
     * a task at once and the handler goes on (its `ctx.elicit`/`sample`/`roots` park the task
     * until the client answers, its `ctx.signal` aborts on cancel, its progress messages become
     * the task's status message). `'optional'`: other clients get the plain result;
     * `'required'`: other clients get an error. `{ support, start: 'handler' }`: the call runs
     * as usual (input by multi round-trip) until the handler calls `ctx.startTask()`.
     */
    task?: TaskOption;
  }
  interface HandlerContext {
    /**
     * In a handler of a tool with `task` (tasks extension): turns the rest of this call into a
     * task (`task: { start: 'handler' }`, for a client that declares the tasks extension): the
     * call is answered with the task now, and the handler goes on as the task. Input asked for
     * before comes by multi round-trip. Anywhere else it resolves at once and changes nothing.
     * Handlers of tools without `task` do not have it.
     */
    readonly startTask: () => Promise<void>;
  }
}

/** What `tasks()` takes. */
export interface TasksOptions {
  /**
   * Where tasks live: `MemoryTaskStore` (the default) for one process; a shared store
   * (mcpkit/stores/redis, mcpkit/stores/postgres) lets any process serve the task methods.
   */
  store?: TaskStore;
  /** A new task's `ttlMs`: how long it and its result are kept. null: until the store drops it. Default: 1 hour. */
  ttlMs?: number | null;
  /** The `pollIntervalMs` tasks suggest. Default: 500. */
  pollIntervalMs?: number;
  /**
   * Most tasks running at once in this process (from creation to their end, waiting for input
   * included); a `tools/call` that would make one more is refused (-32603). Default: 1000.
   */
  maxRunning?: number;
  /** Most tasks of one principal running at once in this process, likewise. Default: 100. */
  maxRunningPerOwner?: number;
}

function positive(name: string, value: number): number {
  if (!(value > 0)) throw new TypeError(`tasks(): ${name} must be a positive number`);
  return Math.round(value);
}

/** The tasks extension, for `server.extend(tasks(options))`. Throws TypeError for a bad option. */
export function tasks(options: TasksOptions = {}): ServerExtension {
  let report: (error: unknown, where: string) => void = () => undefined;
  const settings: TaskSettings = {
    store: options.store ?? new MemoryTaskStore(),
    ttlMs: options.ttlMs === null ? null : positive('ttlMs', options.ttlMs ?? 3_600_000),
    pollIntervalMs: positive('pollIntervalMs', options.pollIntervalMs ?? 500),
    running: new RunningTasks(
      limitOption('maxRunning', options.maxRunning, 1000),
      limitOption('maxRunningPerOwner', options.maxRunningPerOwner, 100),
    ),
    report: (error, where) => {
      report(error, where);
    },
  };
  const methods: Record<string, ExtensionMethod> = {};
  for (const [name, method] of Object.entries(TASK_METHODS)) {
    methods[name] = {
      kind: 'request',
      direction: 'client-to-server',
      revisions: method.revisions,
      ...(method.revisions.includes('2026-07-28') &&
        name !== 'tasks/result' && { nameParam: 'taskId' }),
      serve: (call) => method.serve(call, settings),
    };
  }
  return {
    id: TASKS_EXTENSION,
    methods,
    capabilities: (): ExtensionCapability => {
      // 2025-11-25 core tasks: tools/call as a task, tasks/list, tasks/cancel.
      const tasks = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
      return { settings: {}, fields: { tasks } };
    },
    toolCall: taskCalls(settings),
    tool: (definition: ToolDefinition): ToolDefinition => {
      const task = compileTask(definition.task, `tool "${definition.name}"`);
      if (task === undefined) return definition;
      // 2025-11-25 lists task support (`execution.taskSupport`); later revisions drop the field.
      const execution = definition.execution ?? { taskSupport: task.support };
      return { ...definition, task, execution };
    },
    listen: { taskIds: taskIdsFilter(settings) },
    setup(host) {
      report = (error, where) => {
        host.report(error, where);
      };
    },
  };
}
