// The public shapes of a server definition: what users register and what handlers receive.
// Wire shapes come from the generated spec types of the newest revision; the framework trims
// them to what each negotiated revision has.
import type { Cancellation } from '../jsonrpc/serve.js';
import type { MessageInfo } from '../jsonrpc/transport.js';
import type { AuthInfo } from '../protocol/auth.js';
import type { RequestId } from '../jsonrpc/message.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { ProtocolEra, ProtocolRevision } from '../protocol/version.js';
import type { InferOutput, StandardSchemaV1 } from './standard-schema.js';

/** A JSON Schema object, as the spec carries it (2020-12 unless `$schema` says otherwise). */
export type JsonSchemaObject = Record<string, unknown>;

/** A tool's input or output schema: a Standard Schema (zod, arktype, …) or raw JSON Schema. */
export type SchemaInput = StandardSchemaV1 | JsonSchemaObject;

/** The arguments a handler receives for a schema: inferred for Standard Schema, else a record. */
export type InferArgs<TSchema> = TSchema extends StandardSchemaV1
  ? InferOutput<TSchema>
  : Record<string, unknown>;

/** Server identity: `serverInfo` in `initialize`, `_meta` serverInfo in 2026-07-28 results. */
export type ServerInfo = Spec.Implementation;

/** Logging levels, least severe first (RFC 5424). */
export type LoggingLevel = Spec.LoggingLevel;

/** What a client said about itself: its capabilities and, when sent, its identity. */
export interface ClientDescription {
  /** Capabilities: from `initialize` (legacy) or from this request's `_meta` (2026-07-28). */
  readonly capabilities: Spec.ClientCapabilities;
  /** Identity: from `initialize` (legacy) or from this request's `_meta`, when sent. */
  readonly info: Spec.Implementation | undefined;
}

/** Parameters of a form-mode or URL-mode elicitation (`elicitation/create`). */
export type ElicitParams = Spec.ElicitRequestFormParams | Spec.ElicitRequestURLParams;

/** Options of one client request made from a handler (`elicit`, `sample`, `roots`). */
export interface InputOptions {
  /**
   * The key of this request in 2026-07-28 `inputRequests` (and of its answer in
   * `inputResponses`). Default: its position among the handler's requests (`input-0`, …).
   * Keys must be unique within one request.
   */
  key?: string;
  /**
   * Legacy era: how long to wait for the client's answer, overriding the server's
   * `inputTimeoutMs`. On expiry the call rejects with a timeout error.
   */
  timeoutMs?: number;
}

/**
 * HandlerContext is what every tool, resource, prompt and completion handler receives. It is the
 * same in both eras: in the legacy era `elicit`, `sample` and `roots` send a request to the client
 * over the session; in 2026-07-28 they use multi round-trip requests (docs/server.md explains the
 * replay model: the handler runs again with the answers so far, so code before such a call must
 * be safe to repeat). An extension adds members of its own to it (declaration merging: the
 * tasks extension's `startTask`); {@link CoreHandlerContext} is what the server itself gives.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- extensions merge into it
export interface HandlerContext extends CoreHandlerContext {}

/** The members of {@link HandlerContext} the server gives every handler. */
export interface CoreHandlerContext {
  /** Aborted when the client cancels, the connection closes or the response stream closes. */
  readonly signal: AbortSignal;
  /**
   * What aborts with `signal`, without making it (an AbortSignal costs microseconds to make on
   * Node 20): pass it as a client call's `cancellation` to cancel a request made for this one
   * (a gateway forwarding a call) with it.
   */
  readonly cancellation: Cancellation;
  /** The JSON-RPC id of the request being served. */
  readonly requestId: RequestId;
  /** The protocol revision of this request. */
  readonly revision: ProtocolRevision;
  /** `legacy` (initialize handshake) or `modern` (2026-07-28). */
  readonly era: ProtocolEra;
  /** What the client said about itself. */
  readonly client: ClientDescription;
  /** The request's `_meta`, as sent. */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /**
   * The principal of a request whose access token the HTTP transport's `auth` gate verified
   * (subject, client, scopes, claims, expiry); undefined without the gate (stdio, open HTTP).
   */
  readonly auth: AuthInfo | undefined;
  /** What the transport knows about the request (HTTP headers, auth). */
  readonly transport: MessageInfo | undefined;
  /**
   * The lowest log level the client asked for (legacy: the session's `logging/setLevel`;
   * 2026-07-28: this request's `_meta`); undefined when it asked for none, and `log` sends
   * nothing.
   */
  readonly logLevel: LoggingLevel | undefined;
  // The functions below may be destructured (`const { log } = ctx`): they are bound.
  /**
   * Reports progress. Sent only when the request carried a progress token, which is echoed
   * exactly; `progress` should increase with every call.
   */
  readonly progress: (progress: number, total?: number, message?: string) => Promise<void>;
  /** Sends a log message, when the client asked for this level (legacy: `logging/setLevel`; modern: `_meta` logLevel). */
  readonly log: (level: LoggingLevel, data: unknown, logger?: string) => Promise<void>;
  /** Asks the user for input through the client (form or URL mode). */
  readonly elicit: (params: ElicitParams, options?: InputOptions) => Promise<Spec.ElicitResult>;
  /** Asks the client's LLM for a completion. */
  readonly sample: (
    params: Spec.CreateMessageRequestParams,
    options?: InputOptions,
  ) => Promise<Spec.CreateMessageResult>;
  /** Asks the client for its roots. */
  readonly roots: (options?: InputOptions) => Promise<Spec.Root[]>;
}

/**
 * A tool result written out in full: content blocks of the 2026-07-28 union (a legacy revision
 * gets each block in a form it can carry). `structuredContent` needs an output schema.
 */
export interface ToolResult {
  content: Spec.ContentBlock[];
  /** True when the tool failed in a way the model can read and fix (throwing an Error does this). */
  isError?: boolean;
  /** Declare an `outputSchema` to return structured content. */
  structuredContent?: never;
  _meta?: Record<string, unknown>;
}

/** A result of a tool with an output schema: its `structuredContent` must match the schema. */
export interface StructuredToolResult<TData> {
  structuredContent: TData;
  /** Default: `structuredContent` as JSON text, for clients that read only `content`. */
  content?: Spec.ContentBlock[];
  isError?: false;
  _meta?: Record<string, unknown>;
}

/** A failed result of a tool with an output schema: content only. */
export interface ToolErrorResult {
  content: Spec.ContentBlock[];
  isError: true;
  _meta?: Record<string, unknown>;
}

/** What a tool handler without an output schema may return: text, or a {@link ToolResult}. */
export type ToolReturn = string | ToolResult;

/**
 * What a handler of a tool with an output schema may return: the structured data alone (its
 * JSON text is added as content), a {@link StructuredToolResult}, or a {@link ToolErrorResult}.
 */
export type StructuredToolReturn<TData> = TData | StructuredToolResult<TData> | ToolErrorResult;

/**
 * A tool's handler. Throwing an Error gives an `isError` result with its message; a JsonRpcError
 * is sent as is. A returned value that is not a result (wrong shape, an unknown content type) is
 * reported through `onError` and answered -32603: types catch it first (docs/server.md).
 */
export type ToolHandler<TArgs> = (
  args: TArgs,
  ctx: HandlerContext,
) => ToolReturn | Promise<ToolReturn>;

/** The handler of a tool with an output schema whose data is `TData`. */
export type StructuredToolHandler<TArgs, TData> = (
  args: TArgs,
  ctx: HandlerContext,
) => StructuredToolReturn<TData> | Promise<StructuredToolReturn<TData>>;

/** A tool's definition. Every field but `name` and `inputSchema` is optional. */
export interface ToolDefinition<
  TInput extends SchemaInput = SchemaInput,
  TOutput extends SchemaInput | undefined = SchemaInput | undefined,
> {
  /** The tool's name: 1–128 characters of A–Z a–z 0–9 _ - . (spec 2025-11-25 tools#tool-names). */
  name: string;
  title?: string;
  description?: string;
  /** The input schema; must describe an object. Default: an object with no properties. */
  inputSchema?: TInput;
  /** The output schema; results that are not errors must carry matching `structuredContent`. */
  outputSchema?: TOutput;
  annotations?: Spec.ToolAnnotations;
  icons?: Spec.Icon[];
  _meta?: Record<string, unknown>;
  /**
   * Scopes a caller's access token must grant to use it (HTTP with the `auth` gate; ignored
   * without one). A caller without them gets HTTP 403 `insufficient_scope` naming them.
   */
  scopes?: readonly string[];
  /** Task support hint of 2025-11-25 (`execution.taskSupport`), listed as given. */
  execution?: { taskSupport?: 'forbidden' | 'optional' | 'required' };
}

/** The contents a resource read may return: full contents, text, or bytes. */
export type ResourceReturn =
  | string
  | Uint8Array
  | {
      contents: (Spec.TextResourceContents | Spec.BlobResourceContents)[];
      _meta?: Record<string, unknown>;
    };

/** A static resource's definition. */
export interface ResourceDefinition {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Spec.Annotations;
  icons?: Spec.Icon[];
  _meta?: Record<string, unknown>;
  /**
   * Scopes a caller's access token must grant to use it (HTTP with the `auth` gate; ignored
   * without one). A caller without them gets HTTP 403 `insufficient_scope` naming them.
   */
  scopes?: readonly string[];
}

/** A static resource's handler. */
export type ResourceHandler = (
  uri: string,
  ctx: HandlerContext,
) => ResourceReturn | undefined | Promise<ResourceReturn | undefined>;

/** Completes one variable or argument: returns candidate values for what was typed so far. */
export type Completer = (
  value: string,
  context: { arguments: Readonly<Record<string, string>> },
) => readonly string[] | Promise<readonly string[]>;

/** A resource template's definition (RFC 6570 `uriTemplate`). */
export interface ResourceTemplateDefinition {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Spec.Annotations;
  icons?: Spec.Icon[];
  _meta?: Record<string, unknown>;
  /** Completers for template variables, by variable name. */
  complete?: Readonly<Record<string, Completer>>;
  /** Lists concrete resources of this template in `resources/list`. */
  list?: () => ResourceDefinition[] | Promise<ResourceDefinition[]>;
  /**
   * Scopes a caller's access token must grant to use it (HTTP with the `auth` gate; ignored
   * without one). A caller without them gets HTTP 403 `insufficient_scope` naming them.
   */
  scopes?: readonly string[];
}

/** A resource template's handler: receives the URI and the variables matched from it. */
export type ResourceTemplateHandler = (
  uri: string,
  variables: Readonly<Record<string, string | string[]>>,
  ctx: HandlerContext,
) => ResourceReturn | undefined | Promise<ResourceReturn | undefined>;

/** One argument of a prompt. */
export interface PromptArgumentDefinition {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
  /** Completes this argument. */
  complete?: Completer;
}

/** A prompt's definition. */
export interface PromptDefinition {
  name: string;
  title?: string;
  description?: string;
  /** The arguments, listed one by one. Or give `argsSchema` instead. */
  arguments?: PromptArgumentDefinition[];
  /**
   * The arguments as one object schema of string properties (zod, or raw JSON Schema): listed
   * as `arguments` (name, title, description, required), checked on every prompts/get (a
   * mismatch is -32602), and typed for the handler.
   */
  argsSchema?: SchemaInput;
  /** Completers for the arguments of `argsSchema`, by name. */
  complete?: Readonly<Record<string, Completer>>;
  icons?: Spec.Icon[];
  _meta?: Record<string, unknown>;
  /**
   * Scopes a caller's access token must grant to use it (HTTP with the `auth` gate; ignored
   * without one). A caller without them gets HTTP 403 `insufficient_scope` naming them.
   */
  scopes?: readonly string[];
}

/** What a prompt handler may return: a full result, messages, or a single user text. */
export type PromptReturn =
  | string
  | Spec.PromptMessage[]
  | { messages: Spec.PromptMessage[]; description?: string; _meta?: Record<string, unknown> };

/** A prompt's handler; `TArgs` is inferred from a Standard Schema `argsSchema`. */
export type PromptHandler<TArgs = Readonly<Record<string, string>>> = (
  args: TArgs,
  ctx: HandlerContext,
) => PromptReturn | Promise<PromptReturn>;

/** Cache hints for 2026-07-28 cacheable results (`ttlMs`, `cacheScope`). */
export interface CacheHint {
  ttlMs?: number;
  cacheScope?: 'private' | 'public';
}

/** The handle returned by every registration: change or remove what was registered while serving. */
export interface RegisteredHandle<TDefinition> {
  /** Shows the entry in listings and allows calls again. */
  enable(): void;
  /** Hides the entry from listings and refuses calls, as if unknown. */
  disable(): void;
  /** Replaces fields of the definition (the name or URI stays). */
  update(changes: Partial<TDefinition>): void;
  /** Removes the entry. */
  remove(): void;
  /** Whether the entry is enabled. */
  readonly enabled: boolean;
}

/**
 * The handler a tool definition takes: arguments typed by `TInput`; the return follows
 * `TOutput`: none gives {@link ToolHandler} (text or a {@link ToolResult}), a Standard Schema
 * gives {@link StructuredToolHandler} of its output type, raw JSON Schema of a record. A wrong
 * return is reported on the return itself, naming the type it should have.
 */
export type ToolHandlerFor<
  TInput extends SchemaInput,
  TOutput extends SchemaInput | undefined = undefined,
> = [TOutput] extends [undefined]
  ? ToolHandler<InferArgs<TInput>>
  : [TOutput] extends [StandardSchemaV1]
    ? StructuredToolHandler<InferArgs<TInput>, InferOutput<TOutput>>
    : StructuredToolHandler<InferArgs<TInput>, Record<string, unknown>>;
