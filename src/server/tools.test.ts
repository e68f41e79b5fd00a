import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client } from '../client/index.js';
import { createMemoryPair } from '../transports/memory.js';
import type { McpServerOptions } from './server.js';
import { McpServer } from './server.js';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

class CityError extends Error {}

/** A server whose tools fail in every way a handler can: slips in the code, and on purpose. */
async function failing(options: McpServerOptions): Promise<Client> {
  const server = new McpServer({ name: 'failing', version: '1' }, options);
  const input = { type: 'object' } as const;
  server.tool(
    { name: 'slip', description: 'Reads a field of nothing.', inputSchema: input },
    () => {
      const nothing = undefined as unknown as { city: string };
      return nothing.city;
    },
  );
  server.tool(
    { name: 'async-slip', description: 'Reads a name before it is set.', inputSchema: input },
    async () => {
      await Promise.resolve();
      const read = () => later;
      const value = read();
      const later = 'set';
      return value;
    },
  );
  server.tool({ name: 'refused', description: 'Fails on purpose.', inputSchema: input }, () => {
    throw new Error('no such city');
  });
  server.tool({ name: 'own-error', description: 'Fails on purpose.', inputSchema: input }, () => {
    throw new CityError('the station is down');
  });
  server.tool({ name: 'returned', description: 'Answers isError.', inputSchema: input }, () => ({
    content: [{ type: 'text' as const, text: 'closed today' }],
    isError: true as const,
  }));
  const [clientEnd, serverEnd] = createMemoryPair();
  await server.connect(serverEnd);
  const client = new Client({ name: 'c', version: '1' }, { mode: { pin: '2025-11-25' } });
  clients.push(client);
  await client.connect(clientEnd);
  return client;
}

describe('a tool handler that fails', () => {
  it('answers isError in every case, and reports only a slip in the code (TypeError, ReferenceError) to onError', async () => {
    const reported: [string, unknown][] = [];
    const client = await failing({ onError: (error, where) => reported.push([where, error]) });
    const text = async (name: string) => {
      const result = await client.callTool(name, {});
      expect(result.isError, name).toBe(true);
      return (result.content[0] as { text: string }).text;
    };
    expect(await text('slip')).toMatch(/^Cannot read properties of undefined \(reading 'city'\)$/);
    expect(await text('async-slip')).toBe("Cannot access 'later' before initialization");
    expect(await text('refused')).toBe('no such city');
    expect(await text('own-error')).toBe('the station is down');
    expect(await text('returned')).toBe('closed today');
    expect(reported.map(([where]) => where)).toEqual(['tool "slip"', 'tool "async-slip"']);
    expect(reported[0]![1]).toBeInstanceOf(TypeError);
    expect(reported[1]![1]).toBeInstanceOf(ReferenceError);
    expect((reported[0]![1] as Error).stack).toMatch(/tools\.test\.ts/);
  });

  it('prints a slip on stderr by default: one line with its kind and where it was thrown', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const client = await failing({});
      await client.callTool('slip', {});
      await client.callTool('refused', {});
      expect(printed.mock.calls).toEqual([
        [
          expect.stringMatching(
            /^mcpkit server: tool "slip": TypeError: Cannot read properties of undefined \(reading 'city'\) \(at .*tools\.test\.ts:\d+:\d+\)$/,
          ),
        ],
      ]);
    } finally {
      printed.mockRestore();
    }
  });
});
