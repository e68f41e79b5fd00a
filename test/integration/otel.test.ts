// mcpkit/otel with the real OpenTelemetry SDK (in-memory span exporter, W3C propagators,
// AsyncLocalStorage context): a client and a server traced by the MCP semantic conventions over
// Streamable HTTP (both in this process) and stdio (the server a child process that writes its
// spans to a file), in both eras: span names and kinds, attributes, the server span a child of
// the client span, isError -> tool_error, a JSON-RPC error -> its code, the duration histograms.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useOtelSdk } from '../helpers/otel-sdk.js';
import { Client } from '../../src/client/index.js';
import { instrument } from '../../src/ext/otel/index.js';
import type { ProtocolRevision } from '../../src/protocol/version.js';
import { McpServer } from '../../src/server/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import { listen } from '../../src/transports/http/node.js';
import { createStdioClientTransport } from '../../src/transports/stdio/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = join(ROOT, 'test/fixtures/otel-stdio-server.mjs');
const hasDist = existsSync(join(ROOT, 'dist/esm/src/ext/otel/index.js'));
if (!hasDist) console.log('mcpkit/otel over stdio: skipped, dist/ is missing (npm test builds it)');

const ERAS = [
  ['legacy', '2025-11-25'],
  ['modern', '2026-07-28'],
] as const;
const SERVER = 1; // SpanKind.SERVER
const CLIENT = 2; // SpanKind.CLIENT

const { spans, meterProvider, cleanups, metrics: sdkMetrics } = useOtelSdk();

function tracedServer(): McpServer {
  const server = new McpServer({ name: 'otel', version: '1.0.0' });
  instrument(server, { meterProvider });
  server.tool({ name: 'echo' }, () => 'echoed');
  server.tool({ name: 'broken' }, () => {
    throw new Error('it broke');
  });
  server.tool({ name: 'ask' }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      mode: 'form',
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    return answer.action;
  });
  return server;
}

function tracedClient(revision: ProtocolRevision): Client {
  const client = new Client(
    { name: 'otel-test', version: '1.0.0' },
    { mode: { pin: revision }, onElicit: () => ({ action: 'accept', content: { name: 'Ada' } }) },
  );
  instrument(client, { meterProvider });
  cleanups.push(() => client.close());
  return client;
}

async function overHttp(revision: ProtocolRevision): Promise<Client> {
  const server = tracedServer();
  const running = await listen(() => server);
  const client = tracedClient(revision);
  await client.connect(createStreamableHttpClientTransport(running.url));
  cleanups.push(() => running.close());
  return client;
}

/** Calls the tools under a span of the test's own, the way a host would. */
async function exercise(client: Client): Promise<string> {
  await client.listTools();
  const tracer = trace.getTracer('test');
  return await tracer.startActiveSpan('host turn', async (span) => {
    expect((await client.callTool('echo')).isError).toBeFalsy();
    expect((await client.callTool('broken')).isError).toBe(true);
    await expect(client.getPrompt('nope')).rejects.toThrow();
    span.end();
    return span.spanContext().spanId;
  });
}

type Seen = {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  attributes: Record<string, unknown>;
  status: { code: number; message?: string };
};

function seen(span: ReadableSpan): Seen {
  return {
    name: span.name,
    kind: span.kind,
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    attributes: span.attributes,
    status: span.status,
  };
}

function one(list: Seen[], name: string, kind: number): Seen {
  const found = list.filter((s) => s.name === name && s.kind === kind);
  expect(found, `${name} (kind ${String(kind)})`).toHaveLength(1);
  return found[0] as Seen;
}

/** The client and server spans of the three calls: names, kinds, parents, classification. */
function checkCalls(all: Seen[], hostSpanId: string, revision: string, transport: string): void {
  const client = one(all, 'tools/call echo', CLIENT);
  const server = one(all, 'tools/call echo', SERVER);
  expect(client.parentSpanId).toBe(hostSpanId);
  expect(server.traceId).toBe(client.traceId);
  expect(server.parentSpanId).toBe(client.spanId);
  for (const span of [client, server]) {
    expect(span.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'echo',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': revision,
      'network.transport': transport,
    });
    expect(span.attributes['jsonrpc.request.id']).toMatch(/^\d+$/);
    expect(span.attributes['error.type']).toBeUndefined();
    expect(span.status.code).not.toBe(2);
  }
  for (const kind of [CLIENT, SERVER]) {
    const broken = one(all, 'tools/call broken', kind);
    expect(broken.attributes['error.type']).toBe('tool_error');
    expect(broken.status.code).toBe(2); // ERROR
    const prompt = one(all, 'prompts/get nope', kind);
    expect(prompt.attributes).toMatchObject({
      'error.type': '-32602',
      'rpc.response.status_code': '-32602',
      'gen_ai.prompt.name': 'nope',
    });
    expect(prompt.status.code).toBe(2);
    expect(prompt.status.message).toMatch(/nope/);
  }
}

/**
 * An elicitation inside a tool call. Legacy: the server's CLIENT span of elicitation/create is
 * a child of its tools/call span, and the client's SERVER span of it a child of that.
 * 2026-07-28: the question comes in an input_required result; the call is two rounds, each a
 * client span with its server span as a child.
 */
async function checkElicitation(client: Client, era: string, child: () => Seen[]): Promise<void> {
  spans.reset();
  expect((await client.callTool('ask')).content).toEqual([{ type: 'text', text: 'accept' }]);
  await client.close();
  const all = [...spans.getFinishedSpans().map(seen), ...child()];
  const calls = all.filter((s) => s.name === 'tools/call ask' && s.kind === CLIENT);
  const served = all.filter((s) => s.name === 'tools/call ask' && s.kind === SERVER);
  if (era === 'legacy') {
    expect(calls).toHaveLength(1);
    expect(served).toHaveLength(1);
    const asked = one(all, 'elicitation/create', CLIENT);
    const answered = one(all, 'elicitation/create', SERVER);
    expect(served[0]?.parentSpanId).toBe(calls[0]?.spanId);
    expect(asked.parentSpanId).toBe(served[0]?.spanId);
    expect(answered.parentSpanId).toBe(asked.spanId);
    expect(new Set([asked, answered, ...calls, ...served].map((s) => s.traceId)).size).toBe(1);
  } else {
    expect(calls).toHaveLength(2);
    expect(served.map((s) => s.parentSpanId).sort()).toEqual(calls.map((s) => s.spanId).sort());
  }
}

describe.each(ERAS)('mcpkit/otel over Streamable HTTP (%s)', (era, revision) => {
  it('an elicitation inside a tool call is a child span', async () => {
    const client = await overHttp(revision);
    await client.listTools();
    await checkElicitation(client, era, () => []);
  });

  it('traces client -> server as one tree, by the conventions', async () => {
    const client = await overHttp(revision);
    const host = await exercise(client);
    const all = spans.getFinishedSpans().map(seen);
    checkCalls(all, host, revision, 'tcp');
    const call = one(all, 'tools/call echo', CLIENT);
    expect(call.attributes['server.address']).toBe('127.0.0.1');
    expect(typeof call.attributes['server.port']).toBe('number');
    expect(call.attributes['network.protocol.name']).toBe('http');
    if (era === 'legacy') {
      const session = call.attributes['mcp.session.id'];
      expect(typeof session).toBe('string');
      expect(one(all, 'tools/call echo', SERVER).attributes['mcp.session.id']).toBe(session);
      one(all, 'initialize', CLIENT);
      one(all, 'initialize', SERVER);
      one(all, 'notifications/initialized', CLIENT);
    } else {
      one(all, 'server/discover', SERVER);
    }
  });

  it('records the duration histograms', async () => {
    const client = await overHttp(revision);
    await exercise(client);
    const metrics = await sdkMetrics();
    const names = metrics.map((m) => m.descriptor.name);
    expect(names).toContain('mcp.server.operation.duration');
    expect(names).toContain('mcp.client.operation.duration');
    const server = metrics.find((m) => m.descriptor.name === 'mcp.server.operation.duration');
    expect(server?.descriptor.unit).toBe('s');
    const points = (server?.dataPoints ?? []) as {
      attributes: Record<string, unknown>;
      value: { count: number };
    }[];
    const failed = points.find(
      (p) =>
        p.attributes['gen_ai.tool.name'] === 'broken' &&
        p.attributes['mcp.protocol.version'] === revision,
    );
    expect(failed?.attributes['error.type']).toBe('tool_error');
    expect(failed?.value.count).toBeGreaterThanOrEqual(1);
    expect(failed?.attributes['jsonrpc.request.id']).toBeUndefined();
  });
});

describe.skipIf(!hasDist).each(ERAS)('mcpkit/otel over stdio (%s)', (era, revision) => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcpkit-otel-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('the child server span is a child of the client span, across processes', async () => {
    const file = join(dir, `${revision}.jsonl`);
    const client = tracedClient(revision);
    await client.connect(
      createStdioClientTransport({ command: process.execPath, args: [FIXTURE, file] }),
    );
    const host = await exercise(client);
    await client.close();
    const child = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Seen);
    const all = [...spans.getFinishedSpans().map(seen), ...child];
    checkCalls(all, host, revision, 'pipe');
  });

  it('an elicitation inside a tool call is a child span, across processes', async () => {
    const file = join(dir, `${revision}-ask.jsonl`);
    const client = tracedClient(revision);
    await client.connect(
      createStdioClientTransport({ command: process.execPath, args: [FIXTURE, file] }),
    );
    await client.listTools();
    await checkElicitation(client, era, () => readSpans(file));
  });
});

function readSpans(file: string): Seen[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Seen);
}
