// The close seams the session metrics use (mcpkit/otel): Client.onClose and ServerSession.onClose.
import { describe, expect, it } from 'vitest';
import { McpServer } from '../server/index.js';
import { createMemoryPair } from '../transports/memory.js';
import { Client } from './client.js';

describe('Client.onClose and ServerSession.onClose', () => {
  it('call each listener once when the connection closes, after ClientOptions.onClose', async () => {
    const seen: string[] = [];
    const server = new McpServer({ name: 's', version: '1' });
    const [clientSide, serverSide] = createMemoryPair();
    const session = await server.connect(serverSide);
    session.onClose(() => seen.push('server'));
    const client = new Client(
      { name: 'c', version: '1' },
      { mode: { pin: '2025-11-25' }, onClose: () => seen.push('options') },
    );
    client.onClose(() => seen.push('client'));
    await client.connect(clientSide);
    await client.close();
    await expect.poll(() => seen.length).toBe(3);
    expect(seen.indexOf('options')).toBeLessThan(seen.indexOf('client'));
    expect(seen.sort()).toEqual(['client', 'options', 'server']);
    let late = 0;
    session.onClose(() => late++); // closed already: called at once
    expect(late).toBe(1);
  });

  it('a server close listener that throws is reported through onError, the others still run', async () => {
    const errors: string[] = [];
    const server = new McpServer(
      { name: 's', version: '1' },
      { onError: (error, where) => errors.push(`${where}: ${String(error)}`) },
    );
    const [clientSide, serverSide] = createMemoryPair();
    const session = await server.connect(serverSide);
    let after = 0;
    session.onClose(() => {
      throw new Error('listener broke');
    });
    session.onClose(() => after++);
    const client = new Client({ name: 'c', version: '1' }, { mode: { pin: '2025-11-25' } });
    await client.connect(clientSide);
    await client.close();
    await expect.poll(() => after).toBe(1);
    expect(errors).toEqual(['session close listener: Error: listener broke']);
  });
});
