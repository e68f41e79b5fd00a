// The middleware of docs/middleware.md (examples/middleware.ts) on a real server, in both eras:
// over stdio (the built package in a child process, the examples with their types stripped) and
// over Streamable HTTP (a real socket on 127.0.0.1, behind the auth gate, so the principal is a
// verified one). Request logging, timing, the per-principal allow-list, the cached tool and the
// rate limit are each seen working end to end; and the docs' blocks are checked to be the
// examples' code.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as mw from '../../examples/middleware.js';
import { Client } from '../../src/client/index.js';
import type { AuthInfo } from '../../src/protocol/auth.js';
import { AuthError } from '../../src/protocol/auth.js';
import type { ProtocolRevision } from '../../src/protocol/version.js';
import { McpServer } from '../../src/server/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import type { HttpAuthOptions } from '../../src/transports/http/index.js';
import { listen } from '../../src/transports/http/node.js';
import { createStdioClientTransport } from '../../src/transports/stdio/index.js';
import { ALLOWED, LIMIT, defineMiddlewareServer } from '../fixtures/middleware-server.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = join(ROOT, 'test/fixtures/middleware-server.mjs');
const hasDist = existsSync(join(ROOT, 'dist/esm/src/server/index.js'));
if (!hasDist)
  console.log('server middleware over stdio: skipped, dist/ is missing (npm test builds it)');

const ERAS = [
  ['legacy', '2025-11-25'],
  ['modern', '2026-07-28'],
] as const;

const principal = (subject: string): AuthInfo => ({
  subject,
  clientId: 'app',
  scopes: ['mcp'],
  expiresAt: undefined,
  claims: { sub: subject },
});

const AUTH: HttpAuthOptions = {
  resource: 'https://mcp.example.com/mcp',
  authorizationServers: ['https://auth.example.com'],
  verify: (token) =>
    token === 'token-alice'
      ? Promise.resolve(principal('alice'))
      : Promise.reject(new AuthError('invalid_token', 'the access token is not valid')),
};

let dir = '';
let stripped = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcpkit-middleware-'));
  const source = readFileSync(join(ROOT, 'examples/middleware.ts'), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
    },
  });
  stripped = join(dir, 'middleware.mjs');
  writeFileSync(stripped, outputText);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

function textOf(result: { content: unknown[] }): string {
  return (result.content as { text?: string }[]).map((block) => block.text ?? '').join('');
}

async function overStdio(revision: ProtocolRevision): Promise<Client> {
  const transport = createStdioClientTransport({
    command: process.execPath,
    args: [FIXTURE, stripped],
    stderr: 'pipe',
  });
  const client = new Client({ name: 'mw-test', version: '1.0.0' }, { mode: { pin: revision } });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

async function overHttp(revision: ProtocolRevision): Promise<Client> {
  const server = defineMiddlewareServer(new McpServer({ name: 'mw', version: '1.0.0' }), mw);
  const running = await listen(() => server, { auth: AUTH });
  const transport = createStreamableHttpClientTransport(running.url, {
    headers: { authorization: 'Bearer token-alice' },
  });
  const client = new Client({ name: 'mw-test', version: '1.0.0' }, { mode: { pin: revision } });
  await client.connect(transport);
  cleanups.push(async () => {
    await client.close();
    await running.close();
  });
  return client;
}

/**
 * Runs every middleware of the docs through `client`, whose principal is `who`: the listing and
 * calls the allow-list lets through or refuses, the cached `count`, logging and timing as the
 * `log` tool reports them, and the rate limit.
 */
async function exercise(client: Client, who: string, era: string, revision: string) {
  const names = (await client.listTools()).map((tool) => tool.name).sort();
  expect(names).toEqual([...(ALLOWED[who] ?? [])].sort());
  expect(textOf(await client.callTool('echo', { text: 'hi' }))).toBe('echo: hi');
  const secret = await client.callTool('secret');
  if (who === 'alice') {
    expect(textOf(secret)).toBe('the secret');
  } else {
    expect(secret.isError).toBe(true);
    expect(textOf(secret)).toBe('anonymous may not call secret');
  }
  expect(textOf(await client.callTool('count'))).toBe('count 1');
  expect(textOf(await client.callTool('count'))).toBe('count 1');
  const log = textOf(await client.callTool('log')).split('\n');
  expect(log).toContain(`tools/list (${era} ${revision}): ok`);
  expect(log).toContain(`tools/call (${era} ${revision}): ok`);
  if (era === 'legacy') expect(log[0]).toBe('initialize (legacy before initialize): ok');
  // The cached call ran its handler once; timing sits inside the rate limit, outside the cache.
  expect(log.filter((line) => line === 'timed count')).toHaveLength(2);
  expect(log).toContain('timed echo');
  // Calls so far that the rate limit counted: echo, count twice, log, and alice's secret.
  let calls = who === 'alice' ? 5 : 4;
  let refused: { content: unknown[]; isError?: boolean } | undefined;
  while (refused === undefined && calls <= LIMIT + 1) {
    const result = await client.callTool('echo', { text: 'again' });
    calls++;
    if (result.isError === true) refused = result;
  }
  expect(calls).toBe(LIMIT + 1);
  expect(textOf(refused ?? { content: [] })).toMatch(
    /^rate limit: 8 tool calls at most; try again in \d+ s$/,
  );
}

describe('the middleware of docs/middleware.md', () => {
  for (const [era, revision] of ERAS) {
    it.skipIf(!hasDist)(
      `run over stdio, in a child process (${era})`,
      async () => {
        await exercise(await overStdio(revision), 'anonymous', era, revision);
      },
      20_000,
    );

    it(`run over Streamable HTTP, for the verified principal (${era})`, async () => {
      await exercise(await overHttp(revision), 'alice', era, revision);
    });
  }

  it('are what the docs show: every block marked as from examples/middleware.ts is its code', () => {
    const example = readFileSync(join(ROOT, 'examples/middleware.ts'), 'utf8');
    const doc = readFileSync(join(ROOT, 'docs/middleware.md'), 'utf8').split('\n');
    let checked = 0;
    for (let i = 0; i < doc.length; i++) {
      if (doc[i] !== '<!-- from examples/middleware.ts -->') continue;
      let start = i + 1;
      while (doc[start] === '') start++;
      expect(doc[start], `docs/middleware.md:${String(start + 1)}`).toBe('```ts');
      let end = start + 1;
      while (end < doc.length && doc[end] !== '```') end++;
      // The block's imports name the package (`mcpkit/server`); the code after is the example's.
      const code = doc
        .slice(start + 1, end)
        .join('\n')
        .replace(/^import type [^;]*;\n+/s, '');
      expect(example, `docs/middleware.md:${String(start + 1)}`).toContain(code);
      checked++;
    }
    expect(checked).toBe(5);
  });
});
