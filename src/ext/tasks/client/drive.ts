// Tool calls that become tasks, driven to their result. 2026-07-28 (the tasks extension,
// SEP-2663): the server answers with `resultType: "task"`; the client polls tasks/get at the
// interval the task suggests (backing off while it stays unchanged), answers its input requests with the client's handlers through
// tasks/update, and ends with the inlined result (or the error of a failed task). 2025-11-25
// (core tasks): the client asks for a task (`params.task`), then tasks/result, which waits for
// the end while the server's requests about the task arrive on the session as usual; tasks/get
// polls meanwhile for status messages. An aborted call cancels its task (tasks/cancel).
import { linkSignals, sleep } from '../../../internal/abort.js';
import { isObject } from '../../../internal/json.js';
import { ErrorCode, JsonRpcError, LocalError, LocalErrorCode } from '../../../jsonrpc/index.js';
import type { WireError } from '../../../jsonrpc/index.js';
import type { CallOptions, ClientExtensionIo } from '../../../client/index.js';

type Params = Record<string, unknown>;

/** What driving a task needs of the client: its extension io. */
export type TaskIo = Pick<ClientExtensionIo, 'request' | 'fulfil' | 'report'>;

/** The shortest and longest wait between two polls, whatever the task suggests. */
const MIN_POLL_MS = 50;
const MAX_POLL_MS = 10_000;
/** The first wait when the task suggests none; waits grow from there. */
const DEFAULT_POLL_MS = 250;
/** How far waits grow while the task stays unchanged (or suggests nothing). */
const BACKOFF_CAP_MS = 5_000;
const BACKOFF_FACTOR = 1.5;

/**
 * Paces the polls of one task: the interval the task suggests (bounded), growing by half at each
 * poll that finds the task unchanged (status, message, update time, questions), up to
 * {@link BACKOFF_CAP_MS} (or the suggestion, when that is longer); without a suggestion, from
 * {@link DEFAULT_POLL_MS} growing at every poll. A change starts again from the suggestion.
 */
export class PollPace {
  #last: string | undefined;
  #unchanged = 0;

  /** The wait before the next poll, having just seen `task`. */
  next(task: Params): number {
    const seen = JSON.stringify([
      task['status'],
      task['statusMessage'],
      task['lastUpdatedAt'],
      task['inputRequests'],
    ]);
    this.#unchanged = seen === this.#last ? this.#unchanged + 1 : 0;
    this.#last = seen;
    const suggested = task['pollIntervalMs'] ?? task['pollInterval'];
    const given = typeof suggested === 'number' && Number.isFinite(suggested);
    const base = given ? Math.min(Math.max(suggested, MIN_POLL_MS), MAX_POLL_MS) : DEFAULT_POLL_MS;
    const steps = given ? this.#unchanged : this.#unchanged + 1;
    return Math.round(Math.min(base * BACKOFF_FACTOR ** steps, Math.max(base, BACKOFF_CAP_MS)));
  }
}

/** The error of a task that ended cancelled. */
export function taskCancelled(taskId: string): LocalError {
  return new LocalError(LocalErrorCode.ConnectionClosed, `task ${taskId} was cancelled`);
}

/** Drives a 2026-07-28 task (`created`, a CreateTaskResult) to its result. */
export async function driveTask(
  created: Params,
  io: TaskIo,
  options: CallOptions,
): Promise<Params> {
  const taskId = String(created['taskId']);
  const signal = signalOf(options);
  const cancel = cancelOnAbort(io, taskId, signal);
  const answered = new Set<string>();
  let message: string | undefined;
  let task = created;
  const pace = new PollPace();
  const tell = statusTeller(options.onTaskStatus);
  try {
    for (let step = 0; ; step++) {
      tell(task);
      if (task['statusMessage'] !== message && typeof task['statusMessage'] === 'string') {
        message = task['statusMessage'];
        options.onProgress?.(step, undefined, message);
      }
      switch (task['status']) {
        case 'completed':
          return resultOf(task);
        case 'failed':
          throw errorOf(task);
        case 'cancelled':
          throw taskCancelled(taskId);
        case 'input_required':
          await answer(io, { taskId, task, answered, signal });
          break;
        default:
          break;
      }
      await sleep(pace.next(task), signal);
      task = await io.request('tasks/get', { taskId }, signalOnly(signal));
    }
  } finally {
    cancel();
  }
}

/** Answers the input requests not answered yet, through tasks/update. */
async function answer(
  io: TaskIo,
  state: { taskId: string; task: Params; answered: Set<string>; signal: AbortSignal | undefined },
): Promise<void> {
  const { taskId, task, answered, signal } = state;
  const requests = isObject(task['inputRequests']) ? task['inputRequests'] : {};
  const fresh = Object.fromEntries(Object.entries(requests).filter(([key]) => !answered.has(key)));
  if (Object.keys(fresh).length === 0) return;
  const responses = await io.fulfil(fresh, signal ?? new AbortController().signal);
  for (const key of Object.keys(fresh)) answered.add(key);
  if (Object.keys(responses).length === 0) return;
  await io.request('tasks/update', { taskId, inputResponses: responses }, signalOnly(signal));
}

/**
 * Drives a 2025-11-25 task (`created`, a CreateTaskResult whose `task` is the task) to its
 * result: tasks/result, polling tasks/get for status messages until it answers.
 */
export async function driveLegacyTask(
  created: Params,
  io: TaskIo,
  options: CallOptions,
): Promise<Params> {
  const task = isObject(created['task']) ? created['task'] : created;
  const taskId = String(task['taskId']);
  const signal = signalOf(options);
  const cancel = cancelOnAbort(io, taskId, signal);
  const polling = new AbortController();
  void watch(io, {
    taskId,
    task,
    onProgress: options.onProgress,
    tell: statusTeller(options.onTaskStatus),
    stop: polling.signal,
  });
  try {
    return await io.request('tasks/result', { taskId }, { ...signalOnly(signal), noTimeout: true });
  } finally {
    polling.abort();
    cancel();
  }
}

/** Polls tasks/get for status messages until `stop` aborts or the task ends. Never rejects. */
async function watch(
  io: TaskIo,
  run: {
    taskId: string;
    task: Params;
    onProgress: CallOptions['onProgress'];
    tell: (task: Params) => void;
    stop: AbortSignal;
  },
): Promise<void> {
  let task = run.task;
  let message: string | undefined;
  const pace = new PollPace();
  try {
    for (let step = 0; !run.stop.aborted; step++) {
      run.tell(task);
      if (typeof task['statusMessage'] === 'string' && task['statusMessage'] !== message) {
        message = task['statusMessage'];
        run.onProgress?.(step, undefined, message);
      }
      if (['completed', 'failed', 'cancelled'].includes(String(task['status']))) return;
      if (
        !(await sleep(pace.next(task), run.stop).then(
          () => true,
          () => false,
        ))
      )
        return;
      task = await io.request('tasks/get', { taskId: run.taskId }, { signal: run.stop });
    }
  } catch {
    // Status messages are a courtesy: tasks/result carries the outcome.
  }
}

/** Calls `onTaskStatus` with a task's status and message when either changed since the last. */
function statusTeller(onTaskStatus: CallOptions['onTaskStatus']): (task: Params) => void {
  let last: string | undefined;
  return (task) => {
    if (onTaskStatus === undefined) return;
    const status = String(task['status']);
    const message = typeof task['statusMessage'] === 'string' ? task['statusMessage'] : undefined;
    const seen = JSON.stringify([status, message]);
    if (seen === last) return;
    last = seen;
    onTaskStatus(status, message, String(task['taskId']));
  };
}

function resultOf(task: Params): Params {
  const result = task['result'];
  if (!isObject(result)) {
    throw new LocalError(LocalErrorCode.ProtocolViolation, 'a completed task carries no result');
  }
  return result;
}

function errorOf(task: Params): JsonRpcError {
  const error = task['error'];
  if (
    isObject(error) &&
    typeof error['code'] === 'number' &&
    typeof error['message'] === 'string'
  ) {
    return JsonRpcError.fromWire(error as unknown as WireError);
  }
  return new JsonRpcError(
    ErrorCode.InternalError,
    `the task failed${typeof task['statusMessage'] === 'string' ? `: ${task['statusMessage']}` : ''}`,
  );
}

/**
 * The call's signal; for a call cancelled through `cancellation` (a gateway's), a signal that
 * follows it (its listener goes with the source, a request's, once that is over).
 */
function signalOf(options: CallOptions): AbortSignal | undefined {
  if (options.signal !== undefined || options.cancellation === undefined) return options.signal;
  return linkSignals([options.cancellation]).signal;
}

/** Sends tasks/cancel when `signal` aborts; returns the unlink. */
function cancelOnAbort(io: TaskIo, taskId: string, signal: AbortSignal | undefined): () => void {
  if (signal === undefined) return () => undefined;
  const onAbort = (): void => {
    io.request('tasks/cancel', { taskId }).catch((error: unknown) => {
      io.report(error);
    });
  };
  signal.addEventListener('abort', onAbort, { once: true });
  return () => {
    signal.removeEventListener('abort', onAbort);
  };
}

function signalOnly(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  return signal === undefined ? {} : { signal };
}
