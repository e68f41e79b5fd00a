// The Tasks tab: the tasks the server runs for this client (tasks/list, and the status updates
// the backend sends), Cancel for a running one, the result of a finished one.
import { useState } from 'preact/hooks';
import { api, errorText, mcp } from './api';
import { useReport } from './alerts';
import { ResultView, type CallState } from './result-view';
import { isRecord } from './schema';
import type { State, Task } from './types';

const LIVE = new Set(['working', 'input_required']);

export function TasksTab(props: {
  state: State;
  tasks: Record<string, Task>;
  onTasks: (tasks: Task[]) => void;
}) {
  const report = useReport();
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<{ taskId: string; call: CallState } | undefined>();
  const caps = props.state.capabilities?.['tasks'];
  // 2025-11-25 servers may list tasks; 2026-07-28 has no tasks/list (tasks are followed by id).
  const canList = isRecord(caps) && 'list' in caps;
  const tasks = Object.values(props.tasks).sort((a, b) =>
    (b.createdAt ?? '').localeCompare(a.createdAt ?? ''),
  );
  const refresh = async () => {
    setBusy(true);
    try {
      const result = await mcp<{ tasks?: Task[] }>('listTasks');
      props.onTasks(result.tasks ?? []);
    } catch (error) {
      report(`Listing tasks failed: ${errorText(error)}`);
    } finally {
      setBusy(false);
    }
  };
  const cancel = async (taskId: string) => {
    try {
      const task = await mcp<Task>('cancelTask', { taskId });
      if (typeof task.taskId === 'string') props.onTasks([task]);
    } catch (error) {
      report(`Cancelling task ${taskId} failed: ${errorText(error)}`);
    }
  };
  const result = async (taskId: string) => {
    const started = performance.now();
    setShown({ taskId, call: { phase: 'running', opId: '', started, cancelling: false } });
    try {
      const outcome = await api.request('getTaskResult', { taskId });
      const ms = Math.round(performance.now() - started);
      setShown({ taskId, call: { phase: 'done', outcome, cancelled: false, ms } });
    } catch (error) {
      setShown({ taskId, call: { phase: 'failed', message: errorText(error), cancelled: false } });
    }
  };
  return (
    <div class="single">
      <header class="panel-head">
        <h2>Tasks</h2>
        {canList ? (
          <button
            type="button"
            disabled={busy || !props.state.connected}
            onClick={() => void refresh()}
          >
            Refresh
          </button>
        ) : null}
      </header>
      <p class="hint">
        A tool that supports tasks can run as one (tick “Run as a task” before Call); its status
        shows here while the server works on it.
      </p>
      {tasks.length === 0 ? (
        <p class="muted">No tasks yet.</p>
      ) : (
        <table class="tasks">
          <thead>
            <tr>
              <th scope="col">Task</th>
              <th scope="col">Status</th>
              <th scope="col">Message</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tasks.map((task) => (
              <tr key={task.taskId}>
                <td>
                  <code>{task.taskId}</code>
                </td>
                <td>
                  <span class={`status status-${task.status}`}>{task.status}</span>
                  {task.status === 'input_required' ? (
                    <span class="hint"> — the server is waiting for your answer</span>
                  ) : null}
                </td>
                <td>{task.statusMessage ?? ''}</td>
                <td>
                  {task.createdAt === undefined
                    ? ''
                    : new Date(task.createdAt).toLocaleTimeString()}
                </td>
                <td class="actions">
                  {LIVE.has(task.status) ? (
                    <button
                      type="button"
                      class="danger"
                      aria-label={`Cancel task ${task.taskId}`}
                      onClick={() => void cancel(task.taskId)}
                    >
                      Cancel
                    </button>
                  ) : (
                    <button
                      type="button"
                      aria-label={`Result of task ${task.taskId}`}
                      onClick={() => void result(task.taskId)}
                    >
                      Result
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {shown === undefined ? null : (
        <div class="task-result">
          <h3>
            Result of task <code>{shown.taskId}</code>
          </h3>
          <ResultView call={shown.call} />
        </div>
      )}
    </div>
  );
}
