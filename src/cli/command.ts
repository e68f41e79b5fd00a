// The frame every command runs in: parse the flags (shared and its own), print --help, and turn
// any failure into one line plus a hint and an exit code (stack traces only with --debug).
import type { CommonOptions, OptionSpec, ParsedArgs } from './args.js';
import { SHARED_OPTIONS, commonOptions, flag, parse } from './args.js';
import { UsageError, report } from './errors.js';
import type { Io } from './io.js';
import type { Style } from './output.js';
import { createStyle } from './output.js';
import type { OpenOptions } from './target.js';

/** What a command body gets: its parsed arguments and the process surface. */
export interface CommandContext {
  readonly name: string;
  readonly io: Io;
  readonly style: Style;
  readonly parsed: ParsedArgs;
  readonly common: CommonOptions;
  /** Set by the body when a server's stderr is shown live, so errors do not repeat it. */
  stderrShown: boolean;
}

/** A command's name, its own flags and its --help text. */
export interface CommandSpec {
  readonly name: string;
  readonly options: OptionSpec;
  readonly help: string;
}

/** Runs a command body inside the frame. Never rejects. */
export async function runCommand(
  spec: CommandSpec,
  invocation: { readonly args: readonly string[]; readonly io: Io },
  body: (ctx: CommandContext) => Promise<number>,
): Promise<number> {
  const { args, io } = invocation;
  const style = createStyle(io.color);
  // Only our own --debug: one after `--` belongs to the server command it precedes.
  const dash = args.indexOf('--');
  const own = dash < 0 ? args : args.slice(0, dash);
  const state = { stderrShown: false, debug: own.includes('--debug') };
  try {
    const parsed = parse(args, { ...SHARED_OPTIONS, ...spec.options });
    if (flag(parsed, 'help')) {
      io.stdout.write(spec.help.endsWith('\n') ? spec.help : `${spec.help}\n`);
      return 0;
    }
    const common = commonOptions(parsed);
    const ctx: CommandContext = { name: spec.name, io, style, parsed, common, stderrShown: false };
    try {
      return await body(ctx);
    } finally {
      state.stderrShown = ctx.stderrShown;
    }
  } catch (error) {
    const command = `mcpkit ${spec.name}`;
    const withHint =
      error instanceof UsageError && error.hint === undefined
        ? new UsageError(error.message, `run "${command} --help" for usage and examples`)
        : error;
    return report(withHint, io, {
      command,
      style,
      debug: state.debug,
      stderrShown: state.stderrShown,
    });
  }
}

/** The session options of a single-target command; marks stderr as shown unless --quiet. */
export function sessionOptions(ctx: CommandContext, extra: Partial<OpenOptions> = {}): OpenOptions {
  const showStderr = extra.showStderr ?? !ctx.common.quiet;
  ctx.stderrShown = showStderr;
  return { io: ctx.io, common: ctx.common, style: ctx.style, showStderr, ...extra };
}

/** Throws UsageError when positionals are left over. */
export function noMoreArguments(rest: readonly string[]): void {
  const [extra] = rest;
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
}
