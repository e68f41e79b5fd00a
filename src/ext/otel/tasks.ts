// Tasks by status (`mcpkit.server.tasks`), through the task store seam: a wrapper of the tasks
// extension's TaskStore that notes each task's status as this process creates and updates it,
// and a gauge that counts the unexpired ones by status at each collection. A TaskStore lists
// tasks per owner only, so the count is what this process wrote: with a store shared between
// processes (Redis), each process counts the tasks it created or ran.
import type { MeterProvider } from '@opentelemetry/api';
import { otelApi } from './api.js';
import { ActivityMetric, SCOPE } from './meters.js';
import { withMethod } from './model.js';

/** What countedTasks needs of a task store (mcpkit/tasks' TaskStore fits). */
export interface CountableTaskStore {
  create(record: TaskFacts): Promise<void>;
  put(record: TaskFacts): Promise<void>;
}

/** The fields of a task record counted. */
interface TaskFacts {
  readonly taskId: string;
  readonly status: string;
  readonly expiresAt: number | undefined;
}

/** At most this many tasks are remembered; beyond, the oldest are forgotten. */
const MAX_REMEMBERED = 100_000;

/**
 * `store` with its tasks counted by status in the gauge `mcpkit.server.tasks`
 * (`mcpkit.task.status`: working, input_required, completed, failed, cancelled), the expired
 * ones left out. Give it to `tasks({ store })`. Without `@opentelemetry/api`, `store` itself.
 * Uses `meterProvider`, else the global one at the time of the call (register the SDK first).
 */
export function countedTasks<T extends CountableTaskStore>(
  store: T,
  meterProvider?: MeterProvider,
): T {
  const api = otelApi;
  if (api === undefined) return store;
  const tasks = new Map<string, { status: string; expiresAt: number | undefined }>();
  const note = (record: TaskFacts) => {
    tasks.delete(record.taskId); // re-inserted last: the map is in order of last write
    tasks.set(record.taskId, { status: record.status, expiresAt: record.expiresAt });
    if (tasks.size > MAX_REMEMBERED) {
      const oldest = tasks.keys().next();
      if (oldest.done !== true) tasks.delete(oldest.value);
    }
  };
  const meter = (meterProvider ?? api.metrics.getMeterProvider()).getMeter(SCOPE);
  const gauge = meter.createObservableGauge(ActivityMetric.tasks, {
    unit: '{task}',
    description: 'Unexpired tasks this process created or ran, by status.',
  });
  gauge.addCallback((result) => {
    const now = Date.now();
    const counts = new Map<string, number>();
    for (const [taskId, task] of tasks) {
      if (task.expiresAt !== undefined && task.expiresAt <= now) tasks.delete(taskId);
      else counts.set(task.status, (counts.get(task.status) ?? 0) + 1);
    }
    for (const [status, count] of counts) result.observe(count, { 'mcpkit.task.status': status });
  });
  const counted = withMethod(store, 'create', (record: TaskFacts) =>
    store.create(record).then(() => {
      note(record);
    }),
  );
  return withMethod(counted, 'put', (record: TaskFacts) =>
    store.put(record).then(() => {
      note(record);
    }),
  );
}
