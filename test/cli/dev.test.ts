// mcpkit dev (issue #43 point 2), real parts: the CLI as a child process serving a TypeScript
// module of a scratch project over HTTP; the module edited on disk. Connected clients of both
// eras stay connected across a reload, are sent list_changed and see the new tool; a syntax
// error is printed and the last version that loaded keeps serving; tsc's errors are printed
// without stopping anything.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../src/client/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/index.js';
import { DIST, ROOT, cli, spawnCli } from './run-cli.js';

const PROJECT = mkdtempSync(join(tmpdir(), 'mcpkit-dev-'));
const FILE = join(PROJECT, 'src', 'server.ts');

/** The module, with the tools named (and a line of its own, if any). */
function writeServer(tools: readonly string[], extra = ''): void {
  const registered = tools
    .map(
      (name) =>
        `server.tool({ name: '${name}', description: 'Says ${name}' }, (): string => '${name}');`,
    )
    .join('\n');
  writeFileSync(
    FILE,
    `import { McpServer } from ${JSON.stringify(join(DIST, 'esm/src/server/index.js'))};

const server = new McpServer({ name: 'scratch', version: '1.0.0' });
${registered}
${extra}
export default server;
`,
  );
}

/** The stderr of a running child, kept whole, and a wait for a pattern in what comes next. */
function stderrOf(child: ChildProcess) {
  let text = '';
  const waiters: { pattern: RegExp; from: number; resolve: (m: RegExpExecArray) => void }[] = [];
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
    for (const waiter of [...waiters]) {
      const match = waiter.pattern.exec(text.slice(waiter.from));
      if (match === null) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(match);
    }
  });
  return {
    get text() {
      return text;
    },
    /** Resolves when `pattern` appears in the stderr written from now on. */
    next(pattern: RegExp): Promise<RegExpExecArray> {
      return new Promise((resolve) => waiters.push({ pattern, from: text.length, resolve }));
    },
  };
}

/** Resolves with the next tools list_changed `client` hears. */
function nextToolsChange(changes: string[]): Promise<void> {
  const seen = changes.length;
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (changes.slice(seen).includes('tools')) {
        clearInterval(timer);
        resolve();
      }
    }, 20);
  });
}

describe('mcpkit dev', () => {
  let dev: ChildProcess;
  let stderr: ReturnType<typeof stderrOf>;
  let url = '';
  beforeAll(async () => {
    mkdirSync(join(PROJECT, 'src'));
    mkdirSync(join(PROJECT, 'node_modules'));
    writeFileSync(join(PROJECT, 'package.json'), '{ "type": "module" }\n');
    // The project's own TypeScript, which the type check runs.
    symlinkSync(join(ROOT, 'node_modules/typescript'), join(PROJECT, 'node_modules/typescript'));
    writeServer(['hello'], "export const count: number = 'not a number';");
    dev = spawnCli(['dev', FILE, '--http', '127.0.0.1:0', '--no-inspect']);
    stderr = stderrOf(dev);
    url = (await stderr.next(/at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/))[1] ?? '';
  }, 60_000);
  afterAll(async () => {
    dev.kill('SIGINT');
    await once(dev, 'close');
    rmSync(PROJECT, { recursive: true, force: true });
  });

  it('reloads on change: clients of both eras stay connected, get list_changed and see the new tool; a syntax error keeps the last version serving', async () => {
    expect(stderr.text).toContain('(TypeScript through tsx)');
    const changes: Record<string, string[]> = { modern: [], legacy: [] };
    const clients = await Promise.all(
      (['modern', 'legacy'] as const).map(async (era) => {
        const client = new Client(
          { name: `dev-test-${era}`, version: '1.0.0' },
          {
            ...(era === 'legacy' ? { mode: { pin: '2025-11-25' as const } } : {}),
            onListChanged: (kind) => changes[era]?.push(kind),
          },
        );
        await client.connect(createStreamableHttpClientTransport(url));
        return { era, client };
      }),
    );
    try {
      for (const { client } of clients) {
        expect((await client.listTools()).map((t) => t.name)).toEqual(['hello']);
      }
      const changed = Promise.all(clients.map(({ era }) => nextToolsChange(changes[era] ?? [])));
      const reloaded = stderr.next(/reloaded: 2 tools/);
      writeServer(['hello', 'bye']);
      await Promise.all([changed, reloaded]);
      for (const { client } of clients) {
        expect((await client.listTools()).map((t) => t.name).sort()).toEqual(['bye', 'hello']);
        expect(await client.callTool('bye')).toMatchObject({ content: [{ text: 'bye' }] });
      }
      // A syntax error: printed, and the version before it goes on serving.
      const failed = stderr.next(/failed to load[^\n]*\n[\s\S]*keeps serving/);
      writeServer(['hello', 'bye'], 'const broken = ;');
      const [failure] = await failed;
      expect(failure).toContain('server.ts');
      expect(stderr.text).toMatch(/Unexpected ";"/);
      for (const { client } of clients) {
        expect(await client.callTool('bye')).toMatchObject({ content: [{ text: 'bye' }] });
      }
      // Mended: served again.
      const back = stderr.next(/reloaded: 3 tools/);
      writeServer(['hello', 'bye', 'again']);
      await back;
      for (const { client } of clients) {
        expect(await client.callTool('again')).toMatchObject({ content: [{ text: 'again' }] });
      }
    } finally {
      await Promise.all(clients.map(({ client }) => client.close()));
    }
  }, 60_000);

  it("prints tsc's type errors as they come, and serves the module all the same", async () => {
    const reported = stderr.next(/tsc: [^\n]*server\.ts\(\d+,\d+\): error TS2322/);
    const reloaded = stderr.next(/reloaded: 1 tool\b/);
    writeServer(['typed'], "export const count: number = 'not a number';");
    await Promise.all([reported, reloaded]);
    const client = new Client({ name: 'dev-test', version: '1.0.0' });
    await client.connect(createStreamableHttpClientTransport(url));
    expect((await client.listTools()).map((t) => t.name)).toEqual(['typed']);
    await client.close();
  }, 60_000);

  it('a JavaScript module, with the inspector opened on the endpoint; Ctrl-C stops them all', async () => {
    const js = join(PROJECT, 'plain.js');
    writeFileSync(
      js,
      `import { McpServer } from ${JSON.stringify(join(DIST, 'esm/src/server/index.js'))};
export const server = new McpServer({ name: 'plain', version: '1.0.0' });
server.tool({ name: 'plain', description: 'Says plain' }, () => 'plain');
`,
    );
    const child = spawnCli(['dev', js, '--http', '127.0.0.1:0', '--no-open']);
    const out = stderrOf(child);
    const served = out.next(/at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/);
    const inspected = out.next(/mcpkit inspect: inspecting (\S+)/);
    const [, at = ''] = await served;
    expect(out.text).toContain('(JavaScript)');
    expect((await inspected)[1]).toBe(at);
    child.kill('SIGINT');
    // 'close' comes once every holder of the stderr pipe is gone: the inspector (which
    // inherited it) has exited too.
    const [code] = (await once(child, 'close')) as [number | null];
    expect(code).toBe(0);
  }, 60_000);

  it('a missing file is told plainly', async () => {
    const ran = await cli(['dev', join(PROJECT, 'nope.ts'), '--no-inspect']);
    expect(ran.code).toBe(3);
    expect(ran.stderr).toContain('no file');
  });
});
