// The tasks extension (io.modelcontextprotocol/tasks, SEP-2663) on the extension seam: its
// 2026-07-28 methods and its capability (with the 2025-11-25 core `tasks` capability, which the
// same task tools give). A built-in extension: it serves with the core's own call, because a task
// runs the server's tool handlers.
import { TASKS_EXTENSION } from '../../protocol/tasks.js';
import type { Call } from '../call.js';
import type { ServerCore } from '../core.js';
import type { ExtensionCapability } from '../extension.js';
import { TASK_FEATURES } from './features.js';

/** The extension's methods in 2026-07-28; each names its task in `params.taskId`. */
const MODERN_METHODS = ['tasks/get', 'tasks/update', 'tasks/cancel'] as const;

/** Adds the tasks extension to `core`: declared whenever a registered tool runs as a task. */
export function addTasksExtension(core: ServerCore): void {
  core.extensions.add({
    id: TASKS_EXTENSION,
    capabilities: (): ExtensionCapability | undefined => {
      const tools = core.registry.tools.values();
      if (![...tools].some((entry) => entry.compiled.task !== undefined)) return undefined;
      // 2025-11-25 core tasks: tools/call as a task, tasks/list, tasks/cancel.
      const tasks = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
      return { settings: {}, fields: { tasks } };
    },
  });
  for (const method of MODERN_METHODS) {
    const serve = TASK_FEATURES[method];
    if (serve === undefined) continue;
    const declaration = {
      kind: 'request',
      direction: 'client-to-server',
      revisions: ['2026-07-28'],
      nameParam: 'taskId',
    } as const;
    // The session serves an extension's method with its own Call (ServedSource is its part).
    core.extensions.serveInternally(method, declaration, (call) => serve(call as Call));
  }
}
