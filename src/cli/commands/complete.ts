// mcpkit complete: asks the server to complete a prompt argument or a resource template
// variable (`completion/complete`) and prints the candidates, one per line.
import type { CompleteRef } from '../../client/index.js';
import { SHARED_HELP, keyValue, text, texts } from '../args.js';
import { noMoreArguments, runCommand, sessionOptions } from '../command.js';
import { UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { writeJson } from '../output.js';
import { singleTarget, withSession } from '../target.js';

/** The --help text. */
export const help: string = `Usage: mcpkit complete <url> (--prompt <name> | --template <uri-template>) <argument> [value]
       mcpkit complete (--prompt <name> | --template <uri-template>) <argument> [value] -- <command> [args...]

Asks for completions of one prompt argument or resource template variable, given what was
typed so far (value, default empty), and prints the candidates one per line.

Flags:
  --prompt <name>            complete an argument of this prompt
  --template <uri-template>  complete a variable of this resource template
  --context key=value        an already resolved argument or variable (repeatable)

Examples:
  mcpkit complete http://127.0.0.1:3000/mcp --prompt args-prompt city Pa
  mcpkit complete --template 'sql://tables/{name}/schema' name cu -- mcpkit serve sql

${SHARED_HELP}`;

const OPTIONS = {
  prompt: { type: 'string' },
  template: { type: 'string' },
  context: { type: 'string', multiple: true },
} as const;

/** Runs `mcpkit complete`. */
export function run(args: readonly string[], io: Io): Promise<number> {
  return runCommand({ name: 'complete', options: OPTIONS, help }, { args, io }, async (ctx) => {
    const { target, rest } = singleTarget(ctx.parsed, ctx.common);
    const prompt = text(ctx.parsed, 'prompt');
    const template = text(ctx.parsed, 'template');
    if ((prompt === undefined) === (template === undefined)) {
      throw new UsageError('give exactly one of --prompt <name> and --template <uri-template>');
    }
    const ref: CompleteRef =
      prompt === undefined
        ? { type: 'ref/resource', uri: template ?? '' }
        : { type: 'ref/prompt', name: prompt };
    const [argument, value = '', ...extra] = rest;
    if (argument === undefined) throw new UsageError('which argument or variable to complete?');
    noMoreArguments(extra);
    const context = Object.fromEntries(
      texts(ctx.parsed, 'context').map((pair) => keyValue(pair, '--context')),
    );
    return withSession(target, sessionOptions(ctx), async ({ client }) => {
      const result = await client.complete(
        ref,
        { name: argument, value },
        Object.keys(context).length === 0 ? {} : { context: { arguments: context } },
      );
      if (ctx.common.json) {
        writeJson(ctx.io.stdout, result);
        return 0;
      }
      const { values, total, hasMore } = result.completion;
      for (const candidate of values) ctx.io.stdout.write(`${candidate}\n`);
      if (values.length === 0) ctx.io.stderr.write(`${ctx.style.dim('(no completions)')}\n`);
      if (hasMore === true || (total !== undefined && total > values.length)) {
        const of = total === undefined ? '' : ` of ${String(total)}`;
        ctx.io.stderr.write(
          `${ctx.style.dim(`(${String(values.length)}${of}; more available)`)}\n`,
        );
      }
      return 0;
    });
  });
}
