// mcpkit gateway (#24) with real upstreams: the official server-everything (stdio, 2025-11-25),
// mcpkit's everything (HTTP, 2026-07-28, a process of the built CLI) and pingme (stdio), and an
// in-process probe server that records what reaches it. Downstream: the official SDK v1 client
// and mcpkit's client in both eras, over Streamable HTTP. Needs the built CLI (npm run build).
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, JsonRpcError } from '../../src/client/index.js';
import type { ListKind } from '../../src/client/index.js';
import { Gateway, STATUS_URI, parseGatewayConfig } from '../../src/gateway/index.js';
import { McpServer } from '../../src/server/index.js';
import { createMemoryPair } from '../../src/transports/memory.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import type { Listening } from '../../src/transports/http/server/node.js';
import { listen } from '../../src/transports/http/server/node.js';
import { BIN, spawnCli, waitFor } from '../cli/run-cli.js';

const require = createRequire(import.meta.url);
const EVERYTHING = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);
const BUILT = existsSync(BIN);
if (!BUILT) console.log(`skipping the gateway tests: ${BIN} is missing (npm run build)`);

const info = { name: 'gateway-test', version: '1.0.0' };

/** The text of a tool result's first block. */
function textOf(result: unknown): string {
  const blocks = ((result as { content?: unknown }).content ?? []) as {
    type: string;
    text?: string;
  }[];
  return blocks.map((block) => block.text ?? '').join('\n');
}

/** Waits until `check` passes (polling), or fails with its last error. */
async function eventually(check: () => Promise<void> | void, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > end) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** An in-process upstream that records what reaches it. */
function probeServer() {
  const server = new McpServer({ name: 'probe', version: '1' }, { onError: () => undefined });
  const seen = { aborted: 0, started: 0 };
  server.tool(
    {
      name: 'wait-forever',
      description: 'Waits until cancelled.',
      inputSchema: { type: 'object' },
    },
    async (_args, ctx) => {
      seen.started++;
      await ctx.log('info', 'waiting', 'probe');
      await new Promise<void>((resolve) => {
        ctx.signal.addEventListener('abort', () => {
          seen.aborted++;
          resolve();
        });
      });
      return 'cancelled';
    },
  );
  server.tool(
    { name: 'fail-with-code', description: 'Throws -32099.', inputSchema: { type: 'object' } },
    () => {
      throw new JsonRpcError(-32099, 'custom failure', { detail: 42 });
    },
  );
  return { server, seen };
}

describe.skipIf(!BUILT)('mcpkit gateway', () => {
  let mk: ChildProcess;
  let mkUrl = '';
  let gateway: Gateway;
  let served: Listening;
  const probe = probeServer();
  const events: Record<string, unknown>[] = [];

  beforeAll(async () => {
    mk = spawnCli(['serve', 'everything', '--http', '0']);
    mkUrl = (await waitFor(mk, /serving at (http:\/\/\S+)\n/))[1] ?? '';
    const config = parseGatewayConfig({
      mcpServers: {
        ev: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
        mk: { url: mkUrl },
        ping: { command: process.execPath, args: [BIN, 'serve', 'pingme'] },
      },
    });
    gateway = await Gateway.start(
      {
        servers: {
          ...config.servers,
          probe: {
            transport: async () => {
              const [client, server] = createMemoryPair();
              await probe.server.connect(server);
              return client;
            },
          },
        },
        curation: config.curation,
      },
      { onEvent: (event) => events.push(event), timing: { pingIntervalMs: 0 } },
    );
    served = await listen(() => gateway.server);
  }, 30_000);

  afterAll(async () => {
    await served.close();
    await gateway.close();
    mk.kill('SIGTERM');
    await once(mk, 'close');
  });

  it('serves every upstream (both eras, stdio and HTTP) as one server, namespaced', async () => {
    const status = gateway.status();
    expect(status.upstreams.map((u) => [u.name, u.state])).toEqual([
      ['ev', 'ready'],
      ['mk', 'ready'],
      ['ping', 'ready'],
      ['probe', 'ready'],
    ]);
    expect(status.upstreams.find((u) => u.name === 'ev')?.revision).toBe('2025-11-25');
    expect(status.upstreams.find((u) => u.name === 'mk')?.revision).toBe('2026-07-28');
    const client = new ClientV1(info);
    await client.connect(new StreamableHttpV1(new URL(served.url)));
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    // Both everything servers have echo: prefixed; PingME is unique: kept.
    expect(names).toEqual(
      expect.arrayContaining(['PingME', 'ev__echo', 'mk__echo', 'wait-forever']),
    );
    expect(names.every((name) => /^[a-zA-Z0-9_-]{1,64}$/.test(name))).toBe(true);
    expect(textOf(await client.callTool({ name: 'PingME', arguments: {} }))).toContain('BISMILLAH');
    const echo = await client.callTool({ name: 'mk__echo', arguments: { message: 'via v1' } });
    expect(textOf(echo)).toContain('via v1');
    const sum = await client.callTool({ name: 'ev__get-sum', arguments: { a: 2, b: 3 } });
    expect(textOf(sum)).toContain('5');
    await client.close();
  });

  for (const modern of [true, false]) {
    it(`the official SDK v2 client (${modern ? 'modern' : 'legacy'}) calls tools of every upstream`, async () => {
      const client = new ClientV2(info, modern ? { versionNegotiation: { mode: 'auto' } } : {});
      await client.connect(new StreamableHttpV2(new URL(served.url)));
      expect(client.getProtocolEra()).toBe(modern ? 'modern' : 'legacy');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['PingME', 'ev__echo', 'mk__echo']),
      );
      const echo = await client.callTool({ name: 'ev__echo', arguments: { message: 'v2' } });
      expect(textOf(echo)).toContain('v2');
      const ping = await client.callTool({ name: 'PingME', arguments: {} });
      expect(textOf(ping)).toContain('BISMILLAH');
      await client.close();
    });
  }

  for (const revision of ['2026-07-28', '2025-06-18'] as const) {
    it(`mcpkit's client (${revision}) gets tools, prompts, resources and completions routed`, async () => {
      const client = new Client(info, { mode: { pin: revision } });
      await client.connect(createStreamableHttpClientTransport(served.url));
      expect(textOf(await client.callTool('ev__echo', { message: 'hi' }))).toContain('hi');
      const prompts = (await client.listPrompts()).map((prompt) => prompt.name);
      expect(prompts).toEqual(expect.arrayContaining(['ev__args-prompt', 'mk__args-prompt']));
      const prompt = await client.getPrompt('mk__args-prompt', { city: 'Paris' });
      expect(JSON.stringify(prompt.messages)).toContain('Paris');
      const completed = await client.complete(
        { type: 'ref/prompt', name: 'mk__args-prompt' },
        { name: 'city', value: 'Bos' },
      );
      expect(completed.completion.values).toContain('Boston');
      const resources = await client.listResources();
      const mkResource = resources.find((r) => r.uri.startsWith('demo://resource/static'));
      expect(mkResource).toBeDefined();
      const read = await client.readResource(mkResource?.uri ?? '');
      expect(read.contents[0]?.uri).toBe(mkResource?.uri);
      // The upstreams' instructions, each under its name (server-everything has some).
      expect(client.instructions).toContain('## ev\n');
      const status = await client.readResource(STATUS_URI);
      const text = (status.contents[0] as { text: string }).text;
      expect(JSON.parse(text)).toMatchObject({ mode: 'all', upstreams: expect.any(Array) });
      await client.close();
    });
  }

  it("errors keep their codes; an upstream's own JSON-RPC error passes through", async () => {
    const client = new Client(info);
    await client.connect(createStreamableHttpClientTransport(served.url));
    const error = await client.callTool('fail-with-code').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).code).toBe(-32099);
    expect((error as JsonRpcError).data).toEqual({ detail: 42 });
    await client.close();
  });

  it('elicitation from a 2026-07-28 upstream is answered by a legacy v1 downstream client', async () => {
    const client = new ClientV1(info, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return request.params.message.includes('how deep')
        ? { action: 'accept', content: { depth: 'overview' } }
        : { action: 'accept', content: { interpretation: 'the place' } };
    });
    await client.connect(new StreamableHttpV1(new URL(served.url)));
    const result = await client.callTool({
      name: 'mk__simulate-research-query',
      arguments: { topic: 'jaguar', ambiguous: true },
    });
    await client.close();
    expect(asked).toHaveLength(2);
    expect(textOf(result)).toContain('the place');
  }, 30_000);

  it('elicitation from a legacy stdio upstream is answered by a 2026-07-28 client (multi round-trip)', async () => {
    const asked: string[] = [];
    const client = new Client(info, {
      mode: { pin: '2026-07-28' },
      onElicit: (params) => {
        asked.push(params.message);
        return { action: 'accept', content: { name: 'Ada', check: true } };
      },
    });
    await client.connect(createStreamableHttpClientTransport(served.url));
    const result = await client.callTool('trigger-elicitation-request');
    expect(asked).toHaveLength(1);
    expect(textOf(result)).toContain('Name: Ada');
    // And a 2026-07-28 upstream asking a 2026-07-28 client twice.
    const research = await client.callTool('mk__simulate-research-query', {
      topic: 'jaguar',
      ambiguous: true,
    });
    expect(research.isError).not.toBe(true);
    expect(asked.length).toBe(3);
    await client.close();
  }, 30_000);

  for (const revision of ['2025-11-25', '2026-07-28'] as const) {
    it(`sampling and roots from upstreams are answered by a ${revision} client`, async () => {
      const client = new Client(info, {
        mode: { pin: revision },
        onSample: () => ({
          role: 'assistant',
          content: { type: 'text', text: 'sampled answer' },
          model: 'test-model',
        }),
        onRoots: () => [{ uri: 'file:///work/project', name: 'project' }],
      });
      await client.connect(createStreamableHttpClientTransport(served.url));
      const sampled = await client.callTool('sample-llm', { prompt: 'hello' });
      expect(textOf(sampled)).toContain('sampled answer');
      const roots = await client.callTool('mk__get-roots-list');
      expect(textOf(roots)).toContain('file:///work/project');
      await client.close();
    });
  }

  it('progress reaches the downstream client; cancellation reaches the upstream', async () => {
    const client = new Client(info, { mode: { pin: '2025-11-25' } });
    const logs: unknown[] = [];
    const logging = new Client(info, {
      mode: { pin: '2025-11-25' },
      onLog: (params) => logs.push(params.data),
    });
    await client.connect(createStreamableHttpClientTransport(served.url));
    await logging.connect(createStreamableHttpClientTransport(served.url));
    const progress: number[] = [];
    const result = await client.callTool(
      'ev__trigger-long-running-operation',
      { duration: 1, steps: 4 },
      { onProgress: (done) => progress.push(done) },
    );
    expect(textOf(result)).toContain('completed');
    expect(progress).toEqual([1, 2, 3, 4]);
    for (const era of [logging, new Client(info, { mode: { pin: '2026-07-28' } })]) {
      if (!era.isConnected) await era.connect(createStreamableHttpClientTransport(served.url));
      const before = probe.seen.aborted;
      const controller = new AbortController();
      const call = era.callTool('wait-forever', {}, { signal: controller.signal });
      await eventually(() => {
        expect(probe.seen.started).toBeGreaterThan(before);
      });
      controller.abort(new Error('stop'));
      await expect(call).rejects.toThrow();
      await eventually(() => {
        expect(probe.seen.aborted).toBe(before + 1);
      });
      await era.close();
    }
    // The probe's log during the legacy call went to that call's client.
    expect(logs).toContain('waiting');
    await client.close();
  });

  it("an upstream's list change reaches downstream clients", async () => {
    const changed: ListKind[] = [];
    const client = new Client(info, {
      mode: { pin: '2025-11-25' },
      onListChanged: (kind) => changed.push(kind),
    });
    await client.connect(createStreamableHttpClientTransport(served.url));
    expect((await client.listTools()).map((tool) => tool.name)).not.toContain('added-later');
    const handle = probe.server.tool(
      { name: 'added-later', description: 'New.', inputSchema: { type: 'object' } },
      () => 'new tool',
    );
    await eventually(() => {
      expect(changed).toContain('tools');
    });
    expect((await client.listTools()).map((tool) => tool.name)).toContain('added-later');
    expect(textOf(await client.callTool('added-later'))).toBe('new tool');
    handle.remove();
    await eventually(async () => {
      expect((await client.listTools()).map((tool) => tool.name)).not.toContain('added-later');
    });
    await client.close();
  });

  it('resource updates of an upstream reach a subscribed downstream client', async () => {
    const client = new ClientV1(info);
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updated.push(notification.params.uri);
    });
    await client.connect(new StreamableHttpV1(new URL(served.url)));
    const uri = 'demo://resource/dynamic/text/1';
    await client.subscribeResource({ uri });
    await client.callTool({ name: 'mk__toggle-subscriber-updates', arguments: {} });
    try {
      await eventually(() => {
        expect(updated).toContain(uri);
      }, 15_000);
    } finally {
      await client.callTool({ name: 'mk__toggle-subscriber-updates', arguments: {} });
      await client.close();
    }
  }, 30_000);
});
