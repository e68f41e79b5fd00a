// The client the host connects each server with: a Client with the extensions a host declares.
import type { ClientOptions } from '../client/index.js';
import { Client } from '../client/index.js';
import { tasksClient } from '../ext/tasks/index.js';
import type { HostOptions } from './host-types.js';

/**
 * A client for one server: tool calls that become tasks are driven to their result. Its info is
 * the host's `clientInfo`; the host's `onClient` is given it before it connects.
 */
export function hostClient(
  host: Pick<HostOptions, 'clientInfo' | 'onClient'>,
  options: ClientOptions,
): Client {
  const client = new Client(host.clientInfo ?? { name: 'mcpkit-host', version: '0.1.0' }, options);
  client.extend(tasksClient());
  host.onClient?.(client);
  return client;
}
