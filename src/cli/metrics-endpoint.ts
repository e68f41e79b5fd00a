// `--metrics`: the Prometheus endpoint of `mcpkit serve` and `mcpkit gateway`, on a listener of its
// own. The metrics are collected by @opentelemetry/exporter-prometheus (a pull reader) and
// written in the Prometheus text format with the unit in the name, as OpenTelemetry's Prometheus
// compatibility asks and Prometheus users expect: `mcp.server.operation.duration` (unit `s`) is
// `mcp_server_operation_duration_seconds` (`_bucket`, `_sum`, `_count`). The exporter itself
// (0.223) leaves the unit out. Only `GET /metrics` is answered: no MCP, no Host check (it is read
// by a scraper that addresses the pod by IP), nothing but numbers.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type * as Prometheus from '@opentelemetry/exporter-prometheus';
import { messageOf } from '../internal/message-of.js';

type ResourceMetrics = Parameters<Prometheus.PrometheusSerializer['serialize']>[0];

/** The suffixes of UCUM units in Prometheus names (OpenTelemetry's Prometheus compatibility). */
const UNIT_WORDS: Readonly<Record<string, string>> = {
  s: 'seconds',
  ms: 'milliseconds',
  By: 'bytes',
};

/** The metrics endpoint: where it listens, and how to stop it. */
export interface MetricsEndpoint {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` at `address` from `exporter` (made with `preventServerStart`). Rejects
 * when the address cannot be listened on.
 */
export async function serveMetrics(
  module: typeof Prometheus,
  exporter: Prometheus.PrometheusExporter,
  address: { readonly host: string; readonly port: number },
): Promise<MetricsEndpoint> {
  const serializer = new module.PrometheusSerializer();
  const server: Server = createServer((request, response) => {
    answer(request, response, { collect: () => exporter.collect(), serializer });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.unref();
  const bound = server.address();
  const port = typeof bound === 'object' && bound !== null ? bound.port : address.port;
  const host = address.host.includes(':') ? `[${address.host}]` : address.host;
  return {
    url: `http://${host}:${String(port)}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}

function answer(
  request: IncomingMessage,
  response: ServerResponse,
  source: {
    readonly collect: () => Promise<{ resourceMetrics: ResourceMetrics }>;
    readonly serializer: Prometheus.PrometheusSerializer;
  },
): void {
  const { collect, serializer } = source;
  const path = (request.url ?? '/').split('?')[0];
  if (path !== '/metrics') {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found: try /metrics\n');
    return;
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  collect().then(
    ({ resourceMetrics }) => {
      const text = serializer.serialize(withUnits(resourceMetrics));
      response.writeHead(200, {
        'content-type': 'text/plain; version=0.0.4; charset=utf-8',
        'cache-control': 'no-store',
      });
      response.end(request.method === 'HEAD' ? undefined : text);
    },
    (error: unknown) => {
      const message = messageOf(error);
      response.writeHead(500, { 'content-type': 'text/plain' }).end(`# ${message}\n`);
    },
  );
}

/** The metrics with the unit's word at the end of each name (`_seconds`), once. */
export function withUnits(resourceMetrics: ResourceMetrics): ResourceMetrics {
  return {
    ...resourceMetrics,
    scopeMetrics: resourceMetrics.scopeMetrics.map((scope) => ({
      ...scope,
      metrics: scope.metrics.map((metric) => {
        const word = UNIT_WORDS[metric.descriptor.unit];
        const { name } = metric.descriptor;
        if (word === undefined || name.endsWith(`_${word}`) || name.endsWith(`.${word}`)) {
          return metric;
        }
        return { ...metric, descriptor: { ...metric.descriptor, name: `${name}_${word}` } };
      }),
    })),
  };
}
