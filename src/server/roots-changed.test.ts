import { expect, it } from 'vitest';
import { Client } from '../client/index.js';
import { createMemoryPair } from '../transports/memory.js';
import { McpServer } from './server.js';

it('onRootsChanged hears a legacy client; its throw goes to onError and the server serves on', async () => {
  const errors: string[] = [];
  let heard = 0;
  const server = new McpServer(
    { name: 'rooted', version: '1' },
    {
      onError: (error, where) => errors.push(`${where}: ${String(error)}`),
      onRootsChanged: () => {
        heard++;
        throw new Error('listener broke');
      },
    },
  );
  server.tool({ name: 'ok', description: 'Says ok.', inputSchema: { type: 'object' } }, () => 'ok');
  const [clientEnd, serverEnd] = createMemoryPair();
  await server.connect(serverEnd);
  const client = new Client(
    { name: 'c', version: '1' },
    { mode: { pin: '2025-11-25' }, onRoots: () => [] },
  );
  await client.connect(clientEnd);
  await client.rootsChanged();
  await expect.poll(() => heard).toBe(1);
  expect(errors).toEqual(['onRootsChanged: Error: listener broke']);
  const result = await client.callTool('ok', {});
  expect(result.content).toEqual([{ type: 'text', text: 'ok' }]);
  await client.close();
});
