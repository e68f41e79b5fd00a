// A task tool's call (the tasks extension's tool-call middleware): run as a task at once, run as
// a call that may become a task when the handler calls `ctx.startTask()`, or run as a plain call.
// A task's handler goes on after the request is answered, its context moved onto the task: what
// it asks of the client parks the task, its signal aborts on cancel, its progress becomes the
// task's status message.
import { isObject } from '../../../internal/json.js';
import { isPromise } from '../../../internal/maybe.js';
import { ErrorCode, JsonRpcError } from '../../../jsonrpc/index.js';
import { principalKey } from '../../../protocol/index.js';
import { declaresTasks } from '../protocol.js';
import type {
  HandlerContext,
  ToolCallContext,
  ToolCallMiddleware,
  ToolCallResult,
} from '../../../server/index.js';
import { answerRequest, redirectContext } from '../../../server/index.js';
import { legacyTask, requestedTtl } from './legacy.js';
import { tasksRequired } from './methods.js';
import type { TaskSettings } from './run.js';
import { TaskRun, createTask, createTaskResult } from './run.js';

/** How a tool runs as a task: whether it must, and when the task starts. */
export interface ToolTask {
  readonly support: 'optional' | 'required';
  /** `call`: the task starts with the call; `handler`: when the handler calls ctx.startTask(). */
  readonly start: 'call' | 'handler';
}

/** What a tool definition's `task` may be. */
export type TaskOption =
  | 'optional'
  | 'required'
  | { readonly support: 'optional' | 'required'; readonly start: 'call' | 'handler' };

/** Reads a definition's `task`; throws TypeError on anything else. */
export function compileTask(task: unknown, where: string): ToolTask | undefined {
  if (task === undefined) return undefined;
  if (task === 'optional' || task === 'required') return { support: task, start: 'call' };
  const loose = isObject(task) ? task : {};
  const { support, start } = loose;
  if (
    (support === 'optional' || support === 'required') &&
    (start === 'call' || start === 'handler')
  ) {
    return { support, start };
  }
  throw new TypeError(
    `${where}: task must be "optional", "required" or { support, start: "call" | "handler" }`,
  );
}

/**
 * How a task tool's call runs: as a task at once, or as a call (which may become a task later,
 * `start: 'handler'`). 2026-07-28: a task for a client that declares the extension (-32021 when
 * the tool requires one and the client does not). 2025-11-25: a task when the call asks for one
 * (`params.task`; -32601 when the tool requires one and the call does not). Older revisions have
 * no tasks: a call.
 */
function taskMode(call: ToolCallContext, task: ToolTask): 'task' | 'call' {
  const { ctx } = call;
  if (ctx.revision === '2025-11-25') {
    if (isObject(call.params['task'])) return 'task';
    if (task.support === 'required') {
      throw new JsonRpcError(
        ErrorCode.MethodNotFound,
        `tool ${call.name} must be called as a task (params.task)`,
      );
    }
    return 'call';
  }
  if (ctx.era === 'legacy') return 'call';
  const takes = declaresTasks(ctx.client.capabilities);
  if (task.support === 'required' && !takes) throw tasksRequired();
  return takes && task.start === 'call' ? 'task' : 'call';
}

/** The extension's tool-call middleware: a tool whose definition has no `task` runs as is. */
export function taskCalls(tasks: TaskSettings): ToolCallMiddleware {
  return (call, next) => {
    const task = (call.definition as { task?: ToolTask }).task;
    if (task === undefined) return next();
    if (taskMode(call, task) === 'task') {
      setStartTask(call.ctx, resolved);
      return callAsTask(call, next, tasks);
    }
    const escalates =
      task.start === 'handler' &&
      call.ctx.era === 'modern' &&
      declaresTasks(call.ctx.client.capabilities);
    if (!escalates) {
      setStartTask(call.ctx, resolved);
      return next();
    }
    return escalating(call, next, tasks);
  };
}

function resolved(): Promise<void> {
  return Promise.resolve();
}

/** Gives `ctx` its startTask (a task tool's handlers only). */
function setStartTask(ctx: HandlerContext, startTask: () => Promise<void>): void {
  Object.defineProperty(ctx, 'startTask', { value: startTask, configurable: true });
}

/** Runs what `next` runs as the task `run`, whose outcome is stored when it ends. */
function runAsTask(run: TaskRun, outcome: Promise<ToolCallResult>): void {
  outcome.then(
    (result) => run.finish({ result }),
    (error: unknown) => run.finish({ error }),
  );
}

/** Calls `next` one microtask later (after the request is answered), as a promise. */
function later(next: () => ToolCallResult | Promise<ToolCallResult>): Promise<ToolCallResult> {
  return Promise.resolve().then(next);
}

/**
 * Runs the call as a task: created durably, answered with `CreateTaskResult` (2025-11-25:
 * `{ task }`), the rest of the chain and the handler going on with the task's context.
 */
async function callAsTask(
  call: ToolCallContext,
  next: () => ToolCallResult | Promise<ToolCallResult>,
  tasks: TaskSettings,
): Promise<ToolCallResult> {
  const legacy = call.ctx.era === 'legacy';
  const ttl = legacy ? requestedTtl(call.params['task']) : undefined;
  const record = await createTask(tasks, principalKey(call.ctx.auth), ttl);
  const run = new TaskRun(tasks, record);
  redirectContext(call.ctx, run);
  runAsTask(run, later(next));
  return answerRequest(legacy ? { task: legacyTask(record) } : createTaskResult(record));
}

/**
 * Runs the call as usual until the handler calls `ctx.startTask()`: the task is then created,
 * the request answered with it, and the handler's outcome goes to the task. Calls made while the
 * task is being created share that one creation.
 */
function escalating(
  call: ToolCallContext,
  next: () => ToolCallResult | Promise<ToolCallResult>,
  tasks: TaskSettings,
): ToolCallResult | Promise<ToolCallResult> {
  const state: { outcome?: Promise<ToolCallResult>; starting?: Promise<void> } = {};
  let answer: ((result: ToolCallResult) => void) | undefined;
  const started = new Promise<ToolCallResult>((resolve) => {
    answer = resolve;
  });
  const start = async (): Promise<void> => {
    const record = await createTask(tasks, principalKey(call.ctx.auth));
    const run = new TaskRun(tasks, record);
    redirectContext(call.ctx, run);
    // The handler's outcome goes to the task (also when it ended first: the answer then is its).
    runAsTask(run, state.outcome ?? Promise.reject(new Error('the call ended before its task')));
    answer?.(answerRequest(createTaskResult(record)));
  };
  setStartTask(call.ctx, () => (state.starting ??= start()));
  const running = next();
  if (!isPromise(running)) return running;
  state.outcome = running;
  return Promise.race([running, started]);
}
