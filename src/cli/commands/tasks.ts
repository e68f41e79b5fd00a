// mcpkit tasks: follow tool calls that became tasks, by id: show one, wait for its result, or
// cancel it; or list them (tasks/list, which only 2025-11-25 has).
import { JsonRpcError, LocalError, LocalErrorCode } from '../../client/index.js';
import { LATEST_LEGACY_REVISION, eraOf } from '../../protocol/index.js';
import { SHARED_HELP } from '../args.js';
import type { CommandContext } from '../command.js';
import { noMoreArguments, runCommand, sessionOptions } from '../command.js';
import { CliError, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { columns, writeJson } from '../output.js';
import type { Target } from '../target.js';
import { openSession, singleTarget, withSession } from '../target.js';
import { tasksOf } from '../tasks-api.js';
import { messageOf } from '../../internal/message-of.js';

/** The --help text. */
export const help: string = `Usage: mcpkit tasks <list|get|result|cancel> <url> [task-id] [flags]
       mcpkit tasks <list|get|result|cancel> [task-id] [flags] -- <command> [args...]

Follows tool calls that became tasks (mcpkit call follows its own to the end, and prints the
id of each task it starts): get shows one task's status, message and input requests, result
waits for its result (answering its questions as mcpkit call does), cancel asks the server to
stop it. list shows the tasks the server keeps for this client; only 2025-11-25 has tasks/list
(2026-07-28's tasks extension finds a task by its id alone), so list speaks 2025-11-25 to the
server whatever it prefers, and says so when the server does not offer it. A stdio server is
a new process each time, with no tasks from before: these are for servers reached by URL.

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
    if (action === 'list') return list(ctx, target);
    if (taskId === undefined) throw new UsageError('which task? give its id');
    return withSession(target, sessionOptions(ctx), async ({ client }) => {
      const id = taskId;
      switch (action) {
        case 'get': {
          const task = await tasksOf(client).getTask(id);
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
          const result = await tasksOf(client).getTaskResult(id);
          writeJson(ctx.io.stdout, result);
          return result.isError === true ? 1 : 0;
        }
        default:
          await tasksOf(client).cancelTask(id);
          ctx.io.stdout.write(`asked the server to cancel task ${id}\n`);
          return 0;
      }
    });
  });
}

/** Where a task's id comes from when there is no list to read it in. */
const BY_ID_HINT =
  'mcpkit call prints the id of each task it starts ("mcpkit call: task <id>"); follow one with mcpkit tasks get <url> <id>';

/**
 * `tasks list`: tasks/list exists in 2025-11-25 only (the 2026-07-28 tasks extension dropped it),
 * so the listing is asked for over 2025-11-25 unless --protocol names another legacy revision.
 */
async function list(ctx: CommandContext, target: Target): Promise<number> {
  const asked = ctx.common.protocol;
  if (asked !== undefined && eraOf(asked) === 'modern') {
    throw new UsageError(
      `${asked} has no tasks/list: its tasks extension finds a task by its id alone`,
      `${BY_ID_HINT}; or drop --protocol: mcpkit tasks list then asks over ${LATEST_LEGACY_REVISION}`,
    );
  }
  const common = { ...ctx.common, protocol: asked ?? LATEST_LEGACY_REVISION };
  const options = { ...sessionOptions(ctx), common };
  const session = await openSession(target, options).catch((error: unknown) => {
    if (!refusedRevision(error)) throw error;
    throw new CliError(
      `the server does not speak ${common.protocol}, the last revision with tasks/list (${messageOf(error)})`,
      { hint: `its tasks are found by id only: ${BY_ID_HINT}`, cause: error },
    );
  });
  try {
    const { client } = session;
    if ((client.serverCapabilities as { tasks?: { list?: unknown } }).tasks?.list === undefined) {
      throw new CliError(
        `the server keeps no task list: its ${client.revision} capabilities declare no tasks.list`,
        { hint: BY_ID_HINT },
      );
    }
    const tasks = await tasksOf(client).listTasks();
    if (ctx.common.json) writeJson(ctx.io.stdout, tasks);
    else if (tasks.length === 0) ctx.io.stdout.write('no tasks\n');
    else {
      const rows = tasks.map((t) => [t.taskId, t.status, t.statusMessage ?? '']);
      ctx.io.stdout.write(`${columns(rows)}\n`);
    }
    return 0;
  } catch (error) {
    throw session.explain(error);
  } finally {
    await session.close();
  }
}

/** Whether connecting failed because the server would not speak the revision asked for. */
function refusedRevision(error: unknown): boolean {
  return (
    error instanceof JsonRpcError ||
    (error instanceof LocalError && error.code === LocalErrorCode.Unsupported)
  );
}
