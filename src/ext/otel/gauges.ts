// Gauges read when the metrics are collected (a Prometheus scrape, an OTLP export): the health of
// a gateway's upstreams. mcpkit's own metrics, beside the conventions' (ActivityMetric).
import type { MeterProvider } from '@opentelemetry/api';
import { otelApi } from './api.js';
import { ActivityMetric, SCOPE } from './meters.js';

/** What gatewayHealth reads: a Gateway's `status()` fits. */
export interface UpstreamHealth {
  status(): {
    readonly upstreams: readonly {
      readonly name: string;
      readonly state: string;
      readonly transport: string;
    }[];
  };
}

/**
 * Observes `mcpkit.gateway.upstream.up` for each upstream of `gateway` at each collection: 1 when
 * it is connected (`ready`), 0 otherwise (connecting, down), by `mcpkit.upstream.name` and
 * `mcpkit.upstream.transport`. Uses `meterProvider`, else the global one at the time of the call
 * (register the SDK first). Returns the function that stops observing; undefined without
 * `@opentelemetry/api`.
 */
export function gatewayHealth(
  gateway: UpstreamHealth,
  meterProvider?: MeterProvider,
): (() => void) | undefined {
  const api = otelApi;
  if (api === undefined) return undefined;
  const meter = (meterProvider ?? api.metrics.getMeterProvider()).getMeter(SCOPE);
  const up = meter.createObservableGauge(ActivityMetric.upstreamUp, {
    unit: '1',
    description: 'Whether the gateway is connected to the upstream server (1) or not (0).',
  });
  const observe = (result: {
    observe(value: number, attributes: Record<string, string>): void;
  }) => {
    for (const upstream of gateway.status().upstreams) {
      if (upstream.state === 'closed') continue;
      result.observe(upstream.state === 'ready' ? 1 : 0, {
        'mcpkit.upstream.name': upstream.name,
        'mcpkit.upstream.transport': upstream.transport,
      });
    }
  };
  up.addCallback(observe);
  return () => {
    up.removeCallback(observe);
  };
}
