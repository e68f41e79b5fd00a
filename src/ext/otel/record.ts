// One operation's span and duration, on either side: started with the conventions' name and
// attributes (its shape, shapes.ts), ended with the outcome classified (conventions.ts), the
// duration recorded in the side's histogram. The providers are looked up per operation (two
// global reads), so an SDK registered after the middleware was made is used from then on; the
// tracer and histogram are made again only when a provider changed.
import type {
  Context,
  Histogram,
  Link,
  MeterProvider,
  Span,
  Tracer,
  TracerProvider,
} from '@opentelemetry/api';
import type { Api } from './api.js';
import type { Attributes, RecordingOptions } from './conventions.js';
import { Attr, DURATION_BUCKETS, Metric, errorAttributes, json } from './conventions.js';
import type { Shape, SpanStart } from './shapes.js';

/** Options of `serverTelemetry` and `clientTelemetry`. */
export interface TelemetryOptions extends RecordingOptions {
  /** Where spans go. Default: the global tracer provider (the registered SDK's). */
  readonly tracerProvider?: TracerProvider;
  /** Where the histograms go. Default: the global meter provider (the registered SDK's). */
  readonly meterProvider?: MeterProvider;
}

const SCOPE = 'mcpkit';

/** One operation being recorded: its span, shape and start time. */
export interface Operation {
  readonly span: Span;
  readonly shape: Shape;
  readonly started: number;
}

/** Records the operations of one side (client or server) of one middleware. */
export class Recorder {
  readonly api: Api;
  readonly options: TelemetryOptions;
  readonly #metric: string;
  #tracerProvider: TracerProvider | undefined;
  #meterProvider: MeterProvider | undefined;
  #on = false;
  #tracer: Tracer | undefined;
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
    // The global tracer provider is a proxy: its delegate is the API's no-op one until an SDK
    // registers.
    let tracers = options.tracerProvider;
    if (tracers === undefined) {
      const global = api.trace.getTracerProvider() as TracerProvider & {
        getDelegate?: () => TracerProvider;
      };
      tracers = global.getDelegate?.() ?? global;
    }
    const meters = options.meterProvider ?? api.metrics.getMeterProvider();
    if (tracers !== this.#tracerProvider || meters !== this.#meterProvider) {
      this.#providers(tracers, meters);
    }
    return this.#on;
  }

  /** Takes the tracer and histogram of new providers (the API exports no way to tell a no-op one but by name). */
  #providers(tracers: TracerProvider, meters: MeterProvider): void {
    const { options } = this;
    this.#tracerProvider = tracers;
    this.#meterProvider = meters;
    this.#on =
      options.tracerProvider !== undefined ||
      options.meterProvider !== undefined ||
      tracers.constructor.name !== 'NoopTracerProvider' ||
      meters.constructor.name !== 'NoopMeterProvider';
    this.#tracer = tracers.getTracer(SCOPE);
    this.#histogram = meters.getMeter(SCOPE).createHistogram(this.#metric, {
      unit: 's',
      description: 'The duration of an MCP request or notification, as the conventions define it.',
      advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] },
    });
  }

  /** Starts the span `start` under `parent`, for a message of `shape`; after `enabled()` said true. */
  start(shape: Shape, start: SpanStart, parent: Context): Operation {
    const started = performance.now();
    const span = (this.#tracer as Tracer).startSpan(start.name, start.options, parent);
    return { span, shape, started };
  }

  /**
   * Runs `next` with `active` (the span's context) and ends the span when it is done: at once
   * when it answered at once (the value is returned as it is), else when its promise settles.
   */
  run<T>(operation: Operation, active: Context, next: () => T): T {
    let value: T;
    try {
      value = this.api.context.with(active, next);
    } catch (error) {
      this.#fail(operation, error);
      throw error;
    }
    if (!(value instanceof Promise)) {
      this.#succeed(operation, value);
      return value;
    }
    return value.then(
      (result: unknown) => {
        this.#succeed(operation, result);
        return result;
      },
      (error: unknown) => {
        this.#fail(operation, error);
        throw error;
      },
    ) as T;
  }

  #succeed(operation: Operation, result: unknown): void {
    const { span, shape } = operation;
    let metric = shape.metric;
    if (shape.tool && typeof result === 'object' && result !== null) {
      if ((result as { isError?: unknown }).isError === true) {
        span.setAttribute(Attr.errorType, 'tool_error');
        span.setStatus({ code: this.api.SpanStatusCode.ERROR });
        metric = shape.toolError();
      } else if (this.options.toolResults === true) {
        span.setAttribute(Attr.toolResult, json(result));
      }
    }
    this.#end(operation, metric);
  }

  #fail(operation: Operation, error: unknown): void {
    const { span, shape } = operation;
    const outcome: Attributes = {};
    const message = errorAttributes(error, outcome);
    span.setAttributes(outcome);
    const status = { code: this.api.SpanStatusCode.ERROR };
    span.setStatus(message === undefined ? status : { ...status, message });
    this.#end(operation, { ...shape.metric, ...outcome });
  }

  #end(operation: Operation, metric: Attributes): void {
    operation.span.end();
    const seconds = (performance.now() - operation.started) / 1000;
    (this.#histogram as Histogram).record(seconds, metric);
  }
}

/** A link to the span of `context` when it has a valid one (an HTTP server span). */
export function linkTo(api: Api, context: Context): Link[] | undefined {
  const spanContext = api.trace.getSpanContext(context);
  return spanContext === undefined || !api.trace.isSpanContextValid(spanContext)
    ? undefined
    : [{ context: spanContext }];
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

/**
 * The context a message's `params._meta` carries (SEP-414), on top of `ambient`; `ambient`
 * itself when the message carries none.
 */
export function metaParent(api: Api, params: Record<string, unknown>, ambient: Context): Context {
  const meta = params['_meta'];
  return typeof meta === 'object' && meta !== null
    ? api.propagation.extract(ambient, meta as Record<string, unknown>, metaGetter)
    : ambient;
}

/** The W3C keys are written unprefixed into (and read from) `params._meta` (SEP-414). */
export const metaGetter = {
  keys: (carrier: Record<string, unknown>): string[] => Object.keys(carrier),
  get: (carrier: Record<string, unknown>, key: string): string | undefined => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};
