// The recorder's providers (the tracer and histogram are made once per provider, the global
// meter provider re-read per operation) and the recording options, with the real SDK: a server
// and a client over an in-memory pair. The conventions across transports and processes are
// tested in otel.test.ts.
import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '../../src/client/index.js';
import { serverTelemetry } from '../../src/ext/otel/index.js';
import { McpServer } from '../../src/server/index.js';
import { createMemoryPair } from '../../src/transports/memory.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((close) => close()));
  metrics.disable();
});

type Point = { attributes: Record<string, unknown>; value: { count: number } };

function meters(): { provider: MeterProvider; counts: () => Promise<Map<string, number>> } {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const provider = new MeterProvider({ readers: [reader] });
  cleanups.push(() => provider.shutdown());
  const counts = async (): Promise<Map<string, number>> => {
    await reader.forceFlush();
    const points = (exporter.getMetrics().at(-1)?.scopeMetrics ?? [])
      .flatMap((scope) => scope.metrics)
      .filter((m) => m.descriptor.name === 'mcp.server.operation.duration')
      .flatMap((m) => m.dataPoints as unknown[]) as Point[];
    const byName = new Map<string, number>();
    for (const point of points) {
      const { attributes } = point;
      const name = [attributes['mcp.method.name'], attributes['gen_ai.tool.name']]
        .concat(attributes['error.type'])
        .map(String)
        .join(' ');
      byName.set(name, (byName.get(name) ?? 0) + point.value.count);
    }
    return byName;
  };
  return { provider, counts };
}

async function served(options: Parameters<typeof serverTelemetry>[0]): Promise<Client> {
  const server = new McpServer({ name: 's', version: '1' });
  const inputSchema = { type: 'object', properties: { message: { type: 'string' } } } as const;
  server.tool({ name: 'echo', inputSchema }, () => 'echoed');
  server.tool({ name: 'broken' }, () => ({
    content: [{ type: 'text', text: 'no' }],
    isError: true,
  }));
  const middleware = serverTelemetry(options);
  if (middleware === undefined) throw new Error('the API is installed');
  server.use(middleware);
  const [a, b] = createMemoryPair();
  await server.connect(b);
  const client = new Client({ name: 'c', version: '1' }, { mode: { pin: '2026-07-28' } });
  await client.connect(a);
  cleanups.push(() => client.close());
  return client;
}

describe('the recorder', () => {
  it('uses a meter provider registered after the middleware was made', async () => {
    const client = await served({});
    await client.callTool('echo');
    const { provider, counts } = meters();
    metrics.setGlobalMeterProvider(provider);
    await client.callTool('echo');
    await client.callTool('echo');
    await client.callTool('broken');
    const seen = await counts();
    expect(seen.get('tools/call echo undefined')).toBe(2);
    expect(seen.get('tools/call broken tool_error')).toBe(1);
  });

  it('records arguments and results when asked, and classifies isError', async () => {
    const spans = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(spans)],
    });
    const { provider, counts } = meters();
    const client = await served({
      tracerProvider,
      meterProvider: provider,
      toolArguments: true,
      toolResults: true,
    });
    await client.callTool('echo', { message: 'hi' });
    await client.callTool('broken');
    await client.callTool('echo', { message: 'again' });
    const finished = spans.getFinishedSpans().filter((s) => s.name.startsWith('tools/call'));
    expect(finished.map((s) => s.name)).toEqual([
      'tools/call echo',
      'tools/call broken',
      'tools/call echo',
    ]);
    const [first, broken, again] = finished;
    expect(first?.attributes['gen_ai.tool.call.arguments']).toBe('{"message":"hi"}');
    expect(first?.attributes['gen_ai.tool.call.result']).toContain('echoed');
    expect(first?.attributes['error.type']).toBeUndefined();
    expect(again?.attributes['gen_ai.tool.call.arguments']).toBe('{"message":"again"}');
    expect(again?.attributes['jsonrpc.request.id']).not.toBe(
      first?.attributes['jsonrpc.request.id'],
    );
    expect(broken?.attributes['error.type']).toBe('tool_error');
    expect(broken?.attributes['gen_ai.tool.call.result']).toBeUndefined();
    expect(broken?.status.code).toBe(2); // ERROR
    const seen = await counts();
    expect(seen.get('tools/call echo undefined')).toBe(2);
    expect(seen.get('tools/call broken tool_error')).toBe(1);
  });
});
