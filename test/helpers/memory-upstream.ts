// A gateway upstream served in process: a `servers` entry whose transport connects to an
// McpServer over the in-memory pair.
import type { McpServer } from '../../src/server/index.js';
import { createMemoryPair } from '../../src/transports/memory.js';
import type { Transport } from '../../src/jsonrpc/transport.js';

/** The `servers` entry of a gateway upstream that is `server`, connected anew each time. */
export function memoryUpstream(server: McpServer): { transport: () => Promise<Transport> } {
  return {
    transport: async () => {
      const [client, side] = createMemoryPair();
      await server.connect(side);
      return client;
    },
  };
}
