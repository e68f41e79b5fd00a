// W3C trace context on the HTTP requests themselves, beside `params._meta`: what a proxy, a load
// balancer or a service mesh between client and server reads. The client side is a fetch wrapper
// (the Streamable HTTP client transport's `fetch` option) that writes the active context's
// headers (`traceparent`, `tracestate`, and whatever else the configured propagator writes) into
// each request; the server side is a request middleware that makes the context of those headers
// the active one for a request whose `_meta` carries none, so that serverTelemetry's span is its
// child.
import type { TextMapGetter } from '@opentelemetry/api';
import type { RequestMiddleware } from '../../server/index.js';
import { otelApi } from './api.js';

/** A fetch as the HTTP client transports call it (the global fetch fits). */
export type TracingFetch = (url: string, init: RequestInit) => Promise<Response>;

/**
 * Wraps `fetch` (default: the global one) so that each request carries the active trace context
 * in its headers, by the globally configured propagator (W3C `traceparent` and `tracestate`).
 * A header the request already has is left as it is. Without `@opentelemetry/api`, or with no
 * span active, requests go out unchanged. Give it as the transport's `fetch`:
 * `createStreamableHttpClientTransport(url, { fetch: tracingFetch() })`.
 */
export function tracingFetch(
  fetch: (url: string, init: RequestInit) => Promise<Response> = globalThis.fetch,
): TracingFetch {
  const api = otelApi;
  if (api === undefined) return (url, init) => fetch(url, init);
  return (url, init) => {
    const carrier: Record<string, string> = {};
    api.propagation.inject(api.context.active(), carrier);
    if (Object.keys(carrier).length === 0) return fetch(url, init);
    return fetch(url, { ...init, headers: withHeaders(init.headers, carrier) });
  };
}

/** `headers` with `added` set where it has no such field, in the form it came in. */
function withHeaders(headers: RequestInit['headers'], added: Record<string, string>): HeadersInit {
  if (headers instanceof Headers) {
    const copy = new Headers(headers);
    for (const [name, value] of Object.entries(added)) if (!copy.has(name)) copy.set(name, value);
    return copy;
  }
  if (Array.isArray(headers)) {
    const have = new Set(headers.map(([name]) => name.toLowerCase()));
    const extra = Object.entries(added).filter(([name]) => !have.has(name));
    return [...headers, ...extra];
  }
  const record = { ...headers };
  const have = new Set(Object.keys(record).map((name) => name.toLowerCase()));
  for (const [name, value] of Object.entries(added)) if (!have.has(name)) record[name] = value;
  return record;
}

const headerGetter: TextMapGetter<Readonly<Record<string, string>>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key.toLowerCase()],
};

/**
 * A server request middleware: a request that came over HTTP with a `traceparent` header and
 * without one in `params._meta` is served in the context of its headers, so that the server
 * span (serverTelemetry, registered after it) is a child of the HTTP caller's span. The context
 * in `_meta`, when there is one, keeps precedence, as the conventions ask. Undefined without
 * `@opentelemetry/api`. `instrument(server)` registers it.
 */
export function httpTraceContext(): RequestMiddleware | undefined {
  const api = otelApi;
  if (api === undefined) return undefined;
  return (ctx, next) => {
    const headers = ctx.transport?.headers;
    if (headers?.['traceparent'] === undefined) return next();
    const meta = ctx.params['_meta'];
    if (typeof meta === 'object' && meta !== null && 'traceparent' in meta) return next();
    const parent = api.propagation.extract(api.context.active(), headers, headerGetter);
    return api.context.with(parent, next);
  };
}
