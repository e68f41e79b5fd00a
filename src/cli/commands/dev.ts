// mcpkit dev: serves a server module while it is being written. The endpoint is a gateway
// (mcpkit/gateway) whose one upstream is the module, run in a child process (`mcpkit serve
// <file> --stdio`, TypeScript through tsx); a change runs it again beside the serving run and
// swaps them once it has loaded, so clients stay connected and are sent list_changed. Beside
// it: the type check (tsc --watch, when the project has TypeScript) and the inspector.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { stat } from 'node:fs/promises';
import { basename, dirname, relative, resolve } from 'node:path';
import process from 'node:process';
import { Gateway } from '../../gateway/index.js';
import { listen } from '../../transports/http/node.js';
import { flag, text, texts } from '../args.js';
import type { CommandContext } from '../command.js';
import { noMoreArguments, runCommand } from '../command.js';
import { Reloader } from '../dev/reloader.js';
import { startTypeCheck } from '../dev/typecheck.js';
import { watchSources } from '../dev/watch.js';
import { CliError, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { TSX_HINT, isTypeScript, typeScriptLoader } from '../load-module.js';
import {
  DEFAULT_PORT,
  listenError,
  parseAddress,
  untilStopped,
  withHttpDefault,
} from '../serving.js';
import { version } from '../version.js';

/** The --help text. */
export const help: string = `Usage: mcpkit dev <file.ts|file.js> [--http [host:]port] [flags]

Serves a server module while you write it (a module that exports an McpServer, as mcpkit
serve takes) over Streamable HTTP on 127.0.0.1 (port ${String(DEFAULT_PORT)} unless given), and
reloads it on every change: the module runs in a child process, a change runs it again
beside the running one, and once the new one has loaded it takes over; the endpoint stays up
and connected clients are sent list_changed. A version that fails to load (a syntax error, a
throw at start) is reported and the last one that loaded keeps serving.

TypeScript runs through tsx, which must be installed beside mcpkit (npm install -D tsx):
Node 20 cannot run TypeScript itself, and tsx also takes what tsc wants of a project
(imports of ./tools.js for ./tools.ts, enums, tsconfig paths). Type errors are printed as
they come by tsc --noEmit --watch with the project's tsconfig.json, when the project has
typescript installed; they never stop serving.

It watches the module's folder and those below it (not node_modules, dist, build or hidden
folders): JavaScript, TypeScript and JSON files. It opens mcpkit inspect on the endpoint
unless --no-inspect. Everything works offline. Ctrl-C stops it all.

Flags:
  --http [host:]port   where to serve (default 127.0.0.1:${String(DEFAULT_PORT)}; 0 picks a free port)
  --watch <folder>     also watch this folder (repeatable), e.g. a shared folder beside it
  --no-inspect         do not start the inspector
  --no-open            start the inspector without opening a browser
  --no-typecheck       do not run tsc
  -q, --quiet          say nothing on stderr but the URL and the server's own output

Examples:
  mcpkit dev src/server.ts
  mcpkit dev src/server.ts --http 0 --no-inspect
  mcpkit dev server.js --watch ../shared`;

const OPTIONS = {
  http: { type: 'string' },
  watch: { type: 'string', multiple: true },
  'no-inspect': { type: 'boolean' },
  'no-open': { type: 'boolean' },
  'no-typecheck': { type: 'boolean' },
} as const;

/** Runs `mcpkit dev`; resolves once stopped. */
export function run(args: readonly string[], io: Io): Promise<number> {
  return runCommand(
    { name: 'dev', options: OPTIONS, help },
    { args: withHttpDefault(args), io },
    async (ctx) => {
      const [path, ...extra] = ctx.parsed.positionals;
      if (path === undefined) throw new UsageError('which module? give its path');
      noMoreArguments(extra);
      const file = resolve(path);
      if (
        !(await stat(file).then(
          (info) => info.isFile(),
          () => false,
        ))
      ) {
        throw new UsageError(
          `no file ${path}`,
          'give the path of a module that exports an McpServer',
        );
      }
      const loader = isTypeScript(file) ? await typeScriptLoader() : 'node';
      if (loader === undefined) {
        throw new CliError(
          `${path} is TypeScript, and tsx, which mcpkit runs it with, is not installed`,
          {
            hint: TSX_HINT,
            exitCode: 3,
          },
        );
      }
      const address = parseAddress(text(ctx.parsed, 'http') ?? String(DEFAULT_PORT));
      const how = !isTypeScript(file)
        ? 'JavaScript'
        : loader === 'tsx'
          ? 'TypeScript through tsx'
          : "TypeScript through Node's type stripping";
      await serveDev(ctx, { file, path, address, how });
      return 0;
    },
  );
}

/** Serves `file` until a signal, with the reloader, the watcher, tsc and the inspector. */
async function serveDev(
  ctx: CommandContext,
  run: { file: string; path: string; address: { host: string; port: number }; how: string },
): Promise<void> {
  const { io, style } = ctx;
  const say = (line: string) => {
    if (!ctx.common.quiet) io.stderr.write(`${style.dim(`mcpkit dev: ${line}`)}\n`);
  };
  const cli = resolve(process.argv[1] ?? '');
  const reloader = new Reloader(
    {
      cli,
      file: run.file,
      env: stringEnv(io.env),
      onLine: (line) => io.stderr.write(`${line.replace(/^mcpkit serve:/, 'mcpkit dev:')}\n`),
    },
    {
      failed: (error, serving) => {
        io.stderr.write(
          `${style.red('mcpkit dev:')} ${error.message}; ${serving ? 'the last version that loaded keeps serving' : 'nothing is served until it loads'}: fix it and save\n`,
        );
      },
      exited: (how) => {
        say(`the server's process ended (${how}); starting it again`);
      },
    },
  );
  let connections = 0;
  const gateway = await Gateway.start(
    { servers: { [upstreamName(run.file)]: { transport: reloader.transport } }, curation: {} },
    {
      info: { name: 'mcpkit-dev', title: `mcpkit dev: ${basename(run.file)}`, version: version() },
      timing: { backoffMs: 50, maxBackoffMs: 1000, pingIntervalMs: 0, startTimeoutMs: 60_000 },
      onEvent: (event) => {
        if (event['event'] !== 'connected') return;
        connections++;
        const tools = Number(event['tools']);
        if (connections > 1) say(`reloaded: ${String(tools)} tool${tools === 1 ? '' : 's'}`);
      },
    },
  );
  // Stopped in this order: what is started last first, but the runs of the module before the
  // endpoint (a Ctrl-C reaches them too: their end must not start a new one).
  const stops: (() => unknown)[] = [() => reloader.close(), () => gateway.close()];
  try {
    let listening;
    try {
      listening = await listen(() => gateway.server, { ...run.address, health: true });
    } catch (error) {
      throw listenError(error, run.address);
    }
    stops.splice(1, 0, () => listening.close());
    // Watching before saying it serves: a change made as soon as it says so is not missed.
    const roots = [dirname(run.file), ...texts(ctx.parsed, 'watch').map((dir) => resolve(dir))];
    const watcher = await watchSources(roots, (changed) => {
      say(`${relative(process.cwd(), changed)} changed: reloading`);
      reloader.reload();
    });
    stops.unshift(() => {
      watcher.close();
    });
    io.stderr.write(
      ctx.common.quiet
        ? `${listening.url}\n`
        : `mcpkit dev: serving ${run.path} (${run.how}) at ${listening.url}\n`,
    );
    stops.unshift(sideTools(ctx, { file: run.file, url: listening.url, cli, say }));
    await untilStopped();
    say('stopping');
  } finally {
    for (const stop of stops) await stop();
  }
}

/** Starts the type check and the inspector, as asked; returns what stops them (and waits). */
function sideTools(
  ctx: CommandContext,
  options: { file: string; url: string; cli: string; say: (line: string) => void },
): () => Promise<void> {
  const { io, style } = ctx;
  const stops: (() => unknown)[] = [];
  if (isTypeScript(options.file) && !flag(ctx.parsed, 'no-typecheck')) {
    const check = startTypeCheck(options.file, (line) => {
      io.stderr.write(`${style.yellow('tsc:')} ${line}\n`);
    });
    if (check.running)
      stops.push(() => {
        check.close();
      });
    else options.say(`type errors are not checked: ${check.reason}`);
  }
  if (!flag(ctx.parsed, 'no-inspect')) {
    const inspector: ChildProcess = spawn(
      process.execPath,
      [options.cli, 'inspect', options.url, ...(flag(ctx.parsed, 'no-open') ? ['--no-open'] : [])],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    inspector.on('error', (error) => {
      options.say(`the inspector did not start: ${error.message}`);
    });
    // An inspector that never started (its 'error' above) has nothing to wait for.
    const exited = once(inspector, 'exit').catch(() => undefined);
    stops.push(async () => {
      if (inspector.exitCode !== null || inspector.signalCode !== null) return;
      inspector.kill('SIGTERM');
      await exited;
    });
  }
  return async () => {
    for (const stop of stops) await stop();
  };
}

/** The upstream's name in the gateway: the file's base name, in the characters names take. */
function upstreamName(file: string): string {
  const name = basename(file)
    .replace(/\.[^.]*$/, '')
    .replace(/[^a-zA-Z0-9_-]/g, '_');
  return name === '' ? 'server' : name;
}

/** The variables of `env` that have a value: the module runs with the user's environment. */
function stringEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) result[key] = value;
  return result;
}
