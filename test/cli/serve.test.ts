// mcpkit serve: stdio (stdout carries nothing but messages), Streamable HTTP (the endpoint URL
// on stderr), a module path, and clean shutdown on SIGTERM; the client commands over HTTP.
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { DIST, FIXTURES, cli, collect, expectGolden, json, spawnCli, waitFor } from './run-cli.js';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'test', version: '1.0.0' },
  },
};

describe('mcpkit serve', () => {
  const postgres = process.env['MCPKIT_TEST_POSTGRES_URL'];
  (postgres === undefined ? it.skip : it)(
    'serve sql refuses a superuser DATABASE_URL, naming the privilege (needs MCPKIT_TEST_POSTGRES_URL)',
    async () => {
      const ran = await cli(['serve', 'sql'], { env: { DATABASE_URL: postgres! } });
      expect(ran.code).toBe(2);
      expect(ran.stderr).toMatch(/mcpkit serve: refusing to serve: the login "\w+" is a superuser/);
      expect(ran.stderr).toMatch(/hint: .*--allow-privileged-login/);
    },
  );

  it('serve of a TypeScript module runs it through tsx (an optional peer)', async () => {
    const ran = await cli(['serve', join(FIXTURES, 'not-compiled.ts'), '--stdio'], {
      input: `${JSON.stringify(INITIALIZE)}\n`,
    });
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject({
      id: 1,
      result: { serverInfo: { name: 'not-compiled' } },
    });
  });

  it('a TypeScript module outside a "type": "module" package (tsx makes it CommonJS) is served too', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'mcpkit-serve-ts-'));
    const file = join(folder, 'server.ts');
    writeFileSync(
      file,
      `import { McpServer } from ${JSON.stringify(join(DIST, 'esm/src/server/index.js'))};
const server: McpServer = new McpServer({ name: 'commonjs-ts', version: '1.0.0' });
export default server;
`,
    );
    const ran = await cli(['serve', file, '--stdio'], { input: `${JSON.stringify(INITIALIZE)}\n` });
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject({
      result: { serverInfo: { name: 'commonjs-ts' } },
    });
  });

  it('serve pingme --stdio answers initialize, keeps stdout clean and exits at end of input', async () => {
    const child = spawnCli(['serve', 'pingme', '--stdio']);
    const done = collect(child);
    child.stdin?.write(`${JSON.stringify(INITIALIZE)}\n`);
    const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
    child.stdin?.end(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
    const ran = await done;
    expect(ran.code).toBe(0);
    const lines = (chunk.toString() + ran.stdout)
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({
      id: 1,
      result: { protocolVersion: '2025-06-18', serverInfo: { name: 'pingme' } },
    });
    expect(lines.every((line) => line.jsonrpc === '2.0')).toBe(true);
    expect(ran.stderr).toContain('mcpkit serve: pingme is serving on stdio');
  });

  /** `mcpkit serve slip-server.mjs --stdio <extra>`, calling its two tools: what it printed. */
  async function callSlips(extra: string[]) {
    const child = spawnCli(['serve', join(FIXTURES, 'slip-server.mjs'), '--stdio', ...extra]);
    const done = collect(child);
    child.stdin?.write(`${JSON.stringify(INITIALIZE)}\n`);
    await once(child.stdout!, 'data');
    const call = (id: number, name: string) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name, arguments: { city: 'Oslo' } },
      });
    child.stdin?.end(`${call(2, 'forecast')}\n${call(3, 'refuse')}\n`);
    const ran = await done;
    const results = ran.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((message) => message.id !== 1);
    expect(results.map((r) => [r.id, r.result.isError])).toEqual([
      [2, true],
      [3, true],
    ]);
    return ran.stderr.split('\n').filter((line) => !line.startsWith('mcpkit serve:'));
  }

  it("prints a slip in a tool handler's code on stderr: one line, the stack with --debug", async () => {
    const slip =
      /^mcpkit server: tool "forecast": TypeError: Cannot read properties of undefined \(reading 'forecast'\)/;
    const plain = await callSlips([]);
    expect(plain.filter((line) => line !== '')).toEqual([
      expect.stringMatching(new RegExp(`${slip.source} \\(at .*slip-server\\.mjs:\\d+:\\d+\\)$`)),
    ]);
    const debug = await callSlips(['--debug']);
    expect(debug[0]).toMatch(new RegExp(`${slip.source}$`));
    expect(debug[1]).toMatch(/^ {4}at .*slip-server\.mjs:\d+:\d+/);
    expect(debug.join('\n')).not.toMatch(/no station there/);
  });

  it('exits 3 for an unknown server name', async () => {
    const ran = await cli(['serve', 'nonesuch']);
    expect(ran.code).toBe(3);
    expect(ran.stderr).toMatch(
      /^mcpkit serve: unknown server "nonesuch"\nhint: serve one of pingme, everything, sql, utilix, demo/,
    );
  });

  it('exits 3 for an invalid --http address', async () => {
    const ran = await cli(['serve', 'pingme', '--http', 'nowhere:x']);
    expect(ran.code).toBe(3);
  });

  describe('over HTTP', () => {
    let server: ChildProcess;
    let url: string;

    beforeAll(async () => {
      server = spawnCli(['serve', join(FIXTURES, 'server.mjs'), '--http', '0']);
      const match = await waitFor(server, /serving at (http:\/\/127\.0\.0\.1:\d+\/mcp)\n/);
      url = match[1] ?? '';
    });

    afterAll(async () => {
      if (server.exitCode === null) {
        server.kill('SIGKILL');
        await once(server, 'close');
      }
    });

    it('info --json over HTTP matches the stdio golden but for the transport', async () => {
      const ran = await cli(['info', url, '--json']);
      expect(ran.code).toBe(0);
      const info = json(ran);
      expect(info.transport).toBe('streamable-http');
      expectGolden('info', { ...info, transport: 'stdio' });
    });

    it('call over HTTP, with headers and a pinned legacy revision', async () => {
      const [echo, header] = await Promise.all([
        cli(['call', url, 'echo', '{"message":"over http"}', '--protocol', '2025-03-26']),
        cli(['call', url, 'header', '--header', 'X-Test: yes it is', '-H', 'X-Other: 2']),
      ]);
      expect(echo.code).toBe(0);
      expect(echo.stdout).toBe('echo: over http\n');
      expect(header.stdout).toBe('x-test: yes it is\n');
    });

    it('progress and elicitation over HTTP', async () => {
      const [slow, ask] = await Promise.all([
        cli(['call', url, 'slow', '--arg', 'steps=2']),
        cli(['call', url, 'ask', '--answer', 'name=Ada']),
      ]);
      expect(slow.stderr).toContain('progress 2/2 (100%) step 2\n');
      expect(ask.stdout).toBe('action=accept content={"name":"Ada"}\n');
    });

    it('exits 3 for a malformed header', async () => {
      const ran = await cli(['info', url, '--header', 'no colon here']);
      expect(ran.code).toBe(3);
      expect(ran.stderr).toContain('invalid header "no colon here"');
    });

    it('stops cleanly on SIGTERM', async () => {
      const done = collect(server);
      server.kill('SIGTERM');
      const ran = await done;
      expect(ran.code).toBe(0);
      expect(ran.stderr).toContain('stopping (SIGTERM)');
      expect(ran.stdout).toBe('');
    });
  });
});
