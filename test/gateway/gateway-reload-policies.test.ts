// Hot reload of policies (#40 point 6): the config file's `policies` rewritten while a client
// holds a session and its GET stream. The new rules decide from the next request on, the client
// is told through list_changed and sees its new list in the same session; invalid rules are
// refused with the reason while the old ones keep deciding. Real parts: HTTP upstreams on
// 127.0.0.1, the gateway over Streamable HTTP behind trusted headers, the official SDK v1 client.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigWatch } from '../../src/gateway/index.js';
import {
  Gateway,
  parseGatewayConfig,
  trustedHeader,
  watchConfig,
} from '../../src/gateway/index.js';
import { McpServer } from '../../src/server/index.js';
import type { Listening } from '../../src/transports/http/server/node.js';
import { listen } from '../../src/transports/http/server/node.js';
import { codeOf, nextEvent, watchedSession } from './harness.js';

const info = { name: 'reload-policies-test', version: '1.0.0' };

async function upstream(tool: string): Promise<Listening> {
  const server = new McpServer({ name: tool, version: '1' });
  server.tool({ name: tool, inputSchema: { type: 'object' } }, () => `from ${tool}`);
  return listen(() => server, { port: 0 });
}

describe('hot reload of policies', () => {
  let alpha: Listening;
  let beta: Listening;
  let gateway: Gateway;
  let served: Listening;
  let watch: ConfigWatch;
  let file: string;
  const events: Record<string, unknown>[] = [];

  const write = (policies: unknown) => {
    const servers = { a: { url: alpha.url }, b: { url: beta.url } };
    writeFileSync(file, JSON.stringify({ mcpServers: servers, policies }));
  };
  const load = () => parseGatewayConfig(JSON.parse(readFileSync(file, 'utf8')));

  beforeAll(async () => {
    [alpha, beta] = await Promise.all([upstream('alpha'), upstream('beta')]);
    file = join(mkdtempSync(join(tmpdir(), 'mcpkit-gw-policies-')), 'gateway.json');
    write([
      { name: 'everyone', tools: { allow: ['a/*'] } },
      { name: 'beta-users', when: { scopes: ['beta'] }, tools: { allow: ['b/*'] } },
    ]);
    gateway = await Gateway.start(load(), { timing: { pingIntervalMs: 0 } });
    served = await listen(() => gateway.server, {
      port: 0,
      middleware: [trustedHeader({ subject: 'x-user', scopes: 'x-scopes' })],
    });
    watch = watchConfig(file, {
      load,
      apply: (config) => gateway.reload(config),
      onEvent: (event) => events.push(event),
      settleMs: 50,
      sighup: false,
    });
  });

  afterAll(async () => {
    watch.close();
    await served.close();
    await gateway.close();
    await Promise.all([alpha.close(), beta.close()]);
  });

  it('applies new policies to a live session and GET stream, and refuses invalid ones', async () => {
    const { client, transport, requests, told } = await watchedSession(served.url, info, {
      'x-user': 'ann',
      'x-scopes': '',
    });
    const session = transport.sessionId;
    const names = async () => (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(await names()).toEqual(['alpha']);
    expect(await codeOf(client.callTool({ name: 'beta', arguments: {} }))).toBe(-32602);

    // Everyone may now use beta too: told, listed, callable, in the same session.
    let listChanged = told();
    let reloaded = nextEvent(events, (e) => e['event'] === 'reloaded');
    write([{ name: 'everyone', tools: { allow: ['a/*', 'b/*'] } }]);
    expect(await reloaded).toMatchObject({ policies: 'changed', added: [], changed: [] });
    await listChanged;
    expect(await names()).toEqual(['alpha', 'beta']);
    const result = await client.callTool({ name: 'beta', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'from beta' }]);

    // alpha denied: gone from the list, and calling it is the error of an unknown tool.
    listChanged = told();
    reloaded = nextEvent(events, (e) => e['event'] === 'reloaded');
    write([{ name: 'everyone', tools: { allow: ['a/*', 'b/*'], deny: ['a/alpha'] } }]);
    await reloaded;
    await listChanged;
    expect(await names()).toEqual(['beta']);
    expect(await codeOf(client.callTool({ name: 'alpha', arguments: {} }))).toBe(-32602);

    // Invalid rules: refused with the reason; the rules in force keep deciding.
    const refused = nextEvent(events, (e) => e['event'] === 'reload-refused');
    write([{ name: 'everyone', tools: { allow: ['a/*'], hide: ['b/*'] } }]);
    expect(String((await refused)['error'])).toContain('unknown field "tools.hide"');
    expect(await names()).toEqual(['beta']);
    expect(await codeOf(client.callTool({ name: 'alpha', arguments: {} }))).toBe(-32602);

    expect(transport.sessionId).toBe(session);
    expect(requests.filter((request) => request.body.includes('"initialize"'))).toHaveLength(1);
    expect(requests.some((request) => request.method === 'GET')).toBe(true);
    await client.close();
  });

  it('takes endpoints, identity and audit: endpoints made and closed at the swap, the sink swapped', async () => {
    const servers = { a: { url: alpha.url }, b: { url: beta.url } };
    const policies = [{ tools: { allow: ['a/*', 'b/*'] } }];
    const records: unknown[] = [];
    const swapped: unknown[] = [];
    const added = await gateway.reload(
      parseGatewayConfig({
        mcpServers: servers,
        policies,
        endpoints: { docs: { servers: ['a'] } },
        identity: { header: { subject: 'x-other' } },
        audit: { arguments: true },
      }),
      {
        audit: (record) => records.push(record),
        onSwap: (summary) => {
          // At the swap, the new endpoints are there to be served.
          swapped.push(summary, gateway.endpoints.has('docs'));
        },
      },
    );
    expect(added).toMatchObject({
      endpoints: { added: ['docs'], removed: [], changed: [] },
      identity: 'changed',
      audit: 'changed',
    });
    expect(swapped).toEqual([added, true]);
    const docs = gateway.endpoints.get('docs');
    expect(docs?.status().upstreams.map((upstream) => upstream.name)).toEqual(['a']);
    const docsServed = await listen(() => docs?.server as McpServer, { port: 0 });
    const client = new ClientV1(info);
    await client.connect(new StreamableHttpV1(new URL(docsServed.url)));
    const result = await client.callTool({ name: 'alpha', arguments: { n: 1 } });
    expect(result.content).toEqual([{ type: 'text', text: 'from alpha' }]);
    expect(records).toMatchObject([{ endpoint: 'docs', tool: 'alpha', arguments: { n: 1 } }]);

    // Removed: its server closed once the reload is done, its session with it.
    const removed = await gateway.reload(parseGatewayConfig({ mcpServers: servers, policies }), {
      audit: null,
    });
    expect(removed).toMatchObject({ endpoints: { removed: ['docs'] }, audit: 'changed' });
    expect(gateway.endpoints.has('docs')).toBe(false);
    await expect(client.callTool({ name: 'alpha', arguments: {} })).rejects.toThrow();
    await client.close();
    await docsServed.close();
  });
});
