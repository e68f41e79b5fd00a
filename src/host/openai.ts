// OpenAI-compatible Chat Completions over fetch (POST {base}/chat/completions): tools,
// tool_calls, `role: "tool"` messages, tool_choice and streaming, as OpenAI and the local
// servers that speak it (vLLM, llama.cpp, Ollama) take them. The body types mirror the official
// SDK's ChatCompletionCreateParams (test/host/request-types.test.ts checks them against openai).
import process from 'node:process';
import type { Fetch } from './http.js';
import { eventJson, postJson, readJson, readSse, toolCallPart, trimBase } from './http.js';
import type {
  HostMessage,
  ModelAdapter,
  ModelCallOptions,
  ModelRequest,
  ModelResponse,
  ResultContent,
  StopReason,
  TextPart,
  ToolCallPart,
  ToolChoice,
} from './types.js';
import { ModelError } from './types.js';

/** The API, as errors name it. */
const API = 'Chat Completions API';

/** OpenAI's limit on the tools of one request. */
export const OPENAI_MAX_TOOLS = 128;

/** Options of {@link createOpenAiAdapter}. */
export interface OpenAiOptions {
  /** Default: OPENAI_API_KEY. */
  readonly apiKey?: string;
  /** Default: OPENAI_BASE_URL, else https://api.openai.com/v1. */
  readonly baseUrl?: string;
  readonly fetch?: Fetch;
  readonly headers?: Readonly<Record<string, string>>;
  /** The environment read for the defaults. Default: process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Content parts of a user message. */
export type OpenAiUserPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: 'wav' | 'mp3' } }
  | { type: 'file'; file: { file_data: string; filename: string } };

/** A tool call of an assistant message. */
export interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A message of a request. */
export type OpenAiMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | OpenAiUserPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: OpenAiToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A tool of a request. */
export interface OpenAiTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** tool_choice. */
export type OpenAiToolChoice =
  'auto' | 'required' | 'none' | { type: 'function'; function: { name: string } };

/** The body of POST /chat/completions. */
export interface OpenAiRequestBody {
  model: string;
  messages: OpenAiMessage[];
  max_completion_tokens?: number;
  tools?: OpenAiTool[];
  tool_choice?: OpenAiToolChoice;
  stream?: boolean;
  stream_options?: { include_usage: boolean };
  temperature?: number;
  stop?: string[];
}

/** An adapter for Chat Completions. */
export function createOpenAiAdapter(options: OpenAiOptions = {}): ModelAdapter {
  const env = options.env ?? process.env;
  const apiKey = options.apiKey ?? env['OPENAI_API_KEY'];
  const base = trimBase(options.baseUrl ?? env['OPENAI_BASE_URL'] ?? 'https://api.openai.com/v1');
  const fetcher = options.fetch ?? ((input, init) => fetch(input, init));
  return {
    provider: 'openai',
    maxTools: OPENAI_MAX_TOOLS,
    async complete(request: ModelRequest, call: ModelCallOptions = {}): Promise<ModelResponse> {
      const response = await postJson(fetcher, {
        url: `${base}/chat/completions`,
        headers: {
          ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }),
          ...options.headers,
        },
        body: openAiBody(request),
        ...(call.signal === undefined ? {} : { signal: call.signal }),
      });
      return request.stream
        ? readOpenAiStream(response, call)
        : openAiResponse(await readJson(response));
    },
  };
}

/** The request body of a model request. */
export function openAiBody(request: ModelRequest): OpenAiRequestBody {
  const messages: OpenAiMessage[] = [];
  if (request.system !== undefined && request.system !== '') {
    messages.push({ role: 'system', content: request.system });
  }
  for (const message of request.messages) messages.push(...openAiMessages(message));
  const body: OpenAiRequestBody = {
    model: request.model,
    messages,
    max_completion_tokens: request.maxTokens,
  };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
    }));
    body.tool_choice = openAiToolChoice(request.toolChoice);
  }
  if (request.stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.stopSequences !== undefined) body.stop = [...request.stopSequences];
  return body;
}

/** tool_choice in the API's words (`any` is `required`). */
export function openAiToolChoice(choice: ToolChoice): OpenAiToolChoice {
  if (typeof choice === 'object') return { type: 'function', function: { name: choice.name } };
  return choice === 'any' ? 'required' : choice;
}

/**
 * One host message as Chat Completions messages: an assistant's tool calls in `tool_calls`;
 * each tool result a `role: "tool"` message (text only, as the API takes), with images and
 * audio of results following in one user message.
 */
export function openAiMessages(message: HostMessage): OpenAiMessage[] {
  if (typeof message.content === 'string') {
    return [{ role: message.role, content: message.content }];
  }
  if (message.role === 'assistant') {
    const text = message.content
      .filter((part): part is TextPart => part.type === 'text')
      .map((part) => part.text)
      .join('');
    const calls = message.content
      .filter((part): part is ToolCallPart => part.type === 'tool_call')
      .map((part) => ({
        id: part.id,
        type: 'function' as const,
        function: { name: part.name, arguments: JSON.stringify(part.arguments) },
      }));
    return [
      {
        role: 'assistant',
        content: text === '' ? null : text,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      },
    ];
  }
  const out: OpenAiMessage[] = [];
  const user: OpenAiUserPart[] = [];
  for (const part of message.content) {
    if (part.type === 'tool_result') {
      const texts = part.content.filter((c): c is TextPart => c.type === 'text').map((c) => c.text);
      const media = part.content.filter((c) => c.type !== 'text');
      const prefix = part.isError ? 'Error: ' : '';
      const body = texts.join('\n');
      out.push({
        role: 'tool',
        tool_call_id: part.toolCallId,
        content:
          (body.startsWith('Error:') ? body : `${prefix}${body}`) +
          (media.length > 0
            ? `\n[${String(media.length)} media item(s) follow in the next message]`
            : ''),
      });
      user.push(...media.map(userPart));
    } else if (part.type !== 'tool_call' && part.type !== 'provider') {
      user.push(userPart(part));
    }
  }
  if (user.length > 0) out.push({ role: 'user', content: user });
  return out;
}

function userPart(part: ResultContent): OpenAiUserPart {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return { type: 'image_url', image_url: { url: `data:${part.mimeType};base64,${part.data}` } };
    case 'document':
      return {
        type: 'file',
        file: {
          file_data: `data:${part.mimeType};base64,${part.data}`,
          filename: part.title?.split('/').pop() ?? 'document.pdf',
        },
      };
    case 'audio': {
      const format = /mp3|mpeg/.test(part.mimeType)
        ? 'mp3'
        : /wav/.test(part.mimeType)
          ? 'wav'
          : undefined;
      return format === undefined
        ? { type: 'text', text: `[audio omitted: ${part.mimeType} is not a format this API takes]` }
        : { type: 'input_audio', input_audio: { data: part.data, format } };
    }
  }
}

/** A non-streamed response. */
export function openAiResponse(json: Record<string, unknown>): ModelResponse {
  const choices = json['choices'];
  const choice = Array.isArray(choices)
    ? (choices[0] as Record<string, unknown> | undefined)
    : undefined;
  const message = choice?.['message'] as
    { content?: string | null; tool_calls?: OpenAiToolCall[]; refusal?: string | null } | undefined;
  if (message === undefined)
    throw new ModelError('the Chat Completions API answered without choices[0].message');
  const content: (TextPart | ToolCallPart)[] = [];
  const text = message.content ?? message.refusal ?? '';
  if (text !== '') content.push({ type: 'text', text });
  for (const call of message.tool_calls ?? []) {
    // Typed as the API documents it; read as what any endpoint may send.
    const fn = (call as Partial<OpenAiToolCall>).function as Record<string, unknown> | undefined;
    const args = fn?.['arguments'];
    content.push(
      toolCallPart(API, {
        id: call.id,
        name: fn?.['name'],
        ...(typeof args === 'string' ? { json: args } : { input: args }),
      }),
    );
  }
  const usage = json['usage'] as { prompt_tokens?: number; completion_tokens?: number } | undefined;
  return {
    content,
    stopReason: finishReason(choice?.['finish_reason'], content),
    ...(typeof json['model'] === 'string' ? { model: json['model'] } : {}),
    ...(usage === undefined
      ? {}
      : {
          usage: {
            inputTokens: usage.prompt_tokens ?? 0,
            outputTokens: usage.completion_tokens ?? 0,
          },
        }),
  };
}

/** finish_reason as a stop reason; some local servers say `stop` after tool calls. */
function finishReason(value: unknown, content: readonly (TextPart | ToolCallPart)[]): StopReason {
  if (content.some((part) => part.type === 'tool_call')) return 'tool_use';
  switch (value) {
    case 'stop':
      return 'end';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'refusal';
    default:
      return 'other';
  }
}

/** Reads a streamed response: `data:` chunks of deltas, then `data: [DONE]`. */
async function readOpenAiStream(
  response: Response,
  call: ModelCallOptions,
): Promise<ModelResponse> {
  let text = '';
  const calls: { id: string; name: string; args: string }[] = [];
  let finish: unknown;
  let model: string | undefined;
  let usage: { inputTokens: number; outputTokens: number } | undefined;
  await readSse(response, (event) => {
    if (event.data.trim() === '[DONE]') return;
    const data = eventJson(event);
    if (data['error'] !== undefined) {
      const error = data['error'] as { message?: string };
      throw new ModelError(`the Chat Completions stream failed: ${error.message ?? event.data}`);
    }
    if (typeof data['model'] === 'string') model = data['model'];
    const u = data['usage'] as
      { prompt_tokens?: number; completion_tokens?: number } | null | undefined;
    if (u !== undefined && u !== null) {
      usage = { inputTokens: u.prompt_tokens ?? 0, outputTokens: u.completion_tokens ?? 0 };
    }
    const choices = data['choices'];
    const choice = Array.isArray(choices)
      ? (choices[0] as Record<string, unknown> | undefined)
      : undefined;
    if (choice === undefined) return;
    if (choice['finish_reason'] !== null && choice['finish_reason'] !== undefined) {
      finish = choice['finish_reason'];
    }
    const delta = (choice['delta'] ?? {}) as {
      content?: string | null;
      tool_calls?: {
        index: number;
        id?: string;
        function?: { name?: string; arguments?: string };
      }[];
    };
    if (typeof delta.content === 'string' && delta.content !== '') {
      text += delta.content;
      call.onText?.(delta.content);
    }
    for (const piece of delta.tool_calls ?? []) {
      const slot = (calls[piece.index] ??= { id: '', name: '', args: '' });
      if (piece.id !== undefined) slot.id = piece.id;
      if (piece.function?.name !== undefined) slot.name += piece.function.name;
      if (piece.function?.arguments !== undefined) slot.args += piece.function.arguments;
    }
  });
  const content: (TextPart | ToolCallPart)[] = [];
  if (text !== '') content.push({ type: 'text', text });
  for (const slot of calls.filter((c) => (c as typeof c | undefined) !== undefined)) {
    content.push(toolCallPart(API, { id: slot.id, name: slot.name, json: slot.args }));
  }
  return {
    content,
    stopReason: finishReason(finish, content),
    ...(model === undefined ? {} : { model }),
    ...(usage === undefined ? {} : { usage }),
  };
}
