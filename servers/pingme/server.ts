// pingme: the smallest mcpkit server, one tool with no arguments. It is the "hello world" of the
// reference servers and a quick way to check that a client can reach a server at all.
import type { McpServerOptions } from '../../src/server/index.js';
import { McpServer } from '../../src/server/index.js';
import { ping } from './logic.js';

/** Options of {@link createPingmeServer}. */
export interface PingmeServerOptions {
  /** The version reported in the server's identity. Default: `0.1.0`. */
  version?: string;
  /** Options of the McpServer (a shared `stateSecret`). */
  server?: McpServerOptions;
}

/** Creates the pingme server: one tool, `PingME`, that replies `BISMILLAH`. */
export function createPingmeServer(options: PingmeServerOptions = {}): McpServer {
  const server = new McpServer(
    { name: 'pingme', version: options.version ?? '0.1.0' },
    options.server,
  );
  registerPingme(server);
  return server;
}

/** Adds the `PingME` tool to an existing server (the demo composes servers this way). */
export function registerPingme(server: McpServer): { close(): Promise<void> } {
  server.tool(
    {
      name: 'PingME',
      title: 'Ping',
      description:
        'Checks that this server is reachable; replies "BISMILLAH". Call it only to test the connection.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    () => ping(),
  );
  return { close: () => Promise.resolve() };
}
