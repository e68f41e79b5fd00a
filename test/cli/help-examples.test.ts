// Every example in `mcpkit <command> --help` runs, against the demo (served over HTTP, and over
// stdio where an example spawns `node server.js`). An example is run as written, with only these
// substitutions, each a stand-in for something on the user's machine:
// - the URL http://127.0.0.1:3000/mcp (and :3001) → the demo this test serves on a free port;
// - `node server.js` → the demo over stdio; `mcpkit` → the CLI under test;
// - `npx -y @modelcontextprotocol/server-everything` → the installed devDependency (no network);
// - a `--config` file → one naming the demo; `--out-dir ./out` → a scratch folder;
// - `| jq …` and a trailing `(comment)` are left off; serve's ports become free ones.
// Serve examples run until they say they are serving. The examples that need what this machine
// lacks are listed in NOT_RUN with the reason.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, FIXTURES, ROOT, cli, collect, spawnCli, waitFor } from './run-cli.js';
import type { FakeModel } from '../helpers/fake-model.js';
import { startFakeModel } from '../helpers/fake-model.js';

const require = createRequire(import.meta.url);
const EVERYTHING = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);

/** Examples not run here, and why (matched against the example as written). */
const NOT_RUN: Record<string, string> = {
  'DATABASE_URL=postgres://localhost/shop mcpkit serve sql --http 0.0.0.0:3000 --allowed-host db.example.com':
    'needs a PostgreSQL database "shop" on a least-privileged login; test/cli/serve.test.ts serves sql on a real one',
  'mcpkit login https://mcp.example.com/mcp':
    'needs a server behind an authorization server and a browser; test/cli/oauth.test.ts signs in against oidc-provider',
  'mcpkit login --no-browser https://mcp.example.com/mcp':
    'needs a person to open the URL; test/cli/oauth.test.ts drives the sign-in with $BROWSER',
  'mcpkit login --grant client_credentials --client-id my-agent https://mcp.example.com/mcp':
    'needs a registered client at an authorization server; test/cli/oauth.test.ts runs the grant against oidc-provider',
  'mcpkit auth dev-server':
    'runs until stopped (on port 9000); test/cli/auth-dev-server.test.ts runs it on a free port, with a server behind it and a sign-in',
  'mcpkit auth dev-server --port 0 --scopes mcp:read':
    'runs until stopped; test/cli/auth-dev-server.test.ts runs it so, with a server behind it and a sign-in',
  'mcpkit dev src/server.ts':
    'serves a module being written until stopped; test/cli/dev.test.ts runs it on a scratch project and edits the module',
  'mcpkit dev src/server.ts --http 0 --no-inspect':
    'serves a module being written until stopped; test/cli/dev.test.ts runs it on a scratch project and edits the module',
  'mcpkit dev server.js --watch ../shared':
    'serves a module being written until stopped; test/cli/dev.test.ts runs it on a scratch project and edits the module',
  'mcpkit tasks get http://127.0.0.1:3000/mcp 786512e2-9e0d-44bd-8f29-789f320fe840':
    'needs a task made before under that id; test/cli/tasks.test.ts follows one it made',
  'mcpkit tasks result http://127.0.0.1:3000/mcp 786512e2-9e0d-44bd-8f29-789f320fe840 --json':
    'needs a task made before under that id; test/cli/tasks.test.ts follows one it made',
  'mcpkit tasks cancel http://127.0.0.1:3000/mcp 786512e2-9e0d-44bd-8f29-789f320fe840':
    'needs a task made before under that id; test/cli/tasks.test.ts cancels one it made',
  'mcpkit replay session.txt http://127.0.0.1:3000/mcp':
    'needs a transcript recorded against that server; test/cli/replay.test.ts replays ones mcpkit inspect recorded, and the golden transcripts',
  'mcpkit replay test/transcripts/legacy-walkthrough.txt -- node server.js':
    'the golden transcripts pin the sum server of the tests, not the demo; test/cli/replay.test.ts replays them against it',
  'mcpkit replay session.txt http://127.0.0.1:3000/mcp --json':
    'needs a transcript recorded against that server; test/cli/replay.test.ts checks --json',
  'mcpkit logout https://mcp.example.com/mcp':
    'runs in test/cli/oauth.test.ts after a sign-in (here it would only say nothing was stored)',
};

/** The commands `mcpkit --help` lists. */
async function commands(): Promise<string[]> {
  const ran = await cli(['--help']);
  const section = ran.stdout.split('Commands:\n')[1]?.split('\n\n')[0] ?? '';
  return section
    .split('\n')
    .map((line) => /^\s+(\S+)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
}

/** The lines under `Examples:` of a command's --help. */
async function examples(command: string): Promise<string[]> {
  const ran = await cli([command, '--help']);
  const section = ran.stdout.split('Examples:\n')[1]?.split('\n\n')[0] ?? '';
  return section
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** Splits a shell line into words (single quotes, double quotes and backslash escapes). */
function words(line: string): string[] {
  const out: string[] = [];
  const pattern = /'([^']*)'|"((?:[^"\\]|\\.)*)"|((?:[^\s'"\\]|\\.)+)/g;
  let current = '';
  let last = 0;
  for (const match of line.matchAll(pattern)) {
    if (match.index > last && /\s/.test(line.slice(last, match.index)) && current !== '') {
      out.push(current);
      current = '';
    }
    current +=
      match[1] ?? match[2]?.replace(/\\(.)/g, '$1') ?? match[3]?.replace(/\\(.)/g, '$1') ?? '';
    last = match.index + match[0].length;
  }
  if (current !== '') out.push(current);
  return out;
}

interface Prepared {
  readonly env: Record<string, string>;
  readonly args: string[];
  readonly serve: boolean;
}

/** The example as it runs here (see the substitutions above). */
function prepare(example: string, stand: { url: string; config: string; out: string }): Prepared {
  let line = example.replace(/\s{2,}\(.*\)$/, '').replace(/\s*\|\s*jq .*$/, '');
  line = line.replaceAll('http://127.0.0.1:3000/mcp', stand.url);
  line = line.replaceAll('http://127.0.0.1:3001/mcp', stand.url);
  const env: Record<string, string> = {};
  let all = words(line);
  while (/^[A-Z_]+=/.test(all[0] ?? '')) {
    const [key = '', ...value] = (all.shift() ?? '').split('=');
    env[key] = value.join('=');
  }
  expect(all[0], example).toBe('mcpkit');
  all = all.slice(1);
  const dash = all.indexOf('--');
  const own = dash < 0 ? all : all.slice(0, dash);
  let child = dash < 0 ? [] : all.slice(dash + 1);
  if (child.join(' ') === 'node server.js') child = ['node', BIN, 'serve', 'demo'];
  if (child[0] === 'mcpkit') child = ['node', BIN, ...child.slice(1)];
  if (child.join(' ') === 'npx -y @modelcontextprotocol/server-everything') {
    child = ['node', EVERYTHING, 'stdio'];
  }
  const config = own.indexOf('--config');
  if (config >= 0) own[config + 1] = stand.config;
  const out = own.indexOf('--out-dir');
  if (out >= 0) own[out + 1] = stand.out;
  // inspect runs until stopped, like serve: it is run until it prints its URL.
  const serve = own[0] === 'serve' || own[0] === 'inspect';
  const port = own.indexOf('--port');
  if (own[0] === 'inspect' && port >= 0) own[port + 1] = '0';
  if (own[0] === 'serve') {
    const http = own.indexOf('--http');
    if (http >= 0) {
      const value = own[http + 1];
      if (value === undefined || value.startsWith('-')) own.splice(http + 1, 0, '0');
      else own[http + 1] = value.includes(':') ? '127.0.0.1:0' : '0';
    }
    const path = own[1] ?? '';
    if (path.endsWith('.js')) own[1] = join(FIXTURES, 'server.mjs');
  }
  return { env, args: child.length === 0 ? own : [...own, '--', ...child], serve };
}

/** Runs a serve example until it serves (HTTP: says so; stdio: answers initialize). */
async function serveUntilReady(prepared: Prepared): Promise<void> {
  const child: ChildProcess = spawn(process.execPath, [BIN, ...prepared.args], {
    cwd: ROOT,
    env: { ...process.env, ...prepared.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  try {
    if (prepared.args[0] === 'inspect') {
      await waitFor(child, /mcpkit inspect: open the URL above/);
      return;
    }
    if (prepared.args.includes('--http')) {
      await waitFor(child, /serving at http:\/\/\S+/);
      return;
    }
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      },
    };
    child.stdin?.write(`${JSON.stringify(init)}\n`);
    const [chunk] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
    expect(JSON.parse(chunk.toString().split('\n')[0] ?? '')).toMatchObject({ id: 1, result: {} });
  } finally {
    child.kill('SIGTERM');
    await collect(child, 10_000);
  }
}

/**
 * The model API of the chat examples: a fake (test/helpers/fake-model.ts) that calls a PingME
 * tool when one is offered and no result came back yet, and otherwise answers.
 */
async function startChatModel(): Promise<FakeModel> {
  const step = (seen: { tools: string[]; results: unknown[] }) => {
    const ping = seen.tools.find((name) => name.endsWith('PingME'));
    return ping !== undefined && seen.results.length === 0
      ? { toolCalls: [{ name: ping }] }
      : { text: 'The magic word is BISMILLAH.' };
  };
  return startFakeModel(Array.from({ length: 50 }, () => step));
}

describe('the examples of every --help', () => {
  let demo: ChildProcess;
  let model: FakeModel;
  /** The endpoints the chat examples reach (a stand-in for the real model APIs). */
  const modelEnv: Record<string, string> = {};
  const stand = { url: '', config: '', out: '' };

  beforeAll(async () => {
    demo = spawnCli(['serve', 'demo', '--http', '0']);
    const match = await waitFor(demo, /serving at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/);
    stand.url = match[1] ?? '';
    const dir = mkdtempSync(join(tmpdir(), 'mcpkit-help-'));
    stand.config = join(dir, 'config.json');
    writeFileSync(stand.config, JSON.stringify({ mcpServers: { demo: { url: stand.url } } }));
    stand.out = join(dir, 'out');
    model = await startChatModel();
    Object.assign(modelEnv, {
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'sk-test',
      OPENAI_BASE_URL: model.openaiUrl,
      OPENAI_API_KEY: 'sk-test',
    });
  }, 30_000);

  afterAll(async () => {
    await model.close();
    demo.kill('SIGTERM');
    await once(demo, 'close');
  });

  it('every command has examples, and each one runs', async () => {
    const names = await commands();
    expect(names.length).toBeGreaterThan(8);
    const failures: string[] = [];
    let ran = 0;
    for (const command of names) {
      const lines = await examples(command);
      if (command !== 'trace')
        expect(lines.length, `${command} --help has examples`).toBeGreaterThan(0);
      for (const example of lines) {
        if (NOT_RUN[example] !== undefined) {
          console.log(`help examples: not run: ${example}: ${NOT_RUN[example] ?? ''}`);
          continue;
        }
        const prepared = prepare(example, stand);
        ran++;
        if (prepared.serve) {
          await serveUntilReady(prepared).catch((error: unknown) => {
            failures.push(`${example}\n  ${String(error)}`);
          });
          continue;
        }
        const result = await cli(prepared.args, {
          env: { ...modelEnv, ...prepared.env },
          timeoutMs: 60_000,
        });
        if (result.code !== 0) {
          failures.push(`${example}\n  exit ${String(result.code)}: ${result.stderr.trim()}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(ran).toBeGreaterThan(20);
  }, 180_000);
});
