// Test harness: an McpServer served over the in-memory pair to a raw JSON-RPC client, with every
// frame recorded so tests can assert on the wire and validate it against the spec schema.
import { Connection } from '../../src/jsonrpc/connection.js';
import type { RequestHandler } from '../../src/jsonrpc/serve.js';
import type { Notification } from '../../src/jsonrpc/message.js';
import type { ProtocolRevision } from '../../src/protocol/version.js';
import type { McpServer } from '../../src/server/server.js';
import type { SessionOptions } from '../../src/server/session.js';
import { createMemoryPair } from '../../src/transports/memory.js';
import { assertValidMessage } from './spec-schema.js';

export const MODERN = '2026-07-28';

/** The `_meta` a 2026-07-28 request carries. */
export function modernMeta(
  extra: Record<string, unknown> = {},
  capabilities: object = {},
): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'test-client', version: '1.0.0' },
    ...extra,
  };
}

export interface Wire {
  client: Connection;
  /** Frames as sent: `>>` client to server, `<<` server to client. */
  frames: { dir: '>>' | '<<'; message: Record<string, unknown> }[];
  notifications: Notification[];
  /** Sends a request as is. */
  request: (method: string, params?: Record<string, unknown>) => Promise<any>;
  /** Sends a modern request with `_meta` added. */
  modern: (
    method: string,
    params?: Record<string, unknown>,
    options?: { meta?: Record<string, unknown>; capabilities?: object },
  ) => Promise<any>;
  /** Runs the legacy handshake at `revision`. */
  initialize(revision?: string, capabilities?: object): Promise<any>;
  /** Asserts every server frame so far is valid in `revision`. */
  assertServerFramesValid(revision: ProtocolRevision): void;
  close(): Promise<void>;
}

export async function connectWire(
  server: McpServer,
  options: { onRequest?: RequestHandler; session?: SessionOptions } = {},
): Promise<Wire> {
  const frames: Wire['frames'] = [];
  const [a, b] = createMemoryPair({
    onFrame: (from, text) =>
      frames.push({ dir: from === 'a' ? '>>' : '<<', message: JSON.parse(text) }),
  });
  const notifications: Notification[] = [];
  const client = new Connection(a, {
    onNotification: (n) => notifications.push(n),
    ...(options.onRequest === undefined ? {} : { onRequest: options.onRequest }),
  });
  await server.connect(b, options.session);
  await client.start();
  return {
    client,
    frames,
    notifications,
    request: (method, params) => client.request(method, params),
    modern: (method, params = {}, opts = {}) =>
      client.request(method, {
        ...params,
        _meta: {
          ...modernMeta({}, opts.capabilities ?? {}),
          ...(params['_meta'] as object),
          ...opts.meta,
        },
      }),
    initialize: async (revision = '2025-11-25', capabilities = {}) => {
      const result = await client.request('initialize', {
        protocolVersion: revision,
        capabilities,
        clientInfo: { name: 'test-client', version: '1.0.0' },
      });
      await client.notify('notifications/initialized');
      return result;
    },
    assertServerFramesValid: (revision) => {
      const methods = new Map<unknown, string>();
      for (const frame of frames) {
        const m = frame.message;
        if (frame.dir === '>>' && typeof m['method'] === 'string' && 'id' in m)
          methods.set(m['id'], m['method']);
        if (frame.dir !== '<<') continue;
        const method = 'method' in m ? undefined : methods.get(m['id']);
        assertValidMessage(revision, m, method === undefined ? {} : { method });
      }
    },
    close: () => client.close(),
  };
}
