import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../server/index.js';
import { createMemoryPair } from '../transports/memory.js';
import { Client } from './client.js';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

/** A server whose `chatty` tool logs one, two, three, four, then answers. */
function server(): McpServer {
  const s = new McpServer({ name: 'nmw', version: '1' });
  s.tool({ name: 'chatty' }, async (_args, ctx) => {
    for (const word of ['one', 'two', 'three', 'four']) await ctx.log('info', word);
    return 'done';
  });
  return s;
}

describe('client.use({ notification })', () => {
  it('runs in order around each notification received; drops, rewrites, reports a throw', async () => {
    const logged: unknown[] = [];
    const errors: string[] = [];
    const order: string[] = [];
    const messages: string[] = [];
    const client = new Client(
      { name: 'c', version: '1' },
      {
        mode: { pin: '2025-11-25' },
        logLevel: 'debug',
        onLog: (params) => logged.push(params.data),
        onError: (error) => errors.push(error.message),
      },
    );
    clients.push(client);
    // The message middleware does not see the notifications the server sends.
    client.use((ctx, next) => {
      messages.push(`${ctx.direction} ${ctx.method}`);
      return next();
    });
    client.use({
      notification: (ctx, next) => {
        expect(ctx.era).toBe('legacy');
        expect(ctx.revision).toBe('2025-11-25');
        order.push(`outer ${String(ctx.params['data'])}`);
        next();
        order.push(`outer done ${String(ctx.params['data'])}`);
      },
    });
    client.use({
      notification: (ctx, next) => {
        const data = ctx.params['data'];
        order.push(`inner ${String(data)}`);
        if (data === 'two') return; // dropped
        if (data === 'three') throw new Error('inner failed');
        if (data === 'four') ctx.params = { ...ctx.params, data: 'FOUR' };
        next();
      },
    });
    const [a, b] = createMemoryPair();
    await server().connect(b);
    await client.connect(a);
    await client.callTool('chatty', {});
    expect(logged).toEqual(['one', 'FOUR']);
    expect(errors).toEqual(['inner failed']);
    // Synchronous: each notification is through the chain before the next begins.
    expect(order).toEqual([
      'outer one',
      'inner one',
      'outer done one',
      'outer two',
      'inner two',
      'outer done two',
      'outer three',
      'inner three',
      'outer four',
      'inner four',
      'outer done FOUR',
    ]);
    expect(messages.filter((m) => m.includes('notifications/message'))).toEqual([]);
  });

  it('takes only a function or { notification: function }', () => {
    const client = new Client({ name: 'c', version: '1' });
    for (const bad of [undefined, null, 1, {}, { notification: 'x' }]) {
      expect(() => client.use(bad as never)).toThrow(TypeError);
    }
  });
});
