// The tasks extension's methods (SEP-2663, 2026-07-28: tasks/get, tasks/update, tasks/cancel;
// 2025-11-25 core tasks: tasks/get, tasks/result, tasks/list, tasks/cancel) and its
// subscriptions/listen filter (`taskIds`). Every 2026-07-28 task method needs the extension in
// the request's client capabilities (-32021 otherwise); a task is found only by the principal
// that created it (-32602, as for an unknown id, otherwise).
import { ErrorCode, JsonRpcError } from '../../../jsonrpc/index.js';
import {
  invalidParams,
  missingRequiredClientCapability,
  principalKey,
} from '../../../protocol/index.js';
import { TASKS_EXTENSION, declaresTasks, isTerminal } from '../protocol.js';
import type { ExtensionCall, ExtensionListen } from '../../../server/index.js';
import { legacyCancel, legacyGet, legacyList, legacyResult, ownTask } from './legacy.js';
import type { TaskSettings } from './run.js';
import { wireTask } from './run.js';
import type { TaskRecord } from './store.js';

/** The error for a task request from a client that did not declare the extension. */
export function tasksRequired(): JsonRpcError {
  return missingRequiredClientCapability({ extensions: { [TASKS_EXTENSION]: {} } });
}

/** The task a 2026-07-28 tasks/* request names, after the checks every one of them makes. */
async function requestedTask(call: ExtensionCall, tasks: TaskSettings): Promise<TaskRecord> {
  if (!declaresTasks(call.client.capabilities)) throw tasksRequired();
  return ownTask(call, tasks);
}

async function tasksGet(call: ExtensionCall, tasks: TaskSettings): Promise<unknown> {
  if (call.era === 'legacy') return legacyGet(call, tasks);
  return wireTask(await requestedTask(call, tasks));
}

async function tasksUpdate(call: ExtensionCall, tasks: TaskSettings): Promise<unknown> {
  if (call.era === 'legacy') {
    throw new JsonRpcError(ErrorCode.MethodNotFound, `method not found: ${call.method}`);
  }
  const record = await requestedTask(call, tasks);
  const responses = call.params['inputResponses'];
  if (typeof responses !== 'object' || responses === null || Array.isArray(responses)) {
    throw invalidParams('params.inputResponses must be an object');
  }
  if (!isTerminal(record.status)) {
    await tasks.store.signal(record.taskId, {
      kind: 'input',
      responses: responses as Record<string, unknown>,
    });
  }
  return {};
}

async function tasksCancel(call: ExtensionCall, tasks: TaskSettings): Promise<unknown> {
  if (call.era === 'legacy') return legacyCancel(call, tasks);
  const record = await requestedTask(call, tasks);
  // Cancelling a finished task is acknowledged and changes nothing.
  if (!isTerminal(record.status)) await tasks.store.signal(record.taskId, { kind: 'cancel' });
  return {};
}

/** The methods the extension serves, by name, with the revisions that have each. */
export const TASK_METHODS: Readonly<
  Record<
    string,
    {
      readonly revisions: readonly ('2025-11-25' | '2026-07-28')[];
      readonly serve: (call: ExtensionCall, tasks: TaskSettings) => Promise<unknown>;
    }
  >
> = {
  'tasks/get': { revisions: ['2025-11-25', '2026-07-28'], serve: tasksGet },
  'tasks/update': { revisions: ['2026-07-28'], serve: tasksUpdate },
  'tasks/cancel': { revisions: ['2025-11-25', '2026-07-28'], serve: tasksCancel },
  'tasks/result': { revisions: ['2025-11-25'], serve: legacyResult },
  'tasks/list': { revisions: ['2025-11-25'], serve: legacyList },
};

/**
 * subscriptions/listen's `taskIds`: the stream agrees to tell of those ids that name a task of
 * the request's principal (a client that did not declare the extension gets -32021), then sends
 * `notifications/tasks` (the task as tasks/get shows it) for each: its state now, then each
 * change, until it ends (or is gone) or the stream ends. The store is read at the poll interval.
 */
export function taskIdsFilter(tasks: TaskSettings): ExtensionListen {
  return {
    async agree(call, requested) {
      if (!declaresTasks(call.client.capabilities)) throw tasksRequired();
      if (!Array.isArray(requested)) {
        throw invalidParams('params.notifications.taskIds must be an array');
      }
      const owner = principalKey(call.auth);
      const ids = [...new Set(requested.filter((id): id is string => typeof id === 'string'))];
      const found = await Promise.all(ids.map((id) => tasks.store.get(id)));
      return ids.filter((_, i) => {
        const record = found[i];
        return record !== undefined && record.owner === owner;
      });
    },
    watch(_call, agreed, send) {
      return watchTasks(tasks, agreed as readonly string[], (task) => {
        send('notifications/tasks', task);
      });
    },
  };
}

function watchTasks(
  tasks: TaskSettings,
  taskIds: readonly string[],
  send: (params: Record<string, unknown>) => void,
): () => void {
  const { store, pollIntervalMs } = tasks;
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
        tasks.report(error, 'notifications/tasks');
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
