// The host's public shapes: its options, a run's options, events and result, and what it
// reports of its servers and tools. The Host class (host.ts) takes and returns these.
import type { CallToolResult, Client, ElicitHandler, Tool } from '../client/index.js';
import type { ServerConfig, Tokenizer } from '../catalogue/index.js';
import type { SandboxLimits } from '../code-mode/index.js';
import type { ApprovalCallback, ApprovalPolicy, Decision } from './approval.js';
import type { HandOffOptions } from './handoff.js';
import type { ShapedResult } from './shape.js';
import type { CallView } from './views.js';
import type {
  HostMessage,
  ModelAdapter,
  ModelCapabilities,
  StopReason,
  ToolChoice,
  ToolResultPart,
  ToolSearchKind,
} from './types.js';

/** Options of a {@link Host}. */
export interface HostOptions {
  /** The model API. */
  readonly model: ModelAdapter;
  /** The model to ask when a run names none (and for sampling). */
  readonly modelName: string;
  /** The servers, by name (see parseServersConfig). Default none. */
  readonly servers?: Readonly<Record<string, ServerConfig>>;
  /** What the model takes besides text. Default: images yes, audio no. */
  readonly capabilities?: Partial<ModelCapabilities>;
  /** The system prompt. */
  readonly system?: string;
  /** `max_tokens` of each model request. Default 4096. */
  readonly maxTokens?: number;
  /** Stream model answers (SSE). Default false. */
  readonly stream?: boolean;
  /** Approval rules. Default: by annotations, sampling asked. */
  readonly approval?: ApprovalPolicy;
  /** Asked where a rule says `ask`; without it, those calls are declined. */
  readonly onApproval?: ApprovalCallback;
  /** Answers servers' elicitations; without it, elicitation is not declared. */
  readonly onElicit?: ElicitHandler;
  /** Receives every step, of every run. */
  readonly onEvent?: (event: HostEvent) => void;
  /** The budget of one tool result in tokens. Default 25,000. */
  readonly resultTokens?: number;
  /**
   * Large results handed off instead of cut: a result over `resultTokens` is kept by the host and
   * the model gets its head (`headTokens`, default 2,000) and reads on with `read_result`; a
   * `resource_link` is read in slices the same way. `false`: cut to the budget, as before.
   * Default true.
   */
  readonly handOff?: boolean | HandOffOptions;
  /** Read `resource_link`s of results through `resources/read` (size-capped). Default false. */
  readonly resolveResourceLinks?: boolean;
  /**
   * Above this many tokens of tool definitions (counted as `mcpkit budget` counts them) the model
   * gets `search_tools` instead of every definition. Default: no limit (but the model API's
   * tool limit, OpenAI's 128, switches to search too).
   */
  readonly toolBudget?: number;
  /**
   * Native deferred loading: above a threshold of tool-definition tokens (default 10,000), an API
   * with its own tool search (Anthropic's) gets every tool with `defer_loading: true` and its
   * tool-search tool; an API without one gets `search_tools`. `false` turns it off. Default on.
   */
  readonly deferLoading?: boolean | DeferLoadingOptions;
  /** The token counter. Default: gpt-tokenizer's o200k_base, or an estimate without it. */
  readonly tokenizer?: Tokenizer;
  /** Timeout of each MCP request in milliseconds. Default: the client's (60 s). */
  readonly timeoutMs?: number;
  /** A stdio server's stderr. Default: dropped. */
  readonly onStderr?: (server: string, chunk: string) => void;
  /** The host's name and version, as servers see it. */
  readonly clientInfo?: { name: string; version: string };
  /**
   * Called with each client the host makes for a server, before it connects: where its
   * middleware is added (`client.use`, mcpkit/otel).
   */
  readonly onClient?: (client: Client) => void;
  /** The fetch of HTTP servers (mcpkit/otel's tracingFetch, say). Default: the global fetch. */
  readonly fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /**
   * MCP Apps, for a host embedded in a UI that renders views: the host declares the extension
   * (`io.modelcontextprotocol/ui`, so servers offer their UI tools), and the call record (and
   * `tool_result` event) of a tool that links a `ui://` view carries it (see {@link CallView}),
   * read once per URI and connection, a view above `maxBytes` (default 2 MiB) left out with a
   * note. Default false: nothing is declared and no view is read. App-only tools are never
   * offered to the model, either way.
   */
  readonly views?: boolean | { readonly maxBytes?: number };
  /**
   * Code mode: the model is offered one tool, `run_code`, whose description declares every tool
   * as a typed function and whose JavaScript runs in a QuickJS sandbox (the optional peer
   * quickjs-emscripten), each tool call going through the approval policy (docs/host.md#code-mode).
   * An object sets the sandbox's limits. Default false.
   */
  readonly codeMode?: boolean | HostCodeModeOptions;
}

/** Options of code mode in the host: the sandbox's limits and when to index the declarations. */
export interface HostCodeModeOptions extends SandboxLimits {
  /** Above this many characters of declarations, the code searches them. Default 24,000. */
  readonly maxDeclarationChars?: number;
}

/** Options of native deferred loading (the host's `deferLoading`). */
export interface DeferLoadingOptions {
  /**
   * Above this many tokens of tool definitions (counted as `mcpkit budget` counts them) the tools
   * are deferred: sent with `defer_loading: true` behind the API's tool search, or, for an API
   * without one, replaced by `search_tools`. Default 10,000 (DEFAULT_DEFER_THRESHOLD).
   */
  readonly threshold?: number;
  /** The API's search: `bm25` (natural-language queries, the default) or `regex`. */
  readonly search?: ToolSearchKind;
  /**
   * Tools never deferred: model-facing names, `server/tool`, or `server/*` for all of a server's.
   * They are sent in full in every turn, in every mode.
   */
  readonly alwaysLoaded?: readonly string[];
}

/** Options of one run. */
export interface RunOptions {
  /** The model. Default: the host's `modelName`. */
  readonly model?: string;
  /**
   * How the model picks tools in the first turn; later turns are `auto` (`none` stays `none`),
   * so that a forced call does not repeat forever. Default `auto`.
   */
  readonly toolChoice?: ToolChoice;
  /** Most model requests. Default 20. */
  readonly maxTurns?: number;
  /** Cancels the run: the model request and in-flight MCP calls (the servers are told). */
  readonly signal?: AbortSignal;
  /** Receives this run's steps. */
  readonly onEvent?: (event: HostEvent) => void;
}

/** One step, as it happens. */
export type HostEvent =
  | { readonly type: 'server_connected'; readonly server: string; readonly tools: number }
  | { readonly type: 'server_failed'; readonly server: string; readonly error: Error }
  | { readonly type: 'tools_changed'; readonly server: string }
  | { readonly type: 'model_request'; readonly turn: number; readonly tools: number }
  | { readonly type: 'text_delta'; readonly text: string }
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'tool_call';
      readonly id: string;
      readonly name: string;
      readonly server: string | undefined;
      readonly tool: string | undefined;
      readonly arguments: Record<string, unknown>;
    }
  | {
      readonly type: 'approval';
      readonly id: string;
      readonly name: string;
      readonly decision: Decision;
    }
  | {
      readonly type: 'tool_result';
      readonly id: string;
      readonly name: string;
      readonly isError: boolean;
      readonly content: ToolResultPart['content'];
      readonly truncated: boolean;
      /** The tool's view, with `views` on and a tool that links one. */
      readonly view?: CallView;
    }
  | { readonly type: 'sampling'; readonly server: string; readonly decision: Decision }
  | { readonly type: 'done'; readonly stopReason: RunStopReason; readonly turns: number };

/** Why a run ended: the model's reason for its last answer, or the turn limit. */
export type RunStopReason = StopReason | 'max_turns';

/** One tool call of a run, for programmatic use. */
export interface CallRecord {
  readonly id: string;
  /** The model-facing name. */
  readonly name: string;
  readonly server: string | undefined;
  readonly tool: string | undefined;
  readonly arguments: Record<string, unknown>;
  readonly decision: Decision;
  /** The MCP result as the server sent it (`structuredContent` included), when the call ran. */
  readonly result?: CallToolResult;
  /** The protocol or connection error, when the call failed. */
  readonly error?: string;
  /** What the model got. */
  readonly shaped: ShapedResult;
  /**
   * The tool's MCP Apps view (its `ui://` resource read), for an embedding UI to render with
   * `result`: with the host's `views` on, when the call ran and the tool links a view.
   */
  readonly view?: CallView;
}

/** What a run ends with. */
export interface RunResult {
  /** The whole conversation: the messages given, then the model's and the tool results. */
  readonly messages: HostMessage[];
  /** The text of the model's last answer. */
  readonly text: string;
  readonly turns: number;
  readonly calls: CallRecord[];
  readonly stopReason: RunStopReason;
}

/** A server's state, as {@link Host.servers} shows it. */
export interface ServerStatus {
  readonly name: string;
  readonly status: 'connecting' | 'connected' | 'failed' | 'closed';
  readonly tools: number;
  readonly error?: string;
}

/** A tool in the namespace: one the model may be offered (app-only tools are not). */
export interface HostTool {
  /** The model-facing name. */
  readonly name: string;
  readonly server: string;
  readonly tool: Tool;
}

/** What each server's tool definitions cost, in tokens. */
export interface ToolCost {
  readonly server: string;
  readonly tools: number;
  readonly tokens: number;
}
