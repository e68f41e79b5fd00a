// The tasks extension's side of the feature table (SEP-2663, 2026-07-28): a task tool's call
// that becomes a task, and tasks/get, tasks/update, tasks/cancel. Every task method needs the
// extension in the request's client capabilities (-32021 otherwise); a task is found only by the
// principal that created it (-32602, as for an unknown id, otherwise).
import { ErrorCode, JsonRpcError } from '../../jsonrpc/errors.js';
import type { Params } from '../../jsonrpc/message.js';
import { principalKey } from '../../protocol/auth.js';
import { invalidParams, missingRequiredClientCapability } from '../../protocol/errors.js';
import { TASKS_EXTENSION, declaresTasks, isTerminal } from '../../protocol/tasks.js';
import { MetaKey } from '../../protocol/version.js';
import type { RequestScope } from '../context.js';
import { LazyScope, createContext } from '../context.js';
import type { Call } from '../call.js';
import type { CompiledTool } from '../tools.js';
import { callTool } from '../tools.js';
import type { TaskRecord } from './store.js';
import type * as Spec from '../../protocol/schema/2026-07-28.js';
import {
  legacyCancel,
  legacyGet,
  legacyList,
  legacyResult,
  legacyTask,
  ownTask,
  requestedTtl,
} from './legacy.js';
import { TaskRun, createTask, createTaskResult, wireTask } from './run.js';

/** The error for a task request from a client that did not declare the extension. */
export function tasksRequired(): JsonRpcError {
  return missingRequiredClientCapability({ extensions: { [TASKS_EXTENSION]: {} } });
}

/** True when this 2026-07-28 request's client declared the tasks extension. */
export function canTakeTasks(scope: RequestScope): boolean {
  return scope.era === 'modern' && declaresTasks(scope.client.capabilities);
}

/**
 * Runs a task tool's call as a task: created durably, answered with `CreateTaskResult`, the
 * handler going on with the task's context (its input parks the task, its signal is the task's).
 */
export async function callAsTask(call: Call, tool: CompiledTool, args: unknown): Promise<unknown> {
  const { core, scope } = call;
  const legacy = scope.era === 'legacy';
  const ttl = legacy ? requestedTtl(call.params['task']) : undefined;
  const record = await createTask(core.tasks, principalKey(scope.info?.auth), ttl);
  const run = new TaskRun(core.tasks, record, core.report);
  const ctx = createContext(taskScope(scope, run, record.taskId), {
    round: run,
    signal: run.signal,
  });
  void Promise.resolve()
    .then(() =>
      callTool(tool, args, { ctx, report: core.report, through: core.middleware.toolCall }),
    )
    .then(
      (result) => run.finish({ result }),
      (error: unknown) => run.finish({ error }),
    );
  return legacy ? { task: legacyTask(record) } : createTaskResult(record);
}

/**
 * The scope of a task's handler: the creating request's fields, the task's signal; progress
 * messages become the task's status message (the request that could carry notifications is
 * answered); other notifications have nowhere to go.
 */
export function taskScope(scope: RequestScope, run: TaskRun, taskId: string): RequestScope {
  const { id, era, revision, client, info, logLevel } = scope;
  // ctx.progress reports to the task, whether or not the request asked for progress.
  const meta = {
    ...scope.meta,
    [MetaKey.ProgressToken]: scope.meta?.[MetaKey.ProgressToken] ?? taskId,
  };
  return new LazyScope({ id, era, revision, client, meta, info, logLevel }, run, {
    notify(method: string, params: Params) {
      if (method === 'notifications/progress') {
        const { progress, total, message } = params as {
          progress?: number;
          total?: number;
          message?: string;
        };
        run.message(
          message ?? `${String(progress)}${total === undefined ? '' : `/${String(total)}`}`,
        );
      }
      return Promise.resolve();
    },
    // A legacy context asks through the scope: the task parks, and tasks/result delivers it.
    request(method: string, params: Params) {
      return run.request({ method, params } as unknown as Spec.InputRequest);
    },
  });
}

/** The task a tasks/* request names, after the checks every one of them makes. */
async function requestedTask(call: Call): Promise<TaskRecord> {
  if (!declaresTasks(call.scope.client.capabilities)) throw tasksRequired();
  return ownTask(call);
}

async function tasksGet(call: Call): Promise<unknown> {
  if (call.scope.era === 'legacy') return legacyGet(call);
  return wireTask(await requestedTask(call));
}

async function tasksUpdate(call: Call): Promise<unknown> {
  if (call.scope.era === 'legacy') {
    throw new JsonRpcError(ErrorCode.MethodNotFound, `method not found: ${call.method}`);
  }
  const record = await requestedTask(call);
  const responses = call.params['inputResponses'];
  if (typeof responses !== 'object' || responses === null || Array.isArray(responses)) {
    throw invalidParams('params.inputResponses must be an object');
  }
  if (!isTerminal(record.status)) {
    await call.core.tasks.store.signal(record.taskId, {
      kind: 'input',
      responses: responses as Record<string, unknown>,
    });
  }
  return {};
}

async function tasksCancel(call: Call): Promise<unknown> {
  if (call.scope.era === 'legacy') return legacyCancel(call);
  const record = await requestedTask(call);
  // Cancelling a finished task is acknowledged and changes nothing.
  if (!isTerminal(record.status)) {
    await call.core.tasks.store.signal(record.taskId, { kind: 'cancel' });
  }
  return {};
}

/**
 * The task ids a subscriptions/listen stream agrees to tell of (`notifications.taskIds`): those
 * that name a task of the request's principal; undefined when none were asked for. A client that
 * did not declare the extension gets -32021.
 */
export async function agreedTaskIds(call: Call, requested: unknown): Promise<string[] | undefined> {
  if (requested === undefined) return undefined;
  if (!declaresTasks(call.scope.client.capabilities)) throw tasksRequired();
  if (!Array.isArray(requested))
    throw invalidParams('params.notifications.taskIds must be an array');
  const owner = principalKey(call.scope.info?.auth);
  const ids = [...new Set(requested.filter((id): id is string => typeof id === 'string'))];
  const found = await Promise.all(ids.map((id) => call.core.tasks.store.get(id)));
  return ids.filter((_, i) => {
    const record = found[i];
    return record !== undefined && record.owner === owner;
  });
}

/**
 * Sends `notifications/tasks` (the task as tasks/get shows it) for each of `taskIds`: its state
 * now, then each change, until it ends (or is gone) or the returned function is called. The store
 * is read at the tasks' poll interval.
 */
export function watchTasks(
  call: Call,
  taskIds: readonly string[],
  send: (params: Record<string, unknown>) => void,
): () => void {
  const { store, pollIntervalMs } = call.core.tasks;
  const seen = new Map<string, string>();
  const open = new Set(taskIds);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const look = async (): Promise<void> => {
    for (const taskId of open) {
      const record = await store.get(taskId);
      if (stopped) return;
      if (record === undefined) {
        open.delete(taskId);
        continue;
      }
      const version = `${record.status} ${record.lastUpdatedAt}`;
      if (seen.get(taskId) !== version) {
        seen.set(taskId, version);
        send(wireTask(record));
      }
      if (isTerminal(record.status)) open.delete(taskId);
    }
  };
  const tick = (): void => {
    look()
      .catch((error: unknown) => {
        call.core.report(error, 'notifications/tasks');
      })
      .finally(() => {
        if (!stopped && open.size > 0) timer = setTimeout(tick, Math.max(50, pollIntervalMs));
      });
  };
  tick();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** The extension's methods, for the feature table. */
export const TASK_FEATURES: Readonly<Record<string, (call: Call) => Promise<unknown>>> = {
  'tasks/get': tasksGet,
  'tasks/update': tasksUpdate,
  'tasks/cancel': tasksCancel,
  // 2025-11-25 only (2026-07-28 does not define them: the session answers -32601 first).
  'tasks/result': legacyResult,
  'tasks/list': legacyList,
};
