// Legacy sessions shared through Redis (createRedisSessionStore, the handler's `sessionStore`):
// a session opened on one process is resumed by another that never saw it, with the client's
// capabilities and info; DELETE removes it for every process that has not resumed it yet; an
// unknown id stays 404. Three handlers with their own McpServer, one Redis. Needs
// MCPKIT_TEST_REDIS_URL.
import process from 'node:process';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisKeyValueLike } from '../../src/stores/redis/index.js';
import { createRedisSessionStore } from '../../src/stores/redis/index.js';
import { McpServer } from '../../src/server/index.js';
import type { Face } from './http-server-harness.js';
import {
  call,
  events,
  eventsUntil,
  initializeBody,
  messages,
  openSession,
  sessionRequest,
  startFace,
} from './http-server-harness.js';

const URL_ = process.env['MCPKIT_TEST_REDIS_URL'];
if (URL_ === undefined)
  console.log('skipping the Redis session store tests: MCPKIT_TEST_REDIS_URL is not set');

describe.skipIf(URL_ === undefined)('legacy sessions in Redis', () => {
  let redis: ReturnType<typeof createClient>;
  let client: RedisKeyValueLike;
  const faces: Face[] = [];
  const prefix = `mcpkit-test-sessions:${String(process.pid)}:${String(Date.now())}`;

  async function processLike(name: string): Promise<Face> {
    const server = new McpServer({ name, version: '1.0.0' }, { onError: () => {} });
    server.tool({ name: 'who', description: 'Who is calling, and who answers.' }, (_args, ctx) =>
      JSON.stringify({ server: name, client: ctx.client.info?.name, revision: ctx.revision }),
    );
    server.tool({ name: 'ask', description: 'Asks the user for a colour.' }, async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Colour?',
        requestedSchema: { type: 'object', properties: { colour: { type: 'string' } } },
      });
      return `${name} got ${String(answer.content?.['colour'])}`;
    });
    server.tool({ name: 'wait', description: 'Waits until cancelled.' }, (_args, ctx) => {
      running.get(name)?.();
      return new Promise<string>((resolve) => {
        ctx.signal.addEventListener('abort', () => {
          cancelled.add(name);
          resolve('cancelled');
        });
      });
    });
    const face = await startFace('node', server, {
      sessionStore: createRedisSessionStore({ client, prefix }),
    });
    faces.push(face);
    return face;
  }
  /** Called when the `wait` tool of a process starts; the processes whose `wait` was cancelled. */
  const running = new Map<string, () => void>();
  const cancelled = new Set<string>();

  beforeAll(async () => {
    redis = createClient({ url: URL_ ?? '' });
    await redis.connect();
    client = redis;
  });
  afterAll(async () => {
    await Promise.all(faces.map((f) => f.close()));
    await redis.quit();
  });

  it('a session opened on A is served by B, as the client initialized it', async () => {
    const a = await processLike('a');
    const b = await processLike('b');
    const session = await openSession(a);
    const response = await b.request(sessionRequest(session, call('who', {}, 7)));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: { content: { text: string }[] } };
    expect(JSON.parse(body.result.content[0]!.text)).toEqual({
      server: 'b',
      client: 'raw-client',
      revision: '2025-11-25',
    });
  });

  it('a question asked on A is answered through B: the answer reaches A by the bus', async () => {
    const a = await processLike('asker');
    const b = await processLike('relay');
    const session = await openSession(a);
    const res = await a.request({
      ...sessionRequest(session, call('ask', {}, 21)),
      headers: {
        ...sessionRequest(session, {}).headers,
        accept: 'application/json, text/event-stream',
      },
    });
    const stream = events(res);
    const seen = await eventsUntil(stream, (e) => e.data.includes('elicitation/create'));
    const question = messages(seen).find((m) => m.method === 'elicitation/create');
    const answered = await b.request(
      sessionRequest(session, {
        jsonrpc: '2.0',
        id: question.id,
        result: { action: 'accept', content: { colour: 'teal' } },
      }),
    );
    expect(answered.status).toBe(202);
    const rest = await eventsUntil(stream, (e) => e.data.includes('"id":21'));
    const result = messages(rest).find((m) => m.id === 21);
    expect(result.result.content[0].text).toBe('asker got teal');
  });

  it('a cancellation POSTed to B reaches the tool running on A', async () => {
    const a = await processLike('runner');
    const b = await processLike('canceller');
    const session = await openSession(a);
    const started = new Promise<void>((resolve) => running.set('runner', resolve));
    const inFlight = new AbortController();
    const call31 = a
      .request({
        ...sessionRequest(session, call('wait', {}, 31)),
        headers: {
          ...sessionRequest(session, {}).headers,
          accept: 'application/json, text/event-stream',
        },
        signal: inFlight.signal,
      })
      .catch(() => undefined);
    await started;
    expect(cancelled.has('runner')).toBe(false);
    const notice = await b.request(
      sessionRequest(session, {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 31, reason: 'changed my mind' },
      }),
    );
    expect(notice.status).toBe(202);
    for (let i = 0; i < 100 && !cancelled.has('runner'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(cancelled.has('runner')).toBe(true);
    // No response is sent for a cancelled request; its POST on A ends all the same.
    expect((await call31)?.status).toBe(202);
  });

  it('DELETE ends it in the store: a process that never held it answers 404', async () => {
    const a = await processLike('a2');
    const c = await processLike('c');
    const session = await openSession(a);
    const deleted = await a.request({ method: 'DELETE', headers: { 'mcp-session-id': session } });
    expect(deleted.status).toBe(200);
    const after = await c.request(sessionRequest(session, call('who', {}, 8)));
    expect(after.status).toBe(404);
  });

  it('an id no process opened is 404 everywhere', async () => {
    const b = await processLike('b2');
    const response = await b.request(sessionRequest('no-such-session', call('who', {}, 9)));
    expect(response.status).toBe(404);
  });
});

describe('a session store that cannot be reached', () => {
  it('answers 503 with a JSON-RPC error at once, to initialize and to an unknown session', async () => {
    const down = (): Promise<never> => Promise.reject(new Error('ECONNREFUSED'));
    const server = new McpServer({ name: 'down', version: '1.0.0' }, { onError: () => {} });
    server.tool({ name: 'who', description: 'Anyone.' }, () => 'me');
    const face = await startFace('node', server, {
      sessionStore: { save: down, load: down, delete: down },
    });
    try {
      const init = await face.request({ body: initializeBody() });
      expect(init.status).toBe(503);
      expect(init.headers.get('mcp-session-id')).toBeNull();
      expect(await init.json()).toMatchObject({
        error: { message: expect.stringContaining('session store is unavailable') },
      });
      const other = await face.request(sessionRequest('somebody-else', call('who', {}, 3)));
      expect(other.status).toBe(503);
    } finally {
      await face.close();
    }
  });
});
