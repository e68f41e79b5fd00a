// Test harness: mcpkit's Client connected to an McpServer over the in-memory pair, with every
// frame recorded. Clients are closed by closeClients() (call it in afterEach).
import { Client } from '../../src/client/index.js';
import type { ClientOptions } from '../../src/client/index.js';
import type { McpServer } from '../../src/server/server.js';
import { createMemoryPair } from '../../src/transports/memory.js';

export type Frame = { from: 'client' | 'server'; message: Record<string, any> };

/** The two eras, as [era, revision] pairs for parameterized tests. */
export const ERAS = [
  ['legacy', '2025-11-25'],
  ['modern', '2026-07-28'],
] as const;

const clients: Client[] = [];

/** Closes every client connectClient() made. */
export async function closeClients(): Promise<void> {
  await Promise.all(clients.splice(0).map((c) => c.close()));
}

/** Connects a new Client to `server`; `sent(method)` lists the client's frames of that method. */
export async function connectClient(server: McpServer, options: ClientOptions = {}) {
  const frames: Frame[] = [];
  const [a, b] = createMemoryPair({
    onFrame: (from, text) =>
      frames.push({ from: from === 'a' ? 'client' : 'server', message: JSON.parse(text) }),
  });
  await server.connect(b);
  const client = new Client({ name: 'test-client', version: '1.0.0' }, options);
  clients.push(client);
  await client.connect(a);
  const sent = (method: string) =>
    frames.filter((f) => f.from === 'client' && f.message['method'] === method);
  return { client, frames, sent };
}
