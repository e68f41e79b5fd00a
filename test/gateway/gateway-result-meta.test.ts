// What the gateway passes on of an upstream result's `_meta`: every field but the upstream's
// serverInfo (io.modelcontextprotocol/serverInfo names the server that answered, and the gateway
// answers as itself: a 2026-07-28 downstream client gets the gateway's, a legacy one none).
// Upstreams of both eras (in memory), downstream requests of both eras on the wire.
import { afterEach, describe, expect, it } from 'vitest';
import { Gateway, parseGatewayConfig } from '../../src/gateway/index.js';
import { MetaKey } from '../../src/protocol/version.js';
import type { ProtocolRevision } from '../../src/protocol/version.js';
import { McpServer } from '../../src/server/index.js';
import { memoryUpstream } from '../helpers/memory-upstream.js';
import type { Wire } from '../helpers/wire.js';
import { MODERN, connectWire } from '../helpers/wire.js';

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

const GATEWAY_INFO = { name: 'the-gateway', version: '2.0.0' };

/** An upstream of `revision` whose tools answer with and without `_meta` of their own. */
function upstreamServer(revision: ProtocolRevision): McpServer {
  const server = new McpServer({ name: 'up', version: '1' }, { revisions: [revision] });
  server.tool({ name: 'plain', inputSchema: { type: 'object' } }, () => 'plain text');
  server.tool({ name: 'traced', inputSchema: { type: 'object' } }, () => ({
    content: [{ type: 'text', text: 'traced text' }],
    _meta: { 'acme/trace': 'abc' },
  }));
  server.resource({ uri: 'file:///a.txt', name: 'a' }, (uri) => ({
    contents: [{ uri, text: 'a' }],
    _meta: { 'acme/trace': 'def' },
  }));
  return server;
}

async function gatewayOver(upstream: McpServer): Promise<Wire> {
  const config = parseGatewayConfig({ mcpServers: {} });
  const servers = { up: memoryUpstream(upstream) };
  const gateway = await Gateway.start(
    { ...config, servers },
    { timing: { pingIntervalMs: 0 }, info: GATEWAY_INFO },
  );
  closing.push(() => gateway.close());
  const wire = await connectWire(gateway.server);
  closing.push(() => wire.close());
  return wire;
}

describe("the gateway passes an upstream result's _meta on without its serverInfo", () => {
  for (const upstreamRevision of ['2025-11-25', MODERN] as const) {
    for (const downstream of ['2025-11-25', MODERN] as const) {
      it(`a ${upstreamRevision} upstream, a ${downstream} request`, async () => {
        const wire = await gatewayOver(upstreamServer(upstreamRevision));
        if (downstream !== MODERN) await wire.initialize(downstream);
        const send = (method: string, params: Record<string, unknown>) =>
          downstream === MODERN ? wire.modern(method, params) : wire.request(method, params);
        const own = downstream === MODERN ? { [MetaKey.ServerInfo]: GATEWAY_INFO } : undefined;

        const plain = await send('tools/call', { name: 'plain', arguments: {} });
        expect(plain.content).toEqual([{ type: 'text', text: 'plain text' }]);
        expect(plain._meta).toEqual(own);
        const traced = await send('tools/call', { name: 'traced', arguments: {} });
        expect(traced.content).toEqual([{ type: 'text', text: 'traced text' }]);
        expect(traced._meta).toEqual({ 'acme/trace': 'abc', ...own });
        const read = await send('resources/read', { uri: 'file:///a.txt' });
        expect(read.contents).toEqual([{ uri: 'file:///a.txt', text: 'a' }]);
        expect(read._meta).toEqual({ 'acme/trace': 'def', ...own });
        wire.assertServerFramesValid(downstream);
      });
    }
  }
});
