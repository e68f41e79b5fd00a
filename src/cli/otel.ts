// OpenTelemetry for the commands that serve or call (serve, gateway, chat): `--otel`, or the
// standard OTEL_* variables, start the OpenTelemetry Node SDK, which reads its exporter, endpoint,
// protocol, service name and propagators from those variables (OTLP over HTTP by default), and
// mcpkit/otel traces the command's server and clients. The SDK is an optional peer: when it is
// missing, the command says which packages to install. docs/observability.md.
import process from 'node:process';
import type * as Prometheus from '@opentelemetry/exporter-prometheus';
import type * as SdkNode from '@opentelemetry/sdk-node';
import type { Client } from '../client/index.js';
import type { InstrumentOptions, TracingFetch, UpstreamHealth } from '../ext/otel/index.js';
import { countedTasks, gatewayHealth, instrument, tracingFetch } from '../ext/otel/index.js';
import type { TasksOptions } from '../ext/tasks/index.js';
import { MemoryTaskStore } from '../ext/tasks/index.js';
import type { McpServer } from '../server/index.js';
import { createNodeFetch } from '../transports/http/node.js';
import { CliError } from './errors.js';
import type { MetricsEndpoint } from './metrics-endpoint.js';
import { serveMetrics } from './metrics-endpoint.js';
import { parseAddress } from './serving.js';

/** The line of --help that documents --otel. */
export const OTEL_FLAG_HELP: string =
  '  --otel                    send traces and metrics with OpenTelemetry (OTLP/HTTP to\n' +
  '                            OTEL_EXPORTER_OTLP_ENDPOINT, default http://localhost:4318;\n' +
  '                            needs @opentelemetry/api and @opentelemetry/sdk-node)';

/** The line of --help that documents --metrics. */
export const METRICS_FLAG_HELP: string =
  '  --metrics [host:]port     serve metrics on http://host:port/metrics for Prometheus\n' +
  '                            (durations, requests in flight, sessions, tasks; host default\n' +
  '                            127.0.0.1; its own listener, no Host check; needs\n' +
  '                            @opentelemetry/exporter-prometheus and @opentelemetry/sdk-node)';

/** The packages --otel needs, as an install hint. */
export const OTEL_INSTALL = 'npm install @opentelemetry/api @opentelemetry/sdk-node';

/** Telemetry started for one command: instrument what it makes, flush at its end. */
export interface CliTelemetry {
  /**
   * Traces `target` by the MCP semantic conventions: an McpServer or a Client; anything else
   * (a server that is not mcpkit's McpServer) is left as it is, and false returned.
   */
  instrument(target: object): boolean;
  /** `fetch` with the active trace context in each request's headers (tracingFetch). */
  fetch(base: (url: string, init: RequestInit) => Promise<Response>): TracingFetch;
  /** The tasks options with the store's tasks counted by status (mcpkit.server.tasks). */
  tasks(options: TasksOptions): TasksOptions;
  /** Observes the health of a gateway's upstreams (mcpkit.gateway.upstream.up). */
  watch(gateway: UpstreamHealth): void;
  /** Where `--metrics` serves, if asked. */
  readonly metricsUrl: string | undefined;
  /** Sends what is buffered and stops the SDK (and the metrics endpoint). */
  shutdown(): Promise<void>;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Whether telemetry is asked for: `--otel`, or an OTEL_* variable naming an exporter or an
 * endpoint (OTEL_SDK_DISABLED=true turns it off).
 */
export function wantsTelemetry(flag: boolean, env: Env): boolean {
  if (env['OTEL_SDK_DISABLED']?.toLowerCase() === 'true') return false;
  if (flag) return true;
  const traces = env['OTEL_TRACES_EXPORTER'];
  return (
    (traces !== undefined && traces !== '' && traces !== 'none') ||
    Boolean(env['OTEL_EXPORTER_OTLP_ENDPOINT']) ||
    Boolean(env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'])
  );
}

/**
 * Starts the OpenTelemetry Node SDK for a command when asked (see wantsTelemetry), its service
 * name OTEL_SERVICE_NAME or `service`; undefined when not asked. Throws CliError naming the
 * packages to install when the SDK or the API is missing.
 */
export async function startTelemetry(
  asked: { readonly otel: boolean; readonly metrics?: { host: string; port: number } | undefined },
  service: string,
  env: Env,
): Promise<CliTelemetry | undefined> {
  const { metrics } = asked;
  const traced = wantsTelemetry(asked.otel, env);
  if (!traced && metrics === undefined) return undefined;
  let sdkNode: typeof SdkNode;
  try {
    sdkNode = await import('@opentelemetry/sdk-node');
  } catch (error) {
    throw missing('@opentelemetry/sdk-node', error);
  }
  const prometheus = metrics === undefined ? undefined : await prometheusReader(metrics);
  const exporter = prometheus?.exporter;
  const activity = metrics !== undefined;
  const stopMetrics = async () => {
    await prometheus?.endpoint.close();
  };
  if (!traced) {
    // --metrics alone: a meter provider of its own, read by the Prometheus exporter.
    const meterProvider = new sdkNode.metrics.MeterProvider({ readers: [exporter as never] });
    return telemetry({ meterProvider, activity }, prometheus?.endpoint.url, async () => {
      await stopMetrics();
      await meterProvider.shutdown();
    });
  }
  // The SDK reads process.env; a command run in a test may be given its own env.
  for (const [key, value] of Object.entries(env)) {
    if (key.startsWith('OTEL_') && value !== undefined) process.env[key] = value;
  }
  const sdk = new sdkNode.NodeSDK({
    serviceName: env['OTEL_SERVICE_NAME'] ?? service,
    ...(exporter === undefined ? {} : { metricReaders: [exporter] }),
  });
  sdk.start();
  return telemetry({ activity }, prometheus?.endpoint.url, async () => {
    await stopMetrics();
    await sdk.shutdown();
  });
}

function telemetry(
  options: InstrumentOptions,
  metricsUrl: string | undefined,
  shutdown: () => Promise<void>,
): CliTelemetry {
  const stops: (() => void)[] = [];
  return {
    instrument: (target) => {
      if (!isTraceable(target)) return false;
      if (!instrument(target, options)) throw missing('@opentelemetry/api', undefined);
      return true;
    },
    fetch: (base) => tracingFetch(base),
    tasks: (tasks) => ({
      ...tasks,
      store: countedTasks(tasks.store ?? new MemoryTaskStore(), options.meterProvider),
    }),
    watch: (gateway) => {
      const stop = gatewayHealth(gateway, options.meterProvider);
      if (stop !== undefined) stops.push(stop);
    },
    metricsUrl,
    shutdown: async () => {
      for (const stop of stops.splice(0)) stop();
      await shutdown();
    },
  };
}

/** The Prometheus exporter (a pull reader), and /metrics served from it at `address`. */
async function prometheusReader(address: {
  host: string;
  port: number;
}): Promise<{ exporter: Prometheus.PrometheusExporter; endpoint: MetricsEndpoint }> {
  let module: typeof Prometheus;
  try {
    module = await import('@opentelemetry/exporter-prometheus');
  } catch (error) {
    throw missing('@opentelemetry/exporter-prometheus', error, '--metrics');
  }
  const exporter = new module.PrometheusExporter({ preventServerStart: true });
  try {
    return { exporter, endpoint: await serveMetrics(module, exporter, address) };
  } catch (error) {
    const where = `${address.host}:${String(address.port)}`;
    throw new CliError(`--metrics cannot listen on ${where}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * What a gateway or a host takes to trace the clients it makes: `onClient` instruments each, and
 * `fetch` (for HTTP servers) writes the trace context into each request's headers too; over
 * `node` fetch (createNodeFetch, the gateway's default) or the global one. `close` closes the
 * node fetch's idle connections.
 */
export function tracedClients(
  telemetry: CliTelemetry,
  over: 'node' | 'global',
): {
  options: { onClient: (client: Client) => void; fetch: TracingFetch };
  close: () => void;
} {
  const base = over === 'node' ? createNodeFetch() : undefined;
  return {
    options: {
      onClient: (client) => {
        telemetry.instrument(client);
      },
      fetch: telemetry.fetch(base ?? ((url, init) => globalThis.fetch(url, init))),
    },
    close: () => base?.close(),
  };
}

/** An McpServer (`tool` and `use`) or a Client (`callTool` and `use`), checked structurally. */
function isTraceable(target: object): target is McpServer | Client {
  return 'use' in target && ('tool' in target || 'callTool' in target);
}

function missing(name: string, cause: unknown, what = '--otel'): CliError {
  return new CliError(`${what} needs the package ${name}, which is not installed`, {
    hint: `${OTEL_INSTALL}${what === '--metrics' ? ' @opentelemetry/exporter-prometheus' : ''} (beside mcpkit)`,
    cause,
  });
}

/** `--metrics`' value: a port (on 127.0.0.1), or host:port. Throws UsageError. */
export function metricsAddress(value: string): { host: string; port: number } {
  return parseAddress(value);
}
