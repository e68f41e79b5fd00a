// mcpkit/otel and the notifications a client sends, with the real OpenTelemetry SDK (in-memory
// span exporter, W3C propagators, AsyncLocalStorage context): a legacy client's
// notifications/initialized and notifications/cancelled are SERVER spans on the server, children
// of the client's CLIENT spans (the context the client put in `params._meta`), over Streamable
// HTTP (a legacy session) and the in-memory pair; the server's duration histogram counts them.
// A tools/list_changed the server sends a legacy session outside any request is a CLIENT span of
// the server, child of the context active where the tool was registered; the client receiving it
// makes a SERVER span, child of that CLIENT span, counted in the client duration histogram.
// A log message sent while serving a call over HTTP is a SERVER span of the client too.
import { SpanKind, context, trace } from '@opentelemetry/api';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { useOtelSdk } from '../helpers/otel-sdk.js';
import { Client } from '../../src/client/index.js';
import { instrument } from '../../src/ext/otel/index.js';
import { McpServer } from '../../src/server/index.js';
import type { Transport } from '../../src/jsonrpc/transport.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import { listen } from '../../src/transports/http/node.js';
import { createMemoryPair } from '../../src/transports/memory.js';

const REVISION = '2025-11-25';
const SERVER = SpanKind.SERVER;
const CLIENT = SpanKind.CLIENT;

/** Resolves the waiters of a span's name and kind when one ends (no polling, no sleeps). */
const waiters: { name: string; kind: SpanKind; resolve: () => void }[] = [];
const ended: SpanProcessor = {
  onStart: () => undefined,
  onEnd: (span) => {
    for (const waiter of waiters.filter((w) => w.name === span.name && w.kind === span.kind)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  },
  forceFlush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
};

/** Resolves when a span of `name` and `kind` ends (or has ended). */
function spanEnded(name: string, kind: SpanKind): Promise<void> {
  if (spans.getFinishedSpans().some((s) => s.name === name && s.kind === kind)) {
    return Promise.resolve();
  }
  return new Promise((resolve) => waiters.push({ name, kind, resolve }));
}

const { spans, meterProvider, cleanups, metrics: sdkMetrics } = useOtelSdk([ended]);

/** A traced server whose `wait` tool resolves `cancelled` when the client cancels it. */
function tracedServer(): { server: McpServer; cancelled: Promise<void> } {
  const server = new McpServer({ name: 'otel', version: '1.0.0' });
  instrument(server, { meterProvider });
  let seen: () => void = () => undefined;
  const cancelled = new Promise<void>((resolve) => {
    seen = resolve;
  });
  server.tool({ name: 'wait' }, (_args, ctx) => {
    return new Promise<string>((resolve) => {
      ctx.signal.addEventListener('abort', () => {
        seen();
        resolve('cancelled');
      });
    });
  });
  return { server, cancelled };
}

function tracedClient(): Client {
  const client = new Client({ name: 'otel-test', version: '1.0.0' }, { mode: { pin: REVISION } });
  instrument(client, { meterProvider });
  cleanups.push(() => client.close());
  return client;
}

type Seen = {
  name: string;
  kind: SpanKind;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  attributes: Record<string, unknown>;
};

function seen(span: ReadableSpan): Seen {
  return {
    name: span.name,
    kind: span.kind,
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    attributes: span.attributes,
  };
}

function one(list: Seen[], name: string, kind: SpanKind): Seen {
  const found = list.filter((s) => s.name === name && s.kind === kind);
  expect(found, `${name} (kind ${String(kind)})`).toHaveLength(1);
  return found[0] as Seen;
}

/** Connects, lists, cancels a call; returns the spans finished by then. */
async function exercise(client: Client, transport: Transport, cancelled: Promise<void>) {
  await client.connect(transport);
  // Answered after the server handled notifications/initialized (sent before it, in order).
  await client.listTools();
  const abort = new AbortController();
  const call = client.callTool('wait', {}, { signal: abort.signal });
  // The server is serving the call once the client has sent it: tools/list again, in order.
  await client.listTools();
  abort.abort(new Error('no longer needed'));
  await expect(call).rejects.toThrow();
  await cancelled;
  // Over HTTP the client's span of the notification ends when its POST is answered (202).
  await spanEnded('notifications/cancelled', CLIENT);
  return spans.getFinishedSpans().map(seen);
}

/** Each notification's SERVER span is the child of its CLIENT span, with the conventions' attributes. */
function checkNotifications(all: Seen[], transport: string): void {
  for (const name of ['notifications/initialized', 'notifications/cancelled']) {
    const sent = one(all, name, CLIENT);
    const served = one(all, name, SERVER);
    expect(served.traceId).toBe(sent.traceId);
    expect(served.parentSpanId).toBe(sent.spanId);
    expect(served.attributes['mcp.method.name']).toBe(name);
    expect(served.attributes['mcp.protocol.version']).toBe(REVISION);
    expect(served.attributes['network.transport']).toBe(transport);
    expect(served.attributes['jsonrpc.request.id']).toBeUndefined();
  }
}

describe('mcpkit/otel: the notifications a client sends are SERVER spans', () => {
  it('over Streamable HTTP (a legacy session)', async () => {
    const { server, cancelled } = tracedServer();
    const running = await listen(() => server);
    cleanups.push(() => running.close());
    const client = tracedClient();
    const all = await exercise(client, createStreamableHttpClientTransport(running.url), cancelled);
    checkNotifications(all, 'tcp');
    const session = one(all, 'notifications/cancelled', CLIENT).attributes['mcp.session.id'];
    expect(typeof session).toBe('string');
    expect(one(all, 'notifications/cancelled', SERVER).attributes['mcp.session.id']).toBe(session);
  });

  it('over the in-memory pair, and in the server duration histogram', async () => {
    const { server, cancelled } = tracedServer();
    const [a, b] = createMemoryPair();
    await server.connect(b);
    const client = tracedClient();
    checkNotifications(await exercise(client, a, cancelled), 'pipe');
    const histogram = (await sdkMetrics()).find(
      (m) => m.descriptor.name === 'mcp.server.operation.duration',
    );
    const points = (histogram?.dataPoints ?? []) as { attributes: Record<string, unknown> }[];
    const methods = points.map((p) => p.attributes['mcp.method.name']);
    expect(methods).toContain('notifications/initialized');
    expect(methods).toContain('notifications/cancelled');
  });
});

describe('mcpkit/otel: the notifications a server sends outside a request are CLIENT spans', () => {
  it('a tools/list_changed on a legacy session, child of the active span, its context in _meta', async () => {
    const { server } = tracedServer();
    // Registered after instrument(): runs inside its span, sees the params as they go out.
    const sent: Record<string, unknown>[] = [];
    server.use({
      outgoing: (message, next) => {
        if (message.relatedRequestId === undefined) sent.push(message.params);
        return next();
      },
    });
    const [a, b] = createMemoryPair();
    await server.connect(b);
    const client = tracedClient();
    await client.connect(a);
    const registering = trace.getTracer('test').startSpan('register');
    context.with(trace.setSpan(context.active(), registering), () => {
      server.tool({ name: 'added' }, () => 'ok');
    });
    registering.end();
    await spanEnded('notifications/tools/list_changed', CLIENT);
    const all = spans.getFinishedSpans().map(seen);
    const change = one(all, 'notifications/tools/list_changed', CLIENT);
    expect(change.parentSpanId).toBe(registering.spanContext().spanId);
    expect(change.traceId).toBe(registering.spanContext().traceId);
    expect(change.attributes['mcp.method.name']).toBe('notifications/tools/list_changed');
    expect(change.attributes['mcp.protocol.version']).toBe(REVISION);
    expect(change.attributes['jsonrpc.request.id']).toBeUndefined();
    expect(sent).toHaveLength(1);
    const meta = sent[0]?.['_meta'] as Record<string, unknown>;
    expect(meta['traceparent']).toBe(`00-${change.traceId}-${change.spanId}-01`);
    // The client's SERVER span of the notification it received, child of the server's CLIENT span.
    await spanEnded('notifications/tools/list_changed', SERVER);
    const received = one(
      spans.getFinishedSpans().map(seen),
      'notifications/tools/list_changed',
      SERVER,
    );
    expect(received.traceId).toBe(change.traceId);
    expect(received.parentSpanId).toBe(change.spanId);
    expect(received.attributes['mcp.method.name']).toBe('notifications/tools/list_changed');
    expect(received.attributes['mcp.protocol.version']).toBe(REVISION);
    expect(received.attributes['network.transport']).toBe('pipe');
    expect(received.attributes['jsonrpc.request.id']).toBeUndefined();
    const histogram = (await sdkMetrics()).find(
      (m) => m.descriptor.name === 'mcp.client.operation.duration',
    );
    const points = (histogram?.dataPoints ?? []) as { attributes: Record<string, unknown> }[];
    const methods = points.map((p) => p.attributes['mcp.method.name']);
    expect(methods).toContain('notifications/tools/list_changed');
  });
});

describe('mcpkit/otel: the notifications a client receives are SERVER spans of the client', () => {
  it('a log message sent while serving a call, over Streamable HTTP', async () => {
    const { server } = tracedServer();
    server.tool({ name: 'chatty' }, async (_args, ctx) => {
      await ctx.log('info', 'working');
      return 'done';
    });
    const running = await listen(() => server);
    cleanups.push(() => running.close());
    const client = new Client(
      { name: 'otel-test', version: '1.0.0' },
      { mode: { pin: REVISION }, logLevel: 'debug' },
    );
    instrument(client, { meterProvider });
    cleanups.push(() => client.close());
    await client.connect(createStreamableHttpClientTransport(running.url));
    await client.callTool('chatty', {});
    await spanEnded('notifications/message', SERVER);
    const all = spans.getFinishedSpans().map(seen);
    const sent = one(all, 'notifications/message', CLIENT);
    const received = one(all, 'notifications/message', SERVER);
    expect(received.traceId).toBe(sent.traceId);
    expect(received.parentSpanId).toBe(sent.spanId);
    expect(received.attributes['network.transport']).toBe('tcp');
    expect(received.attributes['mcp.protocol.version']).toBe(REVISION);
    const session = one(all, 'tools/call chatty', CLIENT).attributes['mcp.session.id'];
    expect(typeof session).toBe('string');
    expect(received.attributes['mcp.session.id']).toBe(session);
  });
});
