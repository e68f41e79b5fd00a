// mcpkit/otel: OpenTelemetry traces and metrics by the MCP semantic conventions, through the
// server and client middleware seams. `@opentelemetry/api` is an optional peer: without it the
// functions give undefined and nothing is added. See docs/observability.md.
import type { Client } from '../../client/index.js';
import type { McpServer } from '../../server/index.js';
import { clientTelemetry } from './client.js';
import { serverTelemetry } from './server.js';
import type { TelemetryOptions } from './record.js';

export { clientTelemetry } from './client.js';
export { serverTelemetry } from './server.js';
export type { TelemetryOptions } from './record.js';
export type { RecordingOptions } from './conventions.js';
export { Attr as OtelAttributes, Metric as OtelMetrics } from './conventions.js';

/**
 * Traces `target` (an McpServer or a Client) by the conventions; false when
 * `@opentelemetry/api` is not installed (nothing was added).
 */
export function instrument(target: McpServer | Client, options: TelemetryOptions = {}): boolean {
  if ('tool' in target) {
    const middleware = serverTelemetry(options);
    if (middleware !== undefined) target.use(middleware);
    return middleware !== undefined;
  }
  const middleware = clientTelemetry(options);
  if (middleware !== undefined) target.use(middleware);
  return middleware !== undefined;
}
