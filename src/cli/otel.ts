// OpenTelemetry for the commands that serve or call (serve, gateway, chat): `--otel`, or the
// standard OTEL_* variables, start the OpenTelemetry Node SDK, which reads its exporter, endpoint,
// protocol, service name and propagators from those variables (OTLP over HTTP by default), and
// mcpkit/otel traces the command's server and clients. The SDK is an optional peer: when it is
// missing, the command says which packages to install. docs/observability.md.
import process from 'node:process';
import type * as SdkNode from '@opentelemetry/sdk-node';
import type { Client } from '../client/index.js';
import { instrument } from '../ext/otel/index.js';
import type { McpServer } from '../server/index.js';
import { CliError } from './errors.js';

/** The line of --help that documents --otel. */
export const OTEL_FLAG_HELP =
  '  --otel                    send traces and metrics with OpenTelemetry (OTLP/HTTP to\n' +
  '                            OTEL_EXPORTER_OTLP_ENDPOINT, default http://localhost:4318;\n' +
  '                            needs @opentelemetry/api and @opentelemetry/sdk-node)';

/** The packages --otel needs, as an install hint. */
export const OTEL_INSTALL = 'npm install @opentelemetry/api @opentelemetry/sdk-node';

/** Telemetry started for one command: instrument what it makes, flush at its end. */
export interface CliTelemetry {
  /**
   * Traces `target` by the MCP semantic conventions: an McpServer or a Client; anything else
   * (a server that is not mcpkit's McpServer) is left as it is, and false returned.
   */
  instrument(target: object): boolean;
  /** Sends what is buffered and stops the SDK. */
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
  flag: boolean,
  service: string,
  env: Env,
): Promise<CliTelemetry | undefined> {
  if (!wantsTelemetry(flag, env)) return undefined;
  let sdkNode: typeof SdkNode;
  try {
    sdkNode = await import('@opentelemetry/sdk-node');
  } catch (error) {
    throw missing('@opentelemetry/sdk-node', error);
  }
  // The SDK reads process.env; a command run in a test may be given its own env.
  for (const [key, value] of Object.entries(env)) {
    if (key.startsWith('OTEL_') && value !== undefined) process.env[key] = value;
  }
  const sdk = new sdkNode.NodeSDK({ serviceName: env['OTEL_SERVICE_NAME'] ?? service });
  sdk.start();
  return {
    instrument: (target) => {
      if (!isTraceable(target)) return false;
      if (!instrument(target)) throw missing('@opentelemetry/api', undefined);
      return true;
    },
    shutdown: () => sdk.shutdown(),
  };
}

/** An McpServer (`tool` and `use`) or a Client (`callTool` and `use`), checked structurally. */
function isTraceable(target: object): target is McpServer | Client {
  return 'use' in target && ('tool' in target || 'callTool' in target);
}

function missing(name: string, cause: unknown): CliError {
  return new CliError(`--otel needs the package ${name}, which is not installed`, {
    hint: `${OTEL_INSTALL} (beside mcpkit)`,
    cause,
  });
}
