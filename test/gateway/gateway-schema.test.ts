// What the gateway sends, through the official JSON schemas (spec/<revision>/schema.json): a
// call refused by a rate limit (an `isError` result whose `_meta["mcpkit/retryAfterMs"]` says
// when to retry) in 2025-11-25 and 2026-07-28, and the list_changed notifications that carry
// `_meta` (mcpkit/otel's trace context, put there by the server's outgoing middleware) in every
// revision, which all allow `_meta` in a notification's params (2026-07-28 on a
// subscriptions/listen stream, with its subscription id).
import { afterEach, describe, expect, it } from 'vitest';
import { serverTelemetry } from '../../src/ext/otel/index.js';
import { Gateway, parseGatewayConfig } from '../../src/gateway/index.js';
import { RETRY_AFTER_META } from '../../src/gateway/limits/index.js';
import { McpServer } from '../../src/server/index.js';
import type { ProtocolRevision } from '../../src/protocol/version.js';
import { useOtelSdk } from '../helpers/otel-sdk.js';
import { validateAgainstSpec } from '../helpers/spec-schema.js';
import { memoryUpstream } from '../helpers/memory-upstream.js';
import type { Wire } from '../helpers/wire.js';
import { MODERN, connectWire } from '../helpers/wire.js';

useOtelSdk();

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

/** A gateway over one in-memory upstream (`upstream`), with `extra` config and middleware. */
async function gatewayOver(upstream: McpServer, extra: Record<string, unknown> = {}) {
  const config = parseGatewayConfig({ mcpServers: {}, ...extra });
  const servers = { up: memoryUpstream(upstream) };
  const telemetry = serverTelemetry();
  if (telemetry === undefined) throw new Error('@opentelemetry/api is not installed');
  const gateway = await Gateway.start(
    { ...config, servers },
    { timing: { pingIntervalMs: 0 }, middleware: () => [telemetry] },
  );
  closing.push(() => gateway.close());
  return gateway;
}

function upstreamServer(): McpServer {
  const server = new McpServer({ name: 'up', version: '1' });
  server.tool({ name: 'echo', inputSchema: { type: 'object' } }, () => 'echoed');
  return server;
}

async function wireTo(gateway: Gateway): Promise<Wire> {
  const wire = await connectWire(gateway.server);
  closing.push(() => wire.close());
  return wire;
}

/** Resolves once `wire` has received a frame with `method`. */
async function received(wire: Wire, method: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 500; i++) {
    const frame = wire.frames.find((f) => f.dir === '<<' && f.message['method'] === method);
    if (frame !== undefined) return frame.message;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no ${method} received`);
}

describe('the gateway against the official schemas', () => {
  for (const revision of ['2025-11-25', MODERN] as const) {
    it(`a rate-limited call is a valid CallToolResult with mcpkit/retryAfterMs (${revision})`, async () => {
      const gateway = await gatewayOver(upstreamServer(), {
        rateLimits: { tools: { echo: { rate: 1, per: 'hour' } } },
      });
      const wire = await wireTo(gateway);
      const call = (name: string) =>
        revision === MODERN
          ? wire.modern('tools/call', { name, arguments: {} })
          : wire.request('tools/call', { name, arguments: {} });
      if (revision !== MODERN) await wire.initialize(revision);
      const first = (await call('echo')) as { isError?: boolean };
      expect(first.isError).not.toBe(true);
      const refused = (await call('echo')) as { isError?: boolean; _meta?: object };
      expect(refused.isError).toBe(true);
      expect(refused._meta).toMatchObject({ [RETRY_AFTER_META]: expect.any(Number) });
      expect(validateAgainstSpec(revision, 'CallToolResult', refused).errors).toBe('');
      // Every frame the gateway sent, the refusal's response among them.
      wire.assertServerFramesValid(revision);
    });
  }

  const legacy: ProtocolRevision[] = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
  for (const revision of legacy) {
    it(`a list_changed with _meta is a valid notification (${revision})`, async () => {
      const upstream = upstreamServer();
      const gateway = await gatewayOver(upstream);
      const wire = await wireTo(gateway);
      await wire.initialize(revision);
      upstream.tool({ name: 'added', inputSchema: { type: 'object' } }, () => 'new');
      const changed = await received(wire, 'notifications/tools/list_changed');
      expect(changed['params']).toMatchObject({ _meta: { traceparent: expect.any(String) } });
      wire.assertServerFramesValid(revision);
    });
  }

  it(`a list_changed with _meta on a listen stream is a valid notification (${MODERN})`, async () => {
    const upstream = upstreamServer();
    const gateway = await gatewayOver(upstream);
    const wire = await wireTo(gateway);
    const listen = wire.modern('subscriptions/listen', {
      notifications: { toolsListChanged: true },
    });
    listen.catch(() => undefined);
    await received(wire, 'notifications/subscriptions/acknowledged');
    upstream.tool({ name: 'added', inputSchema: { type: 'object' } }, () => 'new');
    const changed = await received(wire, 'notifications/tools/list_changed');
    expect(changed['params']).toMatchObject({
      _meta: {
        'io.modelcontextprotocol/subscriptionId': expect.anything(),
        traceparent: expect.any(String),
      },
    });
    wire.assertServerFramesValid(MODERN);
  });
});
