// The OpenTelemetry set-ups the instruction counts of mcpkit/otel are taken with
// (bench/RESULTS.md, "OpenTelemetry"), chosen by MCPKIT_PROBE_OTEL in the environment:
//   api  mcpkit/otel's middleware on the server, @opentelemetry/api installed, no SDK registered;
//   sdk  the same with the SDK registered: a BasicTracerProvider whose SimpleSpanProcessor hands
//        every span to an exporter that drops it, the W3C propagators, the AsyncLocalStorage
//        context manager, and a MeterProvider whose reader never exports during the count.
// Unset: nothing (the server as the other rows count it). bench/otel-floor.mjs counts the same
// SDK's own operations without mcpkit.
import process from 'node:process';

/** Instruments `server` as MCPKIT_PROBE_OTEL says, from the checkout whose dist/ runs. */
export async function probeOtel(server, dist) {
  const kind = process.env.MCPKIT_PROBE_OTEL;
  if (kind === undefined || kind === '') return;
  const { instrument } = await import(`${dist}/esm/src/ext/otel/index.js`);
  if (kind !== 'api') await registerSdk();
  instrument(server);
}

/**
 * Registers the SDK of the `sdk` set-up globally: spans to a dropping exporter, W3C propagators,
 * the AsyncLocalStorage context manager, a MeterProvider that does not export during a count.
 * Returns the API module.
 */
export async function registerSdk() {
  const api = await import('@opentelemetry/api');
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  const core = await import('@opentelemetry/core');
  const { BasicTracerProvider, SimpleSpanProcessor } =
    await import('@opentelemetry/sdk-trace-base');
  const metrics = await import('@opentelemetry/sdk-metrics');
  const dropped = {
    export: (_spans, done) => done({ code: core.ExportResultCode.SUCCESS }),
    shutdown: () => Promise.resolve(),
  };
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(
    new core.CompositePropagator({
      propagators: [new core.W3CTraceContextPropagator(), new core.W3CBaggagePropagator()],
    }),
  );
  api.trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(dropped)] }),
  );
  const reader = new metrics.PeriodicExportingMetricReader({
    exporter: new metrics.InMemoryMetricExporter(metrics.AggregationTemporality.CUMULATIVE),
    exportIntervalMillis: 2_147_483_647,
  });
  api.metrics.setGlobalMeterProvider(new metrics.MeterProvider({ readers: [reader] }));
  return api;
}
