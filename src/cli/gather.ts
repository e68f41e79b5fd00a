// Tool listings of several servers at once, for budget and lint: every target is connected in
// parallel; one that fails is reported on stderr and left out, so the others still count.
import type { RejectedTool, Tool } from '../client/index.js';
import type { CommandContext } from './command.js';
import { explain } from './errors.js';
import type { Target } from './target.js';
import { targetLabel, withSession } from './target.js';

/** One server's tools. */
export interface ServerTools {
  /** Its config name, else its own name (serverInfo), else its URL or command. */
  readonly name: string;
  readonly target: Target;
  readonly tools: readonly Tool[];
  /** The server's instructions, which hosts put in the model's context too. */
  readonly instructions: string | undefined;
  /** Tools the client left out (2026-07-28: invalid `x-mcp-header` annotations). */
  readonly rejected: readonly RejectedTool[];
}

/** The listings gathered, and how many targets could not be reached. */
export interface Gathered {
  readonly servers: readonly ServerTools[];
  readonly failed: number;
}

/** Lists the tools of every target (their stderr hidden). Failures go to stderr. */
export async function gatherTools(
  targets: readonly Target[],
  ctx: CommandContext,
): Promise<Gathered> {
  const settled = await Promise.allSettled(
    targets.map((target) => {
      const rejected: RejectedTool[] = [];
      const options = {
        io: ctx.io,
        common: ctx.common,
        style: ctx.style,
        showStderr: false,
        client: { onToolRejected: (tool: RejectedTool) => rejected.push(tool) },
      };
      return withSession(target, options, async ({ client }) => ({
        name: target.name ?? client.serverInfo?.name ?? targetLabel(target),
        target,
        tools: await client.listTools(),
        instructions: client.instructions,
        rejected,
      }));
    }),
  );
  const servers: ServerTools[] = [];
  const seen = new Map<string, number>();
  let failed = 0;
  settled.forEach((outcome, index) => {
    const target = targets[index];
    if (target === undefined) return;
    if (outcome.status === 'rejected') {
      failed += 1;
      const { message, hint } = explain(outcome.reason);
      const { io, style } = ctx;
      io.stderr.write(
        `${style.red(`mcpkit ${ctx.name}:`)} cannot list the tools of ${targetLabel(target)}: ${message}\n`,
      );
      if (hint !== undefined) io.stderr.write(`${style.dim(`hint: ${hint}`)}\n`);
      return;
    }
    const count = (seen.get(outcome.value.name) ?? 0) + 1;
    seen.set(outcome.value.name, count);
    const name = count === 1 ? outcome.value.name : `${outcome.value.name}#${String(count)}`;
    servers.push({ ...outcome.value, name });
  });
  return { servers, failed };
}
