// The gateway routes what an upstream asks and logs in the course of a call to the downstream
// client that made the call, when calls overlap: two clients call the same upstream tool at
// once, the tool waits until both run, then asks each caller its name and logs the answer.
// Upstreams of both eras over Streamable HTTP (legacy: the question and log come on the call's
// POST stream; 2026-07-28: the question is embedded in the result, the log on the stream),
// downstream clients of both eras. And a 2026-07-28 upstream is asked for the log level the
// downstream client asked for.
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '../../src/client/index.js';
import { Gateway, parseGatewayConfig } from '../../src/gateway/index.js';
import type { ProtocolRevision } from '../../src/protocol/version.js';
import { McpServer } from '../../src/server/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import type { Listening } from '../../src/transports/http/server/node.js';
import { listen } from '../../src/transports/http/server/node.js';

/** An upstream whose `ask` tool asks for a name once two calls of it run, then logs it. */
function askingServer(revision: ProtocolRevision): McpServer {
  const server = new McpServer(
    { name: 'asker', version: '1' },
    // A 2026-07-28 downstream call re-runs the upstream one (cancelled while its client answers).
    { revisions: [revision], onError: () => undefined },
  );
  let started = 0;
  let release = (): void => undefined;
  const both = new Promise<void>((resolve) => {
    release = resolve;
  });
  server.tool(
    { name: 'ask', description: 'Asks the caller its name.', inputSchema: { type: 'object' } },
    async (_args, ctx) => {
      started++;
      if (started <= 2) {
        if (started === 2) release();
        await both;
      }
      const answer = await ctx.elicit({
        message: 'Who are you?',
        requestedSchema: {
          type: 'object',
          properties: { name: { type: 'string' } },
          required: ['name'],
        },
      });
      const name = String(answer.content?.['name']);
      await ctx.log('info', `answered by ${name}`, 'asker');
      return `hello ${name}`;
    },
  );
  return server;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function downstream(url: string, name: string, revision: ProtocolRevision) {
  const logs: unknown[] = [];
  const client = new Client(
    { name, version: '1' },
    {
      mode: { pin: revision },
      logLevel: 'info',
      onElicit: () => ({ action: 'accept', content: { name } }),
      onLog: (params) => logs.push(params.data),
    },
  );
  await client.connect(createStreamableHttpClientTransport(url));
  closers.push(() => client.close());
  return { client, logs };
}

describe('gateway routing of overlapping calls', () => {
  for (const upstreamRevision of ['2025-11-25', '2026-07-28'] as const) {
    it(`a ${upstreamRevision} upstream's questions and logs reach the client whose call caused them`, async () => {
      const asker = askingServer(upstreamRevision);
      const upstream: Listening = await listen(() => asker);
      closers.push(() => upstream.close());
      const gateway = await Gateway.start(
        parseGatewayConfig({ mcpServers: { asker: { url: upstream.url } } }),
        { timing: { pingIntervalMs: 0 } },
      );
      closers.push(() => gateway.close());
      const served = await listen(() => gateway.server);
      closers.push(() => served.close());

      const ada = await downstream(served.url, 'Ada', '2025-11-25');
      const bob = await downstream(served.url, 'Bob', '2026-07-28');
      const [first, second] = await Promise.all([
        ada.client.callTool('ask'),
        bob.client.callTool('ask'),
      ]);
      expect(first.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
      expect(second.content).toEqual([{ type: 'text', text: 'hello Bob' }]);
      expect(ada.logs).toEqual(['answered by Ada']);
      expect(bob.logs).toEqual(['answered by Bob']);
    }, 20_000);
  }

  it('a 2026-07-28 upstream is asked for the log level the downstream client asked for', async () => {
    const upstreamServer = new McpServer(
      { name: 'levels', version: '1' },
      { revisions: ['2026-07-28'] },
    );
    upstreamServer.tool(
      {
        name: 'level',
        description: 'Says the log level asked for.',
        inputSchema: { type: 'object' },
      },
      (_args, ctx) => ctx.logLevel ?? 'none',
    );
    const upstream = await listen(() => upstreamServer);
    closers.push(() => upstream.close());
    const gateway = await Gateway.start(
      parseGatewayConfig({ mcpServers: { levels: { url: upstream.url } } }),
      { timing: { pingIntervalMs: 0 } },
    );
    closers.push(() => gateway.close());
    const served = await listen(() => gateway.server);
    closers.push(() => served.close());
    const asked = async (revision: ProtocolRevision, logLevel?: 'warning') => {
      const client = new Client(
        { name: 'c', version: '1' },
        { mode: { pin: revision }, ...(logLevel === undefined ? {} : { logLevel }) },
      );
      await client.connect(createStreamableHttpClientTransport(served.url));
      closers.push(() => client.close());
      const result = await client.callTool('level');
      return result.content;
    };
    expect(await asked('2026-07-28', 'warning')).toEqual([{ type: 'text', text: 'warning' }]);
    expect(await asked('2026-07-28')).toEqual([{ type: 'text', text: 'none' }]);
    expect(await asked('2025-11-25', 'warning')).toEqual([{ type: 'text', text: 'warning' }]);
  });
});
