#!/usr/bin/env node
// The `mcpkit` command line: dispatches to one command module per command (each exports
// `run(args, io)`) and maps the outcome to the exit code. See docs/cli.md.
import { realpathSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { closest } from './did-you-mean.js';
import { ExitCode } from './errors.js';
import type { Io } from './io.js';
import { processIo } from './io.js';
import { createStyle } from './output.js';
import { version } from './version.js';

/** What a command module exports. */
interface CommandModule {
  readonly help: string;
  run(args: readonly string[], io: Io): Promise<number>;
}

/** A command: its line in the global help, and its module, loaded only when it runs. */
interface Command {
  readonly summary: string;
  load(): Promise<CommandModule>;
}

/** Every command, in the order the help lists them. */
const COMMANDS: Readonly<Record<string, Command>> = {
  serve: {
    summary: 'run a reference server (pingme, everything, sql, utilix, demo) or your own',
    load: () => import('./commands/serve.js'),
  },
  dev: {
    summary:
      'serve a module (.ts or .js) while you write it: reloads on change, type errors, inspector',
    load: () => import('./commands/dev.js'),
  },
  info: {
    summary: 'show the negotiated era and revision, server identity, capabilities, instructions',
    load: () => import('./commands/info.js'),
  },
  list: {
    summary: 'list tools (default), resources, templates or prompts',
    load: () => import('./commands/list.js'),
  },
  call: {
    summary: 'call a tool: progress, logs, elicitation, rendered content',
    load: () => import('./commands/call.js'),
  },
  read: { summary: 'read a resource', load: () => import('./commands/read.js') },
  prompt: {
    summary: 'get a prompt, its arguments filled in',
    load: () => import('./commands/prompt.js'),
  },
  tasks: {
    summary: 'list tasks, show one, wait for its result or cancel it',
    load: () => import('./commands/tasks.js'),
  },
  skills: {
    summary: 'list the agent skills a server publishes, or fetch one (verified)',
    load: () => import('./commands/skills.js'),
  },
  complete: {
    summary: 'complete a prompt argument or a template variable',
    load: () => import('./commands/complete.js'),
  },
  chat: {
    summary: "chat with a model (Anthropic or OpenAI-compatible) that calls the servers' tools",
    load: () => import('./commands/chat.js'),
  },
  gateway: {
    summary: 'serve many servers as one: namespaced, curated, within a token budget, any transport',
    load: () => import('./commands/gateway.js'),
  },
  inspect: {
    summary: 'open a web inspector for a server: tools as forms, results, the wire log, tokens',
    load: () => import('./commands/inspect.js'),
  },
  replay: {
    summary: 'send a transcript (from inspect or by hand) to a server again and diff the answers',
    load: () => import('./commands/replay.js'),
  },
  budget: {
    summary: 'count the tokens each tool definition costs in a model context',
    load: () => import('./commands/budget.js'),
  },
  lint: {
    summary: 'check tool definitions for problems models trip on',
    load: () => import('./commands/lint.js'),
  },
  login: {
    summary: 'sign in to a server that needs authorization (OAuth), ahead of use',
    load: () => import('./commands/login.js'),
  },
  logout: {
    summary: 'forget the tokens stored for a server',
    load: () => import('./commands/logout.js'),
  },
  auth: {
    summary:
      'auth dev-server: a development authorization server on 127.0.0.1 (not for production)',
    load: () => import('./commands/auth.js'),
  },
};

function usage(): string {
  const names = Object.keys(COMMANDS);
  const width = Math.max(...names.map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(
    ([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`,
  );
  return `mcpkit ${version()}: a command line for the Model Context Protocol

Usage: mcpkit <command> [target] [arguments] [flags]

A target is a server URL given first (Streamable HTTP), or a command given last, after --
(stdio): mcpkit list http://127.0.0.1:3000/mcp, or mcpkit list -- node server.js.

Commands:
${lines.join('\n')}

Shared flags: --json, --header 'K: V', --protocol <revision>, --timeout <ms>, --quiet,
--trace (every JSON-RPC message on stderr), --debug (stack traces).

Exit codes: 0 success, 1 tool error (isError) or lint error, 2 protocol or connection
error, 3 bad usage.

Run "mcpkit <command> --help" for a command's flags and examples. Walkthrough: docs/cli.md.
`;
}

/** Runs the CLI with `args` (without node and the script) and returns the exit code. */
export async function main(args: readonly string[], io: Io): Promise<number> {
  const [first, ...rest] = args;
  if (first === '--version' || first === '-v' || first === 'version') {
    io.stdout.write(`${version()}\n`);
    return ExitCode.Ok;
  }
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    const topic = first === 'help' ? rest[0] : undefined;
    const command = topic === undefined ? undefined : COMMANDS[topic];
    io.stdout.write(command === undefined ? usage() : `${(await command.load()).help}\n`);
    return ExitCode.Ok;
  }
  const command = COMMANDS[first];
  if (command === undefined) {
    const style = createStyle(io.color);
    const names = Object.keys(COMMANDS);
    const near = closest(first, names);
    const hint =
      near === undefined
        ? `the commands are ${names.join(', ')}; run "mcpkit --help"`
        : `did you mean "mcpkit ${near}"? (run "mcpkit --help" for every command)`;
    io.stderr.write(`${style.red('mcpkit:')} unknown command "${first}"\n`);
    io.stderr.write(`${style.dim(`hint: ${hint}`)}\n`);
    return ExitCode.Usage;
  }
  return (await command.load()).run(rest, io);
}

/** Whether this module is the program being run (not imported, e.g. by a test). */
function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  const io = processIo();
  const code = await main(process.argv.slice(2), io);
  // Exit once the output is flushed, even if a library left a handle open (an HTTP keep-alive
  // socket, a database worker): the command is done.
  process.exitCode = code;
  process.stdout.write('', () => {
    process.stderr.write('', () => {
      process.exit(code);
    });
  });
}
