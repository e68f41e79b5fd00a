import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '../client/index.js';
import { createMemoryPair } from '../transports/memory.js';
import type { OutgoingContext } from './outgoing.js';
import { McpServer } from './server.js';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

type Seen = Pick<OutgoingContext, 'kind' | 'method' | 'era'> & { related: unknown };

async function connect(
  seen: Seen[],
  incoming: Record<string, unknown>[],
  refuse = false,
): Promise<Client> {
  const server = new McpServer({ name: 'out', version: '1' });
  server.use({
    outgoing: async (message, next) => {
      if (refuse) throw new Error('not sent');
      seen.push({
        kind: message.kind,
        method: message.method,
        era: message.era,
        related: message.relatedRequestId,
      });
      message.params = { ...message.params, _meta: { traceparent: 'from-server' } };
      return await next();
    },
  });
  server.tool({ name: 'ask' }, async (_args, ctx) => {
    await ctx.log('info', 'asking');
    const answer = await ctx.elicit({
      mode: 'form',
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    return answer.action;
  });
  server.tool({ name: 'refused' }, async (_args, ctx) => {
    try {
      await ctx.elicit({
        mode: 'form',
        message: 'x',
        requestedSchema: { type: 'object', properties: {} },
      });
      return 'sent';
    } catch (error) {
      return (error as Error).message;
    }
  });
  const [a, b] = createMemoryPair();
  await server.connect(b);
  const client = new Client(
    { name: 'c', version: '1' },
    {
      mode: { pin: '2025-11-25' },
      logLevel: 'debug',
      onElicit: () => ({ action: 'accept', content: { name: 'Ada' } }),
    },
  );
  client.use((ctx, next) => {
    if (ctx.direction === 'incoming') incoming.push(ctx.params['_meta'] as Record<string, unknown>);
    return next();
  });
  clients.push(client);
  await client.connect(a);
  return client;
}

describe('server outgoing middleware (legacy)', () => {
  it('sees the notifications and requests sent while serving a request, and may change them', async () => {
    const seen: Seen[] = [];
    const incoming: Record<string, unknown>[] = [];
    const client = await connect(seen, incoming);
    const result = await client.callTool('ask');
    expect(result.content).toEqual([{ type: 'text', text: 'accept' }]);
    expect(seen.map((s) => [s.kind, s.method, s.era])).toEqual([
      ['notification', 'notifications/message', 'legacy'],
      ['request', 'elicitation/create', 'legacy'],
    ]);
    expect(typeof seen[0]?.related).toBe('number');
    expect(incoming).toEqual([{ traceparent: 'from-server' }]);
  });

  it('what a middleware throws is what the sender gets', async () => {
    const client = await connect([], [], true);
    const result = await client.callTool('refused');
    expect(result.content).toEqual([{ type: 'text', text: 'not sent' }]);
  });
});

describe('server outgoing middleware outside a request (legacy session)', () => {
  it('sees a list change, without a related request, and may change its params', async () => {
    const seen: OutgoingContext[] = [];
    const server = new McpServer({ name: 'out', version: '1' });
    server.use({
      outgoing: (message, next) => {
        seen.push({ ...message });
        message.params = { ...message.params, _meta: { traceparent: 'from-server' } };
        return next();
      },
    });
    server.tool({ name: 'first' }, () => 'ok');
    let changed: (kind: string) => void = () => undefined;
    const told = new Promise<string>((resolve) => {
      changed = resolve;
    });
    const client = new Client(
      { name: 'c', version: '1' },
      {
        mode: { pin: '2025-11-25' },
        onListChanged: (kind) => {
          changed(kind);
        },
      },
    );
    clients.push(client);
    const [a, b] = createMemoryPair();
    // What the server puts on the wire.
    const wire: unknown[] = [];
    const send = b.send.bind(b);
    b.send = (message, options) => {
      wire.push(message);
      return send(message, options);
    };
    await server.connect(b);
    await client.connect(a);
    server.tool({ name: 'second' }, () => 'ok');
    expect(await told).toBe('tools');
    expect(seen).toEqual([
      {
        kind: 'notification',
        method: 'notifications/tools/list_changed',
        params: {},
        relatedRequestId: undefined,
        era: 'legacy',
        revision: '2025-11-25',
      },
    ]);
    expect(wire).toContainEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { traceparent: 'from-server' } },
    });
  });
});
