// Several endpoints on one HTTP server: a Streamable HTTP handler per endpoint (`/mcp`, and
// `/mcp/<name>`), each with its own path, resource URL and metadata, behind one handler that
// picks by path, per request: a reload adds and removes endpoints under it. What no endpoint
// claims (the health endpoint, 404s) goes to the default one.
import type { CloseOptions, StreamableHttpHandler } from '../transports/http/index.js';
import { pathOf } from '../transports/http/server/exchange.js';

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** The handler of {@link routeEndpoints}: serves its endpoints, which may come and go. */
export interface EndpointRoutes extends StreamableHttpHandler {
  /** Serves `handler` at its `options.path` (and its metadata path) from the next request on. */
  add(handler: StreamableHttpHandler): void;
  /**
   * Stops serving the handler at `path` (from the next request on its paths are the default
   * handler's: 404) and closes it: its sessions end, its GET streams end, and requests in flight
   * get `options.graceMs` to finish. Resolves once closed; nothing to do for an unknown path.
   */
  remove(path: string, options?: CloseOptions): Promise<void>;
}

/**
 * One handler serving `endpoints` (each answering at its `options.path`, and at its protected
 * resource metadata path) and `fallback` for every other path. Closing it closes them all.
 */
export function routeEndpoints(
  fallback: StreamableHttpHandler,
  endpoints: readonly StreamableHttpHandler[],
): EndpointRoutes {
  const byPath = new Map<string, StreamableHttpHandler>();
  const served = new Map<string, StreamableHttpHandler>();
  const closing = new Set<Promise<void>>();
  const add = (handler: StreamableHttpHandler) => {
    const { path } = handler.options;
    served.set(path, handler);
    byPath.set(path, handler);
    byPath.set(`${WELL_KNOWN}${path}`, handler);
  };
  for (const handler of endpoints) add(handler);
  return {
    serve(exchange, answer) {
      if (byPath.size === 0) fallback.serve(exchange, answer);
      else (byPath.get(pathOf(exchange.url)) ?? fallback).serve(exchange, answer);
    },
    add,
    remove(path, options) {
      const handler = served.get(path);
      if (handler === undefined) return Promise.resolve();
      served.delete(path);
      byPath.delete(path);
      byPath.delete(`${WELL_KNOWN}${path}`);
      const closed = handler.close(options);
      closing.add(closed);
      return closed.finally(() => closing.delete(closed));
    },
    async close(options) {
      const all = [fallback, ...served.values()];
      await Promise.all([...all.map((handler) => handler.close(options)), ...closing]);
    },
    get sessionCount() {
      let sum = fallback.sessionCount;
      for (const handler of served.values()) sum += handler.sessionCount;
      return sum;
    },
    options: fallback.options,
  };
}
