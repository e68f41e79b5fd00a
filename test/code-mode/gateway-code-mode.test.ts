// Code mode in the gateway (#41): downstream clients see one tool, run_code, declaring every
// upstream tool; the code's calls are forwarded like direct ones, so an upstream's elicitation
// reaches the downstream client whose run_code call caused it. Upstreams: the everything server
// over HTTP in both eras (the downstream client of the same era), and the sql server over stdio.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { afterEach, describe, expect, it } from 'vitest';
import { createEverythingServer } from '../../servers/everything/server.js';
import { Client } from '../../src/client/index.js';
import type { GatewayCodeModeOptions } from '../../src/gateway/index.js';
import { Gateway, parseGatewayConfig } from '../../src/gateway/index.js';
import type { ProtocolRevision } from '../../src/protocol/version.js';
import { waitServer } from '../helpers/wait-server.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import { listen } from '../../src/transports/http/server/node.js';

const BIN = join(process.env['MCPKIT_DIST'] ?? 'dist', 'esm/src/cli/main.js');
const hasDist = existsSync(BIN);

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A code-mode gateway over `mcpServers`, served over HTTP once every upstream connected. */
async function gatewayOver(
  mcpServers: Record<string, unknown>,
  codeMode: GatewayCodeModeOptions = {},
): Promise<string> {
  const waiting = new Set(Object.keys(mcpServers));
  let ready = (): void => undefined;
  const connected = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const gateway = await Gateway.start(parseGatewayConfig({ mcpServers }), {
    timing: { pingIntervalMs: 0 },
    codeMode,
    onEvent: (event) => {
      if (event['event'] === 'connected') waiting.delete(String(event['upstream']));
      if (waiting.size === 0) ready();
    },
  });
  closers.push(() => gateway.close());
  await connected;
  const served = await listen(() => gateway.server);
  closers.push(() => served.close());
  return served.url;
}

async function downstream(url: string, revision: ProtocolRevision, asked: string[]) {
  const client = new Client(
    { name: 'downstream', version: '1' },
    {
      mode: { pin: revision },
      onElicit: (params) => {
        asked.push(params.message);
        return { action: 'accept', content: { depth: 'deep', interpretation: 'animal' } };
      },
    },
  );
  await client.connect(createStreamableHttpClientTransport(url));
  closers.push(() => client.close());
  return client;
}

function text(result: { content: readonly { type: string; text?: string }[] }): string {
  return result.content.map((block) => block.text ?? '').join('\n');
}

describe('code mode in the gateway', () => {
  for (const revision of ['2025-11-25', '2026-07-28'] as const) {
    it(`serves run_code alone, and an upstream's elicitation from the code reaches the caller (${revision})`, async () => {
      const ev = createEverythingServer({
        researchStepMs: 1,
        server: { revisions: [revision] },
      });
      closers.push(() => ev.close());
      const upstream = await listen(() => ev.server);
      closers.push(() => upstream.close());
      const url = await gatewayOver({ ev: { url: upstream.url } });
      const asked: string[] = [];
      const client = await downstream(url, revision, asked);
      const tools = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['run_code']);
      expect(tools[0]!.description).toContain('declare namespace ev {');
      expect(tools[0]!.description).toContain('function simulate_research_query(input: {');
      const result = await client.callTool('run_code', {
        code: `
          const summary = await ev.simulate_research_query({ topic: 'jaguar', ambiguous: true });
          const sum = await ev.get_sum({ a: 2, b: 3 });
          return { summary: String(summary).slice(0, 200), sum };`,
      });
      expect(result.isError).not.toBe(true);
      expect(asked.length).toBeGreaterThan(0);
      const returned = JSON.parse(text(result).replace(/^Returned: /, '')) as Record<
        string,
        unknown
      >;
      expect(String(returned['summary'])).toMatch(/jaguar/i);
      expect(JSON.stringify(returned['sum'])).toMatch(/5/);
    }, 30_000);
  }

  it.skipIf(!hasDist)(
    'sums a SQL result from a stdio upstream in code',
    async () => {
      const url = await gatewayOver({
        sql: { command: process.execPath, args: [BIN, 'serve', 'sql'] },
      });
      const client = await downstream(url, '2026-07-28', []);
      const result = await client.callTool('run_code', {
        code: `
        const { rows } = await sql.query({ sql: 'SELECT quantity FROM order_lines', maxRows: 1000 });
        return rows.reduce((sum, [q]) => sum + q, 0);`,
      });
      const direct = await client.callTool('run_code', {
        code: `return (await sql.query({ sql: 'SELECT sum(quantity)::int FROM order_lines' })).rows[0][0];`,
      });
      expect(text(result)).toBe(text(direct));
      expect(text(result)).toMatch(/^Returned: \d+$/);
    },
    60_000,
  );

  it('cancels the forwarded call the code has in flight when the run passes its wall-clock limit', async () => {
    const { create, running, aborted } = waitServer();
    const upstream = await listen(create);
    closers.push(() => upstream.close());
    const url = await gatewayOver({ slow: { url: upstream.url } }, { wallTimeoutMs: 300 });
    const client = await downstream(url, '2026-07-28', []);
    const result = await client.callTool('run_code', { code: 'return await slow.wait({})' });
    await running;
    // The upstream hears of it although the downstream request is over, not cancelled.
    await aborted;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('wall-clock limit (300 ms');
  }, 30_000);
});
