// The real OpenTelemetry SDK for a test file: an in-memory span exporter behind a
// SimpleSpanProcessor, W3C trace-context and baggage propagators, the AsyncLocalStorage context
// manager, and a MeterProvider whose reader exports only when asked. `useOtelSdk()` registers it
// globally for the file (vitest hooks) and resets the spans and runs the cleanups after each test.
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  CompositePropagator,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import type { MetricData } from '@opentelemetry/sdk-metrics';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

/** The SDK of one test file. */
export interface OtelSdk {
  /** Every span ended since the test began. */
  readonly spans: InMemorySpanExporter;
  readonly meterProvider: MeterProvider;
  /** Closed after each test, in parallel. */
  readonly cleanups: (() => Promise<void>)[];
  /** The metrics recorded so far (cumulative), the latest export. */
  readonly metrics: () => Promise<MetricData[]>;
}

/** Registers the SDK for this file; `processors` see every span too (after the exporter's). */
export function useOtelSdk(processors: readonly SpanProcessor[] = []): OtelSdk {
  const spans = new InMemorySpanExporter();
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(
      new CompositePropagator({
        propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
      }),
    );
    const spanProcessors = [new SimpleSpanProcessor(spans), ...processors];
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors }));
  });
  afterAll(async () => {
    await meterProvider.shutdown();
    trace.disable();
    propagation.disable();
    context.disable();
  });
  beforeEach(() => {
    spans.reset();
  });
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
  });
  const metrics = async () => {
    exporter.reset();
    await reader.forceFlush();
    const scopes = exporter.getMetrics().at(-1)?.scopeMetrics ?? [];
    return scopes.flatMap((scope) => scope.metrics);
  };
  return { spans, meterProvider, cleanups, metrics };
}
