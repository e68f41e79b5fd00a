// Anthropic's Messages API over fetch (POST {base}/v1/messages): tools, tool_use, tool_result,
// tool_choice, and SSE streaming. The body types mirror the official SDK's MessageCreateParams
// (test/host/request-types.test.ts checks them against @anthropic-ai/sdk).
import process from 'node:process';
import type { Fetch } from './http.js';
import { eventJson, postJson, readJson, readSse, toolCallPart, trimBase } from './http.js';
import type {
  HostMessage,
  ModelAdapter,
  ModelCallOptions,
  ModelRequest,
  ModelResponse,
  Part,
  ProviderPart,
  ResultContent,
  StopReason,
  TextPart,
  ToolCallPart,
  ToolChoice,
  ToolSearchKind,
} from './types.js';
import { ModelError } from './types.js';

/** The API, as errors name it. */
const API = 'Messages API';

/** The `anthropic-beta` value sent with a tool-search tool (deferred loading). */
export const TOOL_SEARCH_BETA = 'advanced-tool-use-2025-11-20';

/** The tool-search tools, by kind: their `type` and `name` as the API takes them. */
export const TOOL_SEARCH_TOOLS = {
  regex: { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' },
  bm25: { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
} as const;

/** The blocks of an answer that belong to the API's own tools, sent back as they came. */
const SERVER_BLOCKS = new Set(['server_tool_use', 'tool_search_tool_result']);

/** The API version sent in `anthropic-version`. */
export const ANTHROPIC_VERSION = '2023-06-01';

/** Options of {@link createAnthropicAdapter}. */
export interface AnthropicOptions {
  /** Default: ANTHROPIC_API_KEY. */
  readonly apiKey?: string;
  /** Default: ANTHROPIC_BASE_URL, else https://api.anthropic.com. */
  readonly baseUrl?: string;
  readonly fetch?: Fetch;
  /** Extra headers (anthropic-beta). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The environment read for the defaults. Default: process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** An image source. */
export interface AnthropicImageSource {
  type: 'base64';
  media_type: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';
  data: string;
}

/** Content blocks of a request. */
export type AnthropicTextBlock = { type: 'text'; text: string };
export type AnthropicImageBlock = { type: 'image'; source: AnthropicImageSource };
export type AnthropicDocumentBlock = {
  type: 'document';
  source: { type: 'base64'; media_type: 'application/pdf'; data: string };
  title?: string;
};
/** What a tool_result holds. */
export type AnthropicMediaBlock = AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock;
export type AnthropicToolUseBlock = {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
};
export type AnthropicToolResultBlock = {
  type: 'tool_result';
  tool_use_id: string;
  content: AnthropicMediaBlock[];
  is_error?: boolean;
};
/** The model's call of the tool-search tool, which the API ran. */
export type AnthropicServerToolUseBlock = {
  type: 'server_tool_use';
  id: string;
  name: AnthropicToolSearchTool['name'];
  input: unknown;
};
/** What the tool search found: references to deferred tools, which the API then loads. */
export type AnthropicToolSearchResultBlock = {
  type: 'tool_search_tool_result';
  tool_use_id: string;
  content:
    | {
        type: 'tool_search_tool_search_result';
        tool_references: { type: 'tool_reference'; tool_name: string }[];
      }
    | {
        type: 'tool_search_tool_result_error';
        error_code:
          'invalid_tool_input' | 'unavailable' | 'too_many_requests' | 'execution_time_exceeded';
      };
};
/** A block of the API's own tools, as it came (sent back unchanged). */
export type AnthropicServerBlock = AnthropicServerToolUseBlock | AnthropicToolSearchResultBlock;
export type AnthropicBlock =
  AnthropicMediaBlock | AnthropicToolUseBlock | AnthropicToolResultBlock | AnthropicServerBlock;

/** A message of a request. */
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: string | AnthropicBlock[];
}

/** A tool of a request. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: { type: 'object'; [key: string]: unknown };
  /** Loaded only when the tool search returns it. */
  defer_loading?: boolean;
}

/** The tool-search tool of a request. */
export type AnthropicToolSearchTool = (typeof TOOL_SEARCH_TOOLS)[ToolSearchKind];

/** tool_choice. */
export type AnthropicToolChoice =
  { type: 'auto' } | { type: 'any' } | { type: 'none' } | { type: 'tool'; name: string };

/** The body of POST /v1/messages. */
export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  messages: AnthropicMessage[];
  system?: string;
  tools?: (AnthropicTool | AnthropicToolSearchTool)[];
  tool_choice?: AnthropicToolChoice;
  stream?: boolean;
  temperature?: number;
  stop_sequences?: string[];
}

/** An adapter for the Messages API. */
export function createAnthropicAdapter(options: AnthropicOptions = {}): ModelAdapter {
  const env = options.env ?? process.env;
  const apiKey = options.apiKey ?? env['ANTHROPIC_API_KEY'];
  const base = trimBase(
    options.baseUrl ?? env['ANTHROPIC_BASE_URL'] ?? 'https://api.anthropic.com',
  );
  const fetcher = options.fetch ?? ((input, init) => fetch(input, init));
  return {
    provider: 'anthropic',
    maxTools: Infinity,
    toolSearch: true,
    async complete(request: ModelRequest, call: ModelCallOptions = {}): Promise<ModelResponse> {
      const body = anthropicBody(request);
      const beta = betaHeader(
        options.headers?.['anthropic-beta'],
        body.tools !== undefined && request.toolSearch !== undefined,
      );
      const response = await postJson(fetcher, {
        url: `${base}/v1/messages`,
        headers: {
          'anthropic-version': ANTHROPIC_VERSION,
          ...(apiKey === undefined ? {} : { 'x-api-key': apiKey }),
          ...options.headers,
          ...(beta === undefined ? {} : { 'anthropic-beta': beta }),
        },
        body,
        ...(call.signal === undefined ? {} : { signal: call.signal }),
      });
      return request.stream
        ? readAnthropicStream(response, call)
        : anthropicResponse(await readJson(response));
    },
  };
}

/** The `anthropic-beta` header: the caller's, with the tool-search beta added when it is used. */
function betaHeader(given: string | undefined, toolSearch: boolean): string | undefined {
  if (!toolSearch) return given;
  const values = (given ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  return values.includes(TOOL_SEARCH_BETA)
    ? values.join(',')
    : [...values, TOOL_SEARCH_BETA].join(',');
}

/**
 * The request body of a model request. With `toolSearch`, the tool-search tool comes first and
 * every tool marked `defer` carries `defer_loading: true`; the list depends only on the request's
 * tools, so the same tools give the same bytes turn after turn (the prompt cache holds).
 */
export function anthropicBody(request: ModelRequest): AnthropicRequestBody {
  const body: AnthropicRequestBody = {
    model: request.model,
    max_tokens: request.maxTokens,
    messages: request.messages.map(anthropicMessage),
  };
  if (request.system !== undefined && request.system !== '') body.system = request.system;
  if (request.tools.length > 0) {
    const search = request.toolSearch === undefined ? [] : [TOOL_SEARCH_TOOLS[request.toolSearch]];
    body.tools = [
      ...search,
      ...request.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        input_schema: { ...tool.inputSchema, type: 'object' as const },
        ...(tool.defer === true && search.length > 0 ? { defer_loading: true } : {}),
      })),
    ];
    body.tool_choice = anthropicToolChoice(request.toolChoice);
  }
  if (request.stream) body.stream = true;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.stopSequences !== undefined) body.stop_sequences = [...request.stopSequences];
  return body;
}

/** tool_choice in the API's words. */
export function anthropicToolChoice(choice: ToolChoice): AnthropicToolChoice {
  if (typeof choice === 'object') return { type: 'tool', name: choice.name };
  return { type: choice };
}

function anthropicMessage(message: HostMessage): AnthropicMessage {
  if (typeof message.content === 'string') return { role: message.role, content: message.content };
  // Another API's items (an OpenAI Responses call) mean nothing here.
  const parts = message.content.filter((p) => p.type !== 'provider' || p.provider === 'anthropic');
  return { role: message.role, content: parts.map(anthropicBlock) };
}

/** A block of the API's own tools, kept to be sent back. */
function providerPart(block: Record<string, unknown>): ProviderPart {
  return { type: 'provider', provider: 'anthropic', data: block };
}

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

function anthropicBlock(part: Part): AnthropicBlock {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
    case 'audio':
    case 'document':
      return mediaBlock(part);
    case 'tool_call':
      return { type: 'tool_use', id: part.id, name: part.name, input: part.arguments };
    case 'provider':
      // Only blocks the API itself sent (SERVER_BLOCKS) are kept as provider parts.
      return part.data as unknown as AnthropicServerBlock;
    case 'tool_result': {
      const content = part.content.map(mediaBlock);
      return {
        type: 'tool_result',
        tool_use_id: part.toolCallId,
        content: content.length === 0 ? [{ type: 'text', text: '(no content)' }] : content,
        ...(part.isError ? { is_error: true } : {}),
      };
    }
  }
}

/** Text, an image of a type the API takes, or a PDF; anything else as a note. */
function mediaBlock(part: ResultContent): AnthropicMediaBlock {
  if (part.type === 'text') return { type: 'text', text: part.text };
  if (part.type === 'document' && part.mimeType === 'application/pdf') {
    return {
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: part.data },
      ...(part.title === undefined ? {} : { title: part.title }),
    };
  }
  const mediaType = IMAGE_TYPES.find((type) => type === part.mimeType);
  if (part.type === 'image' && mediaType !== undefined) {
    return { type: 'image', source: { type: 'base64', media_type: mediaType, data: part.data } };
  }
  return {
    type: 'text',
    text: `[${part.type} omitted: ${part.mimeType} is not a type this API takes]`,
  };
}

/** A non-streamed response. */
export function anthropicResponse(json: Record<string, unknown>): ModelResponse {
  const blocks = Array.isArray(json['content'])
    ? (json['content'] as Record<string, unknown>[])
    : undefined;
  if (blocks === undefined) throw new ModelError('the Messages API answered without "content"');
  const content: (TextPart | ToolCallPart | ProviderPart)[] = [];
  for (const block of blocks) {
    if (block['type'] === 'text' && typeof block['text'] === 'string') {
      content.push({ type: 'text', text: block['text'] });
    } else if (SERVER_BLOCKS.has(String(block['type']))) {
      content.push(providerPart(block));
    } else if (block['type'] === 'tool_use') {
      content.push(
        toolCallPart(API, { id: block['id'], name: block['name'], input: block['input'] }),
      );
    }
  }
  const usage = json['usage'] as { input_tokens?: number; output_tokens?: number } | undefined;
  return {
    content,
    stopReason: stopReason(json['stop_reason']),
    ...(typeof json['model'] === 'string' ? { model: json['model'] } : {}),
    ...(usage === undefined
      ? {}
      : {
          usage: { inputTokens: usage.input_tokens ?? 0, outputTokens: usage.output_tokens ?? 0 },
        }),
  };
}

function stopReason(value: unknown): StopReason {
  switch (value) {
    case 'end_turn':
      return 'end';
    case 'tool_use':
      return 'tool_use';
    case 'max_tokens':
      return 'max_tokens';
    case 'stop_sequence':
      return 'stop_sequence';
    case 'refusal':
      return 'refusal';
    case 'pause_turn':
      return 'pause';
    default:
      return 'other';
  }
}

/** A block being streamed. */
type Building =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: unknown; name: unknown; json: string }
  | { type: 'provider'; block: Record<string, unknown>; json: string };

/** Reads a streamed response: message_start, content_block_* and message_delta events. */
async function readAnthropicStream(
  response: Response,
  call: ModelCallOptions,
): Promise<ModelResponse> {
  const blocks: Building[] = [];
  let stop: unknown;
  let model: string | undefined;
  let inputTokens = 0;
  let outputTokens = 0;
  await readSse(response, (event) => {
    if (event.event === 'ping') return;
    const data = eventJson(event);
    switch (data['type']) {
      case 'message_start': {
        const message = data['message'] as { model?: string; usage?: { input_tokens?: number } };
        model = message.model;
        inputTokens = message.usage?.input_tokens ?? 0;
        break;
      }
      case 'content_block_start': {
        const block = data['content_block'] as Record<string, unknown>;
        const index = Number(data['index']);
        blocks[index] =
          block['type'] === 'tool_use'
            ? { type: 'tool_use', id: block['id'], name: block['name'], json: '' }
            : SERVER_BLOCKS.has(String(block['type']))
              ? { type: 'provider', block, json: '' }
              : { type: 'text', text: typeof block['text'] === 'string' ? block['text'] : '' };
        break;
      }
      case 'content_block_delta': {
        const delta = data['delta'] as { type?: string; text?: string; partial_json?: string };
        const block = blocks[Number(data['index'])];
        if (block?.type === 'text' && delta.type === 'text_delta') {
          block.text += delta.text ?? '';
          call.onText?.(delta.text ?? '');
        } else if (
          block?.type !== 'text' &&
          block !== undefined &&
          delta.type === 'input_json_delta'
        ) {
          block.json += delta.partial_json ?? '';
        }
        break;
      }
      case 'message_delta': {
        stop = (data['delta'] as { stop_reason?: unknown }).stop_reason;
        outputTokens =
          (data['usage'] as { output_tokens?: number } | undefined)?.output_tokens ?? 0;
        break;
      }
      case 'error': {
        const error = data['error'] as { message?: string } | undefined;
        throw new ModelError(`the Messages API stream failed: ${error?.message ?? event.data}`);
      }
      default:
        break;
    }
  });
  const content = blocks
    .filter((block): block is Building => (block as Building | undefined) !== undefined)
    .map((block): TextPart | ToolCallPart | ProviderPart =>
      block.type === 'text'
        ? { type: 'text', text: block.text }
        : block.type === 'provider'
          ? providerPart(streamedInput(block.block, block.json))
          : toolCallPart(API, { id: block.id, name: block.name, json: block.json }),
    );
  return {
    content,
    stopReason: stopReason(stop),
    ...(model === undefined ? {} : { model }),
    usage: { inputTokens, outputTokens },
  };
}

/** A streamed server block: its `input` is the JSON its deltas carried, when they carried any. */
function streamedInput(block: Record<string, unknown>, json: string): Record<string, unknown> {
  if (json.trim() === '') return block;
  try {
    return { ...block, input: JSON.parse(json) as unknown };
  } catch {
    throw new ModelError(
      `the Messages API streamed a ${String(block['type'])} block whose input is not JSON`,
    );
  }
}
