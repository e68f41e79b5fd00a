// mcpkit/otel: OpenTelemetry traces and metrics by the MCP semantic conventions, through the
// server and client middleware seams. `@opentelemetry/api` is an optional peer: without it the
// functions give undefined and nothing is added. See docs/observability.md.
import type { Client } from '../../client/index.js';
import type { McpServer } from '../../server/index.js';
import { otelApi } from './api.js';
import { clientNotificationTelemetry, clientTelemetry } from './client.js';
import { httpTraceContext } from './http.js';
import { serverTelemetry } from './server.js';
import { clientSessions, serverSessions } from './sessions.js';
import type { TelemetryOptions } from './record.js';

export { clientNotificationTelemetry, clientTelemetry } from './client.js';
export { serverTelemetry } from './server.js';
export { httpTraceContext, tracingFetch } from './http.js';
export type { TracingFetch } from './http.js';
export { gatewayHealth } from './gauges.js';
export { GenAiAttr as OtelGenAiAttributes, agentSpan, tracedModel } from './model.js';
export type { TraceableModel } from './model.js';
export { countedTasks } from './tasks.js';
export type { CountableTaskStore } from './tasks.js';
export type { UpstreamHealth } from './gauges.js';
export type { TelemetryOptions } from './record.js';
export type { RecordingOptions } from './conventions.js';
export { Attr as OtelAttributes, Metric as OtelMetrics } from './conventions.js';
export { ActivityMetric as OtelActivityMetrics } from './meters.js';

/** Options of {@link instrument}. */
export interface InstrumentOptions extends TelemetryOptions {
  /**
   * For a server: also count the legacy sessions open (`mcpkit.server.active_sessions`) and the
   * requests in flight (`mcpkit.server.active_requests`). Default false.
   */
  readonly activity?: boolean;
}

/**
 * Traces and measures `target` (an McpServer or a Client) by the conventions: the spans and
 * operation durations of serverTelemetry / clientTelemetry (and clientNotificationTelemetry), the session durations of legacy
 * sessions, and for a server the trace context of HTTP headers (httpTraceContext). False when
 * `@opentelemetry/api` is not installed (nothing was added).
 */
export function instrument(target: McpServer | Client, options: InstrumentOptions = {}): boolean {
  const api = otelApi;
  if (api === undefined) return false;
  const { meterProvider } = options;
  if ('tool' in target) {
    const headers = httpTraceContext();
    if (headers !== undefined) target.use(headers);
    const middleware = serverTelemetry(options);
    if (middleware !== undefined) target.use(middleware);
    target.use(serverSessions(api, { meterProvider, activity: options.activity === true }));
    return true;
  }
  const middleware = clientTelemetry(options);
  if (middleware !== undefined) target.use(middleware);
  const notifications = clientNotificationTelemetry(options);
  if (notifications !== undefined) target.use(notifications);
  target.use(clientSessions(api, target, { meterProvider }));
  return true;
}
