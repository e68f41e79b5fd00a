// The instruments of the session and activity metrics, made once per meter provider: the global
// provider may change (an SDK registered after the middleware was made), so each use asks for
// the current one and the instruments are made again only when it changed.
import type { Histogram, Meter, MeterProvider, UpDownCounter } from '@opentelemetry/api';
import type { Api } from './api.js';
import { DURATION_BUCKETS } from './conventions.js';

/** The meter scope of mcpkit's instruments (the spans' tracer scope too). */
export const SCOPE = 'mcpkit';

/** The metrics mcpkit adds beyond the conventions (their names say they are mcpkit's). */
export const ActivityMetric = {
  activeRequests: 'mcpkit.server.active_requests',
  activeSessions: 'mcpkit.server.active_sessions',
  tasks: 'mcpkit.server.tasks',
  upstreamUp: 'mcpkit.gateway.upstream.up',
} as const;

/**
 * Instruments of one kind made from the current meter provider: `make` is called again when the
 * provider changed since the last call.
 */
export class Instruments<T> {
  readonly #api: Api;
  readonly #provider: MeterProvider | undefined;
  readonly #make: (meter: Meter) => T;
  #madeFor: MeterProvider | undefined;
  #made: T | undefined;

  constructor(api: Api, provider: MeterProvider | undefined, make: (meter: Meter) => T) {
    this.#api = api;
    this.#provider = provider;
    this.#make = make;
  }

  /** False while no meter provider is given nor an SDK's registered: nothing would record. */
  enabled(): boolean {
    if (this.#provider !== undefined) return true;
    return this.#api.metrics.getMeterProvider().constructor.name !== 'NoopMeterProvider';
  }

  /** The instruments of the current provider. */
  get(): T {
    const provider = this.#provider ?? this.#api.metrics.getMeterProvider();
    if (provider !== this.#madeFor || this.#made === undefined) {
      this.#madeFor = provider;
      this.#made = this.#make(provider.getMeter(SCOPE));
    }
    return this.#made;
  }
}

/** A session-duration histogram by the conventions (seconds, the advised buckets). */
export function sessionHistogram(meter: Meter, name: string, side: string): Histogram {
  return meter.createHistogram(name, {
    unit: 's',
    description: `The duration of the MCP session as observed on the MCP ${side}.`,
    advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] },
  });
}

/** An up-down counter of things open now. */
export function gauge(
  meter: Meter,
  name: string,
  about: { readonly unit: string; readonly description: string },
): UpDownCounter {
  return meter.createUpDownCounter(name, about);
}
