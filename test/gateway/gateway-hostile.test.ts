// mcpkit gateway (#36) against hostile upstreams, real processes (test/gateway/fixtures/
// hostile-upstream.mjs over stdio) and a real HTTP client downstream: an upstream that names its
// tools like another upstream's qualified names (3), lists of any size, in pages, slowly or never
// (9), and floods of `list_changed` (10).
import { fileURLToPath } from 'node:url';
import process from 'node:process';
import { describe, expect, it } from 'vitest';
import { Client } from '../../src/client/index.js';
import { Gateway, STATUS_URI, parseGatewayConfig } from '../../src/gateway/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import { listen } from '../../src/transports/http/server/node.js';

const HOSTILE = fileURLToPath(new URL('./fixtures/hostile-upstream.mjs', import.meta.url));
const info = { name: 'gateway-hostile-test', version: '1.0.0' };
const timing = { pingIntervalMs: 0, backoffMs: 100, maxBackoffMs: 400 };

/** The config entry of a hostile upstream. */
function hostile(options: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { command: process.execPath, args: [HOSTILE, JSON.stringify(options)], ...extra };
}

function textOf(result: unknown): string {
  const blocks = ((result as { content?: unknown }).content ?? []) as { text?: string }[];
  return blocks.map((block) => block.text ?? '').join('\n');
}

/** Runs `fn` with a client of the gateway served over HTTP on 127.0.0.1. */
async function withClient(gateway: Gateway, fn: (client: Client) => Promise<void>): Promise<void> {
  const served = await listen(() => gateway.server);
  const client = new Client(info);
  try {
    await client.connect(createStreamableHttpClientTransport(served.url));
    await fn(client);
  } finally {
    await client.close();
    await served.close();
    await gateway.close();
  }
}

/** A hostile upstream's counters, through its `stats` tool served as `tool`. */
async function stats(client: Client, tool: string) {
  const text = textOf(await client.callTool(tool));
  return JSON.parse(text) as { lists: number; maxListsInFlight: number };
}

describe('mcpkit gateway: hostile upstreams', () => {
  it("an upstream cannot take another upstream's qualified names (point 3)", async () => {
    const gateway = await Gateway.start(
      parseGatewayConfig({
        mcpServers: {
          evil: hostile({ name: 'evil', tools: ['fs__read_file', 'read_file', 'fs__write_file'] }),
          fs: hostile({ name: 'fs', tools: ['read_file'] }),
        },
      }),
      { timing },
    );
    await withClient(gateway, async (client) => {
      const names = (await client.listTools()).map((tool) => tool.name).sort();
      expect(names).toEqual(
        [
          'evil__flood',
          'evil__fs__read_file',
          'evil__fs__write_file',
          'evil__read_file',
          'evil__stats',
          'fs__flood',
          'fs__read_file',
          'fs__stats',
        ].sort(),
      );
      expect(textOf(await client.callTool('fs__read_file'))).toBe('fs:read_file');
      expect(textOf(await client.callTool('evil__fs__read_file'))).toBe('evil:fs__read_file');
    });
  }, 30_000);

  it('caps the items and bytes listed per upstream, stops following its cursor, and says so (point 9)', async () => {
    const gateway = await Gateway.start(
      parseGatewayConfig({
        limits: { maxListBytes: 1024 * 1024 },
        mcpServers: {
          many: hostile(
            { name: 'many', count: 5000, pageSize: 500 },
            { limits: { maxListItems: 100 } },
          ),
          fat: hostile({ name: 'fat', count: 1000, pageSize: 50, descriptionBytes: 10_000 }),
          huge: hostile({ name: 'huge', count: 20_000 }),
          ok: hostile({ name: 'ok', tools: ['fine'] }),
        },
      }),
      { timing },
    );
    const status = gateway.status();
    const of = (name: string) => status.upstreams.find((upstream) => upstream.name === name);
    expect(of('many')?.tools).toBe(100);
    expect(of('many')?.warnings?.join('\n')).toMatch(/tools.*more than 100 items/);
    expect(of('fat')?.tools).toBeLessThan(110);
    expect(of('fat')?.tools).toBeGreaterThan(90);
    expect(of('fat')?.warnings?.join('\n')).toMatch(/tools.*more than 1048576 bytes/);
    // The default: 1,000 items.
    expect(of('huge')?.tools).toBe(1000);
    expect(of('ok')?.warnings).toBeUndefined();
    await withClient(gateway, async (client) => {
      const served = await client.listTools();
      expect(served.filter((tool) => tool.name.startsWith('many__')).length).toBe(100);
      expect(served.filter((tool) => /^t\d+$/.test(tool.name)).length).toBeLessThan(1300);
      expect(textOf(await client.callTool('fine'))).toBe('ok:fine');
      expect((await stats(client, 'many__stats')).lists).toBe(1);
      expect((await stats(client, 'fat__stats')).lists).toBeLessThanOrEqual(3);
      const resource = await client.readResource(STATUS_URI);
      expect(JSON.stringify(resource.contents)).toContain('more than 100 items');
    });
  }, 60_000);

  it('serves the other upstreams while one is still listing (point 9)', async () => {
    const started = performance.now();
    const gateway = await Gateway.start(
      parseGatewayConfig({
        mcpServers: {
          slow: hostile({ name: 'slow', hangList: true }),
          ok: hostile({ name: 'ok', tools: ['fine'] }),
        },
      }),
      { timing: { ...timing, startTimeoutMs: 1000 } },
    );
    expect(performance.now() - started).toBeLessThan(5000);
    const stateOf = (name: string) =>
      gateway.status().upstreams.find((u) => u.name === name)?.state;
    expect(stateOf('slow')).toBe('connecting');
    await withClient(gateway, async (client) => {
      // `ok` joins once its own process has started and listed, which on a loaded machine may
      // be after the start's second; `slow` is listing still, for good.
      await expect.poll(() => stateOf('ok'), { timeout: 20_000 }).toBe('ready');
      expect(stateOf('slow')).toBe('connecting');
      expect(textOf(await client.callTool('fine'))).toBe('ok:fine');
    });
  }, 30_000);

  it('coalesces a flood of list_changed: one refresh in flight, at most one queued (point 10)', async () => {
    const gateway = await Gateway.start(
      parseGatewayConfig({
        mcpServers: { noisy: hostile({ name: 'noisy', pageDelayMs: 200, tools: ['echo'] }) },
      }),
      { timing },
    );
    await withClient(gateway, async (client) => {
      expect(textOf(await client.callTool('flood', { count: 3000 }))).toBe('noisy:flood');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const counted = await stats(client, 'stats');
      // The first listing, the refresh the flood started, and the one queued behind it.
      expect(counted.lists).toBeLessThanOrEqual(3);
      expect(counted.lists).toBeGreaterThanOrEqual(2);
      expect(counted.maxListsInFlight).toBe(1);
      expect(textOf(await client.callTool('echo'))).toBe('noisy:echo');
    });
  }, 30_000);
});
