// The client side: a client middleware (client.use) that makes one CLIENT span per message the
// client sends, puts its context in `params._meta` (traceparent, tracestate, baggage), and one
// SERVER span per request the server sends the client (elicitation, sampling, roots), a child of
// the context in its `_meta`; it records mcp.client.operation.duration. A notification middleware
// (client.use({ notification })) makes a SERVER span per notification the server sends the client.
import type {
  ClientMiddleware,
  ClientMiddlewareContext,
  ClientMiddlewareHooks,
} from '../../client/index.js';
import { otelApi } from './api.js';
import { Attr } from './conventions.js';
import type { TelemetryOptions } from './record.js';
import { Recorder, injected, metaParent } from './record.js';
import { PIPE, Shapes } from './shapes.js';

/**
 * A client middleware that traces every message a client sends and every request it answers,
 * by the MCP semantic conventions: `client.use(clientTelemetry())`. Undefined when
 * `@opentelemetry/api` is not installed.
 */
export function clientTelemetry(options: TelemetryOptions = {}): ClientMiddleware | undefined {
  const api = otelApi;
  if (api === undefined) return undefined;
  const recorder = new Recorder(api, 'client', options);
  const transports = new TransportShapes();
  const { CLIENT, SERVER } = api.SpanKind;
  return (ctx, next) => {
    if (!recorder.enabled()) return next();
    const { params } = ctx;
    const incoming = ctx.direction === 'incoming';
    const shape = transports.of(ctx).of(ctx.method, params, revisionOf(ctx));
    const start = shape.start(params, options, incoming ? SERVER : CLIENT);
    const { attributes } = start.options;
    if (ctx.id !== undefined) attributes[Attr.requestId] = String(ctx.id);
    const session = (ctx.transport as { sessionId?: unknown }).sessionId;
    if (shape.facts !== PIPE && typeof session === 'string') attributes[Attr.sessionId] = session;
    const ambient = api.context.active();
    if (incoming) {
      const parent = metaParent(api, params, ambient);
      const operation = recorder.start(shape, start, parent);
      return recorder.run(operation, api.trace.setSpan(parent, operation.span), next);
    }
    const operation = recorder.start(shape, start, ambient);
    const active = api.trace.setSpan(ambient, operation.span);
    ctx.params = injected(api, active, ctx.params);
    return recorder.run(operation, active, next);
  };
}

/**
 * A notification middleware that makes a SERVER span per notification the server sends the client
 * (progress, log messages, list changes, …), a child of the context in its `params._meta`, and
 * records mcp.client.operation.duration: `client.use(clientNotificationTelemetry())` (instrument
 * adds it). Undefined when `@opentelemetry/api` is not installed.
 */
export function clientNotificationTelemetry(
  options: TelemetryOptions = {},
): ClientMiddlewareHooks | undefined {
  const api = otelApi;
  if (api === undefined) return undefined;
  const recorder = new Recorder(api, 'client', options);
  const transports = new TransportShapes();
  const kind = api.SpanKind.SERVER;
  const notification: ClientMiddlewareHooks['notification'] = (ctx, next) => {
    if (!recorder.enabled()) {
      next();
      return;
    }
    const { params } = ctx;
    const shape = transports.of(ctx).of(ctx.method, params, ctx.revision);
    const start = shape.start(params, options, kind);
    const session = (ctx.transport as { sessionId?: unknown }).sessionId;
    if (shape.facts !== PIPE && typeof session === 'string') {
      start.options.attributes[Attr.sessionId] = session;
    }
    const parent = metaParent(api, params, api.context.active());
    const operation = recorder.start(shape, start, parent);
    recorder.run(operation, api.trace.setSpan(parent, operation.span), next);
  };
  return { notification };
}

/** The revision of a message: the one an `initialize` asks for, else the client's. */
function revisionOf(ctx: ClientMiddlewareContext): string {
  return ctx.method === 'initialize' && typeof ctx.params['protocolVersion'] === 'string'
    ? ctx.params['protocolVersion']
    : ctx.revision;
}

/** The shapes over the client's transport, its network facts made again only when its URL changes. */
class TransportShapes {
  readonly #pipe = new Shapes(PIPE);
  #href: string | undefined;
  #http: Shapes = this.#pipe;

  of(ctx: { readonly transport: ClientMiddlewareContext['transport'] }): Shapes {
    const { url } = ctx.transport as { url?: unknown };
    if (!(url instanceof URL)) return this.#pipe;
    if (url.href !== this.#href) {
      this.#href = url.href;
      this.#http = new Shapes({
        [Attr.networkTransport]: 'tcp',
        [Attr.networkProtocol]: 'http',
        [Attr.serverAddress]: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        [Attr.serverPort]: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
      });
    }
    return this.#http;
  }
}
