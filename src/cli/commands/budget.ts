// mcpkit budget: what each tool's definition costs in a model's context, in tokens, for one
// server or for every server an agent connects to. See tokens.ts for what is counted.
import { SHARED_HELP, text } from '../args.js';
import type { CommandContext } from '../command.js';
import { runCommand } from '../command.js';
import { ExitCode } from '../errors.js';
import type { ServerTools } from '../gather.js';
import { gatherTools } from '../gather.js';
import type { Io } from '../io.js';
import { columns, formatCount, formatShare, table, writeJson } from '../output.js';
import { manyTargets } from '../target.js';
import { ENCODING, loadTokenizer, serializeTool } from '../tokens.js';

/** How the tools are serialized, as stated in the output. */
const SERIALIZATION =
  'compact JSON {"name","description","input_schema","output_schema"} per tool (absent fields left out)';

/** The --help text. */
export const help: string = `Usage: mcpkit budget <url>... [flags] [-- <command> [args...]]
       mcpkit budget --config <file> [flags]

Counts the tokens a host pays to put each tool in a model's context: every tool is
serialized as ${SERIALIZATION}
and counted, with the server's instructions (as text, a row of their own), with gpt-tokenizer's ${ENCODING} encoding (GPT-4o and later). Other models'
tokenizers and each host's own framing give somewhat different numbers.
Several targets, or a Claude-Desktop-style config file, give the total an agent connected
to all of them pays. Needs the gpt-tokenizer package (npm install gpt-tokenizer).

Flags:
  --config <file>   a config file: {"mcpServers": {"name": {"command","args","env"} | {"url","headers"}}}

Exit codes: 0 counted, 2 a server could not be reached (the others are still counted), 3 bad usage.

Examples:
  mcpkit budget http://127.0.0.1:3000/mcp
  mcpkit budget -- node server.js
  mcpkit budget --config ~/Library/Application\\ Support/Claude/claude_desktop_config.json
  mcpkit budget --json http://127.0.0.1:3000/mcp http://127.0.0.1:3001/mcp

${SHARED_HELP}`;

/** One tool's cost. */
export interface ToolCost {
  server: string;
  name: string;
  tokens: number;
  /** Its part of the total, 0 to 1. */
  share: number;
}

/** The cost of one server's instructions. */
export interface InstructionsCost {
  server: string;
  tokens: number;
  share: number;
}

/** The shape of `mcpkit budget --json`. */
export interface BudgetJson {
  encoding: string;
  tokenizer: string;
  serialization: string;
  /** Per server: its tool count, its instructions' tokens, and all its tokens (both). */
  servers: { name: string; tools: number; instructions: number; tokens: number; share: number }[];
  tools: ToolCost[];
  /** Servers with instructions, most expensive first. */
  instructions: InstructionsCost[];
  /** Every tool and every server's instructions. */
  total: number;
}

/** Runs `mcpkit budget`. */
export function run(args: readonly string[], io: Io): Promise<number> {
  const options = { config: { type: 'string' } } as const;
  return runCommand({ name: 'budget', options, help }, { args, io }, async (ctx) => {
    const targets = await manyTargets(ctx.parsed, ctx.common, text(ctx.parsed, 'config'));
    const count = await loadTokenizer();
    const { servers, failed } = await gatherTools(targets, ctx);
    const budget = measure(servers, count);
    if (ctx.common.json) writeJson(ctx.io.stdout, budget);
    else print(ctx, budget);
    return failed > 0 ? ExitCode.Failure : ExitCode.Ok;
  });
}

/** Counts every tool of every server, most expensive first. */
export function measure(
  servers: readonly ServerTools[],
  count: (text: string) => number,
): BudgetJson {
  const tools = servers.flatMap((server) =>
    server.tools.map((tool) => ({
      server: server.name,
      name: tool.name,
      tokens: count(serializeTool(tool)),
      share: 0,
    })),
  );
  const instructions = servers
    .filter((server) => server.instructions !== undefined && server.instructions !== '')
    .map((server) => ({ server: server.name, tokens: count(server.instructions ?? ''), share: 0 }))
    .sort((a, b) => b.tokens - a.tokens || a.server.localeCompare(b.server));
  const total = [...tools, ...instructions].reduce((sum, item) => sum + item.tokens, 0);
  const share = (tokens: number) =>
    total === 0 ? 0 : Math.round((tokens / total) * 10_000) / 10_000;
  for (const item of [...tools, ...instructions]) item.share = share(item.tokens);
  tools.sort(
    (a, b) =>
      b.tokens - a.tokens || a.server.localeCompare(b.server) || a.name.localeCompare(b.name),
  );
  return {
    encoding: ENCODING,
    tokenizer: 'gpt-tokenizer',
    serialization: SERIALIZATION,
    servers: servers.map((server) => {
      const own = instructions.find((item) => item.server === server.name)?.tokens ?? 0;
      const tokens = tools
        .filter((t) => t.server === server.name)
        .reduce((sum, t) => sum + t.tokens, own);
      return {
        name: server.name,
        tools: server.tools.length,
        instructions: own,
        tokens,
        share: share(tokens),
      };
    }),
    tools,
    instructions,
    total,
  };
}

function print(ctx: CommandContext, budget: BudgetJson): void {
  const { io, style } = ctx;
  const many = budget.servers.length > 1;
  const items = [
    ...budget.tools,
    ...budget.instructions.map((item) => ({ ...item, name: '(instructions)' })),
  ].sort((a, b) => b.tokens - a.tokens);
  const rows = items.map((item) => [
    ...(many ? [item.server] : []),
    item.name,
    formatCount(item.tokens),
    formatShare(item.tokens, budget.total),
  ]);
  const toolCount = budget.tools.length;
  const serverCount = budget.servers.length;
  const withInstructions = budget.instructions.length > 0 ? ' and instructions' : '';
  const totalLabel = `TOTAL (${String(toolCount)} tool${toolCount === 1 ? '' : 's'}${withInstructions}${many ? `, ${String(serverCount)} servers` : ''})`;
  rows.push([
    ...(many ? [''] : []),
    totalLabel,
    formatCount(budget.total),
    budget.total === 0 ? '0.0%' : '100.0%',
  ]);
  const header = [...(many ? ['SERVER'] : []), 'TOOL', 'TOKENS', 'SHARE'];
  const numbers = many ? [2, 3] : [1, 2];
  io.stdout.write(table(header, rows, { style, alignRight: numbers }));
  if (many) {
    io.stdout.write(`\n${style.bold('per server')}\n`);
    const perServer = [...budget.servers]
      .sort((a, b) => b.tokens - a.tokens)
      .map((s) => [
        s.name,
        `${String(s.tools)} tool${s.tools === 1 ? '' : 's'}`,
        formatCount(s.tokens),
        formatShare(s.tokens, budget.total),
      ]);
    io.stdout.write(columns(perServer, { indent: '  ', alignRight: [1, 2, 3] }));
  }
  io.stdout.write(
    style.dim(
      `\nTokens counted with gpt-tokenizer ${ENCODING} on ${SERIALIZATION}.\nOther models' tokenizers and each host's framing differ; treat the numbers as estimates.\n`,
    ),
  );
}
