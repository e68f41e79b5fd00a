// The 2025-11-25 core tasks on the same task runs (spec 2025-11-25 basic/utilities/tasks): the
// client asks for a task (`params.task`), gets `{ task }`, polls tasks/get, and reads the result
// with tasks/result, which waits for the end. What the handler asks of the client while it runs
// is sent on the tasks/result request (related to the task by `_meta`), and the answer resumes
// it: the task's input requests, delivered instead of polled. tasks/list and tasks/cancel too.
import { JsonRpcError } from '../../jsonrpc/errors.js';
import { principalKey } from '../../protocol/auth.js';
import { invalidParams } from '../../protocol/errors.js';
import { isTerminal } from '../../protocol/tasks.js';
import type { Call } from '../features.js';
import type { TaskRecord } from './store.js';

/** The `_meta` key relating a message to a task (2025-11-25). */
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** How often tasks/result looks at the task while it waits. */
const WATCH_MS = 50;

/** A task in the 2025-11-25 wire shape (`ttl`, `pollInterval`; nothing inlined). */
export function legacyTask(record: TaskRecord): Record<string, unknown> {
  const task: Record<string, unknown> = {
    taskId: record.taskId,
    status: record.status,
    createdAt: record.createdAt,
    lastUpdatedAt: record.lastUpdatedAt,
    ttl: record.ttlMs,
  };
  if (record.statusMessage !== undefined) task['statusMessage'] = record.statusMessage;
  if (record.pollIntervalMs !== undefined) task['pollInterval'] = record.pollIntervalMs;
  return task;
}

/** The requested `ttl` of `params.task`, if a usable one. */
export function requestedTtl(task: unknown): number | undefined {
  const ttl = (task as { ttl?: unknown } | undefined)?.ttl;
  return typeof ttl === 'number' && Number.isInteger(ttl) && ttl > 0 ? ttl : undefined;
}

/** The task a request names, found for its principal (else -32602). */
export async function ownTask(call: Call): Promise<TaskRecord> {
  const taskId = call.params['taskId'];
  if (typeof taskId !== 'string') throw invalidParams('params.taskId must be a string');
  const record = await call.core.tasks.store.get(taskId);
  if (record === undefined || record.owner !== principalKey(call.scope.info?.auth)) {
    throw invalidParams(`unknown task: ${taskId}`);
  }
  return record;
}

export async function legacyGet(call: Call): Promise<unknown> {
  return legacyTask(await ownTask(call));
}

export async function legacyList(call: Call): Promise<unknown> {
  const owner = principalKey(call.scope.info?.auth);
  const records = await call.core.tasks.store.list(owner);
  return { tasks: records.map(legacyTask) };
}

export async function legacyCancel(call: Call): Promise<unknown> {
  const record = await ownTask(call);
  // 2025-11-25: a task already finished cannot be cancelled.
  if (isTerminal(record.status)) {
    throw invalidParams(`task ${record.taskId} has already ended (${record.status})`);
  }
  await call.core.tasks.store.signal(record.taskId, { kind: 'cancel' });
  return legacyTask(record);
}

/**
 * tasks/result: waits for the task's end, sending its input requests to the client on the way
 * (each once), then answers with its result, or its error.
 */
export async function legacyResult(call: Call): Promise<unknown> {
  const { store } = call.core.tasks;
  let record = await ownTask(call);
  const sent = new Set<string>();
  const related = { [RELATED_TASK]: { taskId: record.taskId } };
  while (!isTerminal(record.status)) {
    for (const [key, request] of Object.entries(record.inputRequests ?? {})) {
      if (sent.has(key)) continue;
      sent.add(key);
      void ask(call, { key, request, related, taskId: record.taskId });
    }
    await sleep(WATCH_MS, call.scope.signal);
    const next = await store.get(record.taskId);
    if (next === undefined) throw invalidParams(`unknown task: ${record.taskId}`);
    record = next;
  }
  if (record.status === 'completed') return { ...record.result, _meta: related };
  if (record.status === 'failed' && record.error !== undefined) {
    throw new JsonRpcError(record.error.code, record.error.message, record.error.data);
  }
  throw new JsonRpcError(-32603, `task ${record.taskId} was cancelled`);
}

/** Sends one input request of a task to the client and hands the answer to the task. */
async function ask(
  call: Call,
  input: { key: string; request: unknown; related: Record<string, unknown>; taskId: string },
): Promise<void> {
  const { method, params } = input.request as { method: string; params?: Record<string, unknown> };
  try {
    const meta = { ...(params?.['_meta'] as object | undefined), ...input.related };
    const answer = await call.scope.request(method, { ...params, _meta: meta });
    await call.core.tasks.store.signal(input.taskId, {
      kind: 'input',
      responses: { [input.key]: answer },
    });
  } catch (error) {
    call.core.report(error, `task ${input.taskId} input`);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}
