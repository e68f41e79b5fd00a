// The reference servers end to end, the way hosts reach them: `mcpkit serve <name>` as a child
// process over stdio, and Streamable HTTP on 127.0.0.1, with mcpkit's client and the official
// v1 and v2 clients, in both eras. Also `mcpkit lint` on the everything server.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableHttpV2,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEverythingServer } from '../../servers/everything/server.js';
import { createPingmeServer } from '../../servers/pingme/server.js';
import { Client } from '../../src/client/index.js';
import { listen, type Listening } from '../../src/transports/http/server/node.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/index.js';
import { createStdioClientTransport } from '../../src/transports/stdio/index.js';

const BIN = fileURLToPath(new URL('../../dist/esm/src/cli/main.js', import.meta.url));
const hasDist = existsSync(BIN);
if (!hasDist) console.log('reference-servers: skipped, dist/ is missing (npm test builds it)');

describe.skipIf(!hasDist)('reference servers over stdio (mcpkit serve)', () => {
  for (const mode of [{ pin: '2025-11-25' as const }, { pin: '2026-07-28' as const }]) {
    it(`everything with mcpkit's client at ${mode.pin}`, async () => {
      const client = new Client({ name: 'e2e', version: '1' }, { mode });
      await client.connect(
        createStdioClientTransport({
          command: process.execPath,
          args: [BIN, 'serve', 'everything', '--stdio'],
        }),
      );
      try {
        expect(client.revision).toBe(mode.pin);
        const tools = await client.listTools();
        expect(tools.map((t) => t.name)).toContain('get-sum');
        const sum = await client.callTool('get-sum', { a: 7, b: 5 });
        expect(sum.content).toEqual([{ type: 'text', text: 'The sum of 7 and 5 is 12.' }]);
        const bad = await client.callTool('get-sum', { a: 'oops', b: 2 });
        expect(bad.isError).toBe(true);
        const progress: number[] = [];
        await client.callTool(
          'trigger-long-running-operation',
          { duration: 0.2, steps: 2 },
          { onProgress: (p) => progress.push(p) },
        );
        expect(progress.length).toBeGreaterThanOrEqual(2);
      } finally {
        await client.close();
      }
    });
  }

  it('pingme with the official v1 client', async () => {
    const client = new ClientV1({ name: 'v1', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'serve', 'pingme', '--stdio'],
      }),
    );
    try {
      const result = await client.callTool({ name: 'PingME', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'BISMILLAH' }]);
    } finally {
      await client.close();
    }
  });

  it('passes mcpkit lint (no errors) on the everything server', () => {
    const run = spawnSync(
      process.execPath,
      [BIN, 'lint', '--json', '--', process.execPath, BIN, 'serve', 'everything', '--stdio'],
      {
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(run.status, run.stderr).toBe(0);
  });
});

describe('reference servers over Streamable HTTP', () => {
  let everything: ReturnType<typeof createEverythingServer>;
  let http: Listening;
  let pingHttp: Listening;
  beforeAll(async () => {
    everything = createEverythingServer();
    http = await listen(() => everything.server);
    const pingme = createPingmeServer();
    pingHttp = await listen(() => pingme);
  });
  afterAll(async () => {
    await http.close();
    await pingHttp.close();
    await everything.close();
  });

  for (const mode of ['auto', { pin: '2025-11-25' as const }] as const) {
    it(`everything with mcpkit's client (${typeof mode === 'string' ? mode : mode.pin})`, async () => {
      const client = new Client(
        { name: 'e2e', version: '1' },
        { mode, onElicit: () => ({ action: 'accept', content: { detail: 'brief', focus: 'x' } }) },
      );
      await client.connect(createStreamableHttpClientTransport(http.url));
      try {
        expect(client.era).toBe(mode === 'auto' ? 'modern' : 'legacy');
        const echo = await client.callTool('echo', { message: 'hi' });
        expect(echo.content).toEqual([{ type: 'text', text: 'Echo: hi' }]);
        const read = await client.readResource('demo://resource/dynamic/text/1');
        expect(read.contents[0]?.uri).toBe('demo://resource/dynamic/text/1');
        const research = await client.callTool('simulate-research-query', { topic: 'mcp' });
        expect(research.isError).not.toBe(true);
      } finally {
        await client.close();
      }
    });
  }

  it('everything with the official v2 client, negotiating 2026-07-28', async () => {
    const client = new ClientV2({ name: 'v2', version: '1' }, {
      versionNegotiation: { mode: 'auto' },
    } as never);
    await client.connect(new StreamableHttpV2(new URL(http.url)));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('echo');
      const result = await client.callTool({ name: 'echo', arguments: { message: 'v2' } });
      expect(result.content).toEqual([{ type: 'text', text: 'Echo: v2' }]);
    } finally {
      await client.close();
    }
  });

  it('pingme with the official v2 client in its default (legacy) mode', async () => {
    const client = new ClientV2({ name: 'v2', version: '1' });
    await client.connect(new StreamableHttpV2(new URL(pingHttp.url)));
    try {
      const result = await client.callTool({ name: 'PingME', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'BISMILLAH' }]);
    } finally {
      await client.close();
    }
  });
});
