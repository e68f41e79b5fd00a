import { afterEach, describe, expect, it } from 'vitest';
import { MODERN, connectWire, type Wire } from '../../../test/helpers/wire.js';
import { createPingmeServer } from '../server.js';

const wires: Wire[] = [];
afterEach(async () => {
  await Promise.all(wires.splice(0).map((w) => w.close()));
});

async function connect(era: string): Promise<{ w: Wire; send: Wire['request'] }> {
  const w = await connectWire(createPingmeServer());
  wires.push(w);
  if (era === MODERN) return { w, send: (method, params) => w.modern(method, params) };
  await w.initialize(era);
  return { w, send: w.request };
}

describe('pingme over MCP', () => {
  for (const era of ['2025-11-25', '2024-11-05', MODERN] as const) {
    it(`lists PingME with an empty closed schema and answers BISMILLAH (${era})`, async () => {
      const { w, send } = await connect(era);
      const { tools } = await send('tools/list', {});
      expect(tools).toHaveLength(1);
      expect(tools[0]).toMatchObject({
        name: 'PingME',
        description: expect.stringMatching(/reachable/),
        inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      });
      const result = await send('tools/call', { name: 'PingME', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'BISMILLAH' }]);
      expect(result.isError).toBeUndefined();
      w.assertServerFramesValid(era);
    });
  }

  it('refuses arguments it does not take with a tool error', async () => {
    const { w, send } = await connect('2025-11-25');
    const result = await send('tools/call', { name: 'PingME', arguments: { loud: true } });
    expect(result.isError).toBe(true);
    w.assertServerFramesValid('2025-11-25');
  });

  it('reports its identity', async () => {
    const w = await connectWire(createPingmeServer({ version: '9.9.9' }));
    wires.push(w);
    const init = await w.initialize('2025-11-25');
    expect(init.serverInfo).toEqual({ name: 'pingme', version: '9.9.9' });
    expect(init.capabilities.tools).toBeDefined();
  });
});
