// mcpkit tasks: follow tool calls that became tasks, by id: list them (2025-11-25), show one,
// wait for its result, or cancel it.
import { SHARED_HELP } from '../args.js';
import { noMoreArguments, runCommand, sessionOptions } from '../command.js';
import { UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { columns, writeJson } from '../output.js';
import { singleTarget, withSession } from '../target.js';

/** The --help text. */
export const help: string = `Usage: mcpkit tasks <list|get|result|cancel> <url> [task-id] [flags]
       mcpkit tasks <list|get|result|cancel> [task-id] [flags] -- <command> [args...]

Follows tool calls that became tasks (mcpkit call follows its own to the end): list shows the
tasks the server keeps for this client (2025-11-25 servers; 2026-07-28 has no listing), get
shows one task's status, message and input requests, result waits for its result (answering
its questions as mcpkit call does), cancel asks the server to stop it. A stdio server is a new
process each time, with no tasks from before: these are for servers reached by URL.

Examples:
  mcpkit tasks list http://127.0.0.1:3000/mcp
  mcpkit tasks get http://127.0.0.1:3000/mcp 786512e2-9e0d-44bd-8f29-789f320fe840
  mcpkit tasks result http://127.0.0.1:3000/mcp 786512e2-9e0d-44bd-8f29-789f320fe840 --json
  mcpkit tasks cancel http://127.0.0.1:3000/mcp 786512e2-9e0d-44bd-8f29-789f320fe840

${SHARED_HELP}`;

const ACTIONS = ['list', 'get', 'result', 'cancel'] as const;

/** Runs `mcpkit tasks`. */
export function run(args: readonly string[], io: Io): Promise<number> {
  return runCommand({ name: 'tasks', options: {}, help }, { args, io }, async (ctx) => {
    const [action, ...others] = ctx.parsed.positionals;
    if (action === undefined || !(ACTIONS as readonly string[]).includes(action)) {
      throw new UsageError(
        'say what to do: list, get, result or cancel',
        'mcpkit tasks get <url> <task-id>',
      );
    }
    const { target, rest } = singleTarget({ ...ctx.parsed, positionals: others }, ctx.common);
    const [taskId, ...extra] = rest;
    noMoreArguments(extra);
    if (action !== 'list' && taskId === undefined) throw new UsageError('which task? give its id');
    return withSession(target, sessionOptions(ctx), async ({ client }) => {
      const id = taskId ?? '';
      switch (action) {
        case 'list': {
          const tasks = await client.listTasks();
          if (ctx.common.json) writeJson(ctx.io.stdout, tasks);
          else if (tasks.length === 0) ctx.io.stdout.write('no tasks\n');
          else {
            const rows = tasks.map((t) => [t.taskId, t.status, t.statusMessage ?? '']);
            ctx.io.stdout.write(`${columns(rows)}\n`);
          }
          return 0;
        }
        case 'get': {
          const task = await client.getTask(id);
          if (ctx.common.json) writeJson(ctx.io.stdout, task);
          else {
            const rows: [string, string][] = [
              ['task', task.taskId],
              ['status', task.status],
              ['message', task.statusMessage ?? ''],
              ['created', task.createdAt],
              ['updated', task.lastUpdatedAt],
            ];
            ctx.io.stdout.write(`${columns(rows)}\n`);
          }
          return 0;
        }
        case 'result': {
          const result = await client.getTaskResult(id);
          writeJson(ctx.io.stdout, result);
          return result.isError === true ? 1 : 0;
        }
        default:
          await client.cancelTask(id);
          ctx.io.stdout.write(`asked the server to cancel task ${id}\n`);
          return 0;
      }
    });
  });
}
