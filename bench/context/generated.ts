// The generated servers of the context bench: eleven SaaS-like servers (issue tracker, chat,
// calendar, CRM, ...) whose tools have the shape of real ones: list with filters and paging,
// get, create, update, delete and search, per entity, with described fields. Every tool answers
// with deterministic JSON, so a run is the same each time.
import { McpServer } from '../../src/server/index.js';
import type { Entity, Field } from './generated-specs.js';
import { SERVERS } from './generated-specs.js';

/** The names of the generated servers. */
export const GENERATED = Object.keys(SERVERS);

/** A generated server, with its tools registered. */
export function createGeneratedServer(name: string): McpServer {
  const spec = SERVERS[name];
  if (spec === undefined) throw new TypeError(`no generated server "${name}"`);
  const server = new McpServer({ name, version: '1.0.0' });
  for (const e of spec.entities) registerEntity(server, { service: name, about: spec.about }, e);
  return server;
}

function property(field: Field): Record<string, unknown> {
  const [, type, description, values] = field;
  if (type === 'enum') return { type: 'string', enum: values, description };
  if (type === 'array') return { type: 'array', items: { type: 'string' }, description };
  return { type, description };
}

function registerEntity(
  server: McpServer,
  { service, about }: { service: string; about: string },
  e: Entity,
): void {
  const fields = Object.fromEntries(e.fields.map((f) => [f[0], property(f)]));
  const id = { id: { type: 'string', description: `The id of the ${e.name.replace('_', ' ')}.` } };
  const label = e.name.replace('_', ' ');
  const item = (n: number): Record<string, unknown> => ({
    id: `${e.name}_${String(n)}`,
    state: e.states[n % e.states.length],
    ...Object.fromEntries(e.fields.map((f) => [f[0], sample(f, n)])),
  });
  const tools: [
    string,
    string,
    Record<string, unknown>,
    string[],
    (a: Record<string, unknown>) => unknown,
  ][] = [
    [
      `list_${e.plural}`,
      `Lists the ${label}s of ${about}, newest first, with filters and paging. Returns at most per_page items and a cursor for the next page.`,
      {
        state: { type: 'string', enum: e.states, description: `Only ${label}s in this state.` },
        updated_since: {
          type: 'string',
          description: 'Only those changed since this ISO 8601 time.',
        },
        sort: {
          type: 'string',
          enum: ['created', 'updated'],
          description: 'The order; default created.',
        },
        per_page: {
          type: 'integer',
          minimum: 1,
          maximum: 100,
          description: 'Items per page; default 30.',
        },
        cursor: { type: 'string', description: 'The cursor a previous page returned.' },
      },
      [],
      () => ({ items: [1, 2, 3, 4, 5].map(item), next_cursor: 'c2' }),
    ],
    [
      `get_${e.name}`,
      `Gets one ${label} of ${about} by its id, with every field.`,
      id,
      ['id'],
      () => item(1),
    ],
    [
      `create_${e.name}`,
      `Creates a ${label} in ${about}. Returns the new ${label} with its id.`,
      fields,
      e.fields.slice(0, 1).map((f) => f[0]),
      (a) => ({ ...item(7), ...a }),
    ],
    [
      `update_${e.name}`,
      `Updates the fields given of a ${label} in ${about}; the others stay as they are.`,
      { ...id, ...fields },
      ['id'],
      (a) => ({ ...item(1), ...a }),
    ],
    [
      `delete_${e.name}`,
      `Deletes a ${label} from ${about}. This cannot be undone.`,
      id,
      ['id'],
      (a) => ({ deleted: a['id'] }),
    ],
    [
      `search_${e.plural}`,
      `Searches the ${label}s of ${about} by words in their text fields. Returns the best matches first.`,
      {
        query: { type: 'string', description: 'The words to search for.' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: 50,
          description: 'Most results; default 10.',
        },
      },
      ['query'],
      () => ({ items: [1, 2, 3].map(item) }),
    ],
  ];
  for (const [toolName, description, properties, required, answer] of tools) {
    server.tool(
      {
        name: toolName,
        description: `${description} (${service})`,
        inputSchema: { type: 'object', properties, required, additionalProperties: false },
      },
      (args: Record<string, unknown>) => JSON.stringify(answer(args)),
    );
  }
}

function sample(field: Field, n: number): unknown {
  const [name, type, , values] = field;
  switch (type) {
    case 'integer':
      return 100 * n + name.length;
    case 'boolean':
      return n % 2 === 0;
    case 'array':
      return [`${name}-${String(n)}`];
    case 'enum':
      return values?.[n % values.length];
    case 'string':
      return `${name.replace('_', ' ')} ${String(n)}`;
  }
}
