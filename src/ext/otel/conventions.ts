// The MCP semantic conventions of OpenTelemetry (semantic-conventions-genai, docs/gen-ai/mcp.md,
// status Development): span names, attributes and the classification of errors, the same for
// the server side and the client side. No I/O, no OpenTelemetry import.
import { JsonRpcError, LocalError } from '../../jsonrpc/index.js';

/** Attribute names of the conventions. */
export const Attr = {
  method: 'mcp.method.name',
  protocolVersion: 'mcp.protocol.version',
  sessionId: 'mcp.session.id',
  resourceUri: 'mcp.resource.uri',
  requestId: 'jsonrpc.request.id',
  errorType: 'error.type',
  statusCode: 'rpc.response.status_code',
  toolName: 'gen_ai.tool.name',
  promptName: 'gen_ai.prompt.name',
  operation: 'gen_ai.operation.name',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  networkTransport: 'network.transport',
  networkProtocol: 'network.protocol.name',
  serverAddress: 'server.address',
  serverPort: 'server.port',
} as const;

/** The four histograms of the conventions (seconds). */
export const Metric = {
  clientOperation: 'mcp.client.operation.duration',
  serverOperation: 'mcp.server.operation.duration',
  clientSession: 'mcp.client.session.duration',
  serverSession: 'mcp.server.session.duration',
} as const;

/** The bucket boundaries the conventions advise for the duration histograms (seconds). */
export const DURATION_BUCKETS: readonly number[] = [
  0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300,
];

/** Attributes of the operation histograms: the low-cardinality ones of a span. */
export const METRIC_ATTRIBUTES: readonly string[] = [
  Attr.method,
  Attr.errorType,
  Attr.statusCode,
  Attr.toolName,
  Attr.promptName,
  Attr.operation,
  Attr.protocolVersion,
  Attr.networkTransport,
  Attr.networkProtocol,
  Attr.serverAddress,
  Attr.serverPort,
];

export type Attributes = Record<string, string | number | boolean>;

/** What telemetry records of tool calls beyond the defaults (both off: they may be sensitive). */
export interface RecordingOptions {
  /** Record `gen_ai.tool.call.arguments` (JSON). Default false. */
  readonly toolArguments?: boolean;
  /** Record `gen_ai.tool.call.result` (JSON) of successful calls. Default false. */
  readonly toolResults?: boolean;
  /** Put `mcp.resource.uri` in span names (high cardinality). Default false. */
  readonly resourceUriInSpanName?: boolean;
}

/** The methods whose `params.uri` is `mcp.resource.uri`. */
export const RESOURCE_METHODS: ReadonlySet<string> = new Set([
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'notifications/resources/updated',
]);

/** At most this many characters of a recorded argument or result. */
const MAX_RECORDED = 8192;

/**
 * How a failed request is recorded: a JSON-RPC error by its code (`error.type` and
 * `rpc.response.status_code`), a LocalError by its code (`REQUEST_TIMEOUT`, …), any other Error
 * by its name (`_OTHER` for a plain Error).
 */
export function errorAttributes(error: unknown, attributes: Attributes): string | undefined {
  if (error instanceof JsonRpcError) {
    const code = String(error.code);
    attributes[Attr.errorType] = code;
    attributes[Attr.statusCode] = code;
    return error.message;
  }
  if (error instanceof LocalError) {
    attributes[Attr.errorType] = error.code;
    return error.message;
  }
  if (error instanceof Error) {
    attributes[Attr.errorType] = error.name === 'Error' ? '_OTHER' : error.name;
    return error.message;
  }
  attributes[Attr.errorType] = '_OTHER';
  return undefined;
}

/** The subset of `attributes` the histograms take. */
export function metricAttributes(attributes: Attributes): Attributes {
  const picked: Attributes = {};
  for (const key of METRIC_ATTRIBUTES) {
    const value = attributes[key];
    if (value !== undefined) picked[key] = value;
  }
  return picked;
}

/** `value` as JSON for an attribute: at most MAX_RECORDED characters, never a throw. */
export function json(value: unknown): string {
  let text: string;
  try {
    // undefined for a function or a symbol, whatever the type says.
    const stringify = JSON.stringify as (value: unknown) => string | undefined;
    text = stringify(value) ?? 'null';
  } catch {
    return '"(not serializable)"';
  }
  return text.length > MAX_RECORDED ? `${text.slice(0, MAX_RECORDED)}…` : text;
}
