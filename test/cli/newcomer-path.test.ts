// Issue #43's "done when": a newcomer's first hour as one scripted scenario, offline, real
// processes on 127.0.0.1 only (the built CLI from dist/, tsx, tsc, oidc-provider):
//   1. a project with docs/typescript.md's tsconfig (read from the page) and a src/server.ts
//      importing mcpkit: a task tool (tasks(), `task: 'optional'`) and a scope-protected tool;
//   2. `mcpkit dev src/server.ts` serves it over HTTP, its type check finds no error, and the
//      inspector dev opens lists both tools and calls one through its HTTP API;
//   3. `mcpkit auth dev-server`, the same file served by `mcpkit serve --auth-issuer`, and
//      `mcpkit login` signing in through a stand-in browser ($BROWSER follows the redirects);
//      the scoped tool then answers the signed-in user, and the inspector dev started, pointed at
//      the protected server, connects with that sign-in;
//   4. `mcpkit call` of the task tool prints the task's id, `mcpkit tasks result` gives its result:
//      on 2026-07-28 the server makes the task (the CLI declares the tasks extension, no flag);
//      on 2025-11-25 the client asks for it with --task.
// Where the path cannot be taken as the issue writes it: `mcpkit dev` has no auth flags, so
// step 3 serves the same file with `mcpkit serve` (docs/auth.md's recipe); and dev serves the
// module through a gateway that does not pass tasks on (a task tool answers there as a plain
// call), so step 4 runs the task on the `mcpkit serve` endpoint of step 3, signed in.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typescriptProject } from '../helpers/typescript-project.js';
import { FIXTURES, cli, json, spawnCli, waitFor } from './run-cli.js';

/** What a newcomer writes: one tool that may run as a task, one that needs a scope. */
const SERVER = `import { McpServer } from 'mcpkit/server';
import { tasks } from 'mcpkit/tasks';
import { z } from 'zod';

const server = new McpServer({ name: 'first', version: '1.0.0' });
server.extend(tasks());
server.tool(
  {
    name: 'count-words',
    description: 'Counts the words of a text, in the background.',
    inputSchema: z.object({ text: z.string() }),
    task: 'optional',
  },
  async ({ text }, ctx) => {
    await ctx.progress(0, undefined, 'counting');
    return \`\${String(text.split(/\\s+/).filter(Boolean).length)} words\`;
  },
);
server.tool(
  {
    name: 'save-note',
    description: 'Saves a note for the signed-in user.',
    inputSchema: z.object({ note: z.string() }),
    scopes: ['notes:write'],
  },
  ({ note }, ctx) => \`saved "\${note}" for \${ctx.auth?.subject ?? 'nobody'}\`,
);
export default server;
`;

const SERVING = /(http:\/\/127\.0\.0\.1:\d+\/mcp)\n/;
const STEP_MS = 120_000;

/** Resolves with the first match of `pattern` in what `child` writes on stdout from now on. */
function stdoutMatch(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  let seen = '';
  return new Promise((resolve) => {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      seen += chunk;
      const match = pattern.exec(seen);
      if (match !== null) resolve(match);
    });
  });
}

/** The inspector's HTTP API, as its page calls it (the token from the URL it printed). */
function inspectorApi(pageUrl: string) {
  const { origin, searchParams } = new URL(pageUrl);
  const token = searchParams.get('token') ?? '';
  return async (path: string, body?: unknown): Promise<any> => {
    const response = await fetch(`${origin}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'X-Mcpkit-Token': token, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.status, path).toBe(200);
    return response.json();
  };
}

/** Stops a child and waits until every holder of its pipes (dev's inspector too) is gone. */
async function stop(child: ChildProcess | undefined, signal: NodeJS.Signals): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const closed = once(child, 'close');
  child.kill(signal);
  await closed;
}

describe("issue #43: a newcomer's path, offline", () => {
  const project = typescriptProject({
    prefix: 'mcpkit-newcomer-',
    files: { 'src/server.ts': SERVER },
    link: ['typescript'],
  });
  const file = join(project, 'src/server.ts');
  // The sign-in: a config folder of this test's own, and the stand-in browser.
  const env = {
    MCPKIT_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'mcpkit-newcomer-config-')),
    BROWSER: `${process.execPath} ${join(FIXTURES, 'sign-in.mjs')}`,
  };
  let dev: ChildProcess | undefined;
  let authServer: ChildProcess | undefined;
  let served: ChildProcess | undefined;
  let inspector: ReturnType<typeof inspectorApi>;
  let url = '';

  beforeAll(async () => {
    dev = spawnCli(['dev', file, '--http', '127.0.0.1:0', '--no-open'], env);
    // Every wait is set before dev can print what it waits for.
    const page = stdoutMatch(dev, /(http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)\n/);
    const serving = waitFor(dev, SERVING, STEP_MS);
    const typeChecked = waitFor(dev, /tsc: [^\n]*Found (\d+) errors?/, STEP_MS);
    const connected = waitFor(dev, /mcpkit inspect: connected \(([^)]+)\)/, STEP_MS);
    const [[, pageUrl = ''], [, devUrl = ''], [, errors], [, revision]] = await Promise.all([
      page,
      serving,
      typeChecked,
      connected,
    ]);
    expect(devUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    // The page's tsconfig compiles the server: dev's tsc ran with it and found nothing.
    expect(errors).toBe('0');
    expect(revision).toBe('2026-07-28');
    inspector = inspectorApi(pageUrl);
  }, STEP_MS);

  afterAll(async () => {
    await stop(dev, 'SIGINT');
    await stop(served, 'SIGTERM');
    await stop(authServer, 'SIGTERM');
    rmSync(project, { recursive: true, force: true });
    rmSync(env.MCPKIT_CONFIG_DIR, { recursive: true, force: true });
  });

  it('mcpkit dev serves src/server.ts; the inspector it opened lists the tools and calls one', async () => {
    const state = await inspector('/api/state');
    expect(state).toMatchObject({ connected: true, era: 'modern' });
    expect(state.tools.map((tool: { name: string }) => tool.name).sort()).toEqual([
      'count-words',
      'save-note',
    ]);
    expect(state.budget.tools['count-words']).toBeGreaterThan(0);
    const called = await inspector('/api/request', {
      op: 'callTool',
      params: { name: 'count-words', arguments: { text: 'one two three' } },
    });
    expect(called).toMatchObject({ ok: true, result: { content: [{ text: '3 words' }] } });
  });

  it(
    'served behind mcpkit auth dev-server, login signs in and the scoped tool answers the user',
    async () => {
      authServer = spawnCli([
        'auth',
        'dev-server',
        '--port',
        '0',
        '--scopes',
        'mcp:read,notes:write',
      ]);
      const started = await waitFor(authServer, /--client-secret \S+\n/, STEP_MS);
      const issuer = /at (http:\/\/127\.0\.0\.1:\d+) \(NOT FOR PRODUCTION/.exec(started.input)?.[1];
      expect(issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      served = spawnCli([
        'serve',
        file,
        '--http',
        '127.0.0.1:0',
        '--auth-issuer',
        issuer ?? '',
        '--auth-scopes',
        'mcp:read',
      ]);
      url = (await waitFor(served, SERVING, STEP_MS))[1] ?? '';
      // Without a token the server says where to sign in.
      const anonymous = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toContain('resource_metadata=');
      const login = await cli(['login', url, '--json'], { env, timeoutMs: STEP_MS });
      expect(login.code, login.stderr).toBe(0);
      expect(json(login)).toMatchObject({ server: url, issuer, refreshable: true });
      expect(json(login).scope.split(' ')).toContain('notes:write');
      const saved = await cli(['call', url, 'save-note', '--arg', 'note=first'], {
        env,
        timeoutMs: STEP_MS,
      });
      expect(saved.code, saved.stderr).toBe(0);
      expect(saved.stdout).toContain('saved "first" for dev');
      // The inspector dev opened, pointed at the protected server, uses the same sign-in.
      const connected = await inspector('/api/connect', {
        target: { kind: 'url', url, headers: {} },
      });
      expect(connected).toMatchObject({ connected: true });
      expect(
        (await inspector('/api/state')).tools.map((tool: { name: string }) => tool.name),
      ).toContain('save-note');
    },
    STEP_MS,
  );

  it(
    'mcpkit call prints the id of the task it started (both eras); mcpkit tasks result gives the result',
    async () => {
      const called = await cli(['call', url, 'count-words', '--arg', 'text=tasks from the CLI'], {
        env,
        timeoutMs: STEP_MS,
      });
      expect(called.code, called.stderr).toBe(0);
      expect(called.stdout).toContain('4 words');
      const taskId = /mcpkit call: task (\S+) \(follow it: mcpkit tasks get\|result\|cancel /.exec(
        called.stderr,
      )?.[1];
      expect(taskId, called.stderr).toBeDefined();
      const result = await cli(['tasks', 'result', url, taskId ?? '', '--json'], {
        env,
        timeoutMs: STEP_MS,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(json(result)).toMatchObject({ content: [{ type: 'text', text: '4 words' }] });
      const got = await cli(['tasks', 'get', url, taskId ?? '', '--json'], { env });
      expect(got.code, got.stderr).toBe(0);
      expect(json(got)).toMatchObject({ taskId, status: 'completed' });
      // A 2025-11-25 client asks for the task itself: --task.
      const legacy = await cli(
        [
          'call',
          url,
          'count-words',
          '--arg',
          'text=asked for',
          '--task',
          '--protocol',
          '2025-11-25',
        ],
        { env, timeoutMs: STEP_MS },
      );
      expect(legacy.code, legacy.stderr).toBe(0);
      expect(legacy.stdout).toContain('2 words');
      const legacyId = /mcpkit call: task (\S+) /.exec(legacy.stderr)?.[1];
      expect(legacyId, legacy.stderr).toBeDefined();
      const legacyResult = await cli(
        ['tasks', 'result', url, legacyId ?? '', '--protocol', '2025-11-25', '--json'],
        { env, timeoutMs: STEP_MS },
      );
      expect(legacyResult.code, legacyResult.stderr).toBe(0);
      expect(json(legacyResult)).toMatchObject({ content: [{ type: 'text', text: '2 words' }] });
    },
    STEP_MS,
  );
});
