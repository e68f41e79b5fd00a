// The client the host connects each server with: a Client with the extensions a host declares.
import type { ClientOptions } from '../client/index.js';
import { Client } from '../client/index.js';
import { tasksClient } from '../ext/tasks/index.js';

/** A client for one server: tool calls that become tasks are driven to their result. */
export function hostClient(
  info: ConstructorParameters<typeof Client>[0],
  options: ClientOptions,
): Client {
  const client = new Client(info, options);
  client.extend(tasksClient());
  return client;
}
