// mcpkit gateway (#24), faults, budget and bridging, with real processes: an HTTP upstream killed
// and restarted on its port, a stdio upstream killed (SIGKILL) and respawned; a token budget that
// forces the catalogue mode (search_tools, a tool found, listed with list_changed, and called);
// `mcpkit gateway --stdio` in front of an HTTP server (the official SDK v1 client spawns it) and
// `mcpkit gateway --http` in front of a stdio server (loopback, Host check, /healthz), and
// `mcpkit budget` against both gateways. Needs the built CLI (npm run build).
import type { ChildProcess } from 'node:child_process';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../src/client/index.js';
import type { ListKind } from '../../src/client/index.js';
import { Gateway, parseGatewayConfig } from '../../src/gateway/index.js';
import { loadTokenizer } from '../../src/catalogue/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import { listen } from '../../src/transports/http/server/node.js';
import { BIN, cli, closedPort, spawnCli, waitFor } from '../cli/run-cli.js';

const require = createRequire(import.meta.url);
const EVERYTHING = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);
const BUILT = existsSync(BIN);
if (!BUILT) console.log(`skipping the gateway fault tests: ${BIN} is missing (npm run build)`);

const info = { name: 'gateway-test', version: '1.0.0' };

function textOf(result: unknown): string {
  const blocks = ((result as { content?: unknown }).content ?? []) as { text?: string }[];
  return blocks.map((block) => block.text ?? '').join('\n');
}

async function eventually(check: () => Promise<void> | void, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > end) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Starts `mcpkit serve everything --http <port>` and resolves with it and its URL. */
async function serveEverything(port: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawnCli(['serve', 'everything', '--http', String(port)]);
  const url = (await waitFor(child, /serving at (http:\/\/\S+)\n/))[1] ?? '';
  return { child, url };
}

async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  await once(child, 'close');
}

function writeConfig(config: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'mcpkit-gateway-')), 'servers.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}

/** The children of this process whose command line contains `text`. */
function childPids(text: string): number[] {
  try {
    const out = execFileSync('pgrep', ['-P', String(process.pid), '-f', text], {
      encoding: 'utf8',
    });
    return out.split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** GET `path` with a given Host header: the status code. */
function statusOf(url: string, path: string, host: string): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: 'GET', headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe.skipIf(!BUILT)('mcpkit gateway: faults, budget, bridging', () => {
  it('an upstream killed fails only its own tools, clearly, and is reconnected when back', async () => {
    const port = await closedPort();
    let mk = await serveEverything(port);
    const gateway = await Gateway.start(
      parseGatewayConfig({
        mcpServers: {
          mk: { url: mk.url },
          ping: { command: process.execPath, args: [BIN, 'serve', 'pingme'] },
        },
      }),
      { timing: { backoffMs: 100, maxBackoffMs: 400, pingIntervalMs: 0 } },
    );
    const served = await listen(() => gateway.server);
    const client = new Client(info);
    try {
      await client.connect(createStreamableHttpClientTransport(served.url));
      expect(textOf(await client.callTool('echo', { message: 'one' }))).toContain('one');
      // The HTTP upstream dies.
      await stop(mk.child, 'SIGKILL');
      const failed = await client.callTool('echo', { message: 'two' });
      expect(failed.isError).toBe(true);
      expect(textOf(failed)).toMatch(/"mk"/);
      // Its tools stay listed, fail clearly; the other upstream is untouched.
      expect((await client.listTools()).map((tool) => tool.name)).toContain('echo');
      await eventually(async () => {
        const again = await client.callTool('echo', { message: 'three' });
        expect(textOf(again)).toMatch(/unavailable.*reconnecting/);
      });
      expect(textOf(await client.callTool('PingME'))).toContain('BISMILLAH');
      expect(gateway.status().upstreams.find((u) => u.name === 'mk')?.state).not.toBe('ready');
      // Back on its port: reconnected.
      mk = await serveEverything(port);
      await eventually(async () => {
        expect(textOf(await client.callTool('echo', { message: 'four' }))).toContain('four');
      });
      expect(gateway.status().upstreams.find((u) => u.name === 'mk')?.reconnects).toBe(1);

      // The stdio upstream's process is killed: respawned.
      const [pid] = childPids('serve pingme');
      expect(pid).toBeDefined();
      process.kill(pid ?? 0, 'SIGKILL');
      await eventually(() => {
        expect(gateway.status().upstreams.find((u) => u.name === 'ping')?.reconnects).toBe(1);
      });
      expect(textOf(await client.callTool('PingME'))).toContain('BISMILLAH');
      expect(textOf(await client.callTool('echo', { message: 'five' }))).toContain('five');
    } finally {
      await client.close();
      await served.close();
      await gateway.close();
      await stop(mk.child);
    }
  }, 60_000);

  it('a budget forces the catalogue mode: search_tools finds a tool, which is listed and called', async () => {
    const gateway = await Gateway.start(
      parseGatewayConfig({
        mcpServers: {
          ev: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
          ping: { command: process.execPath, args: [BIN, 'serve', 'pingme'] },
        },
      }),
      { budget: 300, tokenizer: await loadTokenizer(), timing: { pingIntervalMs: 0 } },
    );
    const served = await listen(() => gateway.server);
    const changed: ListKind[] = [];
    const client = new Client(info, {
      mode: { pin: '2026-07-28' },
      onListChanged: (kind) => changed.push(kind),
    });
    try {
      const status = gateway.status();
      expect(status.mode).toBe('catalogue');
      expect(status.tokens.all).toBeGreaterThan(300);
      expect(status.tokens.served).toBeLessThan(300);
      await client.connect(createStreamableHttpClientTransport(served.url));
      expect((await client.listTools()).map((tool) => tool.name)).toEqual(['search_tools']);
      const found = await client.callTool('search_tools', { query: 'add two numbers sum' });
      expect(textOf(found)).toContain('get-sum');
      await eventually(() => {
        expect(changed).toContain('tools');
      });
      const names = (await client.listTools()).map((tool) => tool.name);
      expect(names).toContain('get-sum');
      expect(names).not.toContain('PingME');
      expect(textOf(await client.callTool('get-sum', { a: 20, b: 22 }))).toContain('42');
    } finally {
      await client.close();
      await served.close();
      await gateway.close();
    }
  }, 30_000);

  it('an upstream that cannot start leaves the others served; --check says so and exits 2', async () => {
    const config = writeConfig({
      mcpServers: {
        broken: { command: join(tmpdir(), 'no-such-mcp-server') },
        ping: { command: process.execPath, args: [BIN, 'serve', 'pingme'] },
      },
    });
    const ran = await cli(['gateway', '--config', config, '--check', '--json'], {
      timeoutMs: 30_000,
    });
    expect(ran.code).toBe(2);
    const checked = JSON.parse(ran.stdout) as {
      tools: string[];
      upstreams: { name: string; state: string; lastError?: string }[];
    };
    expect(checked.tools).toEqual(['PingME']);
    const broken = checked.upstreams.find((upstream) => upstream.name === 'broken');
    expect(broken?.state).not.toBe('ready');
    expect(broken?.lastError).toMatch(/\S/);
    expect(checked.upstreams.find((upstream) => upstream.name === 'ping')?.state).toBe('ready');
    // A config that is not one: exit 3, naming the entry.
    const bad = await cli([
      'gateway',
      '--config',
      writeConfig({ mcpServers: { x: { args: [] } } }),
    ]);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain('server "x"');
  }, 60_000);

  it('curates each upstream: allow, deny, renames and descriptions (--check --json)', async () => {
    const config = writeConfig({
      mcpServers: {
        mk: {
          command: process.execPath,
          args: [BIN, 'serve', 'everything'],
          tools: {
            allow: ['get-*', 'echo'],
            deny: ['*env*'],
            rename: { echo: 'say_back' },
            describe: { 'get-sum': 'Adds a and b.' },
          },
        },
        ping: { command: process.execPath, args: [BIN, 'serve', 'pingme'] },
      },
    });
    const ran = await cli(['gateway', '--config', config, '--check', '--json'], {
      timeoutMs: 30_000,
    });
    expect(ran.code).toBe(0);
    const checked = JSON.parse(ran.stdout) as { tools: string[]; mode: string };
    expect(checked.mode).toBe('all');
    expect(checked.tools).toContain('say_back');
    expect(checked.tools).toContain('get-sum');
    expect(checked.tools).toContain('PingME');
    expect(checked.tools).not.toContain('echo');
    expect(checked.tools).not.toContain('get-env');
    expect(checked.tools.filter((name) => !name.startsWith('get-'))).toEqual([
      'PingME',
      'say_back',
    ]);
    const gateway = await Gateway.start(
      parseGatewayConfig({
        mcpServers: {
          mk: {
            command: process.execPath,
            args: [BIN, 'serve', 'everything'],
            tools: {
              allow: ['echo', 'get-sum'],
              rename: { echo: 'say_back' },
              describe: { 'get-sum': 'Adds a and b.' },
            },
          },
        },
      }),
      { timing: { pingIntervalMs: 0 } },
    );
    const served = await listen(() => gateway.server);
    const client = new Client(info);
    try {
      await client.connect(createStreamableHttpClientTransport(served.url));
      const tools = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['get-sum', 'say_back']);
      expect(tools.find((tool) => tool.name === 'get-sum')?.description).toBe('Adds a and b.');
      expect(textOf(await client.callTool('say_back', { message: 'renamed' }))).toContain(
        'renamed',
      );
    } finally {
      await client.close();
      await served.close();
      await gateway.close();
    }
  }, 60_000);

  it('mcpkit gateway --stdio bridges an HTTP server for a host that spawns processes', async () => {
    const mk = await serveEverything(0);
    const config = writeConfig({ mcpServers: { remote: { url: mk.url } } });
    const client = new ClientV1(info);
    try {
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [BIN, 'gateway', '--config', config, '--stdio', '--quiet'],
          stderr: 'ignore',
        }),
      );
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('echo');
      const result = await client.callTool({ name: 'echo', arguments: { message: 'bridged' } });
      expect(textOf(result)).toContain('bridged');
    } finally {
      await client.close();
      await stop(mk.child);
    }
  }, 30_000);

  it('a legacy HTTP upstream (server-everything, SSE responses) asks a 2026-07-28 client through the gateway', async () => {
    const port = await closedPort();
    const everything = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await waitFor(everything, /listening on port/);
    const gateway = await Gateway.start(
      parseGatewayConfig({ mcpServers: { ev: { url: `http://127.0.0.1:${String(port)}/mcp` } } }),
      { timing: { pingIntervalMs: 0 } },
    );
    const served = await listen(() => gateway.server);
    const asked: string[] = [];
    const client = new Client(info, {
      mode: { pin: '2026-07-28' },
      onElicit: (params) => {
        asked.push(params.message);
        return { action: 'accept', content: { name: 'Grace' } };
      },
    });
    try {
      expect(gateway.status().upstreams[0]).toMatchObject({ state: 'ready', transport: 'http' });
      expect(gateway.status().upstreams[0]?.revision).not.toBe('2026-07-28');
      await client.connect(createStreamableHttpClientTransport(served.url));
      const progress: number[] = [];
      const long = await client.callTool(
        'trigger-long-running-operation',
        { duration: 1, steps: 2 },
        { onProgress: (done) => progress.push(done) },
      );
      expect(textOf(long)).toContain('completed');
      expect(progress).toEqual([1, 2]);
      const result = await client.callTool('trigger-elicitation-request');
      expect(asked).toHaveLength(1);
      expect(textOf(result)).toContain('Name: Grace');
    } finally {
      await client.close();
      await served.close();
      await gateway.close();
      await stop(everything);
    }
  }, 30_000);

  describe('mcpkit gateway --http in front of a stdio server', () => {
    let gateway: ChildProcess;
    let url = '';
    let budgeted: ChildProcess;
    let budgetedUrl = '';

    beforeAll(async () => {
      const config = writeConfig({
        mcpServers: { ev: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
      });
      // Both at once: each starts node, then server-everything, and waits for its first list;
      // one after the other took more than the hook's time on a loaded machine.
      gateway = spawnCli(['gateway', '--config', config, '--http', '0']);
      budgeted = spawnCli(['gateway', '--config', config, '--http', '0', '--budget', '300']);
      const serving = /serving at (http:\/\/\S+)\n/;
      const [plain, withBudget] = await Promise.all([
        waitFor(gateway, serving, 45_000),
        waitFor(budgeted, serving, 45_000),
      ]);
      url = plain[1] ?? '';
      budgetedUrl = withBudget[1] ?? '';
    }, 60_000);

    afterAll(async () => {
      await stop(gateway);
      await stop(budgeted);
    });

    for (const revision of ['2026-07-28', '2025-03-26'] as const) {
      it(`serves it remotely to a ${revision} client`, async () => {
        const client = new Client(info, { mode: { pin: revision } });
        await client.connect(createStreamableHttpClientTransport(url));
        expect(textOf(await client.callTool('echo', { message: revision }))).toContain(revision);
        await client.close();
      });
    }

    it('binds loopback and checks the Host header; /healthz reports the upstreams', async () => {
      expect(new URL(url).hostname).toBe('127.0.0.1');
      expect(await statusOf(url, '/mcp', 'evil.example')).toBe(403);
      expect(await statusOf(url, '/healthz', 'localhost')).toBe(200);
    });

    it('mcpkit budget shows the saving of the catalogue mode', async () => {
      const all = await cli(['budget', url, '--json']);
      const catalogue = await cli(['budget', budgetedUrl, '--json']);
      expect(all.code).toBe(0);
      expect(catalogue.code).toBe(0);
      // The tool definitions' tokens (the total also counts the upstreams' instructions).
      const total = (ran: { stdout: string }) =>
        (JSON.parse(ran.stdout) as { tools: { tokens: number }[] }).tools.reduce(
          (sum, tool) => sum + tool.tokens,
          0,
        );
      expect(total(catalogue)).toBeLessThan(300);
      expect(total(all)).toBeGreaterThan(total(catalogue) * 5);
    }, 30_000);
  });
});
