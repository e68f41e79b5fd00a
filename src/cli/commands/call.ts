// mcpkit call: calls one tool and renders its result, showing progress and logs on stderr as
// they come and answering elicitations (from --answer flags or at the terminal).
import process from 'node:process';
import type { CallToolResult } from '../../client/index.js';
import { SHARED_HELP, flag, jsonObject, keyValue, looseValue, text, texts } from '../args.js';
import type { CommandContext } from '../command.js';
import { runCommand, sessionOptions } from '../command.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import type { Style } from '../output.js';
import { writeJson } from '../output.js';
import { createStatus } from '../progress.js';
import { createRenderer } from '../render.js';
import type { Target } from '../target.js';
import { singleTarget, withSession } from '../target.js';
import { explainUnknownName, unknownToolInResult } from '../unknown-name.js';

/** The --help text. */
export const help: string = `Usage: mcpkit call <url> <tool> [json-args] [flags]
       mcpkit call <tool> [json-args] [flags] -- <command> [args...]

Calls a tool and renders its result: text as is, images and audio saved to files (a new temp
directory, or --out-dir) with their paths printed, resource links and embedded resources
with their URIs, structured content as indented JSON. Progress shows as a bar on a terminal
and as "progress n/total" lines otherwise; server logs go to stderr as they come.

When the server asks for input (elicitation), each field is asked at the terminal, or taken
from --answer; without a terminal and without answers the request is declined.

A tool that runs as a task (2026-07-28 tasks extension; 2025-11-25 core tasks, for a tool whose
listing requires one) is followed to its result: its status and message show as progress
("task working: Gathering sources"), its questions are asked as above, Ctrl-C cancels it.
Its id is printed on stderr first ("mcpkit call: task <id>"): mcpkit tasks get, result and
cancel take it. --task asks for a task where the tool only allows one (2025-11-25).

Flags:
  --arg key=value      an argument (repeatable), read by the tool's schema: text for a string
                       field (--arg id=123 gives "123"), else JSON when it parses (--arg n=3
                       gives 3, --arg s=hi gives "hi"); overrides json-args
  --answer key=value   an answer to an elicitation field (repeatable)
  --out-dir <dir>      where images, audio and binary resources are saved
  --task               call the tool as a task (2025-11-25 core tasks)

Ctrl-C cancels the call (notifications/cancelled) and exits 130.

Exit codes: 0 success, 1 the tool reported an error (isError), 2 protocol or connection
error (an unknown tool is a protocol error), 3 bad usage.

Examples:
  mcpkit call http://127.0.0.1:3000/mcp echo '{"message":"hi"}'
  mcpkit call echo --arg message=hi -- node server.js
  mcpkit call get-sum --arg a=1 --arg b=2 --json -- node server.js
  mcpkit call simulate-research-query --arg topic=MCP --answer depth=detailed -- node server.js
  mcpkit call http://127.0.0.1:3000/mcp get-tiny-image --out-dir ./out

${SHARED_HELP}`;

const OPTIONS = {
  arg: { type: 'string', multiple: true },
  answer: { type: 'string', multiple: true },
  'out-dir': { type: 'string' },
  task: { type: 'boolean' },
} as const;

/** Runs `mcpkit call`. */
export function run(args: readonly string[], io: Io): Promise<number> {
  return runCommand({ name: 'call', options: OPTIONS, help }, { args, io }, async (ctx) => {
    const { target, rest } = singleTarget(ctx.parsed, ctx.common);
    const [tool, json, extra] = rest;
    if (tool === undefined) {
      throw new UsageError(
        'which tool?',
        'mcpkit call <url> <tool> [json-args], or mcpkit list to see the tools',
      );
    }
    if (extra !== undefined) {
      throw new UsageError(
        `unexpected argument "${extra}"`,
        'pass the arguments as one JSON object, or with --arg key=value',
      );
    }
    const toolArgs = json === undefined ? {} : jsonObject(json, 'the tool arguments');
    const pairs = texts(ctx.parsed, 'arg').map((pair) => keyValue(pair, '--arg'));
    const answers = new Map(texts(ctx.parsed, 'answer').map((pair) => keyValue(pair, '--answer')));
    const { io: out, style, common } = ctx;
    const status = createStatus(out, { style, quiet: common.quiet });
    const client = {
      ...(common.quiet ? {} : { logLevel: 'debug' as const }),
      onLog: status.log,
    };
    const host = { answers, beforePrompt: status.done };
    return withSession(target, sessionOptions(ctx, { client, host }), async (session) => {
      // Ctrl-C cancels the call (the server is told) instead of killing the process.
      const controller = new AbortController();
      const cancel = () => {
        controller.abort(
          new CliError('cancelled (SIGINT); the server was told', { exitCode: 130 }),
        );
      };
      process.once('SIGINT', cancel);
      if (pairs.length > 0) {
        // --arg values are read by the tool's schema: id=123 stays a string for a string field.
        const known = (await session.client.listTools()).find((t) => t.name === tool);
        const properties = known?.inputSchema['properties'] as Record<string, unknown> | undefined;
        for (const [key, value] of pairs) toolArgs[key] = argValue(value, properties?.[key]);
      }
      let result: CallToolResult;
      // A task's progress line is its status and message ("task working: Gathering sources").
      let taskUpdates = 0;
      try {
        result = await session.client.callTool(tool, toolArgs, {
          signal: controller.signal,
          maxTotalTimeoutMs: ctx.common.maxTimeMs,
          ...(flag(ctx.parsed, 'task') ? { task: true } : {}),
          onProgress: (progress, total, message) => {
            if (taskUpdates === 0) status.progress(progress, total, message);
          },
          onTaskStatus: (taskStatus, message, taskId) => {
            if (taskUpdates === 0 && !common.quiet) status.line(taskIdLine(style, target, taskId));
            taskUpdates++;
            status.progress(taskUpdates, undefined, taskLine(taskStatus, message));
          },
        });
      } catch (error) {
        throw await explainUnknownName(error, {
          kind: 'tool',
          name: tool,
          list: () => session.client.listTools().then((tools) => tools.map((t) => t.name)),
        });
      } finally {
        process.off('SIGINT', cancel);
        status.done();
      }
      await show(ctx, tool, result);
      return await exitCodeOf(ctx, result, {
        name: tool,
        list: () => session.client.listTools().then((tools) => tools.map((t) => t.name)),
      });
    });
  });
}

/**
 * 0, or 1 for a tool error; a tool error for a tool the server does not list (an older server's
 * way of saying "unknown tool") is thrown as that.
 */
async function exitCodeOf(
  ctx: CommandContext,
  result: CallToolResult,
  asked: Parameters<typeof unknownToolInResult>[0],
): Promise<number> {
  if (result.isError !== true) return ExitCode.Ok;
  const unknown = await unknownToolInResult(asked);
  if (unknown !== undefined) throw unknown;
  ctx.io.stderr.write(`${ctx.style.red('mcpkit call:')} the tool reported an error (isError)\n`);
  return ExitCode.ToolError;
}

async function show(ctx: CommandContext, tool: string, result: CallToolResult): Promise<void> {
  if (ctx.common.json) {
    writeJson(ctx.io.stdout, result);
    return;
  }
  const renderer = createRenderer({
    io: ctx.io,
    style: ctx.style,
    outDir: text(ctx.parsed, 'out-dir'),
    baseName: tool,
  });
  await renderer.blocks(result.content);
  if (result.structuredContent !== undefined) renderer.structured(result.structuredContent);
}

/**
 * The line that names the task a call became, once: what `mcpkit tasks get/result/cancel` take
 * (a server reached by URL; a stdio server's tasks end with its process).
 */
function taskIdLine(style: Style, target: Target, taskId: string): string {
  const follow =
    target.kind === 'url'
      ? ` (follow it: mcpkit tasks get|result|cancel ${target.url} ${taskId})`
      : '';
  return style.dim(`mcpkit call: task ${taskId}${follow}`);
}

/** The progress text of a task: `task <status>`, then its message. */
export function taskLine(status: string, message: string | undefined): string {
  const label = status.replace(/_/g, ' ');
  return message === undefined || message === '' ? `task ${label}` : `task ${label}: ${message}`;
}

/**
 * An --arg value: the raw text for a property whose schema says it is a string (and nothing
 * else), else the value parsed as JSON when it parses (a number, a boolean, an object).
 */
export function argValue(value: string, property: unknown): unknown {
  const type = (property as { type?: unknown } | undefined)?.type;
  const types = Array.isArray(type) ? type : [type];
  const stringOnly = types.includes('string') && types.every((t) => t === 'string' || t === 'null');
  return stringOnly ? value : looseValue(value);
}
