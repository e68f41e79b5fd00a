// mcpkit/otel with @opentelemetry/api installed and no SDK registered: nothing is recorded and
// the messages go as they would without it (no trace context in _meta). The SDK's behaviour is
// tested in test/integration/otel.test.ts and test/cli/otel.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '../../src/client/index.js';
import { McpServer } from '../../src/server/index.js';
import { createMemoryPair } from '../../src/transports/memory.js';
import { clientTelemetry, instrument, serverTelemetry } from '../../src/ext/otel/index.js';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

describe('mcpkit/otel without an SDK', () => {
  it('gives the middleware, which passes every message through untouched', async () => {
    expect(serverTelemetry()).toBeDefined();
    expect(clientTelemetry()).toBeDefined();
    const seen: unknown[] = [];
    const server = new McpServer({ name: 's', version: '1' });
    server.use((ctx, next) => {
      seen.push(ctx.params['_meta']);
      return next();
    });
    expect(instrument(server)).toBe(true);
    server.tool({ name: 'echo' }, () => 'echoed');
    const [a, b] = createMemoryPair();
    await server.connect(b);
    const client = new Client({ name: 'c', version: '1' }, { mode: { pin: '2025-11-25' } });
    expect(instrument(client)).toBe(true);
    clients.push(client);
    await client.connect(a);
    expect((await client.callTool('echo')).content).toEqual([{ type: 'text', text: 'echoed' }]);
    expect(seen.every((meta) => meta === undefined)).toBe(true);
  });
});
