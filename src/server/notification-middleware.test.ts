// The notification middleware (server.use({ notification })): what it sees of the notifications
// a client sends, that not calling next() drops one, and that its throw is reported.
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '../client/index.js';
import { createMemoryPair } from '../transports/memory.js';
import type { NotificationContext } from './middleware.js';
import type { McpServerOptions } from './server.js';
import { McpServer } from './server.js';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function connect(server: McpServer): Promise<Client> {
  const [a, b] = createMemoryPair();
  await server.connect(b);
  const client = new Client({ name: 'c', version: '1' }, { mode: { pin: '2025-11-25' } });
  clients.push(client);
  await client.connect(a);
  return client;
}

function server(options: McpServerOptions = {}): McpServer {
  return new McpServer({ name: 'nm', version: '1' }, options);
}

describe('notification middleware', () => {
  it('sees each notification the client sends, with the session facts', async () => {
    const seen: NotificationContext[] = [];
    let roots = 0;
    const traced = server({
      onRootsChanged: () => {
        roots++;
      },
    });
    traced.use({
      notification: (ctx, next) => {
        seen.push(ctx);
        next();
      },
    });
    const client = await connect(traced);
    await client.rootsChanged();
    // Answered after the notifications before it were handled (in order over the pair).
    await client.listTools();
    expect(seen.map((ctx) => ctx.method)).toEqual([
      'notifications/initialized',
      'notifications/roots/list_changed',
    ]);
    const [initialized, changed] = seen as [NotificationContext, NotificationContext];
    expect(initialized.era).toBe('legacy');
    expect(initialized.revision).toBe('2025-11-25');
    expect(initialized.client?.info?.name).toBe('c');
    expect(initialized.session).toBeDefined();
    expect(changed.session).toBe(initialized.session);
    expect(changed.params).toEqual({});
    expect(roots).toBe(1);
  });

  it('drops a notification when next() is not called', async () => {
    let roots = 0;
    const guarded = server({
      onRootsChanged: () => {
        roots++;
      },
    });
    guarded.use({
      notification: (ctx, next) => {
        if (ctx.method !== 'notifications/roots/list_changed') next();
      },
    });
    const client = await connect(guarded);
    await client.rootsChanged();
    await client.listTools();
    expect(roots).toBe(0);
  });

  it('reports what it throws, and the session goes on', async () => {
    const errors: unknown[] = [];
    const failing = server({
      onError: (error) => {
        errors.push(error);
      },
    });
    failing.use({
      notification: (ctx, next) => {
        if (ctx.method === 'notifications/roots/list_changed') throw new Error('refused');
        next();
      },
    });
    failing.tool({ name: 'echo' }, () => 'echoed');
    const client = await connect(failing);
    await client.rootsChanged();
    expect(await client.listTools()).toHaveLength(1);
    expect(errors).toEqual([new Error('refused')]);
  });

  it('is refused when not a function', () => {
    expect(() => server().use({ notification: 'x' } as never)).toThrow(/notification\?/);
  });
});
