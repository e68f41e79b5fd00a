// mcpkit's Client against official servers, over real child processes and real sockets on
// 127.0.0.1: @modelcontextprotocol/server-everything (v1 SDK) over stdio and Streamable HTTP, a
// small official v2 server served by createMcpHandler in both eras, and a small official v1 server
// with stateful Streamable HTTP sessions. Every scenario connects once with mcpkit's default
// negotiation (or a pinned revision) and runs each feature through mcpkit's public API.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../src/client/index.js';
import type { CallToolResult, ClientOptions, ElicitParams } from '../../src/client/index.js';
import type { Transport } from '../../src/jsonrpc/transport.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import { createStdioClientTransport } from '../../src/transports/stdio/index.js';
import type { Cancellations } from './fixtures/cancellations.js';
import { startOfficialV1Server } from './fixtures/official-v1-server.js';
import type { OfficialServer } from './fixtures/official-v1-server.js';
import { startOfficialV2Server } from './fixtures/official-v2-server.js';

const require = createRequire(import.meta.url);
const EVERYTHING = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);
const LOOPBACK_ONLY = new URL('./fixtures/loopback-only.mjs', import.meta.url).href;

/** How one official server names the things every scenario exercises. */
interface Target {
  /** Tools the listing must include. */
  tools: string[];
  echo: { args: Record<string, unknown>; text: string };
  /** A call that reports progress three times (1, 2, 3 of 3) before answering. */
  progress: { name: string; args: Record<string, unknown>; text: RegExp };
  /** A call that elicits; `text` is what the tool answers once mcpkit's handler accepted. */
  elicit: { name: string; text: RegExp };
  resource: { uri: string; text: RegExp };
  /** A call that reports progress, then runs until cancelled. */
  cancel: { name: string; args: (key: string) => Record<string, unknown> };
  /** Where the server records that a call's abort signal fired, when the test can see it. */
  cancellations?: Cancellations;
  /** A call whose arguments fail the tool's input schema. */
  invalid: { name: string; args: Record<string, unknown> };
  /** The server has `route`, whose `region` has `x-mcp-header: Region` (SEP-2243). */
  route?: true;
}

/** A server under test, started. */
interface Started {
  transport: () => Transport;
  target: Target;
  close: () => Promise<void>;
}

interface Scenario {
  name: string;
  era: 'legacy' | 'modern';
  revision: string;
  mode?: ClientOptions['mode'];
  start(): Promise<Started>;
  /** Features the official server cannot do here, with the reason. */
  skip?: { elicitation?: string };
}

const EVERYTHING_TARGET: Target = {
  tools: ['echo', 'get-sum', 'trigger-long-running-operation', 'trigger-elicitation-request'],
  echo: { args: { message: 'héllo 😀' }, text: 'Echo: héllo 😀' },
  progress: {
    name: 'trigger-long-running-operation',
    args: { duration: 0.03, steps: 3 },
    text: /Long running operation completed/,
  },
  elicit: { name: 'trigger-elicitation-request', text: /- Name: Ada/ },
  resource: { uri: 'demo://resource/static/document/features.md', text: /Tools/ },
  // Progress every 100 ms for 5 s: long enough to be cancelled after the first report.
  cancel: { name: 'trigger-long-running-operation', args: () => ({ duration: 5, steps: 50 }) },
  invalid: { name: 'get-sum', args: { a: 'two', b: 2 } },
};

function officialTarget(server: OfficialServer, greeting: RegExp): Target {
  return {
    tools: ['echo', 'progress', 'elicit', 'wait-for-cancel'],
    echo: { args: { text: 'héllo 😀' }, text: 'echo: héllo 😀' },
    progress: { name: 'progress', args: { steps: 3 }, text: /^done after 3 steps$/ },
    elicit: { name: 'elicit', text: /^Hello, Ada!$/ },
    resource: { uri: 'official://greeting', text: greeting },
    cancel: { name: 'wait-for-cancel', args: (key) => ({ key }) },
    cancellations: server.cancellations,
    invalid: { name: 'echo', args: { text: 42 } },
  };
}

/** Spawns server-everything over Streamable HTTP, bound to 127.0.0.1 by the preload. */
async function startEverythingHttp(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', LOOPBACK_ONLY, EVERYTHING, 'streamableHttp'], {
    env: { PATH: process.env['PATH'] ?? '', PORT: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const address = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      text += chunk;
      const match = /LOOPBACK-LISTENING (\S+)\n/.exec(text);
      if (match !== null) resolve(match[1]!);
    });
    child.once('exit', (code) => {
      reject(new Error(`server-everything exited (${String(code)}) before listening: ${text}`));
    });
  });
  expect(address).toMatch(/^127\.0\.0\.1:\d+$/);
  return { url: `http://${address}/mcp`, child };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => {
      resolve();
    });
    child.kill('SIGTERM');
  });
}

const scenarios: Scenario[] = [
  {
    name: 'server-everything over stdio',
    era: 'legacy',
    revision: '2025-11-25',
    start() {
      return Promise.resolve({
        transport: () =>
          createStdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'] }),
        target: EVERYTHING_TARGET,
        close: () => Promise.resolve(),
      });
    },
  },
  {
    name: 'server-everything over Streamable HTTP (bound to loopback by a preload)',
    era: 'legacy',
    revision: '2025-11-25',
    async start() {
      const { url, child } = await startEverythingHttp();
      return {
        transport: () => createStreamableHttpClientTransport(url),
        target: EVERYTHING_TARGET,
        close: () => stopChild(child),
      };
    },
  },
  {
    name: 'official v2 server (createMcpHandler), auto negotiation',
    era: 'modern',
    revision: '2026-07-28',
    start: startV2,
  },
  {
    name: 'official v2 server (createMcpHandler), pinned 2025-11-25',
    era: 'legacy',
    revision: '2025-11-25',
    mode: { pin: '2025-11-25' },
    skip: {
      elicitation:
        "createMcpHandler's stateless legacy leg cannot send server-to-client requests (isError: 'per-request legacy serving')",
    },
    start: startV2,
  },
  {
    name: 'official v1 server, stateful Streamable HTTP',
    era: 'legacy',
    revision: '2025-11-25',
    async start() {
      const server = await startOfficialV1Server();
      return {
        transport: () => createStreamableHttpClientTransport(server.url),
        target: officialTarget(server, /^Hello from v1$/),
        close: () => server.close(),
      };
    },
  },
];

/** Starts the official v2 server (it has the SEP-2243 `route` tool). */
async function startV2(): Promise<Started> {
  const server = await startOfficialV2Server();
  return {
    transport: () => createStreamableHttpClientTransport(server.url),
    target: { ...officialTarget(server, /^Hello from v2$/), route: true },
    close: () => server.close(),
  };
}

/** Records every message mcpkit's client sends through `transport`. */
function tapSends(transport: Transport): unknown[] {
  const sent: unknown[] = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    sent.push(message);
    return send(message, options);
  };
  return sent;
}

function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

for (const scenario of scenarios) {
  describe(`mcpkit client → ${scenario.name}`, () => {
    let client: Client;
    let target: Target;
    let close: () => Promise<void>;
    const elicitations: ElicitParams[] = [];
    const errors: Error[] = [];
    let sent: unknown[] = [];

    beforeAll(async () => {
      const started = await scenario.start();
      target = started.target;
      close = started.close;
      client = new Client(
        { name: 'mcpkit-interop', version: '1.0.0' },
        {
          ...(scenario.mode && { mode: scenario.mode }),
          onElicit: (params) => {
            elicitations.push(params);
            return { action: 'accept', content: { name: 'Ada' } };
          },
          onError: (error) => errors.push(error),
        },
      );
      const transport = started.transport();
      sent = tapSends(transport);
      await client.connect(transport);
    });

    afterAll(async () => {
      await client.close();
      await close();
    });

    it(`negotiates ${scenario.era} ${scenario.revision}`, () => {
      expect([client.era, client.revision]).toEqual([scenario.era, scenario.revision]);
    });

    it('lists the tools', async () => {
      const names = (await client.listTools()).map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(target.tools));
    });

    it('calls a tool', async () => {
      const result = await client.callTool('echo', target.echo.args);
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toBe(target.echo.text);
    });

    it('mirrors x-mcp-header arguments into Mcp-Param-* headers', async () => {
      if (target.route === undefined) return;
      const names = (await client.listTools()).map((tool) => tool.name);
      expect(names).toContain('route');
      // The official v2 server checks Mcp-Param-Region against the body in 2026-07-28.
      for (const region of ['eu-west1', ' Zürich ']) {
        const result = await client.callTool('route', { region });
        expect(result.isError).toBeFalsy();
        expect(textOf(result)).toBe(`route: ${region}`);
      }
    });

    it('receives progress notifications', async () => {
      const seen: [number, number | undefined][] = [];
      const { name, args, text } = target.progress;
      const result = await client.callTool(name, args, {
        onProgress: (progress, total) => seen.push([progress, total]),
      });
      expect(textOf(result)).toMatch(text);
      expect(seen).toEqual([
        [1, 3],
        [2, 3],
        [3, 3],
      ]);
    });

    (scenario.skip?.elicitation === undefined ? it : it.skip)(
      "answers the server's elicitation with the client's handler",
      async () => {
        const before = elicitations.length;
        const start = sent.length;
        const result = await client.callTool(target.elicit.name, {});
        expect(textOf(result)).toMatch(target.elicit.text);
        expect(elicitations.length).toBe(before + 1);
        expect(elicitations[before]).toMatchObject({ requestedSchema: { type: 'object' } });
        // Legacy: mcpkit answered a server-to-client request. 2026-07-28: it retried the call
        // with the answer under the key the server chose, and the server's state echoed.
        const ours = sent.slice(start) as { method?: string; params?: any; result?: any }[];
        if (scenario.era === 'modern') {
          const retry = ours.filter((m) => m.method === 'tools/call')[1];
          expect(retry?.params).toMatchObject({
            inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } },
          });
        } else {
          expect(ours).toContainEqual(
            expect.objectContaining({ result: expect.objectContaining({ action: 'accept' }) }),
          );
        }
      },
    );

    it('reads a resource', async () => {
      const { contents } = await client.readResource(target.resource.uri);
      expect(contents).toHaveLength(1);
      expect(contents[0]).toMatchObject({ uri: target.resource.uri });
      expect((contents[0] as { text?: string }).text).toMatch(target.resource.text);
    });

    it('cancels a call and keeps the connection usable', async () => {
      const key = `${scenario.name}-${String(Date.now())}`;
      const controller = new AbortController();
      const reason = new Error('the test cancelled');
      const start = sent.length;
      const call = client.callTool(target.cancel.name, target.cancel.args(key), {
        signal: controller.signal,
        onProgress: () => {
          controller.abort(reason);
        },
      });
      await expect(call).rejects.toBe(reason);
      // mcpkit tells the server in both eras (2026-07-28 also ends the request's HTTP stream).
      const ours = sent.slice(start) as { method?: string; id?: number | string }[];
      const request = ours.find((m) => m.method === 'tools/call');
      expect(ours).toContainEqual({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: expect.objectContaining({ requestId: request?.id }),
      });
      if (target.cancellations !== undefined) await target.cancellations.cancelled(key);
      expect(textOf(await client.callTool('echo', target.echo.args))).toBe(target.echo.text);
    });

    it('returns isError for arguments that fail the input schema', async () => {
      const result = await client.callTool(target.invalid.name, target.invalid.args);
      expect(result.isError).toBe(true);
    });

    it('reported no stray errors', () => {
      expect(errors).toEqual([]);
    });
  });
}
