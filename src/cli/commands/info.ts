// mcpkit info: what was negotiated with a server (era and revision) and what it says about
// itself (identity, capabilities, instructions).
import { SHARED_HELP } from '../args.js';
import type { CommandContext } from '../command.js';
import { noMoreArguments, runCommand, sessionOptions } from '../command.js';
import type { Io } from '../io.js';
import { columns, writeJson } from '../output.js';
import type { Target } from '../target.js';
import { singleTarget, targetLabel, withSession } from '../target.js';

/** The --help text. */
export const help: string = `Usage: mcpkit info <url> [flags]
       mcpkit info [flags] -- <command> [args...]

Connects, negotiates a revision and shows what the server says about itself: its name and
version, the era (legacy: initialize handshake; modern: 2026-07-28, stateless), the revision,
its capabilities and its instructions for the model.

Examples:
  mcpkit info http://127.0.0.1:3000/mcp
  mcpkit info -- node server.js
  mcpkit info --protocol 2025-06-18 -- npx -y @modelcontextprotocol/server-everything
  mcpkit info --json http://127.0.0.1:3000/mcp

${SHARED_HELP}`;

/** The shape of `mcpkit info --json`. */
export interface InfoJson {
  /** stdio, streamable-http, or http+sse (after a fallback). */
  transport: string;
  era: string;
  revision: string;
  serverInfo: unknown;
  capabilities: unknown;
  instructions: string | null;
}

/** Runs `mcpkit info`. */
export function run(args: readonly string[], io: Io): Promise<number> {
  return runCommand({ name: 'info', options: {}, help }, { args, io }, async (ctx) => {
    const { target, rest } = singleTarget(ctx.parsed, ctx.common);
    noMoreArguments(rest);
    return withSession(target, sessionOptions(ctx), (session) => {
      const { client } = session;
      const info: InfoJson = {
        transport: session.transportName(),
        era: client.era,
        revision: client.revision,
        serverInfo: client.serverInfo ?? null,
        capabilities: client.serverCapabilities,
        instructions: client.instructions ?? null,
      };
      if (ctx.common.json) writeJson(ctx.io.stdout, info);
      else printInfo(ctx, target, info);
      return Promise.resolve(0);
    });
  });
}

function printInfo(ctx: CommandContext, target: Target, info: InfoJson): void {
  const { io, style } = ctx;
  const server = info.serverInfo as { name?: string; version?: string; title?: string } | null;
  const identity =
    server === null
      ? style.dim('(not sent)')
      : `${server.name ?? '?'} ${server.version ?? ''}${server.title === undefined ? '' : ` "${server.title}"`}`.trim();
  const era =
    info.era === 'modern'
      ? 'modern (stateless; every request carries its revision)'
      : 'legacy (initialize handshake)';
  const via =
    target.kind === 'url'
      ? `${info.transport === 'http+sse' ? 'HTTP+SSE (2024-11-05, after a fallback)' : 'Streamable HTTP'} ${target.url}`
      : `stdio: ${targetLabel(target)}`;
  const rows: [string, string][] = [
    ['server', identity],
    ['transport', via],
    ['era', era],
    ['revision', info.revision],
  ];
  io.stdout.write(columns(rows.map(([key, value]) => [style.bold(key), value])));
  io.stdout.write(`${style.bold('capabilities')}\n`);
  const capabilities = Object.entries(info.capabilities as Record<string, unknown>);
  if (capabilities.length === 0) io.stdout.write(`  ${style.dim('(none)')}\n`);
  else {
    const described = capabilities.map(([name, value]) => [name, describeCapability(value)]);
    io.stdout.write(columns(described, { indent: '  ' }));
  }
  io.stdout.write(`${style.bold('instructions')}\n`);
  io.stdout.write(
    info.instructions === null ? `  ${style.dim('(none)')}\n` : `${indent(info.instructions)}\n`,
  );
}

/** `listChanged, subscribe` for `{listChanged: true, subscribe: true}`; nested keys named. */
function describeCapability(value: unknown): string {
  if (typeof value !== 'object' || value === null) return '';
  return Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== false)
    .map(([key, v]) => (v === true ? key : `${key}: ${JSON.stringify(v)}`))
    .join(', ');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? line : `  ${line}`))
    .join('\n');
}
