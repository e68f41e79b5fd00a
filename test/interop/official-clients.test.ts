// The official TypeScript SDK clients (v1 @modelcontextprotocol/sdk, v2 @modelcontextprotocol/client)
// against an mcpkit McpServer, over real sockets on 127.0.0.1 and a real child process. Each
// scenario connects once and runs every feature through the official client's own API: listing,
// calls, progress, elicitation answered by the official client's handler, resources, prompts,
// cancellation (observed by the server through ctx.signal) and arguments that fail the schema.
import { existsSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as StreamableHttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport as TransportV1 } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableHttpV2,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../src/server/index.js';
import { listen } from '../../src/transports/http/server/node.js';
import type { Listening } from '../../src/transports/http/server/node.js';
import { defineInteropServer } from './fixtures/interop-server.mjs';

const DIST_SERVER = fileURLToPath(new URL('../../dist/esm/src/server/index.js', import.meta.url));
const STDIO_SERVER = fileURLToPath(new URL('./fixtures/stdio-server.mjs', import.meta.url));
const hasDist = existsSync(DIST_SERVER);

/** What every scenario needs from an official client, whatever its major version. */
interface Peer {
  listTools(): Promise<string[]>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    options?: { onProgress?: (progress: number) => void; signal?: AbortSignal },
  ): Promise<ToolResult>;
  readResource(uri: string): Promise<{ contents: { uri: string; text?: unknown }[] }>;
  getPrompt(
    name: string,
    args: Record<string, string>,
  ): Promise<{ messages: { role: string; content: unknown }[] }>;
  close(): Promise<void>;
  /** The elicitations the official client's handler answered. */
  readonly elicitations: { message: string }[];
  /** Every message the official client's transport delivered, in arrival order. */
  readonly wire: unknown[];
}

interface ToolResult {
  content?: unknown;
  isError?: boolean;
}

interface Scenario {
  name: string;
  /** The era and revision mcpkit's handlers should see for this client's calls. */
  era: 'legacy' | 'modern';
  revision: string;
  connect(): Promise<Peer>;
  /** Runs the mcpkit server from dist/ in a child process. */
  needsDist?: boolean;
  /**
   * Why the official client's progress callback may miss notifications that the wire carried
   * in order before the response; the test then checks the wire and a prefix of the callbacks.
   */
  progressRace?: string;
}

const answer = { action: 'accept' as const, content: { name: 'Ada' } };
const info = { name: 'official-interop', version: '1.0.0' };

function textOf(result: ToolResult): string {
  const content = result.content as { type: string; text?: string }[] | undefined;
  return (content ?? []).map((block) => block.text ?? `[${block.type}]`).join('');
}

/** Records what `transport` delivers to the client that connected it (wraps its onmessage). */
function tap(transport: {
  onmessage?: ((message: never, extra?: never) => void) | undefined;
}): unknown[] {
  const wire: unknown[] = [];
  const deliver = transport.onmessage;
  if (deliver === undefined) throw new Error('tap() needs a connected transport');
  transport.onmessage = (message, extra) => {
    wire.push(message);
    deliver(message, extra);
  };
  return wire;
}

/** Adapts a v1 Client (`callTool(params, schema, options)`, `onprogress`). */
function peerV1(client: ClientV1, elicitations: { message: string }[], wire: unknown[]): Peer {
  return {
    elicitations,
    wire,
    async listTools() {
      return (await client.listTools()).tools.map((tool) => tool.name);
    },
    async callTool(name, args, options = {}) {
      return (await client.callTool({ name, arguments: args }, undefined, {
        ...(options.onProgress && { onprogress: (p) => options.onProgress?.(p.progress) }),
        ...(options.signal && { signal: options.signal }),
      })) as ToolResult;
    },
    readResource: (uri) => client.readResource({ uri }),
    getPrompt: (name, args) => client.getPrompt({ name, arguments: args }),
    close: () => client.close(),
  };
}

/** Connects a v1 client whose elicitation handler accepts with `answer`. */
async function connectV1(transport: TransportV1) {
  const elicitations: { message: string }[] = [];
  const client = new ClientV1(info, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    elicitations.push({ message: request.params.message });
    return answer;
  });
  await client.connect(transport);
  return { client, peer: peerV1(client, elicitations, tap(transport)) };
}

/** Adapts a v2 Client (`callTool(params, options)`, elicitation through setRequestHandler). */
function peerV2(client: ClientV2, elicitations: { message: string }[], wire: unknown[]): Peer {
  return {
    elicitations,
    wire,
    async listTools() {
      return (await client.listTools()).tools.map((tool) => tool.name);
    },
    async callTool(name, args, options = {}) {
      return (await client.callTool(
        { name, arguments: args },
        {
          ...(options.onProgress && { onprogress: (p) => options.onProgress?.(p.progress) }),
          ...(options.signal && { signal: options.signal }),
        },
      )) as ToolResult;
    },
    readResource: (uri) => client.readResource({ uri }),
    getPrompt: (name, args) => client.getPrompt({ name, arguments: args }),
    close: () => client.close(),
  };
}

/** Connects a v2 client; `modern` opts into 2026-07-28 negotiation. */
async function connectV2(transport: StreamableHttpV2 | StdioV2, modern: boolean) {
  const elicitations: { message: string }[] = [];
  const client = new ClientV2(info, {
    capabilities: { elicitation: {} },
    ...(modern && { versionNegotiation: { mode: 'auto' } }),
  });
  client.setRequestHandler('elicitation/create', (request) => {
    elicitations.push({ message: request.params.message });
    return answer;
  });
  await client.connect(transport);
  return { client, peer: peerV2(client, elicitations, tap(transport)) };
}

/**
 * The official Protocol class (v1 and v2 alike) runs notification handlers a microtask late
 * (`_onnotification`: `Promise.resolve().then(handler)`) but settles a response at once, deleting
 * the request's progress handler (`_onresponse`). Progress that arrives in the same read chunk as
 * the response (stdio lines, HTTP+SSE events) is then dropped as "unknown token", however the
 * server orders it. Streamable HTTP reads SSE events one by one, so it does not hit this.
 */
const SDK_PROGRESS_RACE =
  'the SDK drops progress read in the same chunk as the response (microtask race)';

let http: Listening;
let httpServer: McpServer;

beforeAll(async () => {
  httpServer = defineInteropServer(new McpServer({ name: 'mcpkit-interop', version: '1.0.0' }));
  http = await listen(() => httpServer, { enableLegacySse: true });
});

afterAll(async () => {
  await http.close();
  await httpServer.close();
});

const scenarios: Scenario[] = [
  {
    name: 'v1 client over Streamable HTTP (stateful session)',
    era: 'legacy',
    revision: '2025-11-25',
    async connect() {
      return (await connectV1(new StreamableHttpV1(new URL(http.url)))).peer;
    },
  },
  {
    name: 'v1 client over the deprecated HTTP+SSE transport (enableLegacySse)',
    era: 'legacy',
    revision: '2025-11-25',
    progressRace: SDK_PROGRESS_RACE,
    async connect() {
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the deprecated transport is the point
      const sse = new SSEClientTransport(new URL(http.url.replace(/\/mcp$/, '/sse')));
      return (await connectV1(sse)).peer;
    },
  },
  {
    name: 'v1 client over stdio (mcpkit server in a child process, from dist/)',
    era: 'legacy',
    revision: '2025-11-25',
    needsDist: true,
    progressRace: SDK_PROGRESS_RACE,
    async connect() {
      const stdio = new StdioClientTransport({
        command: process.execPath,
        args: [STDIO_SERVER],
        stderr: 'pipe',
      });
      return (await connectV1(stdio)).peer;
    },
  },
  {
    name: 'v2 client over Streamable HTTP, legacy (default negotiation)',
    era: 'legacy',
    revision: '2025-11-25',
    async connect() {
      const { client, peer } = await connectV2(new StreamableHttpV2(new URL(http.url)), false);
      expect(client.getProtocolEra()).toBe('legacy');
      return peer;
    },
  },
  {
    name: 'v2 client over Streamable HTTP, 2026-07-28 (versionNegotiation auto)',
    era: 'modern',
    revision: '2026-07-28',
    async connect() {
      const { client, peer } = await connectV2(new StreamableHttpV2(new URL(http.url)), true);
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      return peer;
    },
  },
  {
    name: 'v2 client over stdio, 2026-07-28 (mcpkit server in a child process, from dist/)',
    era: 'modern',
    revision: '2026-07-28',
    needsDist: true,
    progressRace: SDK_PROGRESS_RACE,
    async connect() {
      const stdio = new StdioV2({
        command: process.execPath,
        args: [STDIO_SERVER],
        stderr: 'pipe',
      });
      const { client, peer } = await connectV2(stdio, true);
      expect(client.getProtocolEra()).toBe('modern');
      return peer;
    },
  },
];

for (const scenario of scenarios) {
  const skipped = scenario.needsDist === true && !hasDist;
  const title = skipped
    ? `${scenario.name} (skipped: dist/ is missing, run npm run build)`
    : scenario.name;
  (skipped ? describe.skip : describe)(title, () => {
    let peer: Peer;
    beforeAll(async () => {
      peer = await scenario.connect();
    });
    afterAll(async () => {
      await peer.close();
    });
    it(`is served as ${scenario.era} ${scenario.revision}`, async () => {
      const seen = textOf(await peer.callTool('revision', {}));
      expect(seen).toBe(`${scenario.era} ${scenario.revision}`);
    });

    it('lists the tools', async () => {
      expect(await peer.listTools()).toEqual([
        'echo',
        'revision',
        'add',
        'progress',
        'elicit',
        'wait-for-cancel',
        'cancelled',
        'route',
      ]);
    });

    it('mirrors x-mcp-header arguments into headers the server checks (2026-07-28 HTTP)', async () => {
      const text = textOf(await peer.callTool('route', { region: 'Zürich' }));
      // Only a 2026-07-28 request over HTTP carries Mcp-Param-*; mcpkit checks it against the body.
      const http = scenario.name.includes('Streamable HTTP');
      const header = scenario.era === 'modern' && http ? '=?base64?WsO8cmljaA==?=' : 'none';
      expect(text).toBe(`route: Zürich (header: ${header})`);
    });

    it('calls a tool', async () => {
      const result = await peer.callTool('add', { a: 2, b: 40 });
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toBe('42');
      expect(textOf(await peer.callTool('echo', { text: 'héllo 😀' }))).toBe('echo: héllo 😀');
    });

    it('delivers progress notifications to the official client', async () => {
      const seen: number[] = [];
      const start = peer.wire.length;
      const result = await peer.callTool(
        'progress',
        { steps: 3 },
        { onProgress: (p) => seen.push(p) },
      );
      expect(textOf(result)).toBe('done after 3 steps');
      // On the wire: three progress notifications, in order, all before the response.
      const arrived = peer.wire.slice(start) as { method?: string; params?: any; result?: any }[];
      const progress = arrived.filter((m) => m.method === 'notifications/progress');
      expect(progress.map((m) => [m.params.progress, m.params.total, m.params.message])).toEqual([
        [1, 3, 'step 1'],
        [2, 3, 'step 2'],
        [3, 3, 'step 3'],
      ]);
      const response = arrived.findIndex((m) => m.result !== undefined);
      expect(arrived.indexOf(progress[2]!)).toBeLessThan(response);
      if (scenario.progressRace === undefined) expect(seen).toEqual([1, 2, 3]);
      else expect([1, 2, 3].slice(0, seen.length)).toEqual(seen);
    });

    it("has the official client's handler answer an elicitation", async () => {
      const before = peer.elicitations.length;
      const start = peer.wire.length;
      const result = await peer.callTool('elicit', {});
      expect(textOf(result)).toBe('Hello, Ada!');
      expect(peer.elicitations.slice(before)).toEqual([{ message: 'What is your name?' }]);
      // Legacy: a server-to-client request; 2026-07-28: an input_required result, then a retry.
      const arrived = peer.wire.slice(start) as { method?: string; result?: any }[];
      if (scenario.era === 'modern') {
        expect(arrived.some((m) => m.result?.resultType === 'input_required')).toBe(true);
        expect(arrived.some((m) => m.method === 'elicitation/create')).toBe(false);
      } else {
        expect(arrived.some((m) => m.method === 'elicitation/create')).toBe(true);
      }
    });

    it('reads a resource', async () => {
      const result = await peer.readResource('interop://greeting');
      expect(result.contents).toEqual([
        { uri: 'interop://greeting', mimeType: 'text/plain', text: 'Hello from mcpkit' },
      ]);
    });

    it('gets a prompt', async () => {
      const result = await peer.getPrompt('greet', { who: 'Ada' });
      expect(result.messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Please greet Ada.' } },
      ]);
    });

    it('aborts the handler when the official client cancels', async () => {
      const key = `${scenario.name}-${String(Date.now())}`;
      const controller = new AbortController();
      const call = peer.callTool(
        'wait-for-cancel',
        { key },
        {
          onProgress: () => {
            controller.abort(new Error('the test cancelled'));
          },
          signal: controller.signal,
        },
      );
      await expect(call).rejects.toThrow(/the test cancelled/);
      expect(textOf(await peer.callTool('cancelled', { key }))).toBe(`cancelled: ${key}`);
    });

    it('returns isError for arguments that fail the input schema', async () => {
      const result = await peer.callTool('add', { a: 'two', b: 2 });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/a: expected number, received string "two"/);
    });
  });
}

if (!hasDist) {
  console.warn('test/interop: dist/ is missing (run `npm run build`); stdio scenarios are skipped');
}
