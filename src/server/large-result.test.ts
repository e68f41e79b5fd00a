import { describe, expect, it } from 'vitest';
import { Client } from '../client/index.js';
import { createMemoryPair } from '../transports/memory.js';
import { largeResults } from './large-result.js';
import { McpServer } from './server.js';

async function connect(server: McpServer): Promise<Client> {
  const [a, b] = createMemoryPair();
  void server.connect(b);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(a);
  return client;
}

function text(result: { contents: unknown[] }): string {
  return (result.contents[0] as { text: string }).text;
}

describe('largeResults', () => {
  it('returns a short text whole, and a long one as its head and a link to a ranged resource', async () => {
    const results = largeResults({ headChars: 10, maxReadChars: 30 });
    const server = new McpServer({ name: 's', version: '1' });
    results.attach(server);
    const whole = 'abcdefghijklmnopqrstuvwxyz'.repeat(4);
    expect(results.result('short')).toEqual({ content: [{ type: 'text', text: 'short' }] });
    const long = results.result(whole, { name: 'alpha' });
    expect(long.content[0]).toMatchObject({ type: 'text' });
    expect(
      (long.content[0] as { text: string }).text.startsWith('abcdefghij\n[the result has 104'),
    ).toBe(true);
    expect(long.content[1]).toMatchObject({
      type: 'resource_link',
      uri: 'result://1',
      name: 'alpha',
      _meta: { 'mcpkit/length': 104 },
    });
    const client = await connect(server);
    const slice = await client.readResource('result://1?offset=10&length=5');
    expect(text(slice)).toBe('klmno');
    expect(slice._meta).toMatchObject({
      'mcpkit/offset': 10,
      'mcpkit/end': 15,
      'mcpkit/length': 104,
    });
    // A read is capped; slices read in turn make the whole.
    let read = '';
    for (let offset = 0; offset < whole.length; offset += 30) {
      read += text(await client.readResource(`result://1?offset=${String(offset)}&length=100`));
    }
    expect(read).toBe(whole);
    await client.close();
  });

  it('drops the oldest texts past maxChars: reading one is resource-not-found', async () => {
    const results = largeResults({ headChars: 1, maxChars: 25 });
    const server = new McpServer({ name: 's', version: '1' });
    results.attach(server);
    results.result('x'.repeat(20));
    results.result('y'.repeat(20));
    const client = await connect(server);
    await expect(client.readResource('result://1')).rejects.toThrow();
    expect(text(await client.readResource('result://2'))).toBe('y'.repeat(20));
    await client.close();
  });
});
