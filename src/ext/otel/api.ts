// The OpenTelemetry API, an optional peer: loaded once, when mcpkit/otel is imported. Absent, the
// telemetry functions add nothing (no middleware, no cost); present with no SDK registered, its
// no-op tracer and meter record nothing (docs/observability.md).
import type * as OtelApi from '@opentelemetry/api';

/** The `@opentelemetry/api` module, or undefined when it is not installed. */
export type Api = typeof OtelApi;

async function load(): Promise<Api | undefined> {
  try {
    return await import('@opentelemetry/api');
  } catch {
    return undefined;
  }
}

/** The loaded API; undefined when `@opentelemetry/api` is not installed. */
export const otelApi: Api | undefined = await load();
