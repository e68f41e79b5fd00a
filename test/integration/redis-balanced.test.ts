// Scale-out (#22): three `mcpkit serve everything --redis … --state-secret …` processes behind a
// private nginx that routes every request round-robin with no stickiness, one real Redis. Each
// response carries nginx's X-Upstream header, so every test proves where its requests landed.
// The official SDK v1 and v2 clients and mcpkit's client run whole sessions (2025-11-25 and
// 2026-07-28) across all three; an elicitation asked on one process is answered through another;
// a resource update made on one process reaches the GET stream another holds; the process that
// holds a stream is killed (SIGKILL) and the client resumes on another with Last-Event-ID,
// losing nothing. Needs nginx (`.ci/run` installs it), MCPKIT_TEST_REDIS_URL and a built CLI.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import process from 'node:process';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableHttpV2,
} from '@modelcontextprotocol/client';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { Client } from '../../src/client/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import type { Balancer, Served } from '../helpers/balancer.js';
import { CLI, findNginx, startBalancer, startServe } from '../helpers/balancer.js';

const REDIS_URL = process.env['MCPKIT_TEST_REDIS_URL'];
const NGINX = findNginx();
const BUILT = existsSync(CLI);
const missing = [
  REDIS_URL === undefined ? 'MCPKIT_TEST_REDIS_URL is not set' : undefined,
  NGINX === undefined ? 'nginx is not installed (.ci/run installs it)' : undefined,
  BUILT ? undefined : `${CLI} is missing (npm run build)`,
].filter((why) => why !== undefined);
if (missing.length > 0) console.log(`skipping the load-balanced tests: ${missing.join('; ')}`);

const SECRET = 'balanced-test-secret-0123456789abcdef';
const PREFIX = `mcpkit-test-balanced:${String(process.pid)}:${String(Date.now())}`;
const info = { name: 'balanced-test', version: '1.0.0' };
const LEGACY = '2025-11-25';

/** A fetch that records which process answered each request, and what it carried. */
function recordingFetch() {
  const hits: { upstream: string; method: string; body: unknown }[] = [];
  const fetchLike = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init);
    let body: unknown;
    try {
      body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    } catch {
      body = undefined;
    }
    hits.push({
      upstream: response.headers.get('x-upstream') ?? '?',
      method: init?.method ?? 'GET',
      body,
    });
    return response;
  };
  return { hits, fetch: fetchLike };
}

const upstreamsOf = (hits: readonly { upstream: string }[]) =>
  new Set(hits.map((hit) => hit.upstream));

function textOf(result: { content?: unknown }): string {
  const content = result.content as { type: string; text?: string }[] | undefined;
  return (content ?? []).map((block) => block.text ?? `[${block.type}]`).join('');
}

describe.skipIf(missing.length > 0)('three processes behind a round-robin nginx, one Redis', () => {
  let processes: Served[] = [];
  let balancer: Balancer;
  let redis: ReturnType<typeof createClient>;

  beforeAll(async () => {
    processes = await Promise.all(
      [0, 1, 2].map(() =>
        startServe([
          'everything',
          '--redis',
          REDIS_URL ?? '',
          '--redis-prefix',
          PREFIX,
          '--state-secret',
          SECRET,
        ]),
      ),
    );
    balancer = await startBalancer(
      processes.map((p) => p.address),
      NGINX,
    );
    redis = createClient({ url: REDIS_URL ?? '' });
    await redis.connect();
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled([balancer.close(), ...processes.map((p) => p.close())]);
    // Only this run's keys.
    for await (const keys of redis.scanIterator({ MATCH: `${PREFIX}:*`, COUNT: 500 })) {
      if (keys.length > 0) await redis.del(keys);
    }
    await redis.quit();
  }, 30_000);

  /** Calls echo three times and lists the tools: what a session does on every process. */
  async function exercise(peer: {
    listTools(): Promise<string[]>;
    echo(message: string): Promise<string>;
  }): Promise<void> {
    expect(await peer.listTools()).toContain('echo');
    for (const word of ['one', 'two', 'three', 'four']) {
      expect(await peer.echo(word)).toContain(word);
    }
  }

  it('the official v1 client: a legacy session whose requests land on all three', async () => {
    const recorder = recordingFetch();
    const client = new ClientV1(info);
    const transport = new StreamableHttpV1(new URL(balancer.url), { fetch: recorder.fetch });
    await client.connect(transport);
    expect(transport.protocolVersion).toBe(LEGACY);
    await exercise({
      listTools: async () => (await client.listTools()).tools.map((t) => t.name),
      echo: async (message) =>
        textOf(
          (await client.callTool({ name: 'echo', arguments: { message } })) as {
            content?: unknown;
          },
        ),
    });
    await client.close();
    expect(upstreamsOf(recorder.hits)).toEqual(new Set(processes.map((p) => p.address)));
  });

  for (const modern of [false, true]) {
    it(`the official v2 client (${modern ? '2026-07-28' : 'legacy'}): requests land on all three`, async () => {
      const recorder = recordingFetch();
      const client = new ClientV2(info, modern ? { versionNegotiation: { mode: 'auto' } } : {});
      await client.connect(new StreamableHttpV2(new URL(balancer.url), { fetch: recorder.fetch }));
      expect(client.getProtocolEra()).toBe(modern ? 'modern' : 'legacy');
      await exercise({
        listTools: async () => (await client.listTools()).tools.map((t) => t.name),
        echo: async (message) =>
          textOf(await client.callTool({ name: 'echo', arguments: { message } })),
      });
      await client.close();
      expect(upstreamsOf(recorder.hits)).toEqual(new Set(processes.map((p) => p.address)));
    });
  }

  for (const revision of [LEGACY, '2026-07-28'] as const) {
    it(`mcpkit's client (${revision}): requests land on all three`, async () => {
      const recorder = recordingFetch();
      const client = new Client(info, { mode: { pin: revision } });
      await client.connect(
        createStreamableHttpClientTransport(balancer.url, { fetch: recorder.fetch }),
      );
      await exercise({
        listTools: async () => (await client.listTools()).map((t) => t.name),
        echo: async (message) => textOf(await client.callTool('echo', { message })),
      });
      await client.close();
      expect(upstreamsOf(recorder.hits)).toEqual(new Set(processes.map((p) => p.address)));
    });
  }

  it('a tool that elicits on one process gets its answer through another (legacy, v1 client)', async () => {
    const recorder = recordingFetch();
    const client = new ClientV1(info, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      // First how deep to go, then (the topic being ambiguous) which meaning.
      return request.params.message.includes('how deep')
        ? { action: 'accept', content: { depth: 'overview' } }
        : { action: 'accept', content: { interpretation: 'the place' } };
    });
    await client.connect(new StreamableHttpV1(new URL(balancer.url), { fetch: recorder.fetch }));
    const result = await client.callTool({
      name: 'simulate-research-query',
      arguments: { topic: 'jaguar', ambiguous: true },
    });
    await client.close();
    expect(asked).toHaveLength(2);
    expect(textOf(result as { content?: unknown })).toContain('the place');
    const call = recorder.hits.find(
      (hit) => (hit.body as { method?: string } | undefined)?.method === 'tools/call',
    );
    const answer = recorder.hits.find(
      (hit) => (hit.body as { result?: unknown } | undefined)?.result !== undefined,
    );
    expect(call).toBeDefined();
    expect(answer).toBeDefined();
    expect(answer?.upstream).not.toBe(call?.upstream);
  }, 60_000);

  it('a 2026-07-28 elicitation round sealed on one process is opened by another', async () => {
    const recorder = recordingFetch();
    const client = new Client(info, {
      mode: { pin: '2026-07-28' },
      onElicit: () => ({ action: 'accept', content: { interpretation: 'the animal' } }),
    });
    await client.connect(
      createStreamableHttpClientTransport(balancer.url, { fetch: recorder.fetch }),
    );
    const result = await client.callTool('simulate-research-query', {
      topic: 'jaguar',
      ambiguous: true,
    });
    await client.close();
    expect(textOf(result)).toContain('the animal');
    const rounds = recorder.hits.filter(
      (hit) => (hit.body as { method?: string } | undefined)?.method === 'tools/call',
    );
    expect(rounds.length).toBeGreaterThanOrEqual(2);
    expect(rounds[0]?.upstream).not.toBe(rounds[1]?.upstream);
  }, 60_000);

  it('a resource update made on one process reaches the GET stream another holds', async () => {
    const recorder = recordingFetch();
    const client = new ClientV1(info);
    const updated: string[] = [];
    let heard: () => void = () => undefined;
    const first = new Promise<void>((resolve) => (heard = resolve));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updated.push(notification.params.uri);
      heard();
    });
    const transport = new StreamableHttpV1(new URL(balancer.url), { fetch: recorder.fetch });
    await client.connect(transport);
    const resources = (await client.listResources()).resources.map((r) => r.uri);
    for (const uri of resources) await client.subscribeResource({ uri });
    // Wait for the standalone GET stream, then toggle the updates on another process directly.
    const get = await until(() => recorder.hits.find((hit) => hit.method === 'GET'));
    const other = processes.find((p) => p.address !== get.upstream);
    if (other === undefined) throw new Error('no other process');
    const toggle = (id: number) =>
      fetch(other.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': transport.sessionId ?? '',
          'mcp-protocol-version': LEGACY,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'toggle-subscriber-updates', arguments: {} },
        }),
      }).then((r) => r.text());
    expect(await toggle(1001)).toContain('on');
    try {
      await Promise.race([
        first,
        new Promise((_resolve, reject) =>
          setTimeout(() => {
            reject(new Error('no notifications/resources/updated within 15 s'));
          }, 15_000),
        ),
      ]);
    } finally {
      await toggle(1002);
      await client.close();
    }
    expect(resources).toContain(updated[0]);
  }, 60_000);

  // Last: it kills one of the three.
  it('the process holding a GET stream is killed (SIGKILL): the client resumes on another with Last-Event-ID and loses nothing', async () => {
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': LEGACY,
    };
    // Everything goes through the balancer: the session is opened on one process, the GET
    // stream held by whichever the balancer picks (the holder), the updates made by the timer
    // of the process the toggle lands on and carried to the holder by the change bus.
    const init = await fetch(balancer.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: info },
      }),
    });
    const session = init.headers.get('mcp-session-id') ?? '';
    await init.text();
    expect(session).not.toBe('');
    const post = async (body: unknown, url = balancer.url) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { ...headers, 'mcp-session-id': session },
        body: JSON.stringify(body),
      });
      await response.text();
      return response;
    };
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const subscribe = {
      jsonrpc: '2.0',
      id: 2,
      method: 'resources/subscribe',
      params: { uri: 'demo://resource/dynamic/text/1' },
    };
    expect((await post(subscribe)).status).toBe(200);
    const get = await fetch(balancer.url, {
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': session,
        'mcp-protocol-version': LEGACY,
      },
    });
    expect(get.status).toBe(200);
    const holder = processes.find((p) => p.address === get.headers.get('x-upstream'));
    if (holder === undefined) throw new Error('the GET stream names no known upstream');
    const toggle = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'toggle-subscriber-updates', arguments: {} },
    });
    const toggled = await post(toggle(3));
    expect(toggled.status).toBe(200);
    const toggler = processes.find((p) => p.address === toggled.headers.get('x-upstream'));
    // The updates stop at the end: the toggler's timer is turned off, unless it was the holder.
    onTestFinished(async () => {
      if (toggler !== undefined && toggler !== holder) await post(toggle(99), toggler.url);
    });
    const reader = sseReader(get);
    const seen: SseEvent[] = [];
    // Read until one update arrived, then stop reading while more are sent.
    for (;;) {
      const event = await reader.next(15_000);
      if (event === undefined)
        throw new Error('no notifications/resources/updated on the GET stream');
      seen.push(event);
      if (event.data.includes('notifications/resources/updated')) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    holder.child.kill('SIGKILL');
    await new Promise((resolve) => holder.child.once('exit', resolve));
    // What arrived after the last event read is dropped, as when a connection dies.
    await reader.cancel();
    const lastId = seen.filter((e) => e.id !== undefined).at(-1)?.id;
    expect(lastId).toBeDefined();
    const resumed = await fetch(balancer.url, {
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': session,
        'mcp-protocol-version': LEGACY,
        'last-event-id': lastId ?? '',
      },
    });
    expect(resumed.status).toBe(200);
    const survivor = resumed.headers.get('x-upstream');
    expect(survivor).not.toBe(holder.address);
    // Every event the dead process stored: read before the kill, or replayed now.
    const stored = await storedEvents(lastId ?? '');
    expect(stored.length).toBeGreaterThan(seen.filter((e) => e.id !== undefined).length);
    const replayReader = sseReader(resumed);
    const replayed: SseEvent[] = [];
    const wanted = stored.slice(stored.indexOf(lastId ?? '') + 1);
    expect(wanted.length).toBeGreaterThan(0);
    while (
      replayed.filter((e) => e.id !== undefined && wanted.includes(e.id)).length < wanted.length
    ) {
      const event = await replayReader.next(10_000);
      if (event === undefined) break;
      replayed.push(event);
    }
    await replayReader.cancel();
    const received = [...seen, ...replayed].map((e) => e.id).filter((id) => id !== undefined);
    expect(new Set(received).size).toBe(received.length);
    for (const id of wanted) expect(received).toContain(id);
    expect(
      replayed.filter((e) => e.data.includes('notifications/resources/updated')).length,
    ).toBeGreaterThan(0);
  }, 90_000);

  /** The ids of the events Redis holds for the stream `eventId` belongs to, in order. */
  async function storedEvents(eventId: string): Promise<string[]> {
    const at = eventId.lastIndexOf('@');
    const stream = eventId.slice(0, at);
    const entries = await redis.xRange(`${PREFIX}:events:${stream}`, '-', '+');
    return (entries ?? []).map((entry) => `${stream}@${entry.id}`);
  }
});

interface SseEvent {
  readonly id?: string;
  readonly data: string;
}

/** Reads SSE events off a response body, one at a time. */
function sseReader(response: Response) {
  const reader = response.body?.getReader();
  if (reader === undefined) throw new Error('no body');
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    /** The next event; undefined when the stream ends or nothing comes within `timeoutMs`. */
    async next(timeoutMs: number): Promise<SseEvent | undefined> {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => {
          resolve(undefined);
        }, timeoutMs);
      });
      try {
        return await Promise.race([this.read(), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    async read(): Promise<SseEvent | undefined> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let id: string | undefined;
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('id:')) id = line.slice(3).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
          }
          if (id === undefined && data.length === 0) continue;
          return { ...(id === undefined ? {} : { id }), data: data.join('\n') };
        }
        const { done, value } = await reader.read();
        if (done) return undefined;
        buffer += decoder.decode(value, { stream: true }).replaceAll('\r\n', '\n');
      }
    },
    cancel: () => reader.cancel().catch(() => undefined),
  };
}

async function until<T>(find: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(!BUILT)('mcpkit serve --redis refuses what cannot work as one server', () => {
  const secret = ['--state-secret', SECRET];
  const http = ['--http', '127.0.0.1:0'];
  const cases: [string, string[], Record<string, string>, number, RegExp][] = [
    [
      '--redis without a secret',
      [...http, '--redis', 'redis://127.0.0.1:6379'],
      {},
      3,
      /--redis needs --state-secret/,
    ],
    [
      'a secret under 32 bytes',
      [...http, '--state-secret', 'short'],
      {},
      3,
      /shorter than 32 bytes/,
    ],
    [
      '--redis over stdio',
      ['--stdio', '--redis', 'redis://127.0.0.1:6379', ...secret],
      {},
      3,
      /--redis needs --http/,
    ],
    [
      'Redis unreachable at start (MCPKIT_REDIS_URL)',
      [...http, ...secret],
      { MCPKIT_REDIS_URL: 'redis://127.0.0.1:1' },
      2,
      /cannot reach Redis at redis:\/\/127\.0\.0\.1:1/,
    ],
  ];
  for (const [name, args, env, code, said] of cases) {
    it(`${name}: exit ${String(code)} with a clear message`, async () => {
      const child = spawn(process.execPath, [CLI, 'serve', 'everything', ...args], {
        env: { ...process.env, MCPKIT_REDIS_URL: '', MCPKIT_STATE_SECRET: '', ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const [exit] = (await once(child, 'exit')) as [number];
      expect(stderr).toMatch(said);
      expect(exit).toBe(code);
    });
  }
});
