// mcpkit lint: checks tool definitions for what makes models choose or call tools badly. The
// rules live in lint-rules.ts; this file connects, prints and picks the exit code.
import { SHARED_HELP, flag, text } from '../args.js';
import type { CommandContext } from '../command.js';
import { runCommand } from '../command.js';
import { ExitCode } from '../errors.js';
import { gatherTools } from '../gather.js';
import type { Io } from '../io.js';
import type { Finding, LintOptions, Severity } from '../lint-rules.js';
import { RULES, lintServers } from '../lint-rules.js';
import type { Style } from '../output.js';
import { table, writeJson } from '../output.js';
import { manyTargets } from '../target.js';
import { loadTokenizer } from '../tokens.js';

/** The --help text. */
export const help: string = `Usage: mcpkit lint <url>... [flags] [-- <command> [args...]]
       mcpkit lint --config <file> [flags]
       mcpkit lint --rules

Checks every tool of one or more servers: names against the spec's rules, missing, vague
or very long descriptions, descriptions that never say when to use the tool, parameters
without a type or a description, prose that promises a URL, email, hostname, date or a set
of values the schema does not enforce, objects without "required" or open to undeclared
properties, near-duplicate names (within a server and across the servers of a config), and
servers with too many tools. Each finding has a rule id, a severity and a fix.

Flags:
  --config <file>   a config file: {"mcpServers": {"name": {"command","args","env"} | {"url","headers"}}}
  --rules           list the rules and exit

Exit codes: 0 no error-level finding, 1 at least one, 2 a server could not be reached,
3 bad usage.

Examples:
  mcpkit lint http://127.0.0.1:3000/mcp
  mcpkit lint -- node server.js
  mcpkit lint --config claude_desktop_config.json --json

${SHARED_HELP}`;

/** The shape of `mcpkit lint --json`. */
export interface LintJson {
  servers: { name: string; tools: number }[];
  findings: Finding[];
  summary: Record<Severity, number>;
}

/** Runs `mcpkit lint`. */
export function run(args: readonly string[], io: Io): Promise<number> {
  const options = { config: { type: 'string' }, rules: { type: 'boolean' } } as const;
  return runCommand({ name: 'lint', options, help }, { args, io }, async (ctx) => {
    if (flag(ctx.parsed, 'rules')) {
      printRules(ctx);
      return ExitCode.Ok;
    }
    const targets = await manyTargets(ctx.parsed, ctx.common, text(ctx.parsed, 'config'));
    const lintOptions: LintOptions = {};
    const count = await loadTokenizer().catch(() => undefined);
    if (count !== undefined) lintOptions.countTokens = count;
    const { servers, failed } = await gatherTools(targets, ctx);
    const findings = lintServers(servers, lintOptions);
    const result: LintJson = {
      servers: servers.map((server) => ({ name: server.name, tools: server.tools.length })),
      findings,
      summary: {
        error: findings.filter((f) => f.severity === 'error').length,
        warn: findings.filter((f) => f.severity === 'warn').length,
        info: findings.filter((f) => f.severity === 'info').length,
      },
    };
    if (ctx.common.json) writeJson(ctx.io.stdout, result);
    else printFindings(ctx, result);
    if (failed > 0) return ExitCode.Failure;
    return result.summary.error > 0 ? ExitCode.ToolError : ExitCode.Ok;
  });
}

function printRules(ctx: CommandContext): void {
  const rows = Object.entries(RULES).map(([id, rule]) => [id, rule.severity, rule.summary]);
  if (ctx.common.json) {
    writeJson(
      ctx.io.stdout,
      Object.entries(RULES).map(([id, rule]) => ({ id, ...rule })),
    );
    return;
  }
  ctx.io.stdout.write(table(['RULE', 'SEVERITY', 'CHECKS'], rows, { style: ctx.style }));
}

function severityTag(severity: Severity, style: Style): string {
  const padded = severity.padEnd(5);
  if (severity === 'error') return style.red(padded);
  if (severity === 'warn') return style.yellow(padded);
  return style.dim(padded);
}

function printFindings(ctx: CommandContext, result: LintJson): void {
  const { io, style } = ctx;
  for (const server of result.servers) {
    const own = result.findings.filter((f) => f.server === server.name);
    const tools = `${String(server.tools)} tool${server.tools === 1 ? '' : 's'}`;
    io.stdout.write(`${style.bold(server.name)} ${style.dim(`(${tools})`)}\n`);
    if (own.length === 0) {
      io.stdout.write(`  ${style.green('no problems found')}\n`);
      continue;
    }
    const width = Math.max(...own.map((f) => f.rule.length));
    for (const finding of own) {
      const subject = finding.tool === undefined ? '' : `${finding.tool}: `;
      io.stdout.write(
        `  ${severityTag(finding.severity, style)} ${finding.rule.padEnd(width)}  ${subject}${finding.message}\n`,
      );
      io.stdout.write(`  ${' '.repeat(5 + 1 + width + 2)}${style.dim(`fix: ${finding.hint}`)}\n`);
    }
  }
  const { error, warn, info } = result.summary;
  const plural = (n: number, word: string) => `${String(n)} ${word}${n === 1 ? '' : 's'}`;
  const toolCount = result.servers.reduce((sum, s) => sum + s.tools, 0);
  const line = `${plural(error, 'error')}, ${plural(warn, 'warning')}, ${plural(info, 'note')} in ${plural(toolCount, 'tool')}`;
  io.stdout.write(`\n${error > 0 ? style.red(line) : line}\n`);
}
