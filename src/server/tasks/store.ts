// Where tasks live (tasks extension, SEP-2663): a TaskStore keeps each task's record and carries
// the signals (cancel, input responses) from whichever process receives them to the process
// that runs the task. MemoryTaskStore is the default, for one process; a shared store (a
// database, Redis) lets any process answer tasks/get, tasks/update and tasks/cancel.
import type { DetailedTask } from '../../protocol/tasks.js';

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

/** Options of {@link MemoryTaskStore}. */
export interface MemoryTaskStoreOptions {
  /** Most tasks kept; creating one more removes the oldest. Default 10 000. */
  readonly maxTasks?: number;
}

/** A TaskStore in this process's memory: tasks end with it. */
export class MemoryTaskStore implements TaskStore {
  readonly #records = new Map<string, TaskRecord>();
  readonly #listeners = new TaskListeners();
  readonly #maxTasks: number;

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.#maxTasks = options.maxTasks ?? 10_000;
  }

  create(record: TaskRecord): Promise<void> {
    this.#sweep();
    while (this.#records.size >= this.#maxTasks) {
      const oldest = this.#records.keys().next().value;
      if (oldest === undefined) break;
      this.#records.delete(oldest);
    }
    this.#records.set(record.taskId, record);
    return Promise.resolve();
  }

  get(taskId: string): Promise<TaskRecord | undefined> {
    const record = this.#records.get(taskId);
    if (record?.expiresAt !== undefined && record.expiresAt <= Date.now()) {
      this.#records.delete(taskId);
      return Promise.resolve(undefined);
    }
    return Promise.resolve(record);
  }

  list(owner: string | undefined): Promise<TaskRecord[]> {
    this.#sweep();
    return Promise.resolve([...this.#records.values()].filter((r) => r.owner === owner));
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

  /** Drops expired tasks (on create: the map never holds many dead ones). */
  #sweep(): void {
    const now = Date.now();
    for (const [id, record] of this.#records) {
      if (record.expiresAt !== undefined && record.expiresAt <= now) this.#records.delete(id);
    }
  }
}
