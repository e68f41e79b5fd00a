// One operation's span and duration, on either side: started with the conventions' name and
// attributes, ended with the outcome classified (conventions.ts), the duration recorded in the
// side's histogram. The meter is looked up per operation, so an SDK registered after the
// middleware was made is used from then on.
import type {
  Context,
  Histogram,
  Link,
  MeterProvider,
  Span,
  TracerProvider,
} from '@opentelemetry/api';
import type { Api } from './api.js';
import type { Attributes, RecordingOptions } from './conventions.js';
import {
  DURATION_BUCKETS,
  Metric,
  errorAttributes,
  metricAttributes,
  resultAttributes,
} from './conventions.js';

/** Options of `serverTelemetry` and `clientTelemetry`. */
export interface TelemetryOptions extends RecordingOptions {
  /** Where spans go. Default: the global tracer provider (the registered SDK's). */
  readonly tracerProvider?: TracerProvider;
  /** Where the histograms go. Default: the global meter provider (the registered SDK's). */
  readonly meterProvider?: MeterProvider;
}

const SCOPE = 'mcpkit';

/** One operation being recorded: its span's name and kind, attributes, start time. */
export interface Operation {
  readonly name: string;
  readonly kind: 'client' | 'server';
  readonly method: string;
  readonly attributes: Attributes;
  readonly started: number;
}

/** Records the operations of one side (client or server) of one middleware. */
export class Recorder {
  readonly api: Api;
  readonly options: TelemetryOptions;
  readonly #metric: string;
  #meterProvider: MeterProvider | undefined;
  #histogram: Histogram | undefined;

  constructor(api: Api, side: 'client' | 'server', options: TelemetryOptions) {
    this.api = api;
    this.options = options;
    this.#metric = side === 'client' ? Metric.clientOperation : Metric.serverOperation;
  }

  /**
   * False while nothing would record: no provider given, and neither an SDK's tracer provider
   * nor a meter provider registered globally. The middleware then only calls `next()`, so the
   * API installed without an SDK costs a check per message.
   */
  enabled(): boolean {
    const { options, api } = this;
    if (options.tracerProvider !== undefined || options.meterProvider !== undefined) return true;
    // The global tracer provider is a proxy: its delegate is the API's no-op one until an SDK
    // registers (the API exports no non-deprecated way to tell, hence the names).
    const tracers = api.trace.getTracerProvider() as TracerProvider & {
      getDelegate?: () => TracerProvider;
    };
    const delegate = tracers.getDelegate?.() ?? tracers;
    if (delegate.constructor.name !== 'NoopTracerProvider') return true;
    const meters = api.metrics.getMeterProvider();
    return meters.constructor.name !== 'NoopMeterProvider';
  }

  /** Starts the span of `operation` under `parent`, with `links` if any. */
  start(operation: Operation, parent: Context, links?: Link[]): Span {
    const { api } = this;
    const provider = this.options.tracerProvider ?? api.trace.getTracerProvider();
    const kind = operation.kind === 'client' ? api.SpanKind.CLIENT : api.SpanKind.SERVER;
    const { attributes } = operation;
    const options = links === undefined ? { kind, attributes } : { kind, attributes, links };
    return provider.getTracer(SCOPE).startSpan(operation.name, options, parent);
  }

  /**
   * Runs `next` with `active` (the span's context) and ends `span` when it is done: at once when
   * it answered at once (the value is returned as it is), else when its promise settles.
   */
  run<T>(span: Span, operation: Operation & { active: Context }, next: () => T): T {
    let value: T;
    try {
      value = this.api.context.with(operation.active, next);
    } catch (error) {
      this.#fail(span, operation, error);
      throw error;
    }
    if (!(value instanceof Promise)) {
      this.#succeed(span, operation, value);
      return value;
    }
    return value.then(
      (result: unknown) => {
        this.#succeed(span, operation, result);
        return result;
      },
      (error: unknown) => {
        this.#fail(span, operation, error);
        throw error;
      },
    ) as T;
  }

  #succeed(span: Span, operation: Operation, result: unknown): void {
    const { attributes } = operation;
    const before = Object.keys(attributes).length;
    const failed = resultAttributes(operation, result, this.options);
    if (Object.keys(attributes).length > before) span.setAttributes(attributes);
    if (failed) span.setStatus({ code: this.api.SpanStatusCode.ERROR });
    this.#end(span, operation);
  }

  #fail(span: Span, operation: Operation, error: unknown): void {
    const message = errorAttributes(error, operation.attributes);
    span.setAttributes(operation.attributes);
    const status = { code: this.api.SpanStatusCode.ERROR };
    span.setStatus(message === undefined ? status : { ...status, message });
    this.#end(span, operation);
  }

  #end(span: Span, operation: Operation): void {
    span.end();
    const seconds = (performance.now() - operation.started) / 1000;
    this.#histogramNow().record(seconds, metricAttributes(operation.attributes));
  }

  #histogramNow(): Histogram {
    const provider = this.options.meterProvider ?? this.api.metrics.getMeterProvider();
    if (provider !== this.#meterProvider || this.#histogram === undefined) {
      this.#meterProvider = provider;
      this.#histogram = provider.getMeter(SCOPE).createHistogram(this.#metric, {
        unit: 's',
        description:
          'The duration of an MCP request or notification, as the conventions define it.',
        advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] },
      });
    }
    return this.#histogram;
  }
}

/** `params` with the context of `active` written into a copy of its `_meta`. */
export function injected(
  api: Api,
  active: Context,
  params: Record<string, unknown>,
): Record<string, unknown> {
  const meta = params['_meta'];
  const carrier: Record<string, unknown> =
    typeof meta === 'object' && meta !== null ? { ...(meta as Record<string, unknown>) } : {};
  api.propagation.inject(active, carrier);
  return Object.keys(carrier).length > 0 ? { ...params, _meta: carrier } : params;
}

/** The W3C keys are written unprefixed into (and read from) `params._meta` (SEP-414). */
export const metaGetter = {
  keys: (carrier: Record<string, unknown>): string[] => Object.keys(carrier),
  get: (carrier: Record<string, unknown>, key: string): string | undefined => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};
