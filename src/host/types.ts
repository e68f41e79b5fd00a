// The host's own conversation shapes, between MCP and the model APIs: messages made of parts
// (text, images, audio, tool calls and their results), the tools a model sees, and how it must
// pick them. Each model adapter (anthropic.ts, openai.ts) maps these to and from its wire format.

/** Text. */
export interface TextPart {
  readonly type: 'text';
  readonly text: string;
}

/** An image, base64 data with its media type. */
export interface ImagePart {
  readonly type: 'image';
  readonly data: string;
  readonly mimeType: string;
}

/** Audio, base64 data with its media type. */
export interface AudioPart {
  readonly type: 'audio';
  readonly data: string;
  readonly mimeType: string;
}

/** A document (a PDF), base64 data with its media type and a title. */
export interface DocumentPart {
  readonly type: 'document';
  readonly data: string;
  readonly mimeType: string;
  readonly title?: string;
}

/** The model asks for a tool: its namespaced name and the arguments. */
export interface ToolCallPart {
  readonly type: 'tool_call';
  /** The model's id of the call, echoed in the result. */
  readonly id: string;
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  /**
   * Why the call cannot run as sent (its arguments are not a JSON object): the host answers it
   * with an is_error result naming this, and does not run it.
   */
  readonly invalid?: string;
}

/** The result of a tool call, as the model gets it. */
export interface ToolResultPart {
  readonly type: 'tool_result';
  readonly toolCallId: string;
  readonly content: readonly ResultContent[];
  readonly isError: boolean;
}

/** What a tool result holds. */
export type ResultContent = TextPart | ImagePart | AudioPart | DocumentPart;

/**
 * An item of a model's answer that only its own API understands (a server-side tool search, a
 * hosted MCP call): kept in the conversation and sent back to that API as it came; other
 * adapters leave it out.
 */
export interface ProviderPart {
  readonly type: 'provider';
  /** The adapter that made it: `anthropic` (Messages) or `openai-responses`. */
  readonly provider: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** Any part of a message. */
export type Part = ResultContent | ToolCallPart | ToolResultPart | ProviderPart;

/** One message of a conversation. Tool results travel in user messages (as in Anthropic's API). */
export interface HostMessage {
  readonly role: 'user' | 'assistant';
  readonly content: string | readonly Part[];
}

/** A tool as a model sees it: its namespaced name, description and (adapted) input schema. */
export interface ModelTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  /** Sent with the API's `defer_loading: true`: found through its tool search (see ModelRequest.toolSearch). */
  readonly defer?: boolean;
}

/** The API's own tool search over deferred tools: by regular expression or by BM25 ranking. */
export type ToolSearchKind = 'regex' | 'bm25';

/**
 * How the model picks tools: `auto` (it decides), `any` (it must call one), `none` (it may not),
 * or `{ name }` (it must call that one).
 */
export type ToolChoice = 'auto' | 'any' | 'none' | { readonly name: string };

/** What the model is sent in one turn. */
export interface ModelRequest {
  readonly model: string;
  readonly system?: string;
  readonly messages: readonly HostMessage[];
  readonly tools: readonly ModelTool[];
  readonly toolChoice: ToolChoice;
  readonly maxTokens: number;
  /** Stream the answer (SSE); `onText` then receives the text as it comes. */
  readonly stream: boolean;
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
  /**
   * Add the API's tool-search tool of this kind: tools with `defer` are then loaded by it (only
   * for an adapter whose `toolSearch` is true).
   */
  readonly toolSearch?: ToolSearchKind;
}

/**
 * Why the model stopped; `pause` is a turn the API paused (a long server-side tool run): the
 * host sends the conversation again for it to go on.
 */
export type StopReason =
  'end' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal' | 'pause' | 'other';

/** What the model answered in one turn: text, tool calls and provider items, in order. */
export interface ModelResponse {
  readonly content: readonly (TextPart | ToolCallPart | ProviderPart)[];
  readonly stopReason: StopReason;
  /** The model the API says answered. */
  readonly model?: string;
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
}

/** Options of one model request. */
export interface ModelCallOptions {
  readonly signal?: AbortSignal;
  /** Receives streamed text as it arrives. */
  readonly onText?: (text: string) => void;
}

/** What a model input can take besides text. */
export interface ModelCapabilities {
  /** Images (in user messages and tool results). */
  readonly vision: boolean;
  /** Audio. */
  readonly audio: boolean;
  /** PDF documents (embedded resources). Default true: both APIs take them. */
  readonly documents?: boolean;
}

/** A model API, spoken over fetch. */
export interface ModelAdapter {
  readonly provider: 'anthropic' | 'openai';
  /** Most tools one request may carry (OpenAI: 128). */
  readonly maxTools: number;
  /** The API searches deferred tools itself (`defer_loading` and a tool-search tool). */
  readonly toolSearch?: boolean;
  complete(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse>;
}

/** A model API answered with an error, or could not be reached. */
export class ModelError extends Error {
  override readonly name = 'ModelError';
  /** The HTTP status, when the API answered. */
  readonly status: number | undefined;
  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
  }
}
