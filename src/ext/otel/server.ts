// The server side: a request middleware (server.use) that makes one SERVER span per request the
// server serves, a child of the context the client put in `params._meta` (the ambient context
// linked), and records mcp.server.operation.duration.
import type { Link } from '@opentelemetry/api';
import type {
  Middleware,
  MiddlewareContext,
  OutgoingMiddleware,
  RequestMiddleware,
} from '../../server/index.js';
import { otelApi } from './api.js';
import type { Api } from './api.js';
import { Attr, describe } from './conventions.js';
import type { TelemetryOptions } from './record.js';
import { Recorder, injected, metaGetter } from './record.js';

/**
 * The middleware that traces a server by the MCP semantic conventions:
 * `server.use(serverTelemetry())`. Its request middleware makes a SERVER span per request served;
 * its outgoing middleware a CLIENT span per message the server sends while serving one (progress,
 * log messages, legacy elicitation, sampling, roots), the context put in the message's
 * `params._meta`. Undefined when `@opentelemetry/api` is not installed.
 */
export function serverTelemetry(options: TelemetryOptions = {}): Middleware | undefined {
  const api = otelApi;
  if (api === undefined) return undefined;
  const recorder = new Recorder(api, 'server', options);
  return { request: requestSpans(api, recorder), outgoing: outgoingSpans(api, recorder) };
}

function requestSpans(api: Api, recorder: Recorder): RequestMiddleware {
  const options = recorder.options;
  return (ctx, next) => {
    if (!recorder.enabled()) return next();
    const { name, attributes } = describe(ctx.method, ctx.params, options);
    attributes[Attr.requestId] = String(ctx.id);
    addFacts(ctx, attributes);
    const ambient = api.context.active();
    const meta = ctx.params['_meta'];
    const parent =
      typeof meta === 'object' && meta !== null
        ? api.propagation.extract(ambient, meta as Record<string, unknown>, metaGetter)
        : ambient;
    const links = ambientLink(api, parent, ambient);
    const operation = {
      name,
      kind: 'server' as const,
      method: ctx.method,
      attributes,
      started: performance.now(),
    };
    const span = recorder.start(operation, parent, links);
    return recorder.run(span, { ...operation, active: api.trace.setSpan(parent, span) }, next);
  };
}

function outgoingSpans(api: Api, recorder: Recorder): OutgoingMiddleware {
  return (message, next) => {
    if (!recorder.enabled()) return next();
    const { name, attributes } = describe(message.method, message.params, recorder.options);
    attributes[Attr.protocolVersion] = message.revision;
    const started = performance.now();
    const operation = {
      name,
      kind: 'client' as const,
      method: message.method,
      attributes,
      started,
    };
    const ambient = api.context.active();
    const span = recorder.start(operation, ambient);
    const active = api.trace.setSpan(ambient, span);
    message.params = injected(api, active, message.params);
    return recorder.run(span, { ...operation, active }, next);
  };
}

/** The transport, session and revision facts of a request. */
function addFacts(
  ctx: MiddlewareContext,
  attributes: Record<string, string | number | boolean>,
): void {
  const revision =
    ctx.revision ?? (ctx.method === 'initialize' ? ctx.params['protocolVersion'] : undefined);
  if (typeof revision === 'string') attributes[Attr.protocolVersion] = revision;
  const headers = ctx.transport?.headers;
  if (headers === undefined) {
    attributes[Attr.networkTransport] = 'pipe';
    return;
  }
  attributes[Attr.networkTransport] = 'tcp';
  attributes[Attr.networkProtocol] = 'http';
  const session = headers['mcp-session-id'];
  if (session !== undefined) attributes[Attr.sessionId] = session;
}

/** A link to the ambient span (an HTTP server span) when the client's context is the parent. */
function ambientLink(api: Api, parent: unknown, ambient: unknown): Link[] | undefined {
  if (parent === ambient) return undefined;
  const context = api.trace.getSpanContext(
    ambient as Parameters<Api['trace']['getSpanContext']>[0],
  );
  return context === undefined || !api.trace.isSpanContextValid(context)
    ? undefined
    : [{ context }];
}
