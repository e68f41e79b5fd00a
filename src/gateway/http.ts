// Several endpoints on one HTTP server: a Streamable HTTP handler per endpoint (`/mcp`, and
// `/mcp/<name>`), each with its own path, resource URL and metadata, behind one handler that
// picks by path. What no endpoint claims (the health endpoint, 404s) goes to the default one.
import type { StreamableHttpHandler } from '../transports/http/index.js';
import { pathOf } from '../transports/http/server/exchange.js';

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/**
 * One handler serving `endpoints` (each answering at its `options.path`, and at its protected
 * resource metadata path) and `fallback` for every other path. Closing it closes them all.
 */
export function routeEndpoints(
  fallback: StreamableHttpHandler,
  endpoints: readonly StreamableHttpHandler[],
): StreamableHttpHandler {
  const byPath = new Map<string, StreamableHttpHandler>();
  for (const handler of endpoints) {
    byPath.set(handler.options.path, handler);
    byPath.set(`${WELL_KNOWN}${handler.options.path}`, handler);
  }
  const all = [fallback, ...endpoints];
  return {
    serve(exchange, answer) {
      (byPath.get(pathOf(exchange.url)) ?? fallback).serve(exchange, answer);
    },
    async close(options) {
      await Promise.all(all.map((handler) => handler.close(options)));
    },
    get sessionCount() {
      return all.reduce((sum, handler) => sum + handler.sessionCount, 0);
    },
    options: fallback.options,
  };
}
