// utilix over MCP (mcpkit's client on the in-memory pair): check_ssl_certificate against a local
// TLS server with certificates made by openssl, validate_email against a local DNS server,
// format_json, and the schema refusing the seeds' drift inputs before any handler runs.
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Resolver } from 'node:dns/promises';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeClients, connectClient } from '../../../test/helpers/client-pair.js';
import { MODERN, connectWire } from '../../../test/helpers/wire.js';
import type { UtilixServerOptions } from '../server.js';
import { createUtilixServer } from '../server.js';
import type { TestCertificates } from './certs.js';
import { HAS_OPENSSL, makeCertificates, startTlsServer } from './certs.js';
import { startDnsServer } from './dns-server.js';

afterEach(closeClients);

async function utilix(options: UtilixServerOptions = {}) {
  const { client } = await connectClient(createUtilixServer(options));
  return client;
}

const text = (result: { content: { type: string; text?: string }[] }) =>
  result.content.map((block) => block.text ?? '').join('\n');

describe('utilix tools and schemas', () => {
  it('lists three tools with closed input schemas and output schemas (both eras valid)', async () => {
    for (const era of ['2025-11-25', MODERN] as const) {
      const w = await connectWire(createUtilixServer());
      if (era !== MODERN) await w.initialize(era);
      const send = era === MODERN ? w.modern : w.request;
      const { tools } = await send('tools/list', {});
      expect(tools.map((t: { name: string }) => t.name)).toEqual([
        'check_ssl_certificate',
        'format_json',
        'validate_email',
      ]);
      for (const tool of tools) {
        expect(tool.inputSchema.additionalProperties).toBe(false);
        expect(tool.outputSchema.type).toBe('object');
      }
      const init = era === MODERN ? undefined : w.frames.find((f) => f.dir === '<<');
      if (init !== undefined) {
        expect(init.message['result']).toMatchObject({ serverInfo: { name: 'utilix-mcp' } });
      }
      w.assertServerFramesValid(era);
      await w.close();
    }
  });

  it('costs at most 800 tokens in all, counted as mcpkit budget counts (o200k_base)', async () => {
    const client = await utilix();
    const tools = await client.listTools();
    const count = (value: unknown) => encode(JSON.stringify(value)).length;
    const perTool = tools.map((tool) =>
      count({
        name: tool.name,
        description: tool.description,
        input_schema: tool.inputSchema,
        output_schema: tool.outputSchema,
      }),
    );
    const instructions = encode(client.instructions ?? '').length;
    const total = perTool.reduce((sum, tokens) => sum + tokens, instructions);
    expect(total).toBeLessThanOrEqual(800);
    // check_ssl_certificate was 1,751 tokens with its ~1,800-character hostname pattern.
    expect(perTool[0]).toBeLessThanOrEqual(350);
  });

  it("refuses the seeds' schema-drift inputs before any lookup, saying what to give", async () => {
    const client = await utilix({ lookup: () => Promise.reject(new Error('never resolves')) });
    const cases: [string, RegExp][] = [
      [
        'https://example.com/path',
        /"https:\/\/example\.com\/path" is not a host name: give the host name alone, e\.g\. example\.com$/,
      ],
      ['example.com:443', /give the host name alone, e\.g\. example\.com, and 443 as port$/],
      ['http://[::1]:8443/', /give the host name alone, e\.g\. \[::1\], and 8443 as port$/],
      [
        'example.com/path',
        /"example\.com\/path" is not a host name: give the host name alone, e\.g\. example\.com$/,
      ],
      ['-example.com', /give the host name alone/],
    ];
    for (const [hostname, message] of cases) {
      const result = await client.callTool('check_ssl_certificate', { hostname });
      expect(result.isError, hostname).toBe(true);
      expect(text(result), hostname).toMatch(message);
      expect(text(result)).not.toMatch(/never resolves|pattern/);
    }
    const sni = await client.callTool('check_ssl_certificate', {
      hostname: 'example.com',
      servername: 'https://example.org',
    });
    expect(text(sni)).toMatch(
      /servername "https:\/\/example\.org" is not a host name: give the host name alone, e\.g\. example\.org$/,
    );
    const address = await client.callTool('check_ssl_certificate', {
      hostname: 'example.com',
      servername: '10.0.0.1',
    });
    expect(text(address)).toBe('servername must be a DNS name, not an IP address');
    // A space or nothing at all is no host by the schema (one word of at most 253 characters).
    for (const hostname of ['', 'exa mple.com']) {
      const refused = await client.callTool('check_ssl_certificate', { hostname });
      expect(text(refused)).toMatch(
        /invalid arguments for tool "check_ssl_certificate"[\s\S]*hostname/,
      );
    }
    for (const args of [
      { hostname: 'example.com', port: 0 },
      { hostname: 'example.com', port: '443' },
      { hostname: 'example.com', url: 'https://example.com' },
      {},
    ]) {
      const result = await client.callTool('check_ssl_certificate', args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(text(result)).toMatch(/invalid arguments/);
    }
    const indent = await client.callTool('format_json', { json: '{}', indent: 9 });
    expect(text(indent)).toMatch(/invalid arguments[\s\S]*indent/);
    const email = await client.callTool('validate_email', { email: 'no-at-sign' });
    expect(text(email)).toMatch(/invalid arguments[\s\S]*email/);
  });
});

describe('format_json over MCP', () => {
  it('pretty-prints, minifies and sorts; invalid JSON and oversize input are tool errors', async () => {
    const client = await utilix({ maxJsonBytes: 64 });
    const pretty = await client.callTool('format_json', { json: '{"b":1,"a":[true]}' });
    expect(text(pretty)).toBe('{\n  "b": 1,\n  "a": [\n    true\n  ]\n}');
    expect(pretty.structuredContent).toEqual({
      formatted: text(pretty),
      bytes: text(pretty).length,
      indent: 2,
      sortKeys: false,
    });
    const min = await client.callTool('format_json', {
      json: '{ "b": 1, "a": [ true ] }',
      indent: 0,
      sort_keys: true,
    });
    expect(text(min)).toBe('{"a":[true],"b":1}');
    const bad = await client.callTool('format_json', { json: '{\n "a": 1,\n}' });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toBe(
      'invalid JSON at line 3, column 1: unexpected "}" (expected a property name in double quotes)',
    );
    const big = await client.callTool('format_json', { json: `"${'é'.repeat(40)}"` });
    expect(big.isError).toBe(true);
    expect(text(big)).toMatch(/json is 82 bytes; this server takes at most 64/);
    const huge = await client.callTool('format_json', { json: `"${'x'.repeat(70)}"` });
    expect(text(huge)).toMatch(/invalid arguments[\s\S]*json/);
  });
});

describe('validate_email over MCP, with a local DNS server', () => {
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  let resolver: Resolver;
  beforeAll(async () => {
    dns = await startDnsServer({
      'example.test': {
        MX: [
          [20, 'mx2.example.test'],
          [10, 'mx1.example.test'],
        ],
      },
      'mx1.example.test': { A: ['192.0.2.10'] },
      'a-only.test': { A: ['192.0.2.20'], AAAA: ['2001:db8::20'] },
      'nomail.test': { MX: [[0, '']] },
      'empty.test': {},
      'broken.test': { servfail: true },
      'xn--bcher-kva.test': { MX: [[5, 'mail.xn--bcher-kva.test']] },
    });
    resolver = new Resolver({ timeout: 500, tries: 1 });
    resolver.setServers([`127.0.0.1:${String(dns.port)}`]);
  });
  afterAll(async () => {
    await dns.close();
  });

  it('answers valid with the mail exchangers, or invalid with the reason', async () => {
    const client = await utilix({ mailResolver: resolver });
    const mx = await client.callTool('validate_email', {
      email: 'jane@example.test',
      check_domain: true,
    });
    expect(text(mx)).toBe(
      'Valid: jane@example.test (mail goes to mx1.example.test, mx2.example.test).',
    );
    expect(mx.structuredContent).toMatchObject({
      valid: true,
      domainCheck: { result: 'mx', mx: ['mx1.example.test', 'mx2.example.test'] },
    });
    const idn = await client.callTool('validate_email', {
      email: 'jürgen@bücher.test',
      check_domain: true,
    });
    expect(idn.structuredContent).toMatchObject({
      valid: true,
      asciiDomain: 'xn--bcher-kva.test',
      smtputf8: true,
      domainCheck: { result: 'mx' },
    });
    const aOnly = await client.callTool('validate_email', {
      email: 'x@a-only.test',
      check_domain: true,
    });
    expect(aOnly.structuredContent).toMatchObject({
      valid: true,
      domainCheck: { result: 'address', addresses: ['192.0.2.20', '2001:db8::20'] },
    });
    for (const [email, reason] of [
      ['x@nomail.test', /accepts no mail \(a null MX record/],
      ['x@empty.test', /no MX, A or AAAA records/],
      ['x@missing.test', /no MX, A or AAAA records/],
    ] as const) {
      const result = await client.callTool('validate_email', { email, check_domain: true });
      expect(result.isError, email).toBeUndefined();
      expect(result.structuredContent, email).toMatchObject({ valid: false });
      expect(text(result), email).toMatch(reason);
    }
    const failed = await client.callTool('validate_email', {
      email: 'x@broken.test',
      check_domain: true,
    });
    expect(failed.isError).toBe(true);
    expect(text(failed)).toMatch(/could not look up MX records of broken\.test: ESERVFAIL/);
    expect(dns.queries).toContain('MX example.test');
    expect(dns.queries).toContain('A a-only.test');
  });

  it('checks syntax alone without check_domain, and never looks up an invalid address', async () => {
    const client = await utilix({ mailResolver: resolver });
    const before = dns.queries.length;
    const ok = await client.callTool('validate_email', { email: '"john doe"@example.test' });
    expect(text(ok)).toBe('Valid syntax: "john doe"@example.test (domain not checked).');
    const bad = await client.callTool('validate_email', {
      email: 'john..doe@example.test',
      check_domain: true,
    });
    expect(text(bad)).toBe('Invalid: the local part has two dots in a row.');
    expect(bad.structuredContent).toMatchObject({ valid: false, localPart: 'john..doe' });
    expect(dns.queries.length).toBe(before);
  });
});

describe.skipIf(!HAS_OPENSSL)('check_ssl_certificate against a local TLS server', () => {
  let certs: TestCertificates;
  let tls: Awaited<ReturnType<typeof startTlsServer>>;
  let silent: TcpServer;
  let silentPort: number;
  beforeAll(async () => {
    certs = makeCertificates();
    tls = await startTlsServer(certs);
    silent = createTcpServer(() => undefined); // accepts, never speaks TLS
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as AddressInfo).port;
  }, 60_000);
  afterAll(async () => {
    await tls.close();
    silent.close();
    certs.remove();
  });

  const trusting = (options: UtilixServerOptions = {}) =>
    utilix({ extraCaCertificates: [certs.ca.cert], ...options });

  it("answers the seeds' call with the certificate's facts", async () => {
    const client = await trusting();
    const result = await client.callTool('check_ssl_certificate', {
      hostname: '127.0.0.1',
      port: tls.port,
    });
    expect(result.isError).toBeUndefined();
    expect(text(result)).toMatch(
      /^Certificate valid until \d{4}-12-31 \(\d+ days left\), issued by utilix test CA, SAN matches\. Chain trusted; TLSv1\.3, TLS_\w+\.$/,
    );
    expect(result.structuredContent).toMatchObject({
      hostname: '127.0.0.1',
      port: tls.port,
      servername: null,
      address: '127.0.0.1',
      subject: 'CN=localhost',
      issuer: 'CN=utilix test CA',
      subjectAltNames: ['DNS:localhost', 'DNS:valid.test', 'IP:127.0.0.1'],
      hostnameMatches: true,
      chainTrusted: true,
      verifyError: null,
      problems: [],
      protocol: 'TLSv1.3',
    });
  });

  it('names what is wrong: expired, not yet valid, wrong host, self-signed, unknown CA', async () => {
    const client = await trusting();
    const cases = [
      [
        'expired.test',
        ['expired'],
        'CERT_HAS_EXPIRED',
        /^Certificate problems: expired\. Certificate expired on 2021-01-01/,
      ],
      ['future.test', ['not yet valid'], 'CERT_NOT_YET_VALID', /not valid before 2040-01-01/],
      [
        'wrong.test',
        ['wrong host'],
        null,
        /SAN does not match wrong\.test \(names DNS:other\.test\)/,
      ],
      [
        'self.test',
        ['self-signed'],
        'DEPTH_ZERO_SELF_SIGNED_CERT',
        /Chain not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\)/,
      ],
      [
        'unknown.test',
        ['unknown CA'],
        'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
        /issued by utilix rogue CA/,
      ],
    ] as const;
    for (const [servername, problems, verifyError, summary] of cases) {
      const result = await client.callTool('check_ssl_certificate', {
        hostname: '127.0.0.1',
        port: tls.port,
        servername,
      });
      expect(result.isError, servername).toBeUndefined();
      expect(result.structuredContent, servername).toMatchObject({
        servername,
        problems,
        verifyError,
      });
      expect(text(result), servername).toMatch(summary);
    }
  });

  it('without the test CA, the valid certificate is from an unknown CA', async () => {
    const client = await utilix();
    const result = await client.callTool('check_ssl_certificate', {
      hostname: '127.0.0.1',
      port: tls.port,
      servername: 'valid.test',
    });
    expect(result.structuredContent).toMatchObject({
      hostnameMatches: true,
      chainTrusted: false,
      problems: ['unknown CA'],
    });
  });

  it('resolves names through the lookup and checks every address against the policy', async () => {
    const lookups: string[] = [];
    const client = await trusting({
      lookup: (name) => {
        lookups.push(name);
        return Promise.resolve(
          name === 'valid.test'
            ? [{ address: '::1' }, { address: '127.0.0.1' }]
            : [{ address: '127.0.0.1' }, { address: '10.0.0.7' }],
        );
      },
      targets: { deny: ['10.0.0.0/8'] },
    });
    // ::1 refuses the connection (the server listens on 127.0.0.1): the next address is tried.
    const ok = await client.callTool('check_ssl_certificate', {
      hostname: 'valid.test',
      port: tls.port,
    });
    expect(ok.structuredContent).toMatchObject({
      servername: 'valid.test',
      address: '127.0.0.1',
      problems: [],
    });
    const refused = await client.callTool('check_ssl_certificate', {
      hostname: 'mixed.test',
      port: tls.port,
    });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(
      /refused to connect to mixed\.test: 10\.0\.0\.7 is not an address/,
    );
    expect(lookups).toEqual(['valid.test', 'mixed.test']);

    const denyPrivate = await utilix({ targets: { deny: ['private'] } });
    const loopback = await denyPrivate.callTool('check_ssl_certificate', {
      hostname: '127.0.0.1',
      port: tls.port,
    });
    expect(loopback.isError).toBe(true);
    expect(text(loopback)).toMatch(/127\.0\.0\.1 is not an address this server may connect to/);
  });

  it('reports an unreachable port, a silent one and an unknown name as tool errors', async () => {
    const client = await trusting({
      tlsTimeoutMs: 300,
      lookup: () => Promise.reject(Object.assign(new Error('nope'), { code: 'ENOTFOUND' })),
    });
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createTcpServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => {
          resolve(port);
        });
      });
    });
    const refused = await client.callTool('check_ssl_certificate', {
      hostname: '127.0.0.1',
      port: closedPort,
    });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe(`connection refused by 127.0.0.1 port ${String(closedPort)}`);
    const quiet = await client.callTool('check_ssl_certificate', {
      hostname: '127.0.0.1',
      port: silentPort,
    });
    expect(quiet.isError).toBe(true);
    expect(text(quiet)).toBe(`no TLS answer from 127.0.0.1:${String(silentPort)} within 0.3 s`);
    const unknown = await client.callTool('check_ssl_certificate', { hostname: 'nowhere.test' });
    expect(text(unknown)).toBe('cannot resolve nowhere.test: no such host');
  });
});
