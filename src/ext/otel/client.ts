// The client side: a client middleware (client.use) that makes one CLIENT span per message the
// client sends, puts its context in `params._meta` (traceparent, tracestate, baggage), and one
// SERVER span per request the server sends the client (elicitation, sampling, roots), a child of
// the context in its `_meta`; it records mcp.client.operation.duration.
import type { ClientMiddleware, ClientMiddlewareContext } from '../../client/index.js';
import { otelApi } from './api.js';
import type { Attributes } from './conventions.js';
import { Attr, describe } from './conventions.js';
import type { TelemetryOptions } from './record.js';
import { Recorder, injected, metaGetter } from './record.js';

/**
 * A client middleware that traces every message a client sends and every request it answers,
 * by the MCP semantic conventions: `client.use(clientTelemetry())`. Undefined when
 * `@opentelemetry/api` is not installed.
 */
export function clientTelemetry(options: TelemetryOptions = {}): ClientMiddleware | undefined {
  const api = otelApi;
  if (api === undefined) return undefined;
  const recorder = new Recorder(api, 'client', options);
  return (ctx, next) => {
    if (!recorder.enabled()) return next();
    const { name, attributes } = describe(ctx.method, ctx.params, options);
    if (ctx.id !== undefined) attributes[Attr.requestId] = String(ctx.id);
    addFacts(ctx, attributes);
    const started = performance.now();
    const ambient = api.context.active();
    if (ctx.direction === 'incoming') {
      const meta = ctx.params['_meta'];
      const parent =
        typeof meta === 'object' && meta !== null
          ? api.propagation.extract(ambient, meta as Record<string, unknown>, metaGetter)
          : ambient;
      const operation = { name, kind: 'server' as const, method: ctx.method, attributes, started };
      const span = recorder.start(operation, parent);
      return recorder.run(span, { ...operation, active: api.trace.setSpan(parent, span) }, next);
    }
    const operation = { name, kind: 'client' as const, method: ctx.method, attributes, started };
    const span = recorder.start(operation, ambient);
    const active = api.trace.setSpan(ambient, span);
    ctx.params = injected(api, active, ctx.params);
    return recorder.run(span, { ...operation, active }, next);
  };
}

/** The transport, session and revision facts of a message. */
function addFacts(ctx: ClientMiddlewareContext, attributes: Attributes): void {
  const revision =
    ctx.method === 'initialize' && typeof ctx.params['protocolVersion'] === 'string'
      ? ctx.params['protocolVersion']
      : ctx.revision;
  attributes[Attr.protocolVersion] = revision;
  const transport = ctx.transport as { url?: unknown; sessionId?: unknown };
  if (!(transport.url instanceof URL)) {
    attributes[Attr.networkTransport] = 'pipe';
    return;
  }
  const url = transport.url;
  attributes[Attr.networkTransport] = 'tcp';
  attributes[Attr.networkProtocol] = 'http';
  attributes[Attr.serverAddress] = url.hostname.replace(/^\[(.*)\]$/, '$1');
  attributes[Attr.serverPort] = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (typeof transport.sessionId === 'string') attributes[Attr.sessionId] = transport.sessionId;
}
