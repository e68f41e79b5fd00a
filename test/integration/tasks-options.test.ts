// tasks(): its options and a tool's `task` field are checked when given (TypeError naming what
// is wrong), and tools registered before the extension was added get their `task` read then.
import { describe, expect, it } from 'vitest';
import { Client } from '../../src/client/index.js';
import { McpServer } from '../../src/server/index.js';
import { createMemoryPair } from '../../src/transports/memory.js';
import { tasks } from '../../src/ext/tasks/index.js';

async function listed(server: McpServer): Promise<unknown[]> {
  const [a, b] = createMemoryPair();
  await server.connect(b);
  const client = new Client({ name: 'c', version: '1' }, { mode: { pin: '2025-11-25' } });
  await client.connect(a);
  try {
    return await client.listTools();
  } finally {
    await client.close();
  }
}

describe('tasks()', () => {
  it('refuses bad options and a bad task field with a TypeError naming them', () => {
    expect(() => tasks({ ttlMs: -1 })).toThrow('tasks(): ttlMs must be a positive number');
    expect(() => tasks({ pollIntervalMs: 0 })).toThrow('pollIntervalMs must be a positive number');
    const server = new McpServer({ name: 's', version: '1' });
    server.extend(tasks());
    const bad = { name: 'bad', task: 'sometimes' } as unknown as { name: string };
    expect(() => server.tool(bad, () => 'x')).toThrow(
      'tool "bad": task must be "optional", "required" or { support, start: "call" | "handler" }',
    );
  });

  it('reads the task field of tools registered before it was added', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.tool({ name: 'early', task: 'required' }, () => 'x');
    server.extend(tasks());
    server.tool({ name: 'late', task: 'optional' }, () => 'y');
    expect(await listed(server)).toEqual([
      expect.objectContaining({ name: 'early', execution: { taskSupport: 'required' } }),
      expect.objectContaining({ name: 'late', execution: { taskSupport: 'optional' } }),
    ]);
  });
});
