// mcpkit/tasks: tasks on the extension seams: the tasks extension (io.modelcontextprotocol/tasks,
// SEP-2663, 2026-07-28) and the 2025-11-25 core tasks, on one task store. A server runs tools as
// tasks with `server.extend(tasks())` and a tool's `task` field. See docs/tasks.md.
export { tasks } from './server/extension.js';
export { tasksClient } from './client/extension.js';
export type { TasksApi } from './client/extension.js';
export { PollPace } from './client/drive.js';
export type { TasksOptions } from './server/extension.js';
export type { TaskOption, ToolTask } from './server/call.js';
export type { MemoryTaskStoreOptions, TaskRecord, TaskSignal, TaskStore } from './server/store.js';
export { MemoryTaskStore, TaskLimitError } from './server/store.js';
// What a TaskStore of its own (mcpkit/stores/redis, mcpkit/stores/postgres) shares with the
// memory store: the local signal listeners, the per-owner quota and its refusal, the ordering.
export {
  DEFAULT_MAX_TASKS_PER_OWNER,
  TaskListeners,
  byCreation,
  finishedOldestFirst,
  limitOption,
  ownerQuotaError,
} from './server/store.js';
export { TASKS_EXTENSION, declaresTasks, isTerminal } from './protocol.js';
export type { DetailedTask, Task, TaskStatus } from './protocol.js';
