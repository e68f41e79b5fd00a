// The tasks extension (io.modelcontextprotocol/tasks, SEP-2663) on 2026-07-28: its identifier
// and the wire shape of a task. No I/O. The 2025-11-25 core tasks are a different protocol
// (tasks/result, tasks/list, task-augmented requests) whose methods the core schema has.

/** The extension's identifier, in `capabilities.extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** A task's status (SEP-2663): `failed` is for protocol errors only. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** True for the statuses a task never leaves. */
export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** A task as the wire shows it (`CreateTaskResult` and `tasks/get` add to this). */
export interface Task {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601. */
  readonly lastUpdatedAt: string;
  /** From creation, in integer milliseconds; null for unlimited. */
  readonly ttlMs: number | null;
  readonly pollIntervalMs?: number;
}

/** A task with what its status carries: input requests, the result, or the error. */
export interface DetailedTask extends Task {
  readonly inputRequests?: Readonly<Record<string, unknown>>;
  readonly result?: Readonly<Record<string, unknown>>;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

/** True when a request's client capabilities declare the tasks extension. */
export function declaresTasks(capabilities: unknown): boolean {
  const extensions = (capabilities as { extensions?: unknown } | undefined)?.extensions;
  return (
    typeof extensions === 'object' &&
    extensions !== null &&
    typeof (extensions as Record<string, unknown>)[TASKS_EXTENSION] === 'object'
  );
}
