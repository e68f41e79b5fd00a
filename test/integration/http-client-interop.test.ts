// The Streamable HTTP client transport under mcpkit's Client, against mcpkit's own Streamable
// HTTP server on node:http: every revision, including 2024-11-05 through the HTTP+SSE fallback.
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '../../src/client/index.js';
import type { ProtocolRevision } from '../../src/protocol/version.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import type { StreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import { listen } from '../../src/transports/http/server/node.js';
import type { Listening } from '../../src/transports/http/server/node.js';
import { createSumServer } from '../helpers/sum-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(options: Parameters<typeof listen>[1] = {}): Promise<Listening> {
  const server = createSumServer();
  const listening = await listen(() => server, options);
  cleanups.push(() => listening.close());
  return listening;
}

async function connect(
  url: string,
  revision: ProtocolRevision,
): Promise<{ client: Client; transport: StreamableHttpClientTransport; errors: Error[] }> {
  const errors: Error[] = [];
  const transport = createStreamableHttpClientTransport(url, { onError: (e) => errors.push(e) });
  const client = new Client({ name: 'interop', version: '1.0.0' }, { mode: { pin: revision } });
  cleanups.push(() => client.close());
  await client.connect(transport);
  return { client, transport, errors };
}

describe('Streamable HTTP client against the mcpkit server', () => {
  const revisions = ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;
  for (const revision of revisions) {
    it(`lists and calls a tool at ${revision}`, async () => {
      const listening = await serve();
      const { client, transport, errors } = await connect(listening.url, revision);
      expect(client.revision).toBe(revision);
      expect((await client.listTools()).map((t) => t.name)).toEqual(['get-sum']);
      const sum = await client.callTool('get-sum', { a: 2, b: 3 });
      expect(sum).toMatchObject({ content: [{ type: 'text', text: 'The sum of 2 and 3 is 5.' }] });
      expect(transport.mode).toBe('streamable');
      if (revision === '2026-07-28') expect(transport.sessionId).toBeUndefined();
      else expect(transport.sessionId).toEqual(expect.any(String));
      await client.close();
      expect(errors).toEqual([]);
    });
  }

  it('falls back to HTTP+SSE for 2024-11-05 at the legacy SSE URL', async () => {
    const listening = await serve({ enableLegacySse: true });
    const sseUrl = listening.url.replace(/\/mcp$/, '/sse');
    const { client, transport } = await connect(sseUrl, '2024-11-05');
    expect(transport.mode).toBe('sse');
    const sum = await client.callTool('get-sum', { a: 1, b: 1 });
    expect(sum).toMatchObject({ content: [{ type: 'text', text: 'The sum of 1 and 1 is 2.' }] });
  });
});
