// The token budget per caller (#40 point 2: a hidden tool is absent from lists, `search_tools`
// and the budget): with policies, whether a caller is served every tool or the `search_tools`
// catalogue is decided over the tools it may see. Two principals (trusted headers) on one
// endpoint with a budget: one whose visible tools fit is listed them, the other, over budget,
// gets the catalogue; each one's `gateway://status` counts what it may see. Real parts: an HTTP
// upstream on 127.0.0.1, the gateway over Streamable HTTP, the official SDK v1 client.
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayStatus } from '../../src/gateway/index.js';
import { Gateway, STATUS_URI, parseGatewayConfig, trustedHeader } from '../../src/gateway/index.js';
import { McpServer } from '../../src/server/index.js';
import type { Listening } from '../../src/transports/http/server/node.js';
import { listen } from '../../src/transports/http/server/node.js';
import { codeOf } from './harness.js';

const info = { name: 'budget-policy-test', version: '1.0.0' };

/** An upstream whose tools' descriptions are `size` characters long. */
async function upstream(tools: readonly string[], size: number): Promise<Listening> {
  const server = new McpServer({ name: 'upstream', version: '1' });
  for (const tool of tools) {
    server.tool(
      {
        name: tool,
        description: `${tool}: ${'word '.repeat(size / 5)}`,
        inputSchema: { type: 'object' },
      },
      () => `${tool} done`,
    );
  }
  return listen(() => server, { port: 0 });
}

let small: Listening;
let big: Listening;
let gateway: Gateway;
let served: Listening;

beforeAll(async () => {
  [small, big] = await Promise.all([
    upstream(['note_add', 'note_list'], 100),
    upstream(['report_build', 'report_send', 'report_delete'], 2000),
  ]);
  const config = parseGatewayConfig({
    mcpServers: { notes: { url: small.url }, reports: { url: big.url } },
    policies: [
      { name: 'everyone', tools: { allow: ['notes/*'] } },
      { name: 'reporters', when: { scopes: ['reports'] }, tools: { allow: ['reports/*'] } },
    ],
  });
  // Four characters a token: the notes' tools cost ~70 tokens, the reports' ~1,500.
  gateway = await Gateway.start(config, { budget: 400, timing: { pingIntervalMs: 0 } });
  served = await listen(() => gateway.server, {
    port: 0,
    middleware: [trustedHeader({ subject: 'x-user', scopes: 'x-scopes' })],
  });
});

afterAll(async () => {
  await served.close();
  await gateway.close();
  await Promise.all([small.close(), big.close()]);
});

async function connect(user: string, scopes: string) {
  const client = new ClientV1(info);
  await client.connect(
    new StreamableHttpV1(new URL(served.url), {
      requestInit: { headers: { 'x-user': user, 'x-scopes': scopes } },
    }),
  );
  return client;
}

async function names(client: ClientV1): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name).sort();
}

async function statusOf(client: ClientV1): Promise<GatewayStatus> {
  const { contents } = await client.readResource({ uri: STATUS_URI });
  return JSON.parse((contents[0] as { text: string }).text) as GatewayStatus;
}

describe('the token budget, per caller', () => {
  it('lists every visible tool to a caller under budget, without search_tools', async () => {
    const narrow = await connect('ann', '');
    expect(await names(narrow)).toEqual(['note_add', 'note_list']);
    const status = await statusOf(narrow);
    expect(status.mode).toBe('all');
    // The hidden tools count for nobody: this caller's budget is over what it may see.
    expect(status.tokens.all).toBeLessThan(400);
    expect(status.tokens.served).toBe(status.tokens.all);
    expect(gateway.status().tokens.all).toBeGreaterThan(400);
    // search_tools is not served to it: the error of a tool the gateway does not serve.
    expect(await codeOf(narrow.callTool({ name: 'search_tools', arguments: { query: 'x' } }))).toBe(
      -32602,
    );
    const result = await narrow.callTool({ name: 'note_add', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'note_add done' }]);
    await narrow.close();
  });

  it('serves the catalogue to a caller over budget; what it finds is loaded for it', async () => {
    const wide = await connect('bob', 'reports');
    const narrow = await connect('ann', '');
    let told: () => void = () => undefined;
    const changed = new Promise<void>((resolve) => {
      told = resolve;
    });
    wide.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      told();
    });
    expect(await names(wide)).toEqual(['search_tools']);
    const status = await statusOf(wide);
    expect(status.mode).toBe('catalogue');
    expect(status.tokens.all).toBe(gateway.status().tokens.all);
    // A tool not loaded yet is unknown to it, as without policies.
    expect(await codeOf(wide.callTool({ name: 'note_add', arguments: {} }))).toBe(-32602);

    const found = await wide.callTool({
      name: 'search_tools',
      arguments: { query: 'report_send' },
    });
    expect(JSON.stringify(found.content)).toContain('report_send');
    await changed;
    expect(await names(wide)).toContain('report_send');
    expect(await names(wide)).toContain('search_tools');
    const sent = await wide.callTool({ name: 'report_send', arguments: {} });
    expect(sent.content).toEqual([{ type: 'text', text: 'report_send done' }]);
    // The other caller's view is its own: its visible tools, still all listed.
    expect(await names(narrow)).toEqual(['note_add', 'note_list']);
    await Promise.all([wide.close(), narrow.close()]);
  });
});
