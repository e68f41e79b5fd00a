// mcpkit inspect: a web inspector for any MCP server. Starts the inspector's local server
// (src/cli/inspect/server.ts) on 127.0.0.1, prints its URL with the access token, opens the
// browser where there is one, and runs until SIGINT or SIGTERM, closing the MCP session then.
import { spawn } from 'node:child_process';
import process from 'node:process';
import { isProtocolRevision, PROTOCOL_REVISIONS } from '../../protocol/index.js';
import type { ProtocolRevision } from '../../protocol/index.js';
import { flag, text } from '../args.js';
import type { CommandContext } from '../command.js';
import { noMoreArguments, runCommand } from '../command.js';
import { UsageError } from '../errors.js';
import type { Inspector } from '../inspect/server.js';
import { isLoopback, startInspector } from '../inspect/server.js';
import type { Io } from '../io.js';
import { cliOAuth, storedTokensUsable, tokenFile } from '../oauth.js';
import { listenError, untilStopped } from '../serving.js';
import type { Target } from '../target.js';
import { singleTarget, targetLabel } from '../target.js';
import { messageOf } from '../../internal/message-of.js';

/** The --help text. */
export const help: string = `Usage: mcpkit inspect [<url> | -- <command …>] [flags]

Opens a web inspector for an MCP server: its tools as forms (each tool's token cost and lint
findings beside it), results rendered by type, progress and cancellation, elicitation and
sampling answered in the page, resources (read, subscribe), prompts with completion, logs,
tasks, roots, and the wire log of every JSON-RPC message and HTTP exchange, downloadable as a
transcript that "mcpkit replay" sends again. Both eras: auto (2026-07-28 first) or one pinned.

The inspector listens on 127.0.0.1 (a random port unless --port) and accepts only the URL's
token and loopback Host and Origin headers (the DNS-rebinding defence). A tool's MCP App view
is rendered from a second port, another origin with no API (--sandbox-port). It prints the
URL and opens the browser (not without a display, a terminal, or with --no-open). The server
to inspect may be given here or chosen in the page. Ctrl-C (SIGINT) or SIGTERM closes the
session and exits.

A server that needs authorization (OAuth) is signed in to as by every command: the tokens of
"mcpkit login", else a sign-in in the browser (the --client-id, --grant and --scope flags
apply). An Authorization header, given with -H or in the page, is used instead.

Flags:
  --port <port>           the port to listen on (default 0: a free one)
  --sandbox-port <port>   the port of the MCP Apps sandbox, the second origin views run on
                          (default 0: a free one; a fixed one suits a proxy or a firewall)
  --host <address>        the address to bind (default 127.0.0.1; anything else is reachable
                          by others on the network: the token is then all that protects it)
  --no-open               print the URL, do not open a browser
  --allow-stdio           let the page start stdio servers (commands); implied for a command
                          given after --
  --mode <auto|revision>  the protocol revision: auto (default) or one of
                          ${PROTOCOL_REVISIONS.join(', ')}
  -H, --header 'K: V'     an HTTP header for the URL target (repeatable)
  --timeout <ms>          timeout of each request, and how long a server's question waits for
                          an answer in the page (default 60000)
  -q, --quiet             print only the URL

Examples:
  mcpkit inspect http://127.0.0.1:3000/mcp
  mcpkit inspect -- node server.js
  mcpkit inspect --allow-stdio --port 6274 --no-open
  mcpkit inspect http://127.0.0.1:3000/mcp -H 'Authorization: Bearer my-token' --mode 2025-11-25`;

/** How long connecting may take when the server may ask for a sign-in first. */
const SIGN_IN_MS = 300_000;

const OPTIONS = {
  port: { type: 'string' },
  'sandbox-port': { type: 'string' },
  host: { type: 'string' },
  'no-open': { type: 'boolean' },
  'allow-stdio': { type: 'boolean' },
  mode: { type: 'string' },
} as const;

/** Runs `mcpkit inspect`; resolves once stopped. */
export function run(args: readonly string[], io: Io): Promise<number> {
  return runCommand({ name: 'inspect', options: OPTIONS, help }, { args, io }, async (ctx) => {
    const target = optionalTarget(ctx);
    const host = text(ctx.parsed, 'host') ?? '127.0.0.1';
    const port = parsePort(text(ctx.parsed, 'port'), '--port');
    const sandboxPort = parsePort(text(ctx.parsed, 'sandbox-port'), '--sandbox-port');
    if (port !== 0 && sandboxPort === port) {
      throw new UsageError(
        `--sandbox-port ${String(port)} is the inspector's own port`,
        'the sandbox is another origin: give it another port (0 picks a free one)',
      );
    }
    const mode = parseMode(text(ctx.parsed, 'mode'), ctx.common.protocol);
    if (!isLoopback(host)) {
      ctx.io.stderr.write(
        `${ctx.style.yellow(`warning: listening on ${host}: others on the network can reach the inspector; only its token protects it`)}\n`,
      );
    }
    let inspector: Inspector;
    try {
      inspector = await startInspector({
        host,
        port,
        sandboxPort,
        mode,
        allowStdio: flag(ctx.parsed, 'allow-stdio') || target?.kind === 'command',
        ...(ctx.common.timeoutMs === undefined ? {} : { timeoutMs: ctx.common.timeoutMs }),
        auth: (url) => ({
          authorizer: cliOAuth(url, ctx),
          // A server first contacted may need a sign-in in the browser: give it five minutes.
          ...(storedTokensUsable(tokenFile(ctx.io.env, url), url)
            ? {}
            : { connectTimeoutMs: Math.max(ctx.common.timeoutMs ?? 0, SIGN_IN_MS) }),
        }),
        ...(ctx.common.quiet
          ? {}
          : { stderr: (chunk: string) => ctx.io.stderr.write(ctx.style.dim(chunk)) }),
      });
    } catch (error) {
      throw startError(error, { host, port, sandboxPort });
    }
    announce(ctx, inspector, target);
    if (shouldOpen(ctx)) openBrowser(inspector.url);
    // Connected after the URL is out: the page shows "connecting", and a sign-in may take long.
    if (target !== undefined) void connectTo(ctx, inspector, target);
    const reason = await untilStopped();
    say(ctx, `mcpkit inspect: stopping (${reason})`);
    await inspector.close();
    return 0;
  });
}

/** Connects at start; a failure is told on stderr (and shown in the page). */
async function connectTo(ctx: CommandContext, inspector: Inspector, target: Target): Promise<void> {
  const state = await inspector.connect(target).catch((error: unknown) => ({
    error: messageOf(error),
    revision: undefined,
  }));
  if (state.error !== undefined) {
    ctx.io.stderr.write(`${ctx.style.yellow(`mcpkit inspect: ${state.error}`)}\n`);
  } else {
    say(ctx, `mcpkit inspect: connected (${state.revision ?? 'unknown revision'})`);
  }
}

function optionalTarget(ctx: CommandContext): Target | undefined {
  if (ctx.parsed.positionals.length === 0 && ctx.parsed.command === undefined) return undefined;
  const { target, rest } = singleTarget(ctx.parsed, ctx.common);
  noMoreArguments(rest);
  return target;
}

function parsePort(value: string | undefined, flagName: string): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (!/^\d{1,5}$/.test(value) || port > 65_535) {
    throw new UsageError(
      `invalid ${flagName} "${value}"`,
      'write a port number (0 picks a free one)',
    );
  }
  return port;
}

/** Why the inspector could not start, naming the sandbox's port when that one failed. */
function startError(
  error: unknown,
  { host, port, sandboxPort }: { host: string; port: number; sandboxPort: number },
): Error {
  const failed = (error as { code?: unknown; port?: unknown }).port;
  const code = (error as { code?: unknown }).code;
  if (sandboxPort !== 0 && failed === sandboxPort && failed !== port) {
    const where = `${host}:${String(sandboxPort)}`;
    if (code === 'EADDRINUSE') {
      return new UsageError(
        `the sandbox port ${where} is already in use`,
        'pick another --sandbox-port (0 picks a free one)',
      );
    }
    if (code === 'EACCES') {
      return new UsageError(
        `no permission to listen on ${where} (--sandbox-port)`,
        'use a port above 1023',
      );
    }
  }
  return listenError(error, { host, port });
}

function parseMode(
  value: string | undefined,
  protocol: ProtocolRevision | undefined,
): 'auto' | ProtocolRevision {
  if (value === undefined) return protocol ?? 'auto';
  if (value === 'auto' || isProtocolRevision(value)) return value;
  throw new UsageError(
    `invalid --mode "${value}"`,
    `write auto or one of ${PROTOCOL_REVISIONS.join(', ')}`,
  );
}

function announce(ctx: CommandContext, inspector: Inspector, target: Target | undefined): void {
  ctx.io.stdout.write(`${inspector.url}\n`);
  if (target !== undefined) say(ctx, `mcpkit inspect: inspecting ${targetLabel(target)}`);
  say(ctx, 'mcpkit inspect: open the URL above (it holds the access token); Ctrl-C stops');
}

function say(ctx: CommandContext, line: string): void {
  if (!ctx.common.quiet) ctx.io.stderr.write(`${ctx.style.dim(line)}\n`);
}

/** Whether to open a browser: not with --no-open, without a terminal, or (Linux) a display. */
function shouldOpen(ctx: CommandContext): boolean {
  if (flag(ctx.parsed, 'no-open') || !ctx.io.isTTY) return false;
  if (process.platform === 'darwin' || process.platform === 'win32') return true;
  const env = ctx.io.env;
  return Boolean(env['DISPLAY'] ?? env['WAYLAND_DISPLAY']);
}

/** Opens `url` in the default browser, detached; any failure is ignored (the URL is printed). */
function openBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No opener: the URL is printed.
  }
}
