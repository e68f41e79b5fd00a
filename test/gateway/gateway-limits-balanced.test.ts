// Rate limits across processes (#40): three `mcpkit gateway --redis …` processes behind the
// round-robin nginx of the scale-out tests (no stickiness), one real Redis, one HTTP upstream
// that counts the calls reaching it. The limits are held by the three together: a principal
// gets its quota across all three, a refused call is a tool error saying when to retry and never
// reaches the upstream. Clients: mcpkit's (2026-07-28, every request on its own) and the
// official SDK v1 (a 2025-11-25 session shared through Redis). Needs nginx, MCPKIT_TEST_REDIS_URL
// and a built CLI.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../src/client/index.js';
import { RETRY_AFTER_META } from '../../src/gateway/index.js';
import { McpServer } from '../../src/server/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import type { Listening } from '../../src/transports/http/server/node.js';
import { listen } from '../../src/transports/http/server/node.js';
import type { Balancer, Served } from '../helpers/balancer.js';
import { CLI, findNginx, startBalancer, startCli } from '../helpers/balancer.js';

const REDIS_URL = process.env['MCPKIT_TEST_REDIS_URL'];
const NGINX = findNginx();
const BUILT = existsSync(CLI);
const missing = [
  REDIS_URL === undefined ? 'MCPKIT_TEST_REDIS_URL is not set' : undefined,
  NGINX === undefined ? 'nginx is not installed (.ci/run installs it)' : undefined,
  BUILT ? undefined : `${CLI} is missing (npm run build)`,
].filter((why) => why !== undefined);
if (missing.length > 0) console.log(`skipping the balanced gateway limits: ${missing.join('; ')}`);

const SECRET = 'gateway-limits-test-secret-0123456789abcdef';
const PREFIX = `mcpkit-test-gw-limits:${String(process.pid)}:${String(Date.now())}`;
const info = { name: 'limits-test', version: '1.0.0' };

/** Starts `mcpkit gateway --config <file> --http 127.0.0.1:0 <args>` and waits for its URL. */
function startGateway(file: string, args: readonly string[]): Promise<Served> {
  return startCli(['gateway', '--config', file, '--http', '127.0.0.1:0', ...args]);
}

function textOf(result: unknown): string {
  const blocks = ((result as { content?: unknown }).content ?? []) as { text?: string }[];
  return blocks.map((block) => block.text ?? '').join('\n');
}

describe.skipIf(missing.length > 0)('rate limits across three gateway processes', () => {
  let upstream: Listening;
  let calls = 0;
  let gateways: Served[] = [];
  let balancer: Balancer;

  beforeAll(async () => {
    const server = new McpServer({ name: 'counter', version: '1' });
    server.tool({ name: 'count', description: 'Counts.', inputSchema: { type: 'object' } }, () => {
      calls++;
      return `call ${String(calls)}`;
    });
    server.tool(
      { name: 'other', description: 'Also counts.', inputSchema: { type: 'object' } },
      () => {
        calls++;
        return 'other';
      },
    );
    upstream = await listen(() => server, { port: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'mcpkit-gw-limits-'));
    const file = join(dir, 'gateway.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: { counter: { url: upstream.url } },
        rateLimits: {
          principal: { rate: 7, per: 'hour' },
          tools: { other: { rate: 2, per: 'hour' } },
        },
      }),
    );
    const args = ['--redis', REDIS_URL ?? '', '--redis-prefix', PREFIX, '--state-secret', SECRET];
    gateways = await Promise.all([0, 1, 2].map(() => startGateway(file, args)));
    balancer = await startBalancer(
      gateways.map((gateway) => gateway.address),
      NGINX,
    );
  }, 120_000);

  afterAll(async () => {
    await Promise.allSettled([
      balancer.close(),
      ...gateways.map((gateway) => gateway.close()),
      upstream.close(),
    ]);
    const redis = createClient({ url: REDIS_URL ?? '' });
    await redis.connect();
    for await (const keys of redis.scanIterator({ MATCH: `${PREFIX}:*`, COUNT: 500 })) {
      if (keys.length > 0) await redis.del(keys);
    }
    await redis.quit();
  }, 60_000);

  it('holds one quota for a principal and a tool across all three, refusing with when to retry', async () => {
    const landed = new Set<string>();
    const fetchLike = async (input: string, init: RequestInit) => {
      const response = await fetch(input, init);
      landed.add(response.headers.get('x-upstream') ?? '?');
      return response;
    };
    const client = new Client(info);
    await client.connect(createStreamableHttpClientTransport(balancer.url, { fetch: fetchLike }));
    expect(client.revision).toBe('2026-07-28');
    const before = calls;
    const results = [];
    // The tool bucket of "other" (2 an hour) refuses its third call; the principal's (7 an
    // hour) then refuses the calls past its seventh, whichever process serves them.
    for (let i = 0; i < 3; i++) results.push(await client.callTool('other', {}));
    for (let i = 0; i < 6; i++) results.push(await client.callTool('count', {}));
    await client.close();
    const refused = results.filter((result) => result.isError === true);
    expect(results.filter((result) => result.isError !== true)).toHaveLength(7);
    expect(refused).toHaveLength(2);
    expect(textOf(refused[0])).toMatch(
      /^rate limit reached: your calls of the tool "other" are limited to 2 per hour; retry in \d+ min$/,
    );
    expect(textOf(refused[1])).toMatch(
      /^rate limit reached: your calls through this gateway are limited to 7 per hour; retry in \d+ min$/,
    );
    expect(refused[1]?._meta?.[RETRY_AFTER_META]).toBeGreaterThan(0);
    // Refused calls never reached the upstream.
    expect(calls - before).toBe(7);
    // The requests were served by all three processes.
    expect(landed).toEqual(new Set(gateways.map((gateway) => gateway.address)));
  });

  it('the official v1 client (a legacy session through Redis) is held to the same spent quota', async () => {
    const client = new ClientV1(info);
    await client.connect(new StreamableHttpV1(new URL(balancer.url)));
    const result = await client.callTool({ name: 'count', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('limited to 7 per hour');
    await client.close();
  });
});
