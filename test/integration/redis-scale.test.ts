// Several processes as one server through one Redis (mcpkit/redis: session store, event store,
// change bus): stream ids unique per process, the end of a session everywhere, what a client
// asks a session to keep honoured by every process, messages for a GET stream and server changes
// carried to wherever the stream is held (legacy GET, 2026-07-28 subscriptions/listen), and a GET
// stream resumed on another process that then holds it live, also once the first is closed. Each
// "process" is a handler with its own McpServer on a real 127.0.0.1 socket. Needs
// MCPKIT_TEST_REDIS_URL.
import process from 'node:process';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client } from '../../src/client/index.js';
import {
  createRedisChangeBus,
  createRedisEventStore,
  createRedisSessionStore,
} from '../../src/stores/redis/index.js';
import { McpServer } from '../../src/server/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import type { Face } from './http-server-harness.js';
import {
  allEvents,
  call,
  events,
  eventsUntil,
  messages,
  modernRequest,
  openSession,
  sessionRequest,
} from './http-server-harness.js';
import { startFace } from './http-server-harness.js';

const URL_ = process.env['MCPKIT_TEST_REDIS_URL'];

/** A promise and what resolves it (Node 20 has no Promise.withResolvers). */
function opened(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
if (URL_ === undefined)
  console.log('skipping the Redis scale-out tests: MCPKIT_TEST_REDIS_URL is not set');

describe.skipIf(URL_ === undefined)('processes as one server through Redis', () => {
  let redis: ReturnType<typeof createClient>;
  const prefix = `mcpkit-test-scale:${String(process.pid)}:${String(Date.now())}`;
  const faces: Face[] = [];
  const servers = new Map<Face, McpServer>();
  const cleanups: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    redis = createClient({ url: URL_ ?? '' });
    await redis.connect();
  });
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((c) => c().catch(() => undefined)));
    await Promise.all(faces.splice(0).map((f) => f.close()));
    await Promise.all([...servers.values()].map((s) => s.close()));
    servers.clear();
  });
  afterAll(async () => {
    await redis.quit();
  });

  /** One "process": its own McpServer and handler, sharing the Redis stores and change bus. */
  async function processLike(name: string, ttlMs?: number): Promise<Face> {
    const server = new McpServer(
      { name, version: '1.0.0' },
      { onError: () => {}, changeBus: createRedisChangeBus({ client: redis, prefix }) },
    );
    server.tool({ name: 'who', description: 'Who answers.' }, () => name);
    server.tool({ name: 'tick', description: 'Two progress steps.' }, async (_args, ctx) => {
      await ctx.progress(1, 2);
      await ctx.progress(2, 2);
      return `${name} ticked`;
    });
    server.tool({ name: 'chatty', description: 'Logs at two levels.' }, async (_args, ctx) => {
      await ctx.log('debug', 'details');
      await ctx.log('error', 'trouble');
      return name;
    });
    server.tool({ name: 'ask', description: 'Asks for a colour.' }, async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Colour?',
        requestedSchema: { type: 'object', properties: { colour: { type: 'string' } } },
      });
      return `${name} got ${String(answer.content?.['colour'])}`;
    });
    server.tool(
      { name: 'slow', description: 'Progress, a wait, progress.' },
      async (_args, ctx) => {
        await ctx.progress(1, 2);
        await gate.promise;
        await ctx.progress(2, 2);
        return `${name} slowly`;
      },
    );
    server.resource({ uri: 'test://r', name: 'r' }, () => 'r');
    const face = await startFace('node', server, {
      sessionStore: createRedisSessionStore({
        client: redis,
        prefix: `${prefix}:sessions`,
        ...(ttlMs === undefined ? {} : { ttlMs }),
      }),
      eventStore: createRedisEventStore({ client: redis, prefix: `${prefix}:events` }),
    });
    faces.push(face);
    servers.set(face, server);
    return face;
  }

  /** What the `slow` tool waits for. */
  let gate = opened();

  const get = (session: string, lastEventId?: string) => ({
    method: 'GET',
    headers: {
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-11-25',
      accept: 'text/event-stream',
      ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
    },
  });

  /** Opens the session's GET stream on `face`; resolves once its priming event is read. */
  async function openGet(face: Face, session: string, lastEventId?: string) {
    const abort = new AbortController();
    const res = await face.request({ ...get(session, lastEventId), signal: abort.signal });
    expect(res.status).toBe(200);
    const stream = events(res);
    cleanups.push(async () => {
      abort.abort();
      await stream.return(undefined);
    });
    return stream;
  }

  it('gives every stream of a session an id of its own: each process replays its own events', async () => {
    const a = await processLike('a');
    const b = await processLike('b');
    const session = await openSession(a);
    const onA = await allEvents(
      await a.request(sessionRequest(session, call('tick', {}, 1, { progressToken: 'a' }))),
    );
    const onB = await allEvents(
      await b.request(sessionRequest(session, call('tick', {}, 2, { progressToken: 'b' }))),
    );
    const idsA = onA.map((e) => e.id);
    const idsB = onB.map((e) => e.id);
    expect(idsA.some((id) => idsB.includes(id))).toBe(false);
    expect(idsA[0]!.split('@')[0]).not.toBe(idsB[0]!.split('@')[0]);
    // A's stream replayed on B, B's on A: each exactly its own messages.
    const fromA = messages(await allEvents(await b.request(get(session, idsA[0]))));
    expect(fromA.map((m) => m.params?.progressToken ?? m.id)).toEqual(['a', 'a', 1]);
    const fromB = messages(await allEvents(await a.request(get(session, idsB[0]))));
    expect(fromB.map((m) => m.params?.progressToken ?? m.id)).toEqual(['b', 'b', 2]);
  });

  it('DELETE on one process ends the copies every other process holds', async () => {
    const a = await processLike('a');
    const b = await processLike('b');
    const session = await openSession(a);
    expect((await b.request(sessionRequest(session, call('who', {}, 3)))).status).toBe(200);
    const deleted = await a.request({ method: 'DELETE', headers: { 'mcp-session-id': session } });
    expect(deleted.status).toBe(200);
    await vi.waitFor(async () => {
      expect((await b.request(sessionRequest(session, call('who', {}, 4)))).status).toBe(404);
    });
  });

  it('a process that finds the record expired drops its copy (404)', async () => {
    const a = await processLike('a', 300);
    const b = await processLike('b', 300);
    const session = await openSession(a);
    expect((await b.request(sessionRequest(session, call('who', {}, 5)))).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect((await b.request(sessionRequest(session, call('who', {}, 6)))).status).toBe(404);
    // B told A, which had no reason to look yet.
    await vi.waitFor(async () => {
      expect((await a.request(sessionRequest(session, call('who', {}, 7)))).status).toBe(404);
    });
  });

  it('the log level and subscriptions set on one process hold on the others, resumed before or after', async () => {
    const a = await processLike('a');
    const b = await processLike('b');
    const session = await openSession(a);
    // A holds the GET stream; the client subscribes and sets its level through B.
    const stream = await openGet(a, session);
    await eventsUntil(stream, (e) => e.id !== undefined);
    const subscribe = {
      jsonrpc: '2.0',
      id: 8,
      method: 'resources/subscribe',
      params: { uri: 'test://r' },
    };
    expect((await b.request(sessionRequest(session, subscribe))).status).toBe(200);
    const level = { jsonrpc: '2.0', id: 9, method: 'logging/setLevel', params: { level: 'error' } };
    expect((await b.request(sessionRequest(session, level))).status).toBe(200);
    const record = JSON.parse((await redis.get(`${prefix}:sessions:${session}`)) ?? '{}');
    expect(record).toMatchObject({ logLevel: 'error', subscriptions: ['test://r'] });
    // The update is made on B: it reaches the GET stream A holds (once A applied the subscription).
    const seen = await vi.waitFor(async () => {
      servers.get(b)!.resourceUpdated('test://r');
      const got = await Promise.race([
        eventsUntil(stream, (e) => e.data.includes('resources/updated')),
        new Promise<undefined>((resolve) => setTimeout(resolve, 100)),
      ]);
      expect(got).toBeDefined();
      return got!;
    });
    expect(messages(seen).at(-1)).toMatchObject({ params: { uri: 'test://r' } });
    // A (resumed before the change) and C (resumed after) log at the level B set.
    const c = await processLike('c');
    for (const [face, id] of [
      [a, 10],
      [c, 11],
    ] as const) {
      await vi.waitFor(async () => {
        const logged = messages(
          await allEvents(await face.request(sessionRequest(session, call('chatty', {}, id)))),
        );
        expect(
          logged.filter((m) => m.method === 'notifications/message').map((m) => m.params.level),
        ).toEqual(['error']);
      });
    }
  });

  it('a request for the GET stream made on a process that does not hold it goes to the one that does', async () => {
    const a = await processLike('a');
    const b = await processLike('b');
    const session = await openSession(a);
    const stream = await openGet(a, session);
    await eventsUntil(stream, (e) => e.id !== undefined);
    // A JSON-only POST on B: the elicitation cannot ride it, so it goes to A's GET stream.
    const pending = b.request(
      sessionRequest(session, call('ask', {}, 12), { accept: 'application/json' }),
    );
    const seen = await eventsUntil(stream, (e) => e.data.includes('elicitation/create'));
    const question = messages(seen).find((m) => m.method === 'elicitation/create');
    const answer = {
      jsonrpc: '2.0',
      id: question.id,
      result: { action: 'accept', content: { colour: 'teal' } },
    };
    expect((await a.request(sessionRequest(session, answer))).status).toBe(202);
    const res = await pending;
    expect(
      ((await res.json()) as { result: { content: { text: string }[] } }).result.content[0]!.text,
    ).toBe('b got teal');
  });

  it('a list change or resource update on one process reaches subscriptions/listen streams on another', async () => {
    const a = await processLike('a');
    const b = await processLike('b');
    const abort = new AbortController();
    const res = await a.request({
      ...modernRequest('subscriptions/listen', {
        notifications: { toolsListChanged: true, resourceSubscriptions: ['test://r'] },
      }),
      signal: abort.signal,
    });
    const stream = events(res);
    cleanups.push(async () => {
      abort.abort();
      await stream.return(undefined);
    });
    await eventsUntil(stream, (e) => e.data.includes('acknowledged'));
    await vi.waitFor(async () => {
      servers.get(b)!.resourceUpdated('test://r');
      const got = await Promise.race([
        eventsUntil(stream, (e) => e.data.includes('resources/updated')),
        new Promise<undefined>((resolve) => setTimeout(resolve, 100)),
      ]);
      expect(got).toBeDefined();
    });
    servers.get(b)!.tool({ name: 'later', description: 'Added on B.' }, () => 'x');
    const changed = await eventsUntil(stream, (e) => e.data.includes('list_changed'));
    expect(messages(changed).at(-1)).toMatchObject({ method: 'notifications/tools/list_changed' });
  });

  it('a GET stream resumed on another process is held there live, also once the first is closed', async () => {
    const a = await processLike('a');
    const b = await processLike('b');
    const c = await processLike('c');
    const session = await openSession(a);
    const subscribe = {
      jsonrpc: '2.0',
      id: 13,
      method: 'resources/subscribe',
      params: { uri: 'test://r' },
    };
    expect((await a.request(sessionRequest(session, subscribe))).status).toBe(200);
    const first = await openGet(a, session);
    const [priming] = await eventsUntil(first, (e) => e.id !== undefined);
    servers.get(a)!.resourceUpdated('test://r');
    const before = await eventsUntil(first, (e) => e.data.includes('resources/updated'));
    const lastSeen = before.at(-1)!.id!;
    // An update the client misses, then it resumes on B from the priming event.
    servers.get(a)!.resourceUpdated('test://r');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const resumed = await openGet(b, session, priming!.id);
    const replayed = await eventsUntil(resumed, (e) => e.data.includes('resources/updated'));
    expect(replayed.at(-1)!.id).toBe(lastSeen);
    const missed = await eventsUntil(resumed, (e) => e.data.includes('resources/updated'));
    expect(messages(missed)).toHaveLength(1);
    // A is gone; updates made on C reach the stream B now holds.
    await a.close();
    await servers.get(a)!.close();
    await vi.waitFor(async () => {
      servers.get(c)!.resourceUpdated('test://r');
      const got = await Promise.race([
        eventsUntil(resumed, (e) => e.data.includes('resources/updated')),
        new Promise<undefined>((resolve) => setTimeout(resolve, 100)),
      ]);
      expect(got).toBeDefined();
    });
  });

  it('a POST stream resumed on another process follows the tool still running on the first', async () => {
    gate = opened();
    const a = await processLike('a');
    const b = await processLike('b');
    const session = await openSession(a);
    const abort = new AbortController();
    const res = await a.request({
      ...sessionRequest(session, call('slow', {}, 14, { progressToken: 's' })),
      signal: abort.signal,
    });
    const first = events(res);
    const seen = await eventsUntil(first, (e) => e.data.includes('progress'));
    // The connection drops; the client resumes on B from the priming event.
    abort.abort();
    await first.return(undefined);
    const resumed = await b.request(get(session, seen[0]!.id));
    expect(resumed.status).toBe(200);
    const rest = events(resumed);
    const replayed = await eventsUntil(rest, (e) => e.data.includes('progress'));
    expect(replayed.at(-1)!.id).toBe(seen.at(-1)!.id);
    // Once A let the stream go, what the tool sends there reaches the client through B.
    await new Promise((resolve) => setTimeout(resolve, 100));
    gate.resolve();
    const tail: unknown[] = [];
    for await (const e of rest) tail.push(...messages([e]));
    expect(tail).toMatchObject([
      { method: 'notifications/progress', params: { progress: 2 } },
      { id: 14, result: { content: [{ text: 'a slowly' }] } },
    ]);
  });

  /** A fetch that sends each request to the next of `faces` (a round-robin balancer). */
  function roundRobin(list: readonly Face[]): typeof fetch {
    let next = 0;
    return (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      url.port = String(list[next++ % list.length]!.port);
      return fetch(url, init);
    };
  }

  it("mcpkit's client, its requests spread over two processes: resource updates and elicitation", async () => {
    const a = await processLike('a');
    const b = await processLike('b');
    const updated: string[] = [];
    const transport = createStreamableHttpClientTransport(
      `http://127.0.0.1:${String(a.port)}/mcp`,
      {
        fetch: roundRobin([a, b]),
      },
    );
    const client = new Client(
      { name: 'spread', version: '1.0.0' },
      {
        mode: { pin: '2025-11-25' },
        onResourceUpdated: (uri) => updated.push(uri),
        onElicit: () => ({ action: 'accept', content: { colour: 'red' } }),
      },
    );
    await client.connect(transport);
    cleanups.push(() => client.close());
    await client.subscribe('test://r');
    await vi.waitFor(() => {
      servers.get(b)!.resourceUpdated('test://r');
      expect(updated).toContain('test://r');
    });
    const answers = [await client.callTool('ask', {}), await client.callTool('ask', {})];
    expect(answers.map((r) => (r.content[0] as { text: string }).text).sort()).toEqual([
      'a got red',
      'b got red',
    ]);
  });

  it('the official SDK v1 client, its requests spread over two processes: resource updates and elicitation', async () => {
    const a = await processLike('a');
    const b = await processLike('b');
    const updated: string[] = [];
    const client = new V1Client(
      { name: 'v1-spread', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, () => ({
      action: 'accept',
      content: { colour: 'blue' },
    }));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    const transport = new StreamableHttpV1(new URL(`http://127.0.0.1:${String(a.port)}/mcp`), {
      fetch: roundRobin([a, b]),
    });
    await client.connect(transport);
    cleanups.push(() => client.close());
    await client.subscribeResource({ uri: 'test://r' });
    const names = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const result = await client.callTool({ name: 'who', arguments: {} });
      names.add((result.content as { text: string }[])[0]!.text);
    }
    expect([...names].sort()).toEqual(['a', 'b']);
    const asked = await Promise.all([
      client.callTool({ name: 'ask', arguments: {} }),
      client.callTool({ name: 'ask', arguments: {} }),
    ]);
    expect(asked.map((r) => (r.content as { text: string }[])[0]!.text).sort()).toEqual([
      'a got blue',
      'b got blue',
    ]);
    await vi.waitFor(() => {
      servers.get(a)!.resourceUpdated('test://r');
      expect(updated).toContain('test://r');
    });
  });
});
