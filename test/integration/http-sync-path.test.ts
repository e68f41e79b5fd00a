// The request path answers without waiting when nothing waits (bench/RESULTS.md, fourth round):
// these tests hold its contracts. `serve`, the handler's one entry, answers a synchronous tool
// call at once and an asynchronous one later; failures thrown synchronously anywhere on the path
// become the same replies as before; requests served on their own share one connectionless
// session per revision without mixing revisions; and a body read through `readBody` keeps its
// limits.
import { describe, expect, it, vi } from 'vitest';
import type { HttpExchange, HttpReply } from '../../src/transports/http/server/exchange.js';
import { BodyError } from '../../src/transports/http/server/exchange.js';
import type { StreamableHttpHandler } from '../../src/transports/http/server/handler.js';
import { createStreamableHttpHandler } from '../../src/transports/http/server/handler.js';
import { listen } from '../../src/transports/http/server/node.js';
import type { StreamableHttpOptions } from '../../src/transports/http/server/options.js';
import { McpServer } from '../../src/server/server.js';
import { assertValidMessage } from '../helpers/spec-schema.js';
import { modernMeta } from './http-server-harness.js';

const LEGACY_HEADERS = {
  host: '127.0.0.1',
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

function testServer(): McpServer {
  const server = new McpServer({ name: 'sync', version: '1.0.0' });
  const args = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
  server.tool({ name: 'now', inputSchema: args }, ({ text }) => `now: ${String(text)}`);
  server.tool({ name: 'later', inputSchema: args }, async ({ text }) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return `later: ${String(text)}`;
  });
  server.tool({ name: 'throws', inputSchema: { type: 'object' } }, () => {
    throw new Error('it broke');
  });
  server.tool({ name: 'link', inputSchema: { type: 'object' } }, () => ({
    content: [{ type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' }],
  }));
  return server;
}

/** An exchange whose body is at hand; `reads` says which way it was read. */
function exchange(
  body: unknown,
  headers: Record<string, string> = LEGACY_HEADERS,
): HttpExchange & { reads: string[] } {
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  const reads: string[] = [];
  return {
    method: 'POST',
    url: '/mcp',
    headers,
    reads,
    onClose() {
      return () => undefined;
    },
    readBody(limits, done) {
      reads.push('readBody');
      done(bytes.length > limits.maxBytes ? new BodyError(413, 'too large') : bytes);
    },
  };
}

function toolCall(name: string, id = 1): object {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: { text: 'x' } } };
}

function handlerFor(options: StreamableHttpOptions = {}, server = testServer()) {
  return createStreamableHttpHandler(() => server, { sessions: false, ...options });
}

/** What `serve` answered, and whether it answered before returning. */
function served(
  handler: ReturnType<typeof handlerFor>,
  ex: HttpExchange,
): { atOnce: boolean; reply: Promise<HttpReply> } {
  let atOnce = false;
  let returned = false;
  const reply = new Promise<HttpReply>((resolve) => {
    handler.serve(ex, (answered) => {
      atOnce = !returned;
      resolve(answered);
    });
  });
  returned = true;
  return { atOnce, reply };
}

describe('the synchronous request path', () => {
  it('answers a synchronous tool at once through serve, and an async one later', async () => {
    const handler = handlerFor();
    // What needs no body is answered without waiting at all, and without reading it.
    const away = exchange(null);
    const elsewhere = served(handler, { ...away, url: '/elsewhere' });
    expect(elsewhere.atOnce).toBe(true);
    expect(away.reads).toEqual([]);
    expect(await elsewhere.reply).toMatchObject({ status: 404 });

    const viaServe = exchange(toolCall('now'));
    const quick = served(handler, viaServe);
    expect(quick.atOnce).toBe(true);
    expect(viaServe.reads).toEqual(['readBody']);
    const slow = served(handler, exchange(toolCall('later')));
    expect(slow.atOnce).toBe(false);
    for (const reply of [await quick.reply, await slow.reply]) {
      expect(reply.status).toBe(200);
      assertValidMessage('2025-11-25', reply.body, { method: 'tools/call' });
    }
    expect((await slow.reply).body).toMatchObject({
      result: { content: [{ type: 'text', text: 'later: x' }] },
    });
  });

  it('answers a 2026-07-28 call at once, valid against its schema', async () => {
    const handler = handlerFor({ sessions: true });
    const body = {
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'now', arguments: { text: 'x' }, _meta: modernMeta() },
    };
    const headers = {
      ...LEGACY_HEADERS,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'now',
    };
    const { atOnce, reply } = served(handler, exchange(body, headers));
    expect(atOnce).toBe(true);
    const answered = await reply;
    expect(answered.status).toBe(200);
    assertValidMessage('2026-07-28', answered.body, { method: 'tools/call' });
    expect(answered.body).toMatchObject({ result: { resultType: 'complete' } });
  });

  it('turns synchronous failures into the same replies as before', async () => {
    const onError = vi.fn();
    const handler = handlerFor({ onError });
    // A tool that throws: an isError result the model can read.
    const thrown = await served(handler, exchange(toolCall('throws'))).reply;
    expect(thrown.body).toMatchObject({
      result: { isError: true, content: [{ type: 'text', text: 'it broke' }] },
    });
    // An unknown tool: a JSON-RPC error.
    const unknown = await served(handler, exchange(toolCall('nope'))).reply;
    expect(unknown.body).toMatchObject({ error: { code: -32602 } });
    // A factory that throws: 500, reported.
    const broken = createStreamableHttpHandler(
      () => {
        throw new Error('no server');
      },
      { sessions: false, onError },
    );
    const failed = served(broken, exchange(toolCall('now')));
    expect(failed.atOnce).toBe(true);
    expect((await failed.reply).status).toBe(500);
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'no server' }),
      'POST /mcp',
    );
    // A body over the cap, read through readBody: 413 and the connection closes.
    const big = await served(handlerFor({ maxBodyBytes: 16 }), exchange(toolCall('now'))).reply;
    expect(big.status).toBe(413);
    expect(big.headers['connection']).toBe('close');
  });

  it('serves requests alone for every revision from one server without mixing them', async () => {
    const handler = handlerFor();
    const at = async (revision: string, id: number): Promise<unknown> => {
      const headers = { ...LEGACY_HEADERS, 'mcp-protocol-version': revision };
      return (await served(handler, exchange(toolCall('link', id), headers)).reply).body;
    };
    // resource_link is newer than 2025-03-26: that revision gets a text block in its place.
    const old1 = await at('2025-03-26', 1);
    const new1 = await at('2025-11-25', 2);
    const old2 = await at('2025-03-26', 3);
    expect(old1).toMatchObject({ id: 1, result: { content: [{ type: 'text' }] } });
    expect(new1).toMatchObject({ id: 2, result: { content: [{ type: 'resource_link' }] } });
    expect(old2).toMatchObject({ id: 3, result: { content: [{ type: 'text' }] } });
    assertValidMessage('2025-03-26', old2, { method: 'tools/call' });
    assertValidMessage('2025-11-25', new1, { method: 'tools/call' });
  });

  it("answers 500 on node:http when a handler of one's own throws at once, and keeps serving", async () => {
    const real = handlerFor();
    let calls = 0;
    const flaky: StreamableHttpHandler = {
      ...real,
      options: real.options,
      sessionCount: 0,
      serve: (exchange, answer) => {
        calls++;
        if (calls === 1) throw new Error('bug in a custom handler');
        real.serve(exchange, answer);
      },
    };
    const running = await listen(flaky);
    try {
      const post = () =>
        fetch(running.url, {
          method: 'POST',
          headers: LEGACY_HEADERS,
          body: JSON.stringify(toolCall('now')),
        });
      expect((await post()).status).toBe(500);
      const ok = await post();
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({ result: { content: [{ text: 'now: x' }] } });
    } finally {
      await running.close();
    }
  });
});
