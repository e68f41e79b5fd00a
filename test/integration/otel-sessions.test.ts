// mcpkit/otel beyond the spans of each request, with the real OpenTelemetry SDK: the session
// durations of legacy sessions (and none for 2026-07-28), the activity gauges (sessions open,
// requests in flight), W3C trace context on the HTTP requests (tracingFetch) and read from them
// by the server when `_meta` has none (httpTraceContext), the gateway's upstream health, and the
// host's spans (`chat {model}` around a model call, `invoke_agent` around a run).
import { SpanKind } from '@opentelemetry/api';
import type { MetricData } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { useOtelSdk } from '../helpers/otel-sdk.js';
import { Client } from '../../src/client/index.js';
import {
  agentSpan,
  countedTasks,
  gatewayHealth,
  instrument,
  tracedModel,
  tracingFetch,
} from '../../src/ext/otel/index.js';
import { McpServer } from '../../src/server/index.js';
import type { TaskRecord } from '../../src/ext/tasks/index.js';
import { MemoryTaskStore } from '../../src/ext/tasks/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import { listen } from '../../src/transports/http/node.js';

const { spans, meterProvider, cleanups, metrics: sdkMetrics } = useOtelSdk();

async function metric(name: string): Promise<MetricData | undefined> {
  return (await sdkMetrics()).find((m) => m.descriptor.name === name);
}

/** The data points of a histogram: attributes and count. */
async function histogram(name: string) {
  const found = await metric(name);
  return (found?.dataPoints ?? []).map((point) => ({
    attributes: point.attributes,
    count: (point.value as { count: number }).count,
  }));
}

/** The value of a sum or gauge for the points whose attributes include `match`. */
async function sumOf(name: string, match: Record<string, unknown> = {}): Promise<number> {
  const found = await metric(name);
  return (found?.dataPoints ?? [])
    .filter((point) => Object.entries(match).every(([k, v]) => point.attributes[k] === v))
    .reduce((total, point) => total + (point.value as number), 0);
}

async function served(headersSeen?: (headers: Record<string, string>) => void) {
  const server = new McpServer({ name: 'otel-sessions', version: '1.0.0' });
  if (headersSeen !== undefined) {
    server.use((ctx, next) => {
      headersSeen({ ...ctx.transport?.headers });
      return next();
    });
  }
  instrument(server, { meterProvider, activity: true });
  server.tool({ name: 'echo' }, () => 'echoed');
  const running = await listen(() => server);
  cleanups.push(() => running.close());
  return running;
}

describe('session durations', () => {
  it('records one server and one client session for a legacy session, ended by close', async () => {
    const before = {
      server: (await histogram('mcp.server.session.duration')).length,
      client: (await histogram('mcp.client.session.duration')).length,
    };
    expect(before).toEqual({ server: 0, client: 0 });
    const running = await served();
    const client = new Client({ name: 't', version: '1' }, { mode: { pin: '2025-11-25' } });
    instrument(client, { meterProvider });
    await client.connect(createStreamableHttpClientTransport(running.url));
    expect(await sumOf('mcpkit.server.active_sessions')).toBe(1);
    await client.callTool('echo', {});
    expect(await sumOf('mcpkit.server.active_requests')).toBe(0);
    await client.close();
    // The server hears of the session's end when the client's DELETE arrives.
    await expect.poll(async () => (await histogram('mcp.server.session.duration')).length).toBe(1);
    const [server] = await histogram('mcp.server.session.duration');
    expect(server?.count).toBe(1);
    expect(server?.attributes).toMatchObject({
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
    });
    const [clientSide] = await histogram('mcp.client.session.duration');
    expect(clientSide?.count).toBe(1);
    expect(clientSide?.attributes).toMatchObject({
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'tcp',
      'server.address': '127.0.0.1',
    });
    expect(await sumOf('mcpkit.server.active_sessions')).toBe(0);
  });

  it('records no session for 2026-07-28, which has none', async () => {
    const running = await served();
    const client = new Client({ name: 't', version: '1' }, { mode: { pin: '2026-07-28' } });
    instrument(client, { meterProvider });
    await client.connect(createStreamableHttpClientTransport(running.url));
    await client.callTool('echo', {});
    await client.close();
    const counts = await histogram('mcp.client.session.duration');
    const modern = counts.filter((p) => p.attributes['mcp.protocol.version'] === '2026-07-28');
    expect(modern).toEqual([]);
  });
});

describe('W3C trace context on HTTP', () => {
  it('tracingFetch writes traceparent into each POST: the client span, as in _meta', async () => {
    const seen: Record<string, string>[] = [];
    const running = await served((headers) => seen.push(headers));
    const client = new Client({ name: 't', version: '1' }, { mode: { pin: '2026-07-28' } });
    instrument(client, { meterProvider });
    await client.connect(
      createStreamableHttpClientTransport(running.url, { fetch: tracingFetch() }),
    );
    await client.callTool('echo', {});
    await client.close();
    const call = spans
      .getFinishedSpans()
      .find((s) => s.name === 'tools/call echo' && s.kind === SpanKind.CLIENT);
    const header = seen.find((h) => h['mcp-method'] === 'tools/call')?.['traceparent'];
    const { traceId, spanId } = call?.spanContext() ?? {};
    expect(header).toBe(`00-${traceId ?? ''}-${spanId ?? ''}-01`);
  });

  it('the server span is a child of the traceparent header when _meta has none', async () => {
    const running = await served();
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = '00f067aa0ba902b7';
    const response = await fetch(running.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        traceparent: `00-${traceId}-${parent}-01`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    });
    expect(response.status).toBe(200);
    await response.text();
    const span = spans
      .getFinishedSpans()
      .find((s) => s.name === 'initialize' && s.kind === SpanKind.SERVER);
    expect(span?.spanContext().traceId).toBe(traceId);
    expect(span?.parentSpanContext?.spanId).toBe(parent);
  });
});

describe('gateway upstream health', () => {
  it('observes 1 for a ready upstream, 0 for one down, by name', async () => {
    const upstreams = [
      { name: 'a', state: 'ready', transport: 'stdio' },
      { name: 'b', state: 'down', transport: 'http' },
    ];
    const stop = gatewayHealth({ status: () => ({ upstreams }) }, meterProvider);
    try {
      const name = 'mcpkit.gateway.upstream.up';
      expect(await sumOf(name, { 'mcpkit.upstream.name': 'a' })).toBe(1);
      expect(await sumOf(name, { 'mcpkit.upstream.name': 'b' })).toBe(0);
      upstreams[1] = { name: 'b', state: 'ready', transport: 'http' };
      expect(await sumOf(name, { 'mcpkit.upstream.name': 'b' })).toBe(1);
    } finally {
      stop?.();
    }
  });
});

describe('tasks by status', () => {
  it('counts the tasks the wrapped store created and updated, by status, the expired left out', async () => {
    const store = countedTasks(new MemoryTaskStore(), meterProvider);
    const record = (taskId: string, status: string, expiresAt?: number) =>
      ({
        taskId,
        status,
        owner: undefined,
        expiresAt,
        createdAt: new Date().toISOString(),
        lastUpdatedAt: new Date().toISOString(),
        ttl: null,
      }) as unknown as TaskRecord;
    await store.create(record('a', 'working'));
    await store.create(record('b', 'working'));
    await store.create(record('c', 'working', Date.now() - 1));
    await store.put(record('b', 'completed'));
    const name = 'mcpkit.server.tasks';
    expect(await sumOf(name, { 'mcpkit.task.status': 'working' })).toBe(1);
    expect(await sumOf(name, { 'mcpkit.task.status': 'completed' })).toBe(1);
    expect((await store.get('a'))?.status).toBe('working'); // the store's own methods, as they were
  });
});

describe('host spans', () => {
  it('chat {model} around each model call, children of invoke_agent with the tool calls', async () => {
    const adapter = {
      provider: 'anthropic' as const,
      maxTools: 64,
      complete: (request: { model: string }) =>
        Promise.resolve({
          content: [],
          stopReason: 'end' as const,
          model: `${request.model}-20260101`,
          usage: { inputTokens: 12, outputTokens: 3 },
        }),
    };
    const traced = tracedModel(adapter);
    expect(traced.maxTools).toBe(64);
    await agentSpan({ name: 'tester', provider: 'anthropic', model: 'm1' }, async () => {
      await traced.complete({ model: 'm1' });
      await traced.complete({ model: 'm1' });
    });
    const finished = spans.getFinishedSpans();
    const agent = finished.find((s) => s.name === 'invoke_agent tester');
    const chats = finished.filter((s) => s.name === 'chat m1');
    expect(agent?.parentSpanContext).toBeUndefined();
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      expect(chat.kind).toBe(2); // CLIENT
      expect(chat.parentSpanContext?.spanId).toBe(agent?.spanContext().spanId);
      expect(chat.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'anthropic',
        'gen_ai.request.model': 'm1',
        'gen_ai.response.model': 'm1-20260101',
        'gen_ai.usage.input_tokens': 12,
        'gen_ai.usage.output_tokens': 3,
      });
    }
  });

  it('a failed model call sets error.type (the HTTP status) and ERROR', async () => {
    const failing: { provider: string; complete(request: { model: string }): Promise<never> } = {
      provider: 'openai',
      complete: () => Promise.reject(Object.assign(new Error('rate limited'), { status: 429 })),
    };
    await expect(tracedModel(failing).complete({ model: 'm2' })).rejects.toThrow('rate limited');
    const span = spans.getFinishedSpans().find((s) => s.name === 'chat m2');
    expect(span?.attributes['error.type']).toBe('429');
    expect(span?.status).toMatchObject({ code: 2, message: 'rate limited' });
  });
});
