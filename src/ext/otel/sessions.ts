// The session-duration histograms of the conventions, for legacy sessions (a session begins with a
// successful `initialize` and ends when its connection closes; 2026-07-28 has no session):
// mcp.server.session.duration through a server request middleware and ServerSession.onClose,
// mcp.client.session.duration through a client middleware and Client.onClose. The server side
// also counts the sessions open and the requests in flight (ActivityMetric), when asked.
import type { MeterProvider } from '@opentelemetry/api';
import type { Client, ClientMiddleware } from '../../client/index.js';
import type { MiddlewareContext, RequestMiddleware } from '../../server/index.js';
import type { Api } from './api.js';
import type { Attributes } from './conventions.js';
import { Attr, Metric } from './conventions.js';
import { ActivityMetric, Instruments, gauge, sessionHistogram } from './meters.js';

/** What an McpServer's legacy session offers (ServerSession.onClose), checked structurally. */
interface ClosingSession {
  onClose(listener: (error?: Error) => void): void;
}

function closing(session: object | undefined): session is ClosingSession {
  return typeof (session as Partial<ClosingSession> | undefined)?.onClose === 'function';
}

/**
 * The server's session metrics: the duration of each legacy session, and with `activity` the
 * sessions open and the requests in flight (by `mcp.method.name`).
 */
export function serverSessions(
  api: Api,
  options: { readonly meterProvider?: MeterProvider | undefined; readonly activity: boolean },
): RequestMiddleware {
  const instruments = new Instruments(api, options.meterProvider, (meter) => ({
    duration: sessionHistogram(meter, Metric.serverSession, 'server'),
    sessions: gauge(meter, ActivityMetric.activeSessions, {
      unit: '{session}',
      description: 'Legacy sessions open.',
    }),
    requests: gauge(meter, ActivityMetric.activeRequests, {
      unit: '{request}',
      description: 'Requests being served, by method.',
    }),
  }));
  const seen = new WeakSet<object>();
  return (ctx, next) => {
    // Most requests: nothing to note unless the activity is counted.
    if (!options.activity && ctx.method !== 'initialize') return next();
    if (!instruments.enabled()) return next();
    const { session } = ctx;
    const starts = ctx.method === 'initialize' && closing(session) && !seen.has(session);
    const active = options.activity ? { [Attr.method]: ctx.method } : undefined;
    if (active !== undefined) instruments.get().requests.add(1, active);
    const started = performance.now();
    const done = (result: unknown): unknown => {
      if (active !== undefined) instruments.get().requests.add(-1, active);
      if (starts && closing(session) && !seen.has(session)) {
        seen.add(session);
        open(session, sessionAttributes(ctx, result), started);
      }
      return result;
    };
    const failed = (error: unknown): never => {
      if (active !== undefined) instruments.get().requests.add(-1, active);
      throw error;
    };
    let value: unknown;
    try {
      value = next();
    } catch (error) {
      return failed(error);
    }
    return value instanceof Promise ? value.then(done, failed) : done(value);
  };

  function open(session: ClosingSession, attributes: Attributes, started: number): void {
    if (options.activity) instruments.get().sessions.add(1);
    session.onClose((error) => {
      if (options.activity) instruments.get().sessions.add(-1);
      if (error !== undefined) attributes[Attr.errorType] = errorName(error);
      instruments.get().duration.record((performance.now() - started) / 1000, attributes);
    });
  }
}

/** The attributes of a server session: its revision and transport. */
function sessionAttributes(ctx: MiddlewareContext, result: unknown): Attributes {
  const attributes: Attributes = {};
  const revision = (result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
  if (typeof revision === 'string') attributes[Attr.protocolVersion] = revision;
  if (ctx.transport?.headers === undefined) {
    attributes[Attr.networkTransport] = 'pipe';
  } else {
    attributes[Attr.networkTransport] = 'tcp';
    attributes[Attr.networkProtocol] = 'http';
  }
  return attributes;
}

/**
 * The client's session metric: a middleware that notes when `initialize` succeeds, and a close
 * listener on `client` that records the session's duration.
 */
export function clientSessions(
  api: Api,
  client: Client,
  options: { readonly meterProvider?: MeterProvider | undefined },
): ClientMiddleware {
  const instruments = new Instruments(api, options.meterProvider, (meter) =>
    sessionHistogram(meter, Metric.clientSession, 'client'),
  );
  let current: { started: number; attributes: Attributes } | undefined;
  client.onClose((error) => {
    const session = current;
    current = undefined;
    if (session === undefined) return;
    if (error !== undefined) session.attributes[Attr.errorType] = errorName(error);
    const seconds = (performance.now() - session.started) / 1000;
    instruments.get().record(seconds, session.attributes);
  });
  return (ctx, next) => {
    if (ctx.method !== 'initialize' || ctx.direction !== 'outgoing' || !instruments.enabled()) {
      return next();
    }
    const started = performance.now();
    return next().then((result) => {
      const attributes: Attributes = {};
      const revision = (result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
      if (typeof revision === 'string') attributes[Attr.protocolVersion] = revision;
      const url = (ctx.transport as { url?: unknown }).url;
      if (url instanceof URL) {
        attributes[Attr.networkTransport] = 'tcp';
        attributes[Attr.networkProtocol] = 'http';
        attributes[Attr.serverAddress] = url.hostname.replace(/^\[(.*)\]$/, '$1');
        attributes[Attr.serverPort] = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
      } else {
        attributes[Attr.networkTransport] = 'pipe';
      }
      current = { started, attributes };
      return result;
    });
  };
}

/** `error.type` of a session that ended with `error`: its code, or its name. */
function errorName(error: Error): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') return String(code);
  return error.name === 'Error' ? '_OTHER' : error.name;
}
