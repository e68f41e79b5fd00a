// The client against a raw JSON-RPC peer, for what mcpkit's own server never does: results
// that break their tool's output schema, unknown result types, state-only rounds, a server
// that ends a listen stream, and how ping is served in 2026-07-28.
import { afterEach, describe, expect, it } from 'vitest';
import { Client, LocalError } from '../../src/client/index.js';
import type { ClientOptions } from '../../src/client/index.js';
import { Connection } from '../../src/jsonrpc/connection.js';
import type { RequestHandler } from '../../src/jsonrpc/serve.js';
import { JsonRpcError } from '../../src/jsonrpc/errors.js';
import type { Request } from '../../src/jsonrpc/message.js';
import { createMemoryPair } from '../../src/transports/memory.js';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

type Answer = (params: any, request: Request) => unknown;

const MODERN: Record<string, Answer> = {
  'server/discover': () => ({
    resultType: 'complete',
    supportedVersions: ['2026-07-28'],
    capabilities: { tools: {}, resources: {} },
    ttlMs: 0,
    cacheScope: 'private',
  }),
};

/** A client connected to a raw peer that answers each method with `answers[method]`. */
async function stub(answers: Record<string, Answer>, options: ClientOptions = {}) {
  const requests: Request[] = [];
  const [a, b] = createMemoryPair();
  const onRequest: RequestHandler = (request) => {
    requests.push(request);
    const answer = { ...MODERN, ...answers }[request.method];
    if (answer === undefined) {
      return Promise.reject(new JsonRpcError(-32601, `method not found: ${request.method}`));
    }
    return Promise.resolve(answer(request.params, request));
  };
  const server = new Connection(b, { onRequest });
  await server.start();
  const client = new Client({ name: 'c', version: '1' }, options);
  clients.push(client);
  await client.connect(a);
  return { client, requests, server };
}

const TOOL = {
  name: 'weather',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { temp: { type: 'number' } }, required: ['temp'] },
};

describe('against a raw peer', () => {
  it('throws a LocalError when a structured tool returns no structuredContent', async () => {
    const { client } = await stub({
      'tools/list': () => ({ resultType: 'complete', tools: [TOOL], ttlMs: 0 }),
      'tools/call': () => ({ resultType: 'complete', content: [] }),
    });
    const error = await client.callTool('weather').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({ code: 'PROTOCOL_VIOLATION', message: /no structuredContent/ });
  });

  it('refuses a result of unknown resultType', async () => {
    const { client } = await stub({ 'tools/call': () => ({ resultType: 'task', task: {} }) });
    await expect(client.callTool('x')).rejects.toMatchObject({
      code: 'PROTOCOL_VIOLATION',
      message: /unknown resultType "task"/,
    });
  });

  it('retries a state-only round with the state alone, byte for byte', async () => {
    const state = '  opaque\u00e9 state / with "quotes"  ';
    const { client, requests } = await stub({
      'resources/read': (params) =>
        params.requestState === undefined
          ? { resultType: 'input_required', requestState: state }
          : {
              resultType: 'complete',
              contents: [{ uri: 'x:/', text: String(params.requestState === state) }],
            },
    });
    await expect(client.readResource('x:/')).resolves.toMatchObject({
      contents: [{ text: 'true' }],
    });
    const reads = requests.filter((r) => r.method === 'resources/read');
    expect(reads.map((r) => r.id)).toEqual([expect.any(Number), expect.any(Number)]);
    expect(reads[0]!.id).not.toBe(reads[1]!.id);
    expect(reads[1]!.params).not.toHaveProperty('inputResponses');
  });

  it('ends a listen stream the server cancels (stdio)', async () => {
    const hooks: { ack?: (id: unknown) => void } = {};
    const { client, server } = await stub({
      'subscriptions/listen': (_params, request) => {
        hooks.ack?.(request.id);
        return new Promise(() => undefined);
      },
    });
    hooks.ack = (id) => {
      void server.notify('notifications/subscriptions/acknowledged', {
        notifications: { toolsListChanged: true },
        _meta: { 'io.modelcontextprotocol/subscriptionId': id },
      });
    };
    const subscription = client.listen({ toolsListChanged: true });
    await subscription.acknowledged;
    await server.notify('notifications/cancelled', { requestId: subscription.id });
    await expect(subscription.closed).resolves.toMatchObject({ message: /server ended/ });
  });

  it('serves ping with server/discover in 2026-07-28', async () => {
    const { client, requests } = await stub({});
    await client.ping();
    expect(requests.map((r) => r.method)).toEqual(['server/discover', 'server/discover']);
  });

  it('rejects acknowledged when the server refuses the stream', async () => {
    const { client } = await stub({});
    const subscription = client.listen({ toolsListChanged: true });
    await expect(subscription.acknowledged).rejects.toMatchObject({ code: -32601 });
    await expect(subscription.closed).resolves.toBeInstanceOf(JsonRpcError);
  });
});
