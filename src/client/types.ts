// The public shapes of mcpkit's client: its options, the handlers it calls, the options of one
// call, and the results it returns. Wire shapes come from the generated spec types of the newest
// revision; results lose `resultType`, which only the client's own round-trip driver reads.
import type { Notification, RequestId } from '../jsonrpc/message.js';
import type { Cancellation } from '../jsonrpc/serve.js';
import type { JsonSchemaValidator } from '../protocol/json-schema/index.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import type { ProtocolEra, ProtocolRevision } from '../protocol/version.js';

/** Logging levels, least severe first (RFC 5424). */
export type LoggingLevel = Spec.LoggingLevel;

/** The kinds of lists a server announces changes of. */
export type ListKind = 'tools' | 'resources' | 'prompts';

/**
 * The parameters of an elicitation (`elicitation/create`): a form, or a URL to visit. Legacy
 * URL-mode requests (2025-11-25) also carry an `elicitationId`.
 */
export type ElicitParams =
  Spec.ElicitRequestFormParams | (Spec.ElicitRequestURLParams & { elicitationId?: string });

/** What the client's handlers learn about the request that needs them. */
export interface InputContext {
  /** The era of the connection. */
  readonly era: ProtocolEra;
  /** The revision of the connection. */
  readonly revision: ProtocolRevision;
  /**
   * Aborted when the input is no longer wanted: the server cancelled its request (legacy), or
   * the call that needs the input was cancelled (2026-07-28).
   */
  readonly signal: AbortSignal;
  /**
   * 2026-07-28: the key of this request in the server's `inputRequests` (its answer goes back
   * under it). Absent for legacy requests.
   */
  readonly key?: string;
  /** The `tag` of the call this question belongs to (see CallOptions), when it has one. */
  readonly tag?: unknown;
}

/** What `onLog` learns about a log message. */
export interface LogContext {
  /**
   * The `tag` of the call the message was sent in the course of (see CallOptions): known when
   * it came on that call's response stream. Absent otherwise.
   */
  readonly tag?: unknown;
}

/** Answers an elicitation: asks the user, in form or URL mode. */
export type ElicitHandler = (
  params: ElicitParams,
  ctx: InputContext,
) => Spec.ElicitResult | Promise<Spec.ElicitResult>;

/** Answers a sampling request: asks the client's LLM (tools included, when declared). */
export type SampleHandler = (
  params: Spec.CreateMessageRequestParams,
  ctx: InputContext,
) => Spec.CreateMessageResult | Promise<Spec.CreateMessageResult>;

/** Answers a roots request: the directories and files the server may work on. */
export type RootsHandler = (ctx: InputContext) => Spec.Root[] | Promise<Spec.Root[]>;

/** How the client picks a revision: `'auto'` negotiates, `{ pin }` speaks exactly one. */
export type ConnectMode = 'auto' | { pin: ProtocolRevision };

/** Options of a {@link Client}. Every field is optional. */
export interface ClientOptions {
  /**
   * Capabilities to declare on top of those derived from the handlers given (`onElicit` gives
   * `elicitation`, `onSample` gives `sampling`, `onRoots` gives `roots`); a key given here
   * replaces the derived one. They are trimmed to what each revision defines. Default: derived.
   */
  capabilities?: Spec.ClientCapabilities;
  /** Revisions to speak. Default: all five. */
  revisions?: readonly ProtocolRevision[];
  /**
   * `'auto'` (the default) tries 2026-07-28 first through `server/discover` and falls back to the
   * legacy `initialize` handshake; `{ pin: revision }` speaks exactly that revision or fails.
   */
  mode?: ConnectMode;
  /** Timeout of each request in milliseconds (progress restarts it). Default 60 000. */
  timeoutMs?: number;
  /** Most rounds of input one 2026-07-28 request may ask for. Default 10. */
  maxInputRounds?: number;
  /** Most pages one listing follows. Default 1000. */
  maxPages?: number;
  /**
   * The lowest log level to receive. 2026-07-28: sent in every request's `_meta`; legacy:
   * `logging/setLevel` once connected, when the server has logging. Default: none (legacy
   * servers then send every level, modern ones none).
   */
  logLevel?: LoggingLevel;
  /** Validates `structuredContent` against tools' `outputSchema`. Default: the built-in one. */
  validator?: JsonSchemaValidator;
  /** Answers elicitations, in both eras. Declares `elicitation` (form; URL with `elicitation.url`). */
  onElicit?: ElicitHandler;
  /** Elicitation settings. */
  elicitation?: {
    /** Declare URL mode too. Default false (form mode only). */
    url?: boolean;
    /** Fill fields the user left out of accepted content from the schema's defaults. Default false. */
    applyDefaults?: boolean;
  };
  /** Answers sampling requests, in both eras. Declares `sampling`. */
  onSample?: SampleHandler;
  /** Sampling settings. */
  sampling?: {
    /** Declare `sampling.tools` (2025-11-25 and later): requests may carry tools. Default false. */
    tools?: boolean;
  };
  /** Answers roots requests, in both eras. Declares `roots`. */
  onRoots?: RootsHandler;
  /** Receives every notification from the server, as sent, before the specific events. */
  onNotification?: (notification: Notification) => void;
  /** Receives log messages (`notifications/message`). */
  onLog?: (params: Spec.LoggingMessageNotificationParams, ctx: LogContext) => void;
  /**
   * Receives list changes. Legacy servers send them unasked; in 2026-07-28 the client opens a
   * `subscriptions/listen` stream for them on connect (see `autoListen`).
   */
  onListChanged?: (kind: ListKind) => void;
  /** Receives `notifications/resources/updated` for subscribed resources. */
  onResourceUpdated?: (uri: string) => void;
  /**
   * 2026-07-28: told of each listed tool left out of listings because its `x-mcp-header`
   * annotations break the spec's rules (server/tools#x-mcp-header). Default: `onError` receives
   * a LocalError('PROTOCOL_VIOLATION') naming the tool and the reason.
   */
  onToolRejected?: (rejected: RejectedTool) => void;
  /**
   * 2026-07-28: whether connect opens a listen stream for the list changes the server announces,
   * when `onListChanged` is given. Default true.
   */
  autoListen?: boolean;
  /** Called once when the connection has closed, with the transport's error if it failed. */
  onClose?: (error?: Error) => void;
  /** Receives problems no caller waits for (a failed notification, a stray response). Default: silent. */
  onError?: (error: Error) => void;
}

/** A listed tool the client left out, and why. */
export interface RejectedTool {
  readonly name: string;
  readonly reason: string;
}

/** Options of `Client.connect`. */
export interface ClientConnectOptions {
  /** Aborts connecting; the connection is closed. */
  signal?: AbortSignal;
  /** Timeout of each negotiation request. Default: the client's `timeoutMs`. */
  timeoutMs?: number;
}

/** Options of one call. Every field is optional. */
export interface CallOptions {
  /**
   * 2026-07-28: the client capabilities this request declares in its `_meta`, in place of the
   * client's own (a gateway declares those of the client it forwards for). Legacy: ignored, the
   * capabilities being declared once, at initialize.
   */
  clientCapabilities?: Spec.ClientCapabilities;
  /** Cancels the call: it rejects with the signal's reason and the server is told. */
  signal?: AbortSignal;
  /**
   * Cancels the call as `signal` does, without an AbortSignal: a server handler's
   * `ctx.cancellation` (a gateway forwards each request's cancellation so, making no
   * AbortSignal per call).
   */
  cancellation?: Cancellation;
  /** Timeout of the call (of each round) in milliseconds. Default: the client's `timeoutMs`. */
  timeoutMs?: number;
  /** Receives `notifications/progress` for this call; asks the server for progress. */
  onProgress?: (progress: number, total?: number, message?: string) => void;
  /** Whether progress restarts the timeout. Default true. */
  resetTimeoutOnProgress?: boolean;
  /**
   * A limit on the whole call in milliseconds, that progress does not restart (a server that
   * reports progress forever cannot hold the call): on expiry the call is cancelled (the server
   * is told) and rejects with LocalError('REQUEST_TIMEOUT'). Default: none.
   */
  maxTotalTimeoutMs?: number;
  /**
   * 2026-07-28: the lowest log level this request asks for in its `_meta`, in place of the
   * client's own (`null`: none; a gateway asks for what the client it forwards for asked).
   * Legacy: ignored, the level being the session's (`setLogLevel`).
   */
  logLevel?: LoggingLevel | null;
  /**
   * A value of the caller's, handed back as `ctx.tag` to the handlers of what the server asks
   * or logs in the course of this call: the questions a 2026-07-28 result embeds, and in legacy
   * revisions the requests and log messages that come on this call's response stream
   * (Streamable HTTP; stdio links none to a call). What a gateway uses to route them.
   */
  tag?: unknown;
  /**
   * Extra transport headers for this request (HTTP: on each of its POSTs, after the transport's
   * own `headers`; other transports ignore them). What a gateway sends an upstream-audience
   * token of the caller it forwards for in (its own token stays on its other requests).
   */
  headers?: Readonly<Record<string, string>>;
}

/** Options of a listing. */
export interface ListOptions extends CallOptions {
  /** Most pages to follow. Default: the client's `maxPages`. */
  maxPages?: number;
}

/** A result as the client returns it: `resultType` removed; cache hints kept when sent. */
export type Final<TResult> = Omit<TResult, 'resultType' | 'ttlMs' | 'cacheScope'> & {
  ttlMs?: number;
  cacheScope?: 'private' | 'public';
};

/** The result of `tools/call`. A tool failure is a result with `isError: true`. */
export type CallToolResult = Final<Spec.CallToolResult>;
/** The result of `resources/read`. */
export type ReadResourceResult = Final<Spec.ReadResourceResult>;
/** The result of `prompts/get`. */
export type GetPromptResult = Final<Spec.GetPromptResult>;
/** The result of `completion/complete`. */
export type CompleteResult = Final<Spec.CompleteResult>;

/** A tool, as listed. */
export type Tool = Spec.Tool;
/** A resource, as listed. */
export type Resource = Spec.Resource;
/** A resource template, as listed. */
export type ResourceTemplate = Spec.ResourceTemplate;
/** A prompt, as listed. */
export type Prompt = Spec.Prompt;
/** A root the client offers. */
export type Root = Spec.Root;
/** Which notifications a `subscriptions/listen` stream carries. */
export type SubscriptionFilter = Spec.SubscriptionFilter;
/** What `completion/complete` completes: a prompt argument or a template variable. */
export type CompleteRef = Spec.PromptReference | Spec.ResourceTemplateReference;

/**
 * Subscription is one open 2026-07-28 `subscriptions/listen` stream. Its notifications reach
 * the client's events (`onListChanged`, `onResourceUpdated`, `onNotification`).
 */
export interface Subscription {
  /** The id of the listen request; the server tags the stream's notifications with it. */
  readonly id: RequestId;
  /**
   * Resolves with the part of the filter the server agreed to honour; rejects when the server
   * refuses the stream or does not acknowledge it within the timeout.
   */
  readonly acknowledged: Promise<SubscriptionFilter>;
  /** Resolves once the stream has ended, with the error that ended it, if any. Never rejects. */
  readonly closed: Promise<Error | undefined>;
  /** Ends the stream (the server is told). Idempotent; resolves once it has ended. */
  close(): Promise<void>;
}
