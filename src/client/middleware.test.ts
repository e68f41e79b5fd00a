import { afterEach, describe, expect, it } from 'vitest';
import { JsonRpcError } from '../jsonrpc/errors.js';
import { McpServer } from '../server/index.js';
import { createMemoryPair } from '../transports/memory.js';
import type { ProtocolRevision } from '../protocol/version.js';
import { Client } from './client.js';
import type { ClientMiddleware, ClientMiddlewareContext } from './middleware.js';

const ERAS = [
  ['legacy', '2025-11-25'],
  ['modern', '2026-07-28'],
] as const;

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

/** A server with a plain tool, a failing request and a tool that elicits; it records `_meta`. */
function server(seen: Record<string, unknown>[]): McpServer {
  const s = new McpServer({ name: 'mw', version: '1' });
  s.use((ctx, next) => {
    if (ctx.method === 'tools/call') seen.push({ ...(ctx.params['_meta'] as object) });
    return next();
  });
  s.tool({ name: 'echo' }, () => 'echoed');
  s.tool({ name: 'ask' }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      mode: 'form',
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    return answer.action;
  });
  return s;
}

async function connect(
  revision: ProtocolRevision,
  use: ClientMiddleware[],
  seen: Record<string, unknown>[] = [],
): Promise<Client> {
  const [a, b] = createMemoryPair();
  await server(seen).connect(b);
  const client = new Client(
    { name: 'c', version: '1' },
    { mode: { pin: revision }, onElicit: () => ({ action: 'accept', content: { name: 'Ada' } }) },
  );
  for (const middleware of use) client.use(middleware);
  clients.push(client);
  await client.connect(a);
  return client;
}

type Entry = Pick<ClientMiddlewareContext, 'direction' | 'method' | 'era'> & {
  id: unknown;
  outcome?: unknown;
};

/** Records every message, and what `next()` gave or threw. */
function recorder(log: Entry[]): ClientMiddleware {
  return async (ctx, next) => {
    const entry: Entry = { direction: ctx.direction, method: ctx.method, era: ctx.era, id: ctx.id };
    log.push(entry);
    try {
      const result = await next();
      entry.outcome = result === undefined ? 'none' : 'result';
      return result;
    } catch (error) {
      entry.outcome = error instanceof JsonRpcError ? error.code : 'thrown';
      throw error;
    }
  };
}

describe.each(ERAS)('client middleware (%s)', (era, revision) => {
  it('sees every request round and notification the client sends, with its outcome', async () => {
    const log: Entry[] = [];
    const client = await connect(revision, [recorder(log)]);
    const connectMethods = log.map((e) => e.method);
    if (era === 'legacy') {
      expect(connectMethods).toEqual(['initialize', 'notifications/initialized']);
    } else {
      expect(connectMethods).toEqual(['server/discover']);
    }
    await client.listTools(); // what callTool would fetch first
    log.length = 0;
    expect((await client.callTool('echo')).content).toEqual([{ type: 'text', text: 'echoed' }]);
    await expect(client.getPrompt('nope')).rejects.toThrow(JsonRpcError);
    await client.rootsChanged();
    const outgoing = log.filter((e) => e.direction === 'outgoing');
    expect(outgoing.map((e) => [e.method, e.era, e.outcome])).toEqual([
      ['tools/call', era, 'result'],
      ['prompts/get', era, -32602],
      ...(era === 'legacy' ? [['notifications/roots/list_changed', era, 'none']] : []),
    ]);
    expect(typeof outgoing[0]?.id).toBe('number');
    expect(outgoing[2]?.id).toBeUndefined();
  });

  it('sees the server-to-client request a tool call makes (legacy) or each round (2026-07-28)', async () => {
    const log: Entry[] = [];
    const client = await connect(revision, [recorder(log)]);
    await client.listTools();
    log.length = 0;
    expect((await client.callTool('ask')).content).toEqual([{ type: 'text', text: 'accept' }]);
    const seen = log.map((e) => [e.direction, e.method, e.outcome]);
    if (era === 'legacy') {
      expect(seen).toEqual([
        ['outgoing', 'tools/call', 'result'],
        ['incoming', 'elicitation/create', 'result'],
      ]);
    } else {
      // input_required, then the retry with the answer: two rounds, two ids.
      expect(seen).toEqual([
        ['outgoing', 'tools/call', 'result'],
        ['outgoing', 'tools/call', 'result'],
      ]);
      expect(log[0]?.id).not.toBe(log[1]?.id);
    }
  });

  it('sends the params a middleware set; runs the first added outermost', async () => {
    const order: string[] = [];
    const seen: Record<string, unknown>[] = [];
    const client = await connect(
      revision,
      [
        (ctx, next) => {
          order.push('outer');
          const meta = (ctx.params['_meta'] ?? {}) as Record<string, unknown>;
          ctx.params = { ...ctx.params, _meta: { ...meta, traceparent: 'tp' } };
          return next();
        },
        (_ctx, next) => {
          order.push('inner');
          return next();
        },
      ],
      seen,
    );
    await client.listTools();
    order.length = 0;
    await client.callTool('echo');
    expect(order).toEqual(['outer', 'inner']);
    expect(seen.at(-1)?.['traceparent']).toBe('tp');
  });

  it('answers with what a middleware returns or throws', async () => {
    const client = await connect(revision, [
      (ctx, next) => {
        if (ctx.method === 'prompts/list') throw new Error('refused here');
        if (ctx.method === 'tools/list') return { tools: [] };
        return next();
      },
    ]);
    await expect(client.listPrompts()).rejects.toThrow('refused here');
    expect(await client.listTools()).toEqual([]);
  });
});

describe('client.use', () => {
  it('refuses what is not a function', () => {
    const client = new Client({ name: 'c', version: '1' });
    expect(() => client.use({} as unknown as ClientMiddleware)).toThrow(TypeError);
  });
});
