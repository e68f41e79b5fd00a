// The tasks extension on the CLI's clients: every client the CLI makes declares it (as a host
// does) and drives the tool calls that become tasks; `mcpkit tasks`, `mcpkit call` and the
// inspector reach the task methods through its API.
import type { Client } from '../client/index.js';
import type { TasksApi } from '../ext/tasks/index.js';
import { tasksClient } from '../ext/tasks/index.js';

const apis = new WeakMap<Client, TasksApi>();

/** Adds the tasks extension to `client` (before it connects) and gives the client back. */
export function withTasks(client: Client): Client {
  apis.set(client, client.extend(tasksClient()));
  return client;
}

/** The task methods of a client `withTasks` was given; throws for another client. */
export function tasksOf(client: Client): TasksApi {
  const api = apis.get(client);
  if (api === undefined) throw new Error('this client was made without the tasks extension');
  return api;
}
