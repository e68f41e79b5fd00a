import { expect, it } from 'vitest';
import { Client } from '../client/index.js';
import { createMemoryPair } from '../transports/memory.js';
import { McpServer } from './server.js';

it('listChanged(kind) tells a legacy client that a list changed, no registration changing', async () => {
  const server = new McpServer({ name: 'shaped', version: '1' });
  server.tool({ name: 'ok', inputSchema: { type: 'object' } }, () => 'ok');
  const sent: string[] = [];
  const [clientEnd, serverEnd] = createMemoryPair({
    onFrame: (from, text) => {
      const method = (JSON.parse(text) as { method?: string }).method;
      if (from === 'b' && method?.endsWith('/list_changed') === true) sent.push(method);
    },
  });
  await server.connect(serverEnd);
  const client = new Client({ name: 'c', version: '1' }, { mode: { pin: '2025-11-25' } });
  await client.connect(clientEnd);
  server.listChanged('tools');
  server.listChanged('prompts');
  await expect
    .poll(() => sent)
    .toEqual(['notifications/tools/list_changed', 'notifications/prompts/list_changed']);
  expect((await client.listTools()).map((tool) => tool.name)).toEqual(['ok']);
  await client.close();
});
