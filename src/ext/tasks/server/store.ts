// Where tasks live (tasks extension, SEP-2663): a TaskStore keeps each task's record and carries
// the signals (cancel, input responses) from whichever process receives them to the process
// that runs the task. MemoryTaskStore is the default, for one process; a shared store (a
// database, Redis) lets any process answer tasks/get, tasks/update and tasks/cancel.
import { ErrorCode, JsonRpcError } from '../../../jsonrpc/index.js';
import type { DetailedTask } from '../protocol.js';
import { isTerminal } from '../protocol.js';

/** A task as stored: what the wire shows, plus who may see it and when it goes. */
export interface TaskRecord extends DetailedTask {
  /** The principal that created it (authorization on), compared on every access. */
  readonly owner: string | undefined;
  /** Milliseconds since the epoch after which the task is gone; undefined for never. */
  readonly expiresAt: number | undefined;
}

/** What a process sends the one running a task. */
export type TaskSignal =
  | { readonly kind: 'cancel' }
  | { readonly kind: 'input'; readonly responses: Readonly<Record<string, unknown>> };

/**
 * A TaskStore. `create` resolves once a `get` from any process would find the task (the spec's
 * durable creation); `put` replaces a record (only the running process writes); `get` resolves
 * undefined for an unknown or expired task. `signal` delivers to the `subscribe` listeners of
 * the task, wherever they are; a signal nobody listens for is dropped.
 *
 * Every store keeps at most `maxTasksPerOwner` unexpired tasks per owner (default
 * {@link DEFAULT_MAX_TASKS_PER_OWNER}): at the quota, `create` first removes that owner's oldest
 * finished task, and when none of its tasks has finished, rejects with a {@link TaskLimitError}
 * and stores nothing. No owner's creation ever removes another owner's task on this account.
 */
export interface TaskStore {
  create(record: TaskRecord): Promise<void>;
  get(taskId: string): Promise<TaskRecord | undefined>;
  /** The unexpired tasks of `owner` (2025-11-25 tasks/list), oldest first. */
  list(owner: string | undefined): Promise<TaskRecord[]>;
  put(record: TaskRecord): Promise<void>;
  signal(taskId: string, signal: TaskSignal): Promise<void>;
  subscribe(taskId: string, listener: (signal: TaskSignal) => void): () => void;
}

/**
 * The signal listeners of one process, by task: what every TaskStore keeps locally, whatever
 * carries the signals between processes. `deliverMessage` takes a signal as published
 * (`{"taskId", "signal"}` JSON) and ignores anything else.
 */
export class TaskListeners {
  readonly #byTask = new Map<string, Set<(signal: TaskSignal) => void>>();

  /** Adds a listener for `taskId`; returns what removes it. */
  add(taskId: string, listener: (signal: TaskSignal) => void): () => void {
    let listeners = this.#byTask.get(taskId);
    if (listeners === undefined) {
      listeners = new Set();
      this.#byTask.set(taskId, listeners);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.#byTask.delete(taskId);
    };
  }

  deliver(taskId: string, signal: TaskSignal): void {
    for (const listener of this.#byTask.get(taskId) ?? []) listener(signal);
  }

  /** The published form of a signal, as `deliverMessage` reads it. */
  static message(taskId: string, signal: TaskSignal): string {
    return JSON.stringify({ taskId, signal });
  }

  deliverMessage(message: string): void {
    let parsed: { taskId?: unknown; signal?: TaskSignal };
    try {
      parsed = JSON.parse(message) as typeof parsed;
    } catch {
      return;
    }
    if (typeof parsed.taskId !== 'string' || parsed.signal === undefined) return;
    this.deliver(parsed.taskId, parsed.signal);
  }
}

/** The default `maxTasksPerOwner` of every store. */
export const DEFAULT_MAX_TASKS_PER_OWNER = 1000;

/**
 * A task refused for a limit (a quota of the store, tasks running at once): the `tools/call`
 * that would have made it is answered with this error (-32603, the limit named), nothing runs.
 */
export class TaskLimitError extends JsonRpcError {
  constructor(message: string) {
    super(ErrorCode.InternalError, message);
    this.name = 'TaskLimitError';
  }
}

/** The refusal of an owner's task at its quota of `limit`, all of them still running. */
export function ownerQuotaError(limit: number): TaskLimitError {
  return new TaskLimitError(
    `too many tasks: you have ${String(limit)} tasks and none has finished (the limit per principal); try again once one ends`,
  );
}

/** Checks a limit option: a positive integer, else TypeError; undefined gives `fallback`. */
export function limitOption(name: string, value: number | undefined, fallback: number): number {
  const limit = value ?? fallback;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new TypeError(`${name} must be a positive integer, got ${String(limit)}`);
  }
  return limit;
}

/** Orders tasks by creation, oldest first. */
export function byCreation(a: TaskRecord, b: TaskRecord): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0;
}

/** The finished tasks of `records`, oldest first: those a quota may remove. */
export function finishedOldestFirst(records: readonly TaskRecord[]): TaskRecord[] {
  return records.filter((record) => isTerminal(record.status)).sort(byCreation);
}

/** Least time between two sweeps of MemoryTaskStore's expired tasks, short of a limit. */
const SWEEP_MS = 60_000;

/** Options of {@link MemoryTaskStore}. */
export interface MemoryTaskStoreOptions {
  /**
   * Most tasks kept in all. At the limit, creating one removes the oldest finished task of the
   * owner holding the most; when that owner has none finished, creation is refused
   * ({@link TaskLimitError}). Default 10 000.
   */
  readonly maxTasks?: number;
  /** Most tasks kept per owner (see {@link TaskStore}). Default 1 000. */
  readonly maxTasksPerOwner?: number;
}

/** A TaskStore in this process's memory: tasks end with it. */
export class MemoryTaskStore implements TaskStore {
  readonly #records = new Map<string, TaskRecord>();
  /** Each owner's task ids, in creation order. */
  readonly #owned = new Map<string | undefined, Set<string>>();
  readonly #listeners = new TaskListeners();
  readonly #maxTasks: number;
  readonly #maxPerOwner: number;
  /** When expired tasks were last dropped. */
  #sweptAt = Date.now();

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.#maxTasks = limitOption('maxTasks', options.maxTasks, 10_000);
    this.#maxPerOwner = limitOption(
      'maxTasksPerOwner',
      options.maxTasksPerOwner,
      DEFAULT_MAX_TASKS_PER_OWNER,
    );
  }

  create(record: TaskRecord): Promise<void> {
    // A refusal thrown by #makeRoom rejects the promise.
    return new Promise((resolve) => {
      this.#makeRoom(record.owner);
      this.#records.set(record.taskId, record);
      let owned = this.#owned.get(record.owner);
      if (owned === undefined) {
        owned = new Set();
        this.#owned.set(record.owner, owned);
      }
      owned.add(record.taskId);
      resolve();
    });
  }

  get(taskId: string): Promise<TaskRecord | undefined> {
    const record = this.#records.get(taskId);
    if (record?.expiresAt !== undefined && record.expiresAt <= Date.now()) {
      this.#remove(record);
      return Promise.resolve(undefined);
    }
    return Promise.resolve(record);
  }

  list(owner: string | undefined): Promise<TaskRecord[]> {
    const now = Date.now();
    const records: TaskRecord[] = [];
    for (const taskId of this.#owned.get(owner) ?? []) {
      const record = this.#records.get(taskId);
      if (record === undefined) continue;
      if (record.expiresAt !== undefined && record.expiresAt <= now) this.#remove(record);
      else records.push(record);
    }
    return Promise.resolve(records);
  }

  put(record: TaskRecord): Promise<void> {
    if (this.#records.has(record.taskId)) this.#records.set(record.taskId, record);
    return Promise.resolve();
  }

  signal(taskId: string, signal: TaskSignal): Promise<void> {
    this.#listeners.deliver(taskId, signal);
    return Promise.resolve();
  }

  subscribe(taskId: string, listener: (signal: TaskSignal) => void): () => void {
    return this.#listeners.add(taskId, listener);
  }

  /** Frees a place for one more task of `owner` (see the limits), or throws TaskLimitError. */
  #makeRoom(owner: string | undefined): void {
    const held = (): number => this.#owned.get(owner)?.size ?? 0;
    const due = Date.now() - this.#sweptAt >= SWEEP_MS;
    if (!due && held() < this.#maxPerOwner && this.#records.size < this.#maxTasks) return;
    this.#sweep();
    if (held() >= this.#maxPerOwner && !this.#removeOldestFinished(owner)) {
      throw ownerQuotaError(this.#maxPerOwner);
    }
    if (this.#records.size >= this.#maxTasks && !this.#removeOldestFinished(this.#largest())) {
      throw new TaskLimitError(
        `too many tasks: the task store is full (${String(this.#maxTasks)} tasks, the limit); try again later`,
      );
    }
  }

  /** The owner holding the most tasks. */
  #largest(): string | undefined {
    let largest: string | undefined;
    let most = -1;
    for (const [owner, ids] of this.#owned) {
      if (ids.size > most) [largest, most] = [owner, ids.size];
    }
    return largest;
  }

  /** Removes the oldest finished task of `owner`; false when it has none. */
  #removeOldestFinished(owner: string | undefined): boolean {
    for (const taskId of this.#owned.get(owner) ?? []) {
      const record = this.#records.get(taskId);
      if (record !== undefined && isTerminal(record.status)) {
        this.#remove(record);
        return true;
      }
    }
    return false;
  }

  #remove(record: TaskRecord): void {
    this.#records.delete(record.taskId);
    const owned = this.#owned.get(record.owner);
    owned?.delete(record.taskId);
    if (owned?.size === 0) this.#owned.delete(record.owner);
  }

  /** Drops expired tasks (on create, at a limit or once a minute). */
  #sweep(): void {
    const now = Date.now();
    this.#sweptAt = now;
    for (const record of this.#records.values()) {
      if (record.expiresAt !== undefined && record.expiresAt <= now) this.#remove(record);
    }
  }
}
