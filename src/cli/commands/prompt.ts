// mcpkit prompt: gets a prompt with its arguments filled in and renders its messages.
import { SHARED_HELP, keyValue, texts } from '../args.js';
import { noMoreArguments, runCommand, sessionOptions } from '../command.js';
import { UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { writeJson } from '../output.js';
import { createRenderer } from '../render.js';
import { singleTarget, withSession } from '../target.js';
import { explainUnknownName } from '../unknown-name.js';

/** The --help text. */
export const help: string = `Usage: mcpkit prompt <url> <name> [--arg key=value ...] [flags]
       mcpkit prompt <name> [--arg key=value ...] [flags] -- <command> [args...]

Gets a prompt and prints its messages, each under its role. Prompt arguments are strings:
--arg values are passed as written. --json prints the raw result.

Flags:
  --arg key=value   a prompt argument (repeatable)
  --out-dir <dir>   where images and audio in the messages are saved

Examples:
  mcpkit prompt http://127.0.0.1:3000/mcp args-prompt --arg city=Paris
  mcpkit prompt simple-prompt --json -- node server.js

${SHARED_HELP}`;

/** Runs `mcpkit prompt`. */
export function run(args: readonly string[], io: Io): Promise<number> {
  const options = {
    arg: { type: 'string', multiple: true },
    'out-dir': { type: 'string' },
  } as const;
  return runCommand({ name: 'prompt', options, help }, { args, io }, async (ctx) => {
    const { target, rest } = singleTarget(ctx.parsed, ctx.common);
    const [name, ...extra] = rest;
    if (name === undefined) {
      throw new UsageError('which prompt?', 'give its name: mcpkit list prompts shows them');
    }
    noMoreArguments(extra);
    const promptArgs = Object.fromEntries(
      texts(ctx.parsed, 'arg').map((pair) => keyValue(pair, '--arg')),
    );
    return withSession(target, sessionOptions(ctx), async ({ client }) => {
      const result = await client.getPrompt(name, promptArgs).catch(async (error: unknown) => {
        throw await explainUnknownName(error, {
          kind: 'prompt',
          name,
          list: () => client.listPrompts().then((prompts) => prompts.map((p) => p.name)),
        });
      });
      const { io: out, style } = ctx;
      if (ctx.common.json) {
        writeJson(out.stdout, result);
        return 0;
      }
      if (result.description !== undefined) out.stdout.write(`${style.dim(result.description)}\n`);
      const outDir = ctx.parsed.values['out-dir'];
      const renderer = createRenderer({
        io: out,
        style,
        outDir: typeof outDir === 'string' ? outDir : undefined,
        baseName: name,
      });
      for (const message of result.messages) {
        out.stdout.write(`${style.bold(`[${message.role}]`)}\n`);
        await renderer.blocks([message.content]);
      }
      return 0;
    });
  });
}
