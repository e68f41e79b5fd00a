// The shapes the backend of `mcpkit inspect` sends (the contract of issue #26, "API"). MCP
// objects (tools, results, ...) are typed loosely: the page shows what the server sends, whatever
// its revision, and never trusts a field to be there.

/** A JSON value as parsed from the wire. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/** The subset of JSON Schema the forms understand; anything else falls back to raw JSON. */
export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  default?: unknown;
  const?: unknown;
  enum?: unknown[];
  enumNames?: string[];
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
}

/** Where the backend is connected, credentials masked. */
export type TargetView =
  | { kind: 'url'; url: string; headers?: Record<string, string> }
  | { kind: 'command'; command: string; args?: string[] };

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
  execution?: { taskSupport?: 'forbidden' | 'optional' | 'required' };
  _meta?: JsonObject;
}

export interface Resource {
  uri: string;
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

export interface ResourceTemplate {
  uriTemplate: string;
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
}

export interface LintFinding {
  rule: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
}

export interface Root {
  uri: string;
  name?: string;
}

/** `GET /api/state`. */
export interface State {
  /** A later snapshot has a larger stamp: the page keeps the newest (see App). */
  stamp: number;
  connected: boolean;
  connecting: boolean;
  /** Names the connection while connected (an MCP App view calls its own connection only). */
  connection?: number;
  target?: TargetView;
  allowStdio: boolean;
  mode: string;
  revision?: string;
  era?: 'legacy' | 'modern';
  serverInfo?: { name?: string; version?: string; title?: string; [key: string]: unknown };
  capabilities?: JsonObject;
  instructions?: string;
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  prompts: Prompt[];
  budget?: { total: number; tokenizer: string; tools: Record<string, number> };
  lint?: Record<string, LintFinding[]>;
  roots: Root[];
  logLevel?: string;
  error?: string;
}

/** One line of the wire log. */
export type WireEntry =
  | {
      seq: number;
      time: number;
      dir: '>>' | '<<';
      kind: 'jsonrpc';
      message: JsonObject;
      method?: string;
      id?: string | number;
      revision?: string;
      /** `app`: between the page and an MCP App view (`>>` view to host), not on the wire. */
      channel?: 'app';
      view?: string;
    }
  | {
      seq: number;
      time: number;
      dir: '>>' | '<<';
      kind: 'http';
      http: {
        method?: string;
        url?: string;
        status?: number;
        headers?: Record<string, string>;
        durationMs?: number;
        sse?: { id?: string; event?: string; retry?: number };
      };
    };

export interface ProgressEvent {
  opId: string;
  progress: number;
  total?: number;
  message?: string;
}

export interface LogEvent {
  level: string;
  logger?: string;
  data: unknown;
}

/** A question the server asked (elicitation or sampling), waiting for the user. */
export interface Question {
  kind: 'elicit' | 'sample';
  requestId: string;
  params: JsonObject;
}

export interface Task {
  taskId: string;
  status: string;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  ttl?: number | null;
  pollInterval?: number;
}

/** `POST /api/request`'s answer. */
export type RequestOutcome =
  | { ok: true; result: JsonObject; outputCheck?: { valid: boolean; errors?: string[] } }
  | { ok: false; error: RequestError };

export interface RequestError {
  code?: number;
  message: string;
  data?: unknown;
  kind: 'protocol' | 'local';
}

/** Every event type of `GET /api/events`, with its data. */
export type ServerEvent =
  | { type: 'state'; data: State }
  | { type: 'wire'; data: WireEntry }
  | { type: 'progress'; data: ProgressEvent }
  | { type: 'log'; data: LogEvent }
  | { type: 'list_changed'; data: { kind: string } }
  | { type: 'resource_updated'; data: { uri: string; time: number } }
  | { type: 'elicit'; data: { requestId: string; params: JsonObject } }
  | { type: 'sample'; data: { requestId: string; params: JsonObject } }
  | { type: 'answered'; data: { requestId: string } }
  | { type: 'task'; data: { task: Task } };
