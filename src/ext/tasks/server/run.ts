// One task's run (tasks extension, SEP-2663): the handler goes on after the request that made
// the task was answered; what it asks of the client parks the task (`input_required`, the
// requests in `inputRequests`) until tasks/update brings the answers; tasks/cancel aborts its
// signal; its outcome is stored: `completed` with the result (an `isError` result included),
// `failed` with the JSON-RPC error of a protocol fault, `cancelled` when it was cancelled.
import { ErrorCode, JsonRpcError } from '../../../jsonrpc/index.js';
import type { Params } from '../../../jsonrpc/index.js';
import type { Spec20260728 as Spec } from '../../../protocol/index.js';
import type { TaskStatus } from '../protocol.js';
import { McpErrorCode } from '../../../protocol/index.js';
import type { ContextRedirect } from '../../../server/index.js';
import type { TaskRecord, TaskSignal, TaskStore } from './store.js';
import { TaskLimitError } from './store.js';

/** How tasks are made: the store, and what every new task gets. */
export interface TaskSettings {
  readonly store: TaskStore;
  /** A new task's `ttlMs`; null for unlimited. */
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number;
  /** The tasks running in this process, held to the server's limits. */
  readonly running: RunningTasks;
  /** Reports an error that does not reach the wire (the server's `onError`). */
  report(error: unknown, where: string): void;
}

/**
 * The tasks whose handlers run in this process (from creation to their end, waiting for input
 * included): at most `max` in all and `maxPerOwner` per owner.
 */
export class RunningTasks {
  readonly #max: number;
  readonly #maxPerOwner: number;
  readonly #byOwner = new Map<string | undefined, number>();
  #total = 0;

  constructor(max: number, maxPerOwner: number) {
    this.#max = max;
    this.#maxPerOwner = maxPerOwner;
  }

  /** Takes a place for a task of `owner`; throws TaskLimitError when a limit is reached. */
  take(owner: string | undefined): void {
    const held = this.#byOwner.get(owner) ?? 0;
    if (held >= this.#maxPerOwner) {
      throw new TaskLimitError(
        `too many tasks running: you have ${String(this.#maxPerOwner)} tasks running (the limit per principal); try again once one ends`,
      );
    }
    if (this.#total >= this.#max) {
      throw new TaskLimitError(
        `too many tasks running: the server has ${String(this.#max)} tasks running (the limit); try again later`,
      );
    }
    this.#byOwner.set(owner, held + 1);
    this.#total++;
  }

  /** Gives back a place `take` gave. */
  release(owner: string | undefined): void {
    const held = (this.#byOwner.get(owner) ?? 0) - 1;
    if (held > 0) this.#byOwner.set(owner, held);
    else this.#byOwner.delete(owner);
    this.#total--;
  }
}

/**
 * Creates a task, durably, for `owner`; resolves with its first record, its place among the
 * running tasks taken (a {@link TaskRun} of it gives it back when it ends). Rejects with a
 * TaskLimitError over a limit. `ttlMs` is a client's request (2025-11-25), granted up to the
 * server's own.
 */
export async function createTask(
  settings: TaskSettings,
  owner: string | undefined,
  ttlMs?: number,
): Promise<TaskRecord> {
  const now = Date.now();
  const ttl =
    ttlMs === undefined
      ? settings.ttlMs
      : Math.min(ttlMs, settings.ttlMs ?? Number.MAX_SAFE_INTEGER);
  const at = new Date(now).toISOString();
  const record: TaskRecord = {
    taskId: crypto.randomUUID(),
    status: 'working',
    createdAt: at,
    lastUpdatedAt: at,
    ttlMs: ttl,
    pollIntervalMs: settings.pollIntervalMs,
    owner,
    expiresAt: ttl === null ? undefined : now + ttl,
  };
  settings.running.take(owner);
  try {
    await settings.store.create(record);
  } catch (error) {
    settings.running.release(owner);
    throw error;
  }
  return record;
}

/**
 * The wire form of a task (tasks/get, notifications): no owner, no expiry, no empty fields. A
 * completed task's result is a 2026-07-28 CallToolResult, which has `resultType: "complete"`.
 */
export function wireTask(record: TaskRecord): Record<string, unknown> {
  const task = without(record, ['owner', 'expiresAt']);
  const result = record.result as Record<string, unknown> | undefined;
  if (result !== undefined && result['resultType'] === undefined) {
    task['result'] = { ...result, resultType: 'complete' };
  }
  return task;
}

/** `CreateTaskResult`: the task's first state, flat, with `resultType: "task"`. */
export function createTaskResult(record: TaskRecord): Record<string, unknown> {
  const task = without(record, ['owner', 'expiresAt', 'inputRequests', 'result', 'error']);
  return { resultType: 'task', ...task };
}

/** A copy of `object` without the fields `names`. */
function without(object: object, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([name]) => !names.includes(name)));
}

/**
 * TaskRun drives one task in the process that runs it: the handler's input requests, the
 * signals other requests send, and the final status. Record writes are made in order.
 */
export class TaskRun implements ContextRedirect {
  readonly #store: TaskStore;
  readonly #running: RunningTasks;
  readonly #controller = new AbortController();
  readonly #waiting = new Map<string, (answer: unknown) => void>();
  readonly #unsubscribe: () => void;
  #record: TaskRecord;
  #writes: Promise<void> = Promise.resolve();
  #count = 0;
  readonly #used = new Set<string>();
  #report: (error: unknown, where: string) => void;

  /** Runs the task `record` that {@link createTask} made with `settings`. */
  constructor(settings: TaskSettings, record: TaskRecord) {
    this.#store = settings.store;
    this.#running = settings.running;
    this.#record = record;
    this.#report = (error, where) => {
      settings.report(error, where);
    };
    this.#unsubscribe = settings.store.subscribe(record.taskId, (signal) => {
      this.#receive(signal);
    });
  }

  /** Aborts when the task is cancelled. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Parks the task until the client answers `input` (through tasks/update). */
  request(input: Spec.InputRequest, name?: string): Promise<unknown> {
    if (this.#controller.signal.aborted) return Promise.reject(this.#cancelled());
    // Keys are unique over the task's lifetime (SEP-2663): a reused name gets a suffix.
    let key = name ?? `input-${String(this.#count++)}`;
    while (this.#used.has(key)) key = `${key}-${String(this.#count++)}`;
    this.#used.add(key);
    const answered = new Promise<unknown>((resolve, reject) => {
      this.#waiting.set(key, resolve);
      this.#controller.signal.addEventListener(
        'abort',
        () => {
          reject(this.#cancelled());
        },
        { once: true },
      );
    });
    const inputRequests = { ...this.#record.inputRequests, [key]: input };
    this.#write({ status: 'input_required', inputRequests });
    return answered;
  }

  /** The task's id: the progress token of a handler whose request carried none. */
  get progressToken(): string {
    return this.#record.taskId;
  }

  /**
   * A notification of the handler: its progress becomes the task's status message (the request
   * that could carry notifications is answered); others have nowhere to go.
   */
  notify(method: string, params: Params): Promise<void> {
    if (method === 'notifications/progress') {
      const { progress, total, message } = params as {
        progress?: number;
        total?: number;
        message?: string;
      };
      const of = total === undefined ? '' : `/${String(total)}`;
      this.message(message ?? `${String(progress)}${of}`);
    }
    return Promise.resolve();
  }

  /** Sets the status message (a handler's progress message, say). */
  message(statusMessage: string): void {
    if (this.#record.statusMessage !== statusMessage && !isTerminalRecord(this.#record)) {
      this.#write({ statusMessage });
    }
  }

  /** Stores the outcome of the handler; resolves once it is written. */
  finish(outcome: { result: unknown } | { error: unknown }): Promise<void> {
    this.#unsubscribe();
    this.#running.release(this.#record.owner);
    let fields: Changes;
    if (this.#controller.signal.aborted) {
      fields = { status: 'cancelled', statusMessage: 'cancelled by the client' };
    } else if ('result' in outcome) {
      fields = {
        status: 'completed',
        statusMessage: undefined,
        result: outcome.result as Record<string, unknown>,
      };
    } else {
      const error =
        outcome.error instanceof JsonRpcError
          ? outcome.error
          : new JsonRpcError(ErrorCode.InternalError, 'internal error while running the task');
      if (!(outcome.error instanceof JsonRpcError)) this.#report(outcome.error, 'task');
      const wire: { code: number; message: string; data?: unknown } = {
        code: error.code,
        message: error.message,
      };
      if (error.data !== undefined) wire.data = error.data;
      fields = { status: 'failed', statusMessage: error.message, error: wire };
    }
    this.#write({ ...fields, inputRequests: undefined });
    return this.#writes;
  }

  #receive(signal: TaskSignal): void {
    if (signal.kind === 'cancel') {
      this.#controller.abort(this.#cancelled());
      return;
    }
    const answers: [(answer: unknown) => void, unknown][] = [];
    const answered = new Set<string>();
    for (const [key, answer] of Object.entries(signal.responses)) {
      const resolve = this.#waiting.get(key);
      // Keys not outstanding (never issued, answered, superseded) are ignored (SEP-2663).
      if (resolve === undefined) continue;
      this.#waiting.delete(key);
      answered.add(key);
      answers.push([resolve, answer]);
    }
    const pending = without(this.#record.inputRequests ?? {}, [...answered]);
    if (answers.length === 0) return;
    const still = Object.keys(pending).length > 0;
    this.#write({
      status: still ? 'input_required' : 'working',
      inputRequests: still ? pending : undefined,
    });
    for (const [resolve, answer] of answers) resolve(answer);
  }

  #cancelled(): JsonRpcError {
    return new JsonRpcError(McpErrorCode.RequestCancelled, 'the task was cancelled');
  }

  /** Applies `fields` to the record (undefined removes a field) and queues its write. */
  #write(fields: Changes): void {
    const removed = Object.keys(fields).filter(
      (name) => fields[name as keyof Changes] === undefined,
    );
    const next = without({ ...this.#record, ...fields }, removed);
    next['lastUpdatedAt'] = new Date().toISOString();
    const record = next as unknown as TaskRecord;
    this.#record = record;
    this.#writes = this.#writes
      .then(() => this.#store.put(record))
      .catch((error: unknown) => {
        this.#report(error, 'task store');
      });
  }
}

/** Fields to set; an undefined one is removed. */
type Changes = { [K in keyof TaskRecord]?: TaskRecord[K] | undefined } & { status?: TaskStatus };

function isTerminalRecord(record: TaskRecord): boolean {
  return (
    record.status === 'completed' || record.status === 'failed' || record.status === 'cancelled'
  );
}
