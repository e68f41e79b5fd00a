// mcpkit serve --otel: the OpenTelemetry Node SDK in the CLI, its real OTLP/HTTP exporter sending
// to a receiver on 127.0.0.1 in this test. A client in this process (traced with the SDK's
// in-memory exporter) calls `mcpkit serve everything` over stdio: the server span the child
// exports has the client span as its parent, by the conventions' names and attributes.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import process from 'node:process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../src/client/index.js';
import { instrument } from '../../src/ext/otel/index.js';
import { createStdioClientTransport } from '../../src/transports/stdio/index.js';
import { startFakeModel } from '../helpers/fake-model.js';
import { BIN, cli, closedPort, collect, spawnCli, waitFor } from './run-cli.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';

const hasDist = existsSync(BIN);
if (!hasDist) console.log('mcpkit serve --otel: skipped, dist/ is missing (npm test builds it)');

type OtlpSpan = {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: { key: string; value: Record<string, unknown> }[];
};

/** An OTLP/HTTP (JSON) receiver: every span of every POST /v1/traces, with its service. */
async function receiver() {
  const received: { service: string; span: OtlpSpan }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const parsed = JSON.parse(body) as {
          resourceSpans: {
            resource: { attributes: { key: string; value: { stringValue?: string } }[] };
            scopeSpans: { spans: OtlpSpan[] }[];
          }[];
        };
        for (const rs of parsed.resourceSpans) {
          const service =
            rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
          for (const ss of rs.scopeSpans)
            for (const span of ss.spans) received.push({ service, span });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    received,
    close: () =>
      new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      ),
  };
}

const spans = new InMemorySpanExporter();
beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }),
  );
});
afterAll(() => {
  trace.disable();
  propagation.disable();
  context.disable();
});

function attribute(span: OtlpSpan, key: string): unknown {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value === undefined ? undefined : Object.values(value)[0];
}

describe.skipIf(!hasDist)('mcpkit serve --otel', () => {
  it('exports the server spans over OTLP/HTTP, children of the client spans', async () => {
    spans.reset();
    const otlp = await receiver();
    try {
      const client = new Client({ name: 'otel-cli-test', version: '1.0.0' });
      instrument(client);
      await client.connect(
        createStdioClientTransport({
          command: process.execPath,
          args: [BIN, 'serve', 'everything', '--otel', '--quiet'],
          env: {
            ...process.env,
            OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
            OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
            OTEL_SERVICE_NAME: 'everything-under-test',
            OTEL_METRICS_EXPORTER: 'none',
            OTEL_LOGS_EXPORTER: 'none',
          },
          stderr: 'pipe',
        }),
      );
      const result = await client.callTool('echo', { message: 'hi' });
      expect(result.isError).toBeFalsy();
      await client.close(); // the child exits, its SDK flushing on the way out
      const mine = spans.getFinishedSpans().find((s) => s.name === 'tools/call echo');
      expect(mine).toBeDefined();
      await expect
        .poll(() => otlp.received.some((r) => r.span.name === 'tools/call echo'), {
          timeout: 10_000,
        })
        .toBe(true);
      const served = otlp.received.find((r) => r.span.name === 'tools/call echo');
      expect(served?.service).toBe('everything-under-test');
      const span = served?.span as OtlpSpan;
      expect(span.kind).toBe(2); // SPAN_KIND_SERVER
      expect(span.traceId).toBe(mine?.spanContext().traceId);
      expect(span.parentSpanId).toBe(mine?.spanContext().spanId);
      expect(attribute(span, 'mcp.method.name')).toBe('tools/call');
      expect(attribute(span, 'gen_ai.tool.name')).toBe('echo');
      expect(attribute(span, 'network.transport')).toBe('pipe');
    } finally {
      await otlp.close();
    }
  });
});

describe.skipIf(!hasDist)('mcpkit gateway --otel', () => {
  it('one trace: this client -> mcpkit gateway -> mcpkit serve everything', async () => {
    spans.reset();
    const otlp = await receiver();
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
    };
    const dir = mkdtempSync(join(tmpdir(), 'mcpkit-otel-gateway-'));
    const config = join(dir, 'servers.json');
    const upstream = {
      command: process.execPath,
      args: [BIN, 'serve', 'everything', '--otel', '--quiet'],
      env: { ...env, OTEL_SERVICE_NAME: 'upstream' },
    };
    writeFileSync(config, JSON.stringify({ mcpServers: { everything: upstream } }));
    try {
      const client = new Client({ name: 'otel-cli-test', version: '1.0.0' });
      instrument(client);
      await client.connect(
        createStdioClientTransport({
          command: process.execPath,
          args: [BIN, 'gateway', '--config', config, '--otel', '--quiet'],
          env: { ...process.env, ...env, OTEL_SERVICE_NAME: 'gateway' },
          stderr: 'pipe',
        }),
      );
      const echo = (await client.listTools()).find((tool) => tool.name.endsWith('echo'));
      expect(echo).toBeDefined();
      const name = echo?.name ?? '';
      expect((await client.callTool(name, { message: 'hi' })).isError).toBeFalsy();
      await client.close();
      const mine = spans.getFinishedSpans().find((s) => s.name === `tools/call ${name}`);
      const traceId = mine?.spanContext().traceId;
      const inTrace = () => otlp.received.filter((r) => r.span.traceId === traceId);
      await expect
        .poll(() => inTrace().some((r) => r.service === 'upstream'), { timeout: 15_000 })
        .toBe(true);
      const gatewayServer = inTrace().find((r) => r.service === 'gateway' && r.span.kind === 2);
      const gatewayClient = inTrace().find(
        (r) => r.service === 'gateway' && r.span.kind === 3 && r.span.name === 'tools/call echo',
      );
      const upstreamServer = inTrace().find(
        (r) => r.service === 'upstream' && r.span.name === 'tools/call echo',
      );
      expect(gatewayServer?.span.parentSpanId).toBe(mine?.spanContext().spanId);
      expect(gatewayClient?.span.parentSpanId).toBe(gatewayServer?.span.spanId);
      expect(upstreamServer?.span.kind).toBe(2);
      expect(upstreamServer?.span.parentSpanId).toBe(gatewayClient?.span.spanId);
    } finally {
      await otlp.close();
    }
  });
});

describe.skipIf(!hasDist)('mcpkit chat --otel', () => {
  it('one trace: mcpkit chat -> mcpkit gateway -> mcpkit serve pingme (three processes)', async () => {
    const otlp = await receiver();
    const model = await startFakeModel([
      { toolCalls: [{ name: 'PingME' }] },
      (seen) => ({ text: `The magic word is ${seen.results[0]?.text ?? '?'}.` }),
    ]);
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
    };
    const dir = mkdtempSync(join(tmpdir(), 'mcpkit-otel-chat-'));
    const upstream = {
      command: process.execPath,
      args: [BIN, 'serve', 'pingme', '--otel', '--quiet'],
      env: { ...env, OTEL_SERVICE_NAME: 'upstream' },
    };
    writeFileSync(join(dir, 'gateway.json'), JSON.stringify({ mcpServers: { pingme: upstream } }));
    const gateway = {
      command: process.execPath,
      args: [BIN, 'gateway', '--config', join(dir, 'gateway.json'), '--otel', '--quiet'],
      env: { ...env, OTEL_SERVICE_NAME: 'gateway' },
    };
    writeFileSync(join(dir, 'chat.json'), JSON.stringify({ mcpServers: { gw: gateway } }));
    try {
      const ran = await cli(
        ['chat', '--otel', '--yes', '-p', 'Call PingME', '--config', join(dir, 'chat.json')],
        {
          env: { ...env, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test' },
          timeoutMs: 30_000,
        },
      );
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout).toBe('The magic word is BISMILLAH.\n');
      const find = (service: string, kind: number) =>
        otlp.received.find(
          (r) =>
            r.service === service && r.span.kind === kind && r.span.name.startsWith('tools/call'),
        );
      await expect.poll(() => find('upstream', 2) !== undefined, { timeout: 15_000 }).toBe(true);
      const chat = find('mcpkit-chat', 3);
      const gatewayServer = find('gateway', 2);
      const gatewayClient = find('gateway', 3);
      const upstreamServer = find('upstream', 2);
      expect(chat?.span.name).toBe('tools/call PingME');
      // The root: the chat's run, `invoke_agent mcpkit-chat`, parent of its model calls
      // (`chat {model}`, two here) and of the tool call.
      const chatSpans = otlp.received.filter((r) => r.service === 'mcpkit-chat');
      const agent = chatSpans.find((r) => r.span.name === 'invoke_agent mcpkit-chat');
      expect(agent?.span.parentSpanId ?? '').toBe('');
      expect(chat?.span.parentSpanId).toBe(agent?.span.spanId);
      const models = chatSpans.filter((r) => r.span.name.startsWith('chat '));
      expect(models).toHaveLength(2);
      for (const model of models) {
        expect(model.span.kind).toBe(3); // SPAN_KIND_CLIENT
        expect(model.span.parentSpanId).toBe(agent?.span.spanId);
        expect(attribute(model.span, 'gen_ai.operation.name')).toBe('chat');
        expect(attribute(model.span, 'gen_ai.provider.name')).toBe('anthropic');
      }
      expect(gatewayServer?.span.parentSpanId).toBe(chat?.span.spanId);
      expect(gatewayClient?.span.parentSpanId).toBe(gatewayServer?.span.spanId);
      expect(upstreamServer?.span.parentSpanId).toBe(gatewayClient?.span.spanId);
      // scripts/otel-waterfall.mjs draws docs/images/otel-waterfall.svg from these spans.
      const out = process.env['MCPKIT_OTEL_SPANS_OUT'];
      if (out !== undefined && out !== '') {
        const tree = otlp.received.filter((r) => r.span.traceId === agent?.span.traceId);
        writeFileSync(out, JSON.stringify(tree, null, 1));
      }
      const traces = new Set(
        [agent, ...models, chat, gatewayServer, gatewayClient, upstreamServer].map(
          (r) => r?.span.traceId,
        ),
      );
      expect(traces.size).toBe(1);
    } finally {
      await model.close();
      await otlp.close();
    }
  }, 40_000);
});

describe.skipIf(!hasDist)('mcpkit serve --metrics', () => {
  it('serves the duration histograms in the Prometheus text format', async () => {
    const port = await closedPort();
    const child = spawnCli(['serve', 'everything', '--http', '0', '--metrics', String(port)]);
    try {
      const [, url] = await waitFor(child, /serving at (http:\S+)/);
      // A legacy session, whose duration is recorded when it ends (the client's DELETE).
      const client = new Client(
        { name: 'metrics-test', version: '1.0.0' },
        { mode: { pin: '2025-11-25' } },
      );
      await client.connect(createStreamableHttpClientTransport(url ?? ''));
      expect((await client.callTool('echo', { message: 'hi' })).isError).toBeFalsy();
      await client.close();
      const scrape = async () => {
        const response = await fetch(`http://127.0.0.1:${String(port)}/metrics`);
        expect(response.status).toBe(200);
        return response.text();
      };
      await expect.poll(scrape, { timeout: 10_000 }).toContain('mcp_server_session_duration');
      const text = await scrape();
      // The unit is in the name, as Prometheus users expect: mcp_server_operation_duration_seconds.
      expect(text).toContain('# TYPE mcp_server_operation_duration_seconds histogram');
      expect(text).toMatch(
        /mcp_server_operation_duration_seconds_count\{[^}]*gen_ai_tool_name="echo"[^}]*\} 1/,
      );
      expect(text).toMatch(
        /mcp_server_session_duration_seconds_count\{[^}]*mcp_protocol_version="[^"]+"[^}]*\} 1/,
      );
      expect(text).toMatch(/mcpkit_server_active_sessions\{[^}]*\} 0/);
      expect(text).toMatch(
        /mcpkit_server_active_requests\{[^}]*mcp_method_name="tools\/call"[^}]*\} 0/,
      );
      expect((await fetch(`http://127.0.0.1:${String(port)}/other`)).status).toBe(404);
    } finally {
      child.kill('SIGTERM');
      await collect(child);
    }
  });
});

describe.skipIf(!hasDist)('mcpkit gateway --metrics', () => {
  it("serves the upstreams' health and the gateway server's durations", async () => {
    const port = await closedPort();
    const dir = mkdtempSync(join(tmpdir(), 'mcpkit-metrics-gateway-'));
    const config = join(dir, 'servers.json');
    const everything = { command: process.execPath, args: [BIN, 'serve', 'everything', '--quiet'] };
    const missing = { url: `http://127.0.0.1:${String(await closedPort())}/mcp` };
    writeFileSync(config, JSON.stringify({ mcpServers: { everything, missing } }));
    const child = spawnCli([
      'gateway',
      '--config',
      config,
      '--http',
      '0',
      '--metrics',
      String(port),
    ]);
    try {
      const [, url] = await waitFor(child, /serving at (http:\S+)/);
      const client = new Client({ name: 'metrics-test', version: '1.0.0' });
      await client.connect(createStreamableHttpClientTransport(url ?? ''));
      const echo = (await client.listTools()).find((tool) => tool.name.endsWith('echo'));
      expect((await client.callTool(echo?.name ?? '', { message: 'hi' })).isError).toBeFalsy();
      await client.close();
      const text = await (await fetch(`http://127.0.0.1:${String(port)}/metrics`)).text();
      expect(text).toMatch(
        /mcpkit_gateway_upstream_up\{[^}]*mcpkit_upstream_name="everything"[^}]*\} 1/,
      );
      expect(text).toMatch(
        /mcpkit_gateway_upstream_up\{[^}]*mcpkit_upstream_name="missing"[^}]*\} 0/,
      );
      expect(text).toMatch(
        /mcp_server_operation_duration_seconds_count\{[^}]*mcp_method_name="tools\/call"[^}]*\} 1/,
      );
    } finally {
      child.kill('SIGTERM');
      await collect(child);
    }
  }, 40_000);
});
