// The server side: a request middleware (server.use) that makes one SERVER span per request the
// server serves, a child of the context the client put in `params._meta` (the ambient context
// linked), and records mcp.server.operation.duration; a notification middleware does the same
// for each notification the client sends.
import type {
  Middleware,
  MiddlewareContext,
  NotificationMiddleware,
  OutgoingMiddleware,
  RequestMiddleware,
} from '../../server/index.js';
import type { Context } from '@opentelemetry/api';
import { otelApi } from './api.js';
import type { Api } from './api.js';
import { Attr } from './conventions.js';
import type { TelemetryOptions } from './record.js';
import { Recorder, injected, linkTo, metaParent } from './record.js';
import type { SpanStart } from './shapes.js';
import { HTTP, NO_FACTS, PIPE, Shapes } from './shapes.js';

/**
 * The middleware that traces a server by the MCP semantic conventions:
 * `server.use(serverTelemetry())`. Its request middleware makes a SERVER span per request served;
 * its outgoing middleware a CLIENT span per message the server sends while serving one (progress,
 * log messages, legacy elicitation, sampling, roots), the context put in the message's
 * `params._meta`; its notification middleware a SERVER span per notification the client sends
 * (`notifications/initialized`, `notifications/cancelled`, …), as for a request. Undefined when
 * `@opentelemetry/api` is not installed.
 */
export function serverTelemetry(options: TelemetryOptions = {}): Middleware | undefined {
  const api = otelApi;
  if (api === undefined) return undefined;
  const recorder = new Recorder(api, 'server', options);
  return {
    request: requestSpans(api, recorder),
    outgoing: outgoingSpans(api, recorder),
    notification: notificationSpans(api, recorder),
  };
}

function requestSpans(api: Api, recorder: Recorder): RequestMiddleware {
  const { options } = recorder;
  const overPipe = new Shapes(PIPE);
  const overHttp = new Shapes(HTTP);
  const kind = api.SpanKind.SERVER;
  return (ctx, next) => {
    if (!recorder.enabled()) return next();
    const { params } = ctx;
    const headers = ctx.transport?.headers;
    const shapes = headers === undefined ? overPipe : overHttp;
    const shape = shapes.of(ctx.method, params, revisionOf(ctx));
    const start = shape.start(params, options, kind);
    const { attributes } = start.options;
    attributes[Attr.requestId] = String(ctx.id);
    const session = headers?.['mcp-session-id'];
    if (session !== undefined) attributes[Attr.sessionId] = session;
    const parent = parentOf(api, params, start);
    const operation = recorder.start(shape, start, parent);
    return recorder.run(operation, api.trace.setSpan(parent, operation.span), next);
  };
}

/**
 * A SERVER span per notification the client sends, as {@link requestSpans} makes for a request
 * (no request id): a child of the context in its `params._meta`, its duration recorded.
 */
function notificationSpans(api: Api, recorder: Recorder): NotificationMiddleware {
  const { options } = recorder;
  const overPipe = new Shapes(PIPE);
  const overHttp = new Shapes(HTTP);
  const kind = api.SpanKind.SERVER;
  return (ctx, next) => {
    if (!recorder.enabled()) {
      next();
      return;
    }
    const { params } = ctx;
    const headers = ctx.transport?.headers;
    const shapes = headers === undefined ? overPipe : overHttp;
    const shape = shapes.of(ctx.method, params, ctx.revision);
    const start = shape.start(params, options, kind);
    const session = headers?.['mcp-session-id'];
    if (session !== undefined) start.options.attributes[Attr.sessionId] = session;
    const parent = parentOf(api, params, start);
    const operation = recorder.start(shape, start, parent);
    recorder.run(operation, api.trace.setSpan(parent, operation.span), next);
  };
}

/**
 * The parent of a message's SERVER span: the context in its `params._meta`, else the ambient
 * one. The ambient span (an HTTP server span) is linked in `start` when it is not the parent.
 */
function parentOf(api: Api, params: Record<string, unknown>, start: SpanStart): Context {
  const ambient = api.context.active();
  const parent = metaParent(api, params, ambient);
  if (parent !== ambient) {
    const links = linkTo(api, ambient);
    if (links !== undefined) start.options.links = links;
  }
  return parent;
}

function outgoingSpans(api: Api, recorder: Recorder): OutgoingMiddleware {
  const shapes = new Shapes(NO_FACTS);
  const kind = api.SpanKind.CLIENT;
  return (message, next) => {
    if (!recorder.enabled()) return next();
    const shape = shapes.of(message.method, message.params, message.revision);
    const start = shape.start(message.params, recorder.options, kind);
    const ambient = api.context.active();
    const operation = recorder.start(shape, start, ambient);
    const active = api.trace.setSpan(ambient, operation.span);
    message.params = injected(api, active, message.params);
    return recorder.run(operation, active, next);
  };
}

/** The revision of a request: the session's, or the one an `initialize` asks for. */
function revisionOf(ctx: MiddlewareContext): string | undefined {
  const revision =
    ctx.revision ?? (ctx.method === 'initialize' ? ctx.params['protocolVersion'] : undefined);
  return typeof revision === 'string' ? revision : undefined;
}
