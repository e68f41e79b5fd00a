// Roots through mcpkit gateway (#24): a legacy downstream client's roots reach a legacy upstream
// tool that asks for them, and its `notifications/roots/list_changed` reaches the upstream.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client } from '../../src/client/index.js';
import { Gateway } from '../../src/gateway/index.js';
import { McpServer } from '../../src/server/index.js';
import { createMemoryPair } from '../../src/transports/memory.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import type { Listening } from '../../src/transports/http/server/node.js';
import { listen } from '../../src/transports/http/server/node.js';

let changes = 0;
const upstream = new McpServer(
  { name: 'rooted', version: '1' },
  {
    revisions: ['2025-11-25'],
    onRootsChanged: () => {
      changes++;
    },
  },
);
upstream.tool(
  { name: 'list-roots', description: 'Lists the roots.', inputSchema: { type: 'object' } },
  async (_args, ctx) => (await ctx.roots()).map((root) => root.uri).join(' '),
);

let gateway: Gateway;
let served: Listening;

beforeAll(async () => {
  gateway = await Gateway.start(
    {
      servers: {
        rooted: {
          transport: async () => {
            const [client, server] = createMemoryPair();
            await upstream.connect(server);
            return client;
          },
        },
      },
      curation: {},
    },
    { timing: { pingIntervalMs: 0 } },
  );
  served = await listen(() => gateway.server);
});

afterAll(async () => {
  await served.close();
  await gateway.close();
});

it("a legacy client's roots reach the upstream, and so does its roots list_changed", async () => {
  expect(gateway.status().upstreams[0]?.revision).toBe('2025-11-25');
  let roots = [{ uri: 'file:///one' }];
  const client = new Client(
    { name: 'rooted-client', version: '1' },
    { mode: { pin: '2025-11-25' }, onRoots: () => roots },
  );
  await client.connect(createStreamableHttpClientTransport(served.url));
  const first = await client.callTool('list-roots', {});
  expect(JSON.stringify(first.content)).toContain('file:///one');
  roots = [{ uri: 'file:///two' }];
  await client.rootsChanged();
  await expect.poll(() => changes).toBe(1);
  const second = await client.callTool('list-roots', {});
  expect(JSON.stringify(second.content)).toContain('file:///two');
  await client.close();
});
