// OpenAI's Responses API over fetch (POST {base}/responses): function tools from MCP (deferred
// behind its `tool_search` when the host defers), the hosted `mcp` tool for servers OpenAI can
// reach itself, SSE streaming, and the host's result shaping (results go back as
// `function_call_output` items). Items only this API understands (hosted MCP calls and listings,
// tool searches, reasoning) are kept as provider parts and sent back as they came. `store` is
// false: every request carries the whole conversation, as with the other adapters.
import process from 'node:process';
import type { ApprovalPolicy } from './approval.js';
import type { Fetch } from './http.js';
import { eventJson, postJson, readJson, readSse, toolCallPart, trimBase } from './http.js';
import type {
  HostMessage,
  ModelAdapter,
  ModelCallOptions,
  ModelRequest,
  ModelResponse,
  ProviderPart,
  ResultContent,
  StopReason,
  TextPart,
  ToolCallPart,
  ToolChoice,
} from './types.js';
import { ModelError } from './types.js';

const API = 'Responses API';
const PROVIDER = 'openai-responses';
/** The most requests one turn makes to answer the hosted MCP tool's approval requests. */
const MAX_APPROVAL_ROUNDS = 8;

/** A server the provider reaches itself, as a hosted `mcp` tool. */
export interface HostedMcpServer {
  /** `server_label`: how the model and the items name it. */
  readonly label: string;
  /** `server_url`: a URL the provider can reach (not 127.0.0.1). */
  readonly url: string;
  /** `allowed_tools`: the curation (default: every tool). */
  readonly allowedTools?: readonly string[];
  /** `require_approval` (see {@link hostedMcpApproval}). Default `always`. */
  readonly requireApproval?: HostedMcpApproval;
  /** Headers the provider sends the server (an Authorization). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly description?: string;
}

/** `require_approval` of a hosted `mcp` tool. */
export type HostedMcpApproval =
  | 'always'
  | 'never'
  | {
      always?: { tool_names?: string[]; read_only?: boolean };
      never?: { tool_names?: string[]; read_only?: boolean };
    };

/** An approval request of the hosted MCP tool, for `onMcpApproval`. */
export interface McpApprovalRequest {
  readonly server: string;
  readonly tool: string;
  readonly arguments: string;
}

/** Options of {@link createResponsesAdapter}. */
export interface ResponsesOptions {
  /** Default: OPENAI_API_KEY. */
  readonly apiKey?: string;
  /** Default: OPENAI_BASE_URL, else https://api.openai.com/v1. */
  readonly baseUrl?: string;
  readonly fetch?: Fetch;
  readonly headers?: Readonly<Record<string, string>>;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Servers given to the provider as hosted `mcp` tools, in every request. */
  readonly hostedMcp?: readonly HostedMcpServer[];
  /**
   * Answers the hosted MCP tool's approval requests (the adapter sends the answers and asks
   * again, within the same turn). Default: every request declined.
   */
  readonly onMcpApproval?: (request: McpApprovalRequest) => Promise<boolean> | boolean;
}

/** An input item of a request. */
export type ResponsesInputItem =
  | { role: 'user' | 'assistant'; content: string | ResponsesInputPart[] }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string }
  | { type: 'mcp_approval_response'; approval_request_id: string; approve: boolean }
  | Readonly<Record<string, unknown>>;

/** Content of a user message. */
export type ResponsesInputPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' }
  | { type: 'input_file'; file_data: string; filename: string };

/** A tool of a request. */
export type ResponsesTool =
  | {
      type: 'function';
      name: string;
      description: string;
      parameters: Record<string, unknown>;
      strict: false;
      defer_loading?: boolean;
    }
  | { type: 'tool_search' }
  | {
      type: 'mcp';
      server_label: string;
      server_url: string;
      allowed_tools?: string[];
      require_approval: HostedMcpApproval;
      headers?: Record<string, string>;
      server_description?: string;
    };

/** The body of POST /responses. */
export interface ResponsesRequestBody {
  model: string;
  input: ResponsesInputItem[];
  instructions?: string;
  tools?: ResponsesTool[];
  tool_choice?: 'auto' | 'required' | 'none' | { type: 'function'; name: string };
  max_output_tokens: number;
  stream?: boolean;
  store: false;
  temperature?: number;
}

/**
 * `require_approval` from the host's approval policy: `always` mode needs none; `never` and
 * `ask` ask every call (`never` should rather leave the server out); `annotations` (the default)
 * lets a trusted server's read-only tools run unasked; per-tool `always` rules (by tool name)
 * run unasked too.
 */
export function hostedMcpApproval(policy: ApprovalPolicy, trusted = false): HostedMcpApproval {
  const mode = policy.mode ?? 'annotations';
  if (mode === 'always') return 'never';
  const names = Object.entries(policy.tools ?? {})
    .filter(([, rule]) => rule === 'always')
    .map(([name]) => name.split('/').pop() ?? name);
  const never = {
    ...(names.length > 0 ? { tool_names: names } : {}),
    ...(mode === 'annotations' && trusted ? { read_only: true } : {}),
  };
  return Object.keys(never).length === 0 ? 'always' : { never };
}

/** An adapter for the Responses API. */
export function createResponsesAdapter(options: ResponsesOptions = {}): ModelAdapter {
  const env = options.env ?? process.env;
  const apiKey = options.apiKey ?? env['OPENAI_API_KEY'];
  const base = trimBase(options.baseUrl ?? env['OPENAI_BASE_URL'] ?? 'https://api.openai.com/v1');
  const fetcher = options.fetch ?? ((input, init) => fetch(input, init));
  const post = async (body: ResponsesRequestBody, call: ModelCallOptions) => {
    const response = await postJson(fetcher, {
      url: `${base}/responses`,
      headers: {
        ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }),
        ...options.headers,
      },
      body,
      ...(call.signal === undefined ? {} : { signal: call.signal }),
    });
    return body.stream === true ? readResponsesStream(response, call) : readJson(response);
  };
  return {
    provider: 'openai',
    maxTools: Infinity,
    toolSearch: true,
    async complete(request: ModelRequest, call: ModelCallOptions = {}): Promise<ModelResponse> {
      const body = responsesBody(request, options.hostedMcp ?? []);
      const kept: ProviderPart[] = [];
      for (let round = 0; ; round++) {
        const json = await post(body, call);
        const response = responsesResponse(json);
        const asked = response.content.filter(
          (p): p is ProviderPart =>
            p.type === 'provider' && p.data['type'] === 'mcp_approval_request',
        );
        const answered = response.content.some((p) => p.type === 'tool_call');
        if (asked.length === 0 || answered || round >= MAX_APPROVAL_ROUNDS) {
          return { ...response, content: [...kept, ...response.content] };
        }
        // The hosted tool waits for approvals: answer them and ask again, in the same turn.
        const answers: ProviderPart[] = [];
        for (const item of asked) {
          const approve = await (options.onMcpApproval?.({
            server: String(item.data['server_label']),
            tool: String(item.data['name']),
            arguments: typeof item.data['arguments'] === 'string' ? item.data['arguments'] : '',
          }) ?? false);
          answers.push({
            type: 'provider',
            provider: PROVIDER,
            data: { type: 'mcp_approval_response', approval_request_id: item.data['id'], approve },
          });
        }
        const parts = [...response.content.filter((p) => p.type === 'provider'), ...answers];
        kept.push(...parts);
        body.input.push(...parts.map((p) => p.data));
      }
    },
  };
}

/** The request body of a model request. */
export function responsesBody(
  request: ModelRequest,
  hosted: readonly HostedMcpServer[] = [],
): ResponsesRequestBody {
  const body: ResponsesRequestBody = {
    model: request.model,
    input: request.messages.flatMap(inputItems),
    max_output_tokens: request.maxTokens,
    store: false,
  };
  if (request.system !== undefined && request.system !== '') body.instructions = request.system;
  const search = request.toolSearch === undefined ? [] : [{ type: 'tool_search' as const }];
  const tools: ResponsesTool[] = [
    ...search,
    ...request.tools.map((tool) => ({
      type: 'function' as const,
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema,
      strict: false as const,
      ...(tool.defer === true && search.length > 0 ? { defer_loading: true } : {}),
    })),
    ...hosted.map(hostedTool),
  ];
  if (tools.length > 0) {
    body.tools = tools;
    body.tool_choice = responsesToolChoice(request.toolChoice);
  }
  if (request.stream) body.stream = true;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  return body;
}

function hostedTool(server: HostedMcpServer): ResponsesTool {
  return {
    type: 'mcp',
    server_label: server.label,
    server_url: server.url,
    require_approval: server.requireApproval ?? 'always',
    ...(server.allowedTools === undefined ? {} : { allowed_tools: [...server.allowedTools] }),
    ...(server.headers === undefined ? {} : { headers: { ...server.headers } }),
    ...(server.description === undefined ? {} : { server_description: server.description }),
  };
}

function responsesToolChoice(choice: ToolChoice): NonNullable<ResponsesRequestBody['tool_choice']> {
  if (typeof choice === 'object') return { type: 'function', name: choice.name };
  return choice === 'any' ? 'required' : choice;
}

/** One host message as input items; tool results as function_call_output, their media after. */
export function inputItems(message: HostMessage): ResponsesInputItem[] {
  if (typeof message.content === 'string')
    return [{ role: message.role, content: message.content }];
  const out: ResponsesInputItem[] = [];
  const user: ResponsesInputPart[] = [];
  for (const part of message.content) {
    if (part.type === 'provider') {
      if (part.provider === PROVIDER) out.push(part.data);
    } else if (part.type === 'tool_call') {
      out.push({
        type: 'function_call',
        call_id: part.id,
        name: part.name,
        arguments: JSON.stringify(part.arguments),
      });
    } else if (part.type === 'tool_result') {
      const texts = part.content.filter((c): c is TextPart => c.type === 'text').map((c) => c.text);
      const media = part.content.filter((c) => c.type !== 'text');
      const body = texts.join('\n');
      const prefix = part.isError && !body.startsWith('Error:') ? 'Error: ' : '';
      const more =
        media.length > 0
          ? `\n[${String(media.length)} media item(s) follow in the next message]`
          : '';
      out.push({
        type: 'function_call_output',
        call_id: part.toolCallId,
        output: `${prefix}${body}${more}`,
      });
      user.push(...media.map(inputPart));
    } else if (message.role === 'assistant' && part.type === 'text') {
      // In place: an answer's items keep their order (a hosted call, then the text on it).
      const last = out.at(-1);
      if (last !== undefined && 'role' in last && last.role === 'assistant') {
        out[out.length - 1] = { role: 'assistant', content: `${String(last.content)}${part.text}` };
      } else out.push({ role: 'assistant', content: part.text });
    } else {
      user.push(inputPart(part));
    }
  }
  if (user.length > 0) out.push({ role: 'user', content: user });
  return out;
}

function inputPart(part: ResultContent): ResponsesInputPart {
  switch (part.type) {
    case 'text':
      return { type: 'input_text', text: part.text };
    case 'image':
      return {
        type: 'input_image',
        image_url: `data:${part.mimeType};base64,${part.data}`,
        detail: 'auto',
      };
    case 'document':
      return {
        type: 'input_file',
        file_data: `data:${part.mimeType};base64,${part.data}`,
        filename: part.title?.split('/').pop() ?? 'document.pdf',
      };
    case 'audio':
      return {
        type: 'input_text',
        text: `[audio omitted: ${part.mimeType} is not a type this API takes]`,
      };
  }
}

/** A response: output messages' text, function calls, and every other item as a provider part. */
export function responsesResponse(json: Record<string, unknown>): ModelResponse {
  const output = json['output'];
  if (!Array.isArray(output)) throw new ModelError('the Responses API answered without "output"');
  const content: (TextPart | ToolCallPart | ProviderPart)[] = [];
  for (const item of output as Record<string, unknown>[]) {
    if (item['type'] === 'message') {
      const parts = Array.isArray(item['content'])
        ? (item['content'] as Record<string, unknown>[])
        : [];
      const text = parts
        .map((p) =>
          p['type'] === 'output_text'
            ? String(p['text'])
            : p['type'] === 'refusal'
              ? String(p['refusal'])
              : '',
        )
        .join('');
      if (text !== '') content.push({ type: 'text', text });
    } else if (item['type'] === 'function_call') {
      const args = item['arguments'];
      content.push(
        toolCallPart(API, {
          id: item['call_id'],
          name: item['name'],
          ...(typeof args === 'string' ? { json: args } : { input: args }),
        }),
      );
    } else {
      content.push({ type: 'provider', provider: PROVIDER, data: item });
    }
  }
  const usage = json['usage'] as { input_tokens?: number; output_tokens?: number } | undefined;
  return {
    content,
    stopReason: stopReason(json, content),
    ...(typeof json['model'] === 'string' ? { model: json['model'] } : {}),
    ...(usage === undefined
      ? {}
      : {
          usage: { inputTokens: usage.input_tokens ?? 0, outputTokens: usage.output_tokens ?? 0 },
        }),
  };
}

function stopReason(
  json: Record<string, unknown>,
  content: readonly { type: string }[],
): StopReason {
  if (content.some((part) => part.type === 'tool_call')) return 'tool_use';
  const status = json['status'];
  if (status === 'completed') return 'end';
  const reason = (json['incomplete_details'] as { reason?: string } | null | undefined)?.reason;
  if (reason === 'max_output_tokens') return 'max_tokens';
  if (reason === 'content_filter') return 'refusal';
  return 'other';
}

/** Reads a streamed response: text deltas as they come, the whole response from `response.completed`. */
async function readResponsesStream(
  response: Response,
  call: ModelCallOptions,
): Promise<Record<string, unknown>> {
  let done: Record<string, unknown> | undefined;
  await readSse(response, (event) => {
    const data = eventJson(event);
    switch (data['type']) {
      case 'response.output_text.delta':
        if (typeof data['delta'] === 'string') call.onText?.(data['delta']);
        break;
      case 'response.completed':
      case 'response.incomplete':
        done = data['response'] as Record<string, unknown>;
        break;
      case 'response.failed':
      case 'error': {
        const error = (data['error'] ??
          (data['response'] as { error?: unknown } | undefined)?.error) as
          { message?: string } | undefined;
        throw new ModelError(`the Responses API stream failed: ${error?.message ?? event.data}`);
      }
      default:
        break;
    }
  });
  if (done === undefined)
    throw new ModelError('the Responses API stream ended without response.completed');
  return done;
}
