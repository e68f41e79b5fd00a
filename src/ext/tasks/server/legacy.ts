// The 2025-11-25 core tasks on the same task runs (spec 2025-11-25 basic/utilities/tasks): the
// client asks for a task (`params.task`), gets `{ task }`, polls tasks/get, and reads the result
// with tasks/result, which waits for the end. What the handler asks of the client while it runs
// is sent on a waiting tasks/result request, else on the next tasks/get (related to the task by
// `_meta`), and the answer resumes it: the task's input requests, delivered instead of polled.
// tasks/list and tasks/cancel too.
import { sleep } from '../../../internal/abort.js';
import { ErrorCode, JsonRpcError } from '../../../jsonrpc/index.js';
import { invalidParams, principalKey } from '../../../protocol/index.js';
import { isTerminal } from '../protocol.js';
import type { ExtensionCall } from '../../../server/index.js';
import type { TaskSettings } from './run.js';
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
export async function ownTask(call: ExtensionCall, tasks: TaskSettings): Promise<TaskRecord> {
  const taskId = call.params['taskId'];
  if (typeof taskId !== 'string') throw invalidParams('params.taskId must be a string');
  const record = await tasks.store.get(taskId);
  if (record === undefined || record.owner !== principalKey(call.auth)) {
    throw invalidParams(`unknown task: ${taskId}`);
  }
  return record;
}

/**
 * tasks/get: the task; a task waiting for input that no tasks/result of this process waits for
 * also gets its input requests sent, on this request (see {@link claimed}).
 */
export async function legacyGet(call: ExtensionCall, tasks: TaskSettings): Promise<unknown> {
  const record = await ownTask(call, tasks);
  const { taskId } = record;
  if (isTerminal(record.status)) forgetInputs(taskId);
  else if ((resultWaiters.get(taskId) ?? 0) === 0) sendInputs(call, tasks, record);
  return legacyTask(record);
}

export async function legacyList(call: ExtensionCall, tasks: TaskSettings): Promise<unknown> {
  const owner = principalKey(call.auth);
  const records = await tasks.store.list(owner);
  return { tasks: records.map(legacyTask) };
}

export async function legacyCancel(call: ExtensionCall, tasks: TaskSettings): Promise<unknown> {
  const record = await ownTask(call, tasks);
  // 2025-11-25: a task already finished cannot be cancelled.
  if (isTerminal(record.status)) {
    throw invalidParams(`task ${record.taskId} has already ended (${record.status})`);
  }
  await tasks.store.signal(record.taskId, { kind: 'cancel' });
  return legacyTask(record);
}

/**
 * Who sends a 2025-11-25 task's input requests, in this process: each goes to the client once,
 * on a waiting tasks/result if there is one, else on the next tasks/get (spec 2025-11-25
 * basic/utilities/tasks: a requestor that sees `input_required` should call tasks/result; one
 * that only polls tasks/get, like the official ext-tasks requester, gets them on the session
 * meanwhile, related to the task by `_meta`). Requests served by another process sharing the
 * store do not see these claims.
 */
const claimed = new Map<string, Set<string>>();
const resultWaiters = new Map<string, number>();

/** Claims the sending of `key` of task `taskId`; false when it was already claimed. */
function claim(taskId: string, key: string): boolean {
  let keys = claimed.get(taskId);
  if (keys === undefined) {
    keys = new Set();
    claimed.set(taskId, keys);
  }
  if (keys.has(key)) return false;
  keys.add(key);
  return true;
}

function unclaim(taskId: string, key: string): void {
  claimed.get(taskId)?.delete(key);
}

/** Forgets what was sent for a task that ended, once no tasks/result waits for it. */
function forgetInputs(taskId: string): void {
  if ((resultWaiters.get(taskId) ?? 0) === 0) claimed.delete(taskId);
}

function relatedTo(taskId: string): Record<string, unknown> {
  return { [RELATED_TASK]: { taskId } };
}

/** Sends the task's input requests not yet sent, on the request `call` serves. */
function sendInputs(call: ExtensionCall, tasks: TaskSettings, record: TaskRecord): void {
  const related = relatedTo(record.taskId);
  for (const [key, request] of Object.entries(record.inputRequests ?? {})) {
    if (!claim(record.taskId, key)) continue;
    void ask(call, tasks, { key, request, related, taskId: record.taskId });
  }
}

/**
 * tasks/result: waits for the task's end, sending its input requests to the client on the way
 * (each once, unless a tasks/get sent it), then answers with its result, or its error.
 */
export async function legacyResult(call: ExtensionCall, tasks: TaskSettings): Promise<unknown> {
  let record = await ownTask(call, tasks);
  const { taskId } = record;
  resultWaiters.set(taskId, (resultWaiters.get(taskId) ?? 0) + 1);
  try {
    record = await watch(call, tasks, record);
  } finally {
    const left = (resultWaiters.get(taskId) ?? 1) - 1;
    if (left > 0) resultWaiters.set(taskId, left);
    else resultWaiters.delete(taskId);
    if (isTerminal(record.status)) forgetInputs(taskId);
  }
  const related = relatedTo(taskId);
  if (record.status === 'completed') {
    // The tool result's own `_meta` stays; the related task is added to it.
    const own = record.result?.['_meta'];
    const meta = typeof own === 'object' && own !== null ? { ...own, ...related } : related;
    return { ...record.result, _meta: meta };
  }
  if (record.status === 'failed' && record.error !== undefined) {
    throw new JsonRpcError(record.error.code, record.error.message, record.error.data);
  }
  throw new JsonRpcError(ErrorCode.InternalError, `task ${record.taskId} was cancelled`);
}

/** Waits for the task's end, sending its input requests not yet sent. */
async function watch(
  call: ExtensionCall,
  tasks: TaskSettings,
  first: TaskRecord,
): Promise<TaskRecord> {
  const { store } = tasks;
  let record = first;
  while (!isTerminal(record.status)) {
    sendInputs(call, tasks, record);
    await sleep(WATCH_MS, call.signal);
    const next = await store.get(record.taskId);
    if (next === undefined) throw invalidParams(`unknown task: ${record.taskId}`);
    record = next;
  }
  return record;
}

/** Sends one input request of a task to the client and hands the answer to the task. */
async function ask(
  call: ExtensionCall,
  tasks: TaskSettings,
  input: { key: string; request: unknown; related: Record<string, unknown>; taskId: string },
): Promise<void> {
  const { method, params } = input.request as { method: string; params?: Record<string, unknown> };
  try {
    const meta = { ...(params?.['_meta'] as object | undefined), ...input.related };
    const answer = await call.request(method, { ...params, _meta: meta });
    await tasks.store.signal(input.taskId, {
      kind: 'input',
      responses: { [input.key]: answer },
    });
  } catch (error) {
    // Not sent or not answered: a later tasks/result (or none) may send it again.
    unclaim(input.taskId, input.key);
    tasks.report(error, `task ${input.taskId} input`);
  }
}
