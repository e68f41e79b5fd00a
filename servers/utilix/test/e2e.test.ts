// utilix the way hosts reach it: `mcpkit serve utilix` as a child over stdio (the built CLI,
// trusting the test CA through NODE_EXTRA_CA_CERTS) and Streamable HTTP on 127.0.0.1, with
// mcpkit's client and the official SDK v1 client; every tool, and the seeds' drift refused.
// `--http` beyond loopback refuses private addresses unless UTILIX_DENY says otherwise.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Resolver } from 'node:dns/promises';
import { fileURLToPath } from 'node:url';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as StreamableHttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../../src/client/index.js';
import { createStreamableHttpClientTransport } from '../../../src/transports/http/index.js';
import { listen, type Listening } from '../../../src/transports/http/server/node.js';
import { createStdioClientTransport } from '../../../src/transports/stdio/index.js';
import { spawnCli, waitFor } from '../../../test/cli/run-cli.js';
import { createUtilixServer } from '../server.js';
import type { TestCertificates } from './certs.js';
import { HAS_OPENSSL, makeCertificates, startTlsServer } from './certs.js';
import { startDnsServer } from './dns-server.js';

const BIN = fileURLToPath(new URL('../../../dist/esm/src/cli/main.js', import.meta.url));
const hasDist = existsSync(BIN);

if (!hasDist) console.log('utilix e2e: skipped, dist/ is missing (npm run build makes it)');

type Result = {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

/** A client of either kind, reduced to one call. */
type Call = (name: string, args: Record<string, unknown>) => Promise<Result>;

const text = (result: Result) => result.content.map((block) => block.text ?? '').join('\n');

let certs: TestCertificates;
let tls: Awaited<ReturnType<typeof startTlsServer>>;
let dns: Awaited<ReturnType<typeof startDnsServer>>;

beforeAll(async () => {
  if (!HAS_OPENSSL) return;
  certs = makeCertificates();
  tls = await startTlsServer(certs);
  dns = await startDnsServer({ 'example.test': { MX: [[10, 'mx.example.test']] } });
}, 60_000);

afterAll(async () => {
  if (!HAS_OPENSSL) return;
  await tls.close();
  await dns.close();
  certs.remove();
});

/** Every tool once, and the drift inputs; `dnsChecked` when the server uses the test's DNS. */
async function exercise(call: Call, dnsChecked: boolean): Promise<void> {
  const seeds = await call('check_ssl_certificate', { hostname: '127.0.0.1', port: tls.port });
  expect(seeds.isError).toBeFalsy();
  expect(text(seeds)).toMatch(
    /^Certificate valid until .+, issued by utilix test CA, SAN matches\. Chain trusted; TLSv1\.3/,
  );
  expect(seeds.structuredContent).toMatchObject({ chainTrusted: true, problems: [] });
  const expired = await call('check_ssl_certificate', {
    hostname: '127.0.0.1',
    port: tls.port,
    servername: 'expired.test',
  });
  expect(expired.structuredContent).toMatchObject({ problems: ['expired'] });
  for (const hostname of ['https://example.com/path', 'example.com:443']) {
    const refused = await call('check_ssl_certificate', { hostname });
    expect(refused.isError, hostname).toBe(true);
    expect(text(refused), hostname).toMatch(/give the host name alone, e\.g\. example\.com/);
  }
  const spaced = await call('check_ssl_certificate', { hostname: 'example .com' });
  expect(text(spaced)).toMatch(/invalid arguments[\s\S]*hostname/);
  const json = await call('format_json', {
    json: '{"b":[1,2],"a":1e400}',
    indent: 0,
    sort_keys: true,
  });
  expect(text(json)).toBe('{"a":1e400,"b":[1,2]}');
  const bad = await call('format_json', { json: '[1,\n2,,3]' });
  expect(text(bad)).toBe('invalid JSON at line 2, column 3: unexpected "," (expected a value)');
  expect(bad.isError).toBe(true);
  const email = await call('validate_email', {
    email: 'jane.doe@example.test',
    check_domain: dnsChecked,
  });
  expect(text(email)).toBe(
    dnsChecked
      ? 'Valid: jane.doe@example.test (mail goes to mx.example.test).'
      : 'Valid syntax: jane.doe@example.test (domain not checked).',
  );
  const invalid = await call('validate_email', { email: 'jane@@example.test' });
  expect(invalid.structuredContent).toMatchObject({ valid: false });
}

const mcpkitCall =
  (client: Client): Call =>
  (name, args) =>
    client.callTool(name, args) as Promise<Result>;
const v1Call =
  (client: ClientV1): Call =>
  (name, args) =>
    client.callTool({ name, arguments: args }) as Promise<Result>;

describe.skipIf(!hasDist || !HAS_OPENSSL)('utilix over stdio (mcpkit serve utilix)', () => {
  const env = () => ({
    ...(process.env as Record<string, string>),
    NODE_EXTRA_CA_CERTS: join(certs.dir, 'ca.pem'),
  });

  it("with mcpkit's client, both eras", async () => {
    for (const pin of ['2025-11-25', '2026-07-28'] as const) {
      const client = new Client({ name: 'e2e', version: '1' }, { mode: { pin } });
      await client.connect(
        createStdioClientTransport({
          command: process.execPath,
          args: [BIN, 'serve', 'utilix', '--stdio'],
          env: env(),
        }),
      );
      try {
        expect(client.serverInfo?.name).toBe('utilix-mcp');
        await exercise(mcpkitCall(client), false);
      } finally {
        await client.close();
      }
    }
  }, 60_000);

  it('with the official v1 client', async () => {
    const client = new ClientV1({ name: 'v1', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'serve', 'utilix', '--stdio'],
        env: env(),
      }),
    );
    try {
      expect(client.getServerVersion()?.name).toBe('utilix-mcp');
      await exercise(v1Call(client), false);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('refuses private addresses when served over HTTP beyond loopback, unless UTILIX_DENY is set', async () => {
    for (const [deny, refused] of [
      [undefined, true],
      ['', false],
    ] as const) {
      const child = spawnCli(
        ['serve', 'utilix', '--http', '0.0.0.0:0', '--allowed-host', '127.0.0.1'],
        {
          NODE_EXTRA_CA_CERTS: join(certs.dir, 'ca.pem'),
          ...(deny === undefined ? {} : { UTILIX_DENY: deny }),
        },
      );
      try {
        const [, port = ''] = await waitFor(child, /serving at http:\/\/0\.0\.0\.0:(\d+)\/mcp/);
        const client = new Client({ name: 'e2e', version: '1' });
        await client.connect(createStreamableHttpClientTransport(`http://127.0.0.1:${port}/mcp`));
        try {
          const result = await client.callTool('check_ssl_certificate', {
            hostname: '127.0.0.1',
            port: tls.port,
          });
          expect(result.isError === true, String(deny)).toBe(refused);
          if (refused)
            expect(text(result as Result)).toMatch(
              /127\.0\.0\.1 is not an address this server may connect to/,
            );
        } finally {
          await client.close();
        }
      } finally {
        child.kill('SIGTERM');
      }
    }
  }, 60_000);
});

describe.skipIf(!hasDist)('utilix in the CLI', () => {
  it('passes mcpkit lint with no findings', () => {
    const run = spawnSync(
      process.execPath,
      [BIN, 'lint', '--json', '--', process.execPath, BIN, 'serve', 'utilix', '--stdio'],
      { encoding: 'utf8', timeout: 30_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ findings: [] });
  });

  it('is part of the demo', async () => {
    const client = new Client({ name: 'e2e', version: '1' });
    await client.connect(
      createStdioClientTransport({
        command: process.execPath,
        args: [BIN, 'serve', 'demo', '--stdio'],
      }),
    );
    try {
      const names = (await client.listTools()).map((tool) => tool.name);
      expect(names).toEqual(
        expect.arrayContaining([
          'PingME',
          'query',
          'check_ssl_certificate',
          'format_json',
          'validate_email',
        ]),
      );
      const result = await client.callTool('format_json', { json: '[1,2]', indent: 0 });
      expect(result.content).toEqual([{ type: 'text', text: '[1,2]' }]);
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe.skipIf(!HAS_OPENSSL)('utilix over Streamable HTTP', () => {
  let http: Listening;
  beforeAll(async () => {
    const resolver = new Resolver({ timeout: 500, tries: 1 });
    resolver.setServers([`127.0.0.1:${String(dns.port)}`]);
    const server = createUtilixServer({
      extraCaCertificates: [certs.ca.cert],
      mailResolver: resolver,
    });
    http = await listen(() => server);
  });
  afterAll(async () => {
    await http.close();
  });

  it("with mcpkit's client, both eras", async () => {
    for (const mode of ['auto', { pin: '2025-11-25' as const }] as const) {
      const client = new Client({ name: 'e2e', version: '1' }, { mode });
      await client.connect(createStreamableHttpClientTransport(http.url));
      try {
        await exercise(mcpkitCall(client), true);
      } finally {
        await client.close();
      }
    }
  });

  it('with the official v1 client', async () => {
    const client = new ClientV1({ name: 'v1', version: '1' });
    await client.connect(new StreamableHttpV1(new URL(http.url)));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        'check_ssl_certificate',
        'format_json',
        'validate_email',
      ]);
      await exercise(v1Call(client), true);
    } finally {
      await client.close();
    }
  });
});
