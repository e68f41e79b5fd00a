// A fake model API on 127.0.0.1 for the host's tests: it speaks Anthropic Messages
// (POST /v1/messages) and OpenAI Chat Completions (POST /chat/completions, /v1/chat/completions),
// as JSON or SSE when the request asks to stream, follows a script (one step a request: text,
// tool calls, or a function of the request), and checks every request against the API's shape.
// A request that breaks a rule gets a 400 with the API's error body, and the rule is recorded
// in `problems`, so a test can assert there were none.
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HostOptions, ServerConfig } from '../../src/host/index.js';
import { Host, createAnthropicAdapter, createOpenAiAdapter } from '../../src/host/index.js';

/** What the model answers in one step. */
export interface Reply {
  readonly text?: string;
  /**
   * Messages content blocks of the API's own tools, after the text and before the tool calls
   * (server_tool_use, tool_search_tool_result), as the API sends them; Messages only.
   */
  readonly blocks?: readonly Record<string, unknown>[];
  readonly toolCalls?: readonly {
    readonly name: string;
    readonly arguments?: Record<string, unknown>;
    /** The call's id: a fresh one by default; null leaves the id out (a malformed call). */
    readonly id?: string | null;
    /**
     * Sent instead of `arguments`, as is (a malformed call): a Messages `input` (streamed as
     * its JSON), or the Chat Completions `arguments` text when a string (else its JSON).
     */
    readonly rawArguments?: unknown;
  }[];
}

/** A request as the fake saw it, in neutral terms. */
export interface Seen {
  readonly api: 'anthropic' | 'openai';
  readonly body: any;
  readonly headers: IncomingMessage['headers'];
  /** The names of the tools offered. */
  readonly tools: string[];
  /** The tool results of the last message(s), as text. */
  readonly results: { id: string; text: string; isError: boolean }[];
  /** The text of the last user message. */
  readonly lastUserText: string;
}

/** One step of the script. */
export type Step = Reply | ((seen: Seen) => Reply | Promise<Reply>);

/** A running fake. */
export interface FakeModel {
  /** http://127.0.0.1:<port>: ANTHROPIC_BASE_URL. */
  readonly url: string;
  /** http://127.0.0.1:<port>/v1: OPENAI_BASE_URL. */
  readonly openaiUrl: string;
  readonly requests: Seen[];
  /** Rules requests broke. */
  readonly problems: string[];
  close(): Promise<void>;
}

/**
 * A Host (not connected yet) on the fake speaking `api`, with `servers`; every call and sampling
 * request is approved unless `options` sets a policy.
 */
export function fakeHost(
  api: Seen['api'],
  model: FakeModel,
  servers: Record<string, ServerConfig>,
  options: Partial<HostOptions> = {},
): Host {
  const adapter =
    api === 'anthropic'
      ? createAnthropicAdapter({ baseUrl: model.url, apiKey: 'test-key', env: {} })
      : createOpenAiAdapter({ baseUrl: model.openaiUrl, apiKey: 'test-key', env: {} });
  return new Host({
    model: adapter,
    modelName: 'fake-1',
    servers,
    approval: { mode: 'always', sampling: 'always' },
    ...options,
  });
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Starts a fake model following `script`. */
export async function startFakeModel(script: readonly Step[]): Promise<FakeModel> {
  const requests: Seen[] = [];
  const problems: string[] = [];
  let step = 0;
  let ids = 0;
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      problems.push(`fake model failed: ${String(error)}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `fake model failed: ${String(error)}` } }));
    });
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const api =
      path === '/v1/messages'
        ? 'anthropic'
        : /^(\/v1)?\/chat\/completions$/.test(path)
          ? 'openai'
          : undefined;
    if (req.method !== 'POST' || api === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no route ${req.method ?? ''} ${path}` } }));
      return;
    }
    let body: any;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      refuse(res, api, 'the body is not JSON');
      return;
    }
    const found =
      api === 'anthropic' ? checkAnthropic(body, req.headers) : checkOpenAi(body, req.headers);
    const seen =
      api === 'anthropic' ? seenAnthropic(body, req.headers) : seenOpenAi(body, req.headers);
    requests.push(seen);
    if (found.length > 0) {
      problems.push(...found.map((p) => `${api} request ${String(requests.length)}: ${p}`));
      refuse(res, api, found.join('; '));
      return;
    }
    const current = script[step++];
    if (current === undefined) {
      refuse(res, api, `the script has no step ${String(step)}`);
      return;
    }
    const reply = typeof current === 'function' ? await current(seen) : current;
    const calls = (reply.toolCalls ?? []).map((call) => ({
      id:
        call.id === null
          ? undefined
          : (call.id ?? (api === 'anthropic' ? `toolu_${String(++ids)}` : `call_${String(++ids)}`)),
      name: call.name,
      arguments: 'rawArguments' in call ? call.rawArguments : (call.arguments ?? {}),
    }));
    const model = String(body.model);
    if (api === 'anthropic') {
      if (body.stream === true) streamAnthropic(res, model, reply, calls);
      else json(res, anthropicMessage(model, reply, calls));
    } else if (body.stream === true) streamOpenAi(res, model, reply.text, calls);
    else json(res, openAiCompletion(model, reply.text, calls));
  }
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${String(port)}`;
  return {
    url,
    openaiUrl: `${url}/v1`,
    requests,
    problems,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

type Call = { id: string | undefined; name: string; arguments: unknown };

function json(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function refuse(res: ServerResponse, api: 'anthropic' | 'openai', message: string): void {
  res.writeHead(400, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify(
      api === 'anthropic'
        ? { type: 'error', error: { type: 'invalid_request_error', message } }
        : { error: { message, type: 'invalid_request_error', param: null, code: null } },
    ),
  );
}

function anthropicMessage(model: string, reply: Reply, calls: Call[]) {
  const { text } = reply;
  const content = [
    ...(text === undefined ? [] : [{ type: 'text', text }]),
    ...(reply.blocks ?? []),
    ...calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.arguments })),
  ];
  return {
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
}

function sse(res: ServerResponse, events: { event?: string; data: unknown }[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const e of events) {
    const data = typeof e.data === 'string' ? e.data : JSON.stringify(e.data);
    res.write(`${e.event === undefined ? '' : `event: ${e.event}\n`}data: ${data}\n\n`);
  }
  res.end();
}

function streamAnthropic(res: ServerResponse, model: string, reply: Reply, calls: Call[]): void {
  const { text } = reply;
  const events: { event: string; data: unknown }[] = [];
  const start = { ...anthropicMessage(model, {}, []), content: [], stop_reason: null };
  events.push({ event: 'message_start', data: { type: 'message_start', message: start } });
  events.push({ event: 'ping', data: { type: 'ping' } });
  let index = 0;
  if (text !== undefined) {
    events.push({
      event: 'content_block_start',
      data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
    });
    // Two deltas, so that the host must join them.
    const half = Math.floor(text.length / 2);
    for (const piece of [text.slice(0, half), text.slice(half)]) {
      events.push({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } },
      });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
    index++;
  }
  for (const block of reply.blocks ?? []) {
    // A server_tool_use streams its input as JSON deltas, as a tool_use does; others come whole.
    const streamed = block['type'] === 'server_tool_use';
    events.push({
      event: 'content_block_start',
      data: {
        type: 'content_block_start',
        index,
        content_block: streamed ? { ...block, input: {} } : block,
      },
    });
    if (streamed) {
      events.push({
        event: 'content_block_delta',
        data: {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(block['input']) },
        },
      });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
    index++;
  }
  for (const call of calls) {
    events.push({
      event: 'content_block_start',
      data: {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
      },
    });
    const args = JSON.stringify(call.arguments) ?? '';
    const half = Math.floor(args.length / 2);
    for (const piece of [args.slice(0, half), args.slice(half)]) {
      events.push({
        event: 'content_block_delta',
        data: {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: piece },
        },
      });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
    index++;
  }
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: 5 },
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  sse(res, events);
}

function openAiCompletion(model: string, text: string | undefined, calls: Call[]) {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 0,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text ?? null,
          refusal: null,
          ...(calls.length > 0
            ? {
                tool_calls: calls.map((c) => ({
                  id: c.id,
                  type: 'function',
                  function: { name: c.name, arguments: argumentsText(c.arguments) },
                })),
              }
            : {}),
        },
        finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

function streamOpenAi(
  res: ServerResponse,
  model: string,
  text: string | undefined,
  calls: Call[],
): void {
  const chunk = (delta: unknown, finish: string | null = null) => ({
    data: {
      id: 'chatcmpl-fake',
      object: 'chat.completion.chunk',
      created: 0,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    },
  });
  const events: { data: unknown }[] = [chunk({ role: 'assistant', content: '' })];
  if (text !== undefined) {
    const half = Math.floor(text.length / 2);
    events.push(chunk({ content: text.slice(0, half) }), chunk({ content: text.slice(half) }));
  }
  calls.forEach((call, index) => {
    const args = argumentsText(call.arguments);
    const half = Math.floor(args.length / 2);
    events.push(
      chunk({
        tool_calls: [
          {
            index,
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: args.slice(0, half) },
          },
        ],
      }),
    );
    events.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }));
  });
  events.push(chunk({}, calls.length > 0 ? 'tool_calls' : 'stop'));
  events.push({
    data: {
      id: 'chatcmpl-fake',
      object: 'chat.completion.chunk',
      created: 0,
      model,
      choices: [],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    },
  });
  events.push({ data: '[DONE]' });
  sse(res, events);
}

/** Chat Completions `arguments`: a string as is, anything else as its JSON. */
function argumentsText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

/** The rules of a Messages request. */
export function checkAnthropic(body: any, headers: IncomingMessage['headers']): string[] {
  const out: string[] = [];
  if (headers['anthropic-version'] !== '2023-06-01') out.push('anthropic-version header missing');
  if (typeof body.model !== 'string' || body.model === '') out.push('model: a non-empty string');
  if (!Number.isInteger(body.max_tokens) || body.max_tokens < 1)
    out.push('max_tokens: a positive integer');
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    out.push('messages: a non-empty list');
    return out;
  }
  const names = new Set<string>();
  const tools: any[] = body.tools ?? [];
  const searches = tools.filter((tool) => String(tool.type).startsWith('tool_search_tool_'));
  for (const search of searches) {
    const kind = /^tool_search_tool_(regex|bm25)_20251119$/.exec(search.type)?.[1];
    if (kind === undefined || search.name !== `tool_search_tool_${kind}`)
      out.push(
        `tools: unknown tool-search tool ${String(search.type)} named ${String(search.name)}`,
      );
    if (search.defer_loading === true) out.push('tools: the tool-search tool cannot be deferred');
    if (!String(headers['anthropic-beta']).split(',').includes('advanced-tool-use-2025-11-20'))
      out.push('tool search needs the anthropic-beta header advanced-tool-use-2025-11-20');
    names.add(search.name);
  }
  if (tools.some((tool) => tool.defer_loading === true) && searches.length === 0)
    out.push('tools: defer_loading needs a tool-search tool in the request');
  if (tools.length > 0 && tools.every((tool) => tool.defer_loading === true))
    out.push('tools: at least one tool must not be deferred');
  for (const [i, tool] of tools.entries()) {
    if (searches.includes(tool)) continue;
    if (tool.defer_loading !== undefined && typeof tool.defer_loading !== 'boolean')
      out.push(`tools.${String(i)}.defer_loading: a boolean`);
    if (!NAME.test(tool.name))
      out.push(`tools.${String(i)}.name: ${String(tool.name)} does not match ${String(NAME)}`);
    if (names.has(tool.name)) out.push(`tools: the name ${String(tool.name)} is used twice`);
    names.add(tool.name);
    if (tool.input_schema?.type !== 'object')
      out.push(`tools.${String(i)}.input_schema.type: must be "object"`);
    for (const key of ['oneOf', 'anyOf', 'allOf']) {
      if (tool.input_schema?.[key] !== undefined)
        out.push(
          `tools.${String(i)}.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level`,
        );
    }
  }
  if (body.tool_choice !== undefined) {
    const t = body.tool_choice.type;
    if (!['auto', 'any', 'none', 'tool'].includes(t))
      out.push('tool_choice.type: auto, any, none or tool');
    if (t === 'tool' && !names.has(body.tool_choice.name))
      out.push('tool_choice.name: not a tool of the request');
  }
  let open: string[] = [];
  const deferred = new Set(tools.filter((t) => t.defer_loading === true).map((t) => t.name));
  const referenced = new Set<string>();
  body.messages.forEach((message: any, i: number) => {
    const expected = i % 2 === 0 ? 'user' : 'assistant';
    if (message.role !== expected)
      out.push(`messages.${String(i)}.role: roles must alternate, starting with user`);
    const blocks =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : message.content;
    if (!Array.isArray(blocks) || blocks.length === 0)
      out.push(`messages.${String(i)}.content: not empty`);
    const results = (blocks ?? [])
      .filter((b: any) => b.type === 'tool_result')
      .map((b: any) => b.tool_use_id);
    if (open.length > 0) {
      const missing = open.filter((id) => !results.includes(id));
      if (missing.length > 0)
        out.push(
          `messages.${String(i)}: tool_use ids ${missing.join(', ')} were not followed by tool_result blocks`,
        );
      if (blocks?.[0]?.type !== 'tool_result')
        out.push(`messages.${String(i)}: tool_result blocks must come first`);
    } else if (results.length > 0)
      out.push(`messages.${String(i)}: tool_result without a tool_use before it`);
    for (const block of blocks ?? []) {
      if (block.type === 'tool_result') {
        for (const inner of block.content ?? []) {
          if (!['text', 'image', 'document', 'search_result'].includes(inner.type))
            out.push(`messages.${String(i)}: a tool_result holds a ${String(inner.type)} block`);
          if (inner.type === 'text' && inner.text === '')
            out.push(`messages.${String(i)}: empty text block`);
        }
      }
    }
    if (message.role === 'assistant') {
      for (const block of blocks ?? []) {
        if (block.type === 'tool_reference') continue;
        if (block.type === 'tool_search_tool_result') {
          for (const ref of block.content?.tool_references ?? []) referenced.add(ref.tool_name);
        }
        if (
          block.type === 'server_tool_use' &&
          !(blocks ?? []).some(
            (b: any) => b.type === 'tool_search_tool_result' && b.tool_use_id === block.id,
          )
        )
          out.push(
            `messages.${String(i)}: server_tool_use ${String(block.id)} has no tool_search_tool_result`,
          );
        if (block.type === 'tool_use' && deferred.has(block.name) && !referenced.has(block.name))
          out.push(
            `messages.${String(i)}: tool_use of the deferred tool ${String(block.name)}, which no tool search loaded`,
          );
      }
    }
    if (message.role === 'user') {
      for (const block of blocks ?? []) {
        if (block.type === 'server_tool_use' || block.type === 'tool_search_tool_result')
          out.push(`messages.${String(i)}: a ${String(block.type)} block in a user message`);
      }
    }
    open =
      message.role === 'assistant'
        ? (blocks ?? []).filter((b: any) => b.type === 'tool_use').map((b: any) => b.id)
        : [];
  });
  if (open.length > 0) out.push('the last message has tool_use blocks without results');
  return out;
}

/** The rules of a Chat Completions request. */
export function checkOpenAi(body: any, headers: IncomingMessage['headers']): string[] {
  const out: string[] = [];
  if (headers.authorization === undefined) out.push('Authorization header missing');
  if (typeof body.model !== 'string' || body.model === '') out.push('model: a non-empty string');
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    out.push('messages: a non-empty list');
    return out;
  }
  const tools = body.tools ?? [];
  if (tools.length > 128) out.push(`tools: at most 128 (got ${String(tools.length)})`);
  const names = new Set<string>();
  for (const [i, tool] of tools.entries()) {
    if (tool.type !== 'function') out.push(`tools.${String(i)}.type: "function"`);
    if (!NAME.test(tool.function?.name))
      out.push(
        `tools.${String(i)}.function.name: ${String(tool.function?.name)} does not match ${String(NAME)}`,
      );
    names.add(tool.function?.name);
    if (tool.function?.parameters?.type !== 'object')
      out.push(`tools.${String(i)}.function.parameters.type: must be "object"`);
  }
  if (body.tool_choice !== undefined) {
    if (tools.length === 0) out.push('tool_choice is only allowed when tools are given');
    const c = body.tool_choice;
    if (
      typeof c === 'string'
        ? !['auto', 'required', 'none'].includes(c)
        : c.type !== 'function' || !names.has(c.function?.name)
    ) {
      out.push('tool_choice: auto, required, none or a named function of the request');
    }
  }
  let open: string[] = [];
  body.messages.forEach((message: any, i: number) => {
    if (!['system', 'developer', 'user', 'assistant', 'tool'].includes(message.role))
      out.push(`messages.${String(i)}.role: unknown`);
    if (message.role === 'tool') {
      const answered = open.indexOf(message.tool_call_id);
      if (answered === -1)
        out.push(
          `messages.${String(i)}: a tool message must answer a tool_call of the assistant message before it`,
        );
      // Each call answered once (a call whose id another shares too).
      else open.splice(answered, 1);
      if (typeof message.content !== 'string' && !Array.isArray(message.content))
        out.push(`messages.${String(i)}.content: text`);
      return;
    }
    if (open.length > 0)
      out.push(`messages.${String(i)}: tool_call_ids ${open.join(', ')} have no tool message`);
    open = message.role === 'assistant' ? (message.tool_calls ?? []).map((c: any) => c.id) : [];
    for (const call of message.tool_calls ?? []) {
      if (typeof call.function?.arguments !== 'string')
        out.push(`messages.${String(i)}: tool_calls arguments must be a JSON string`);
    }
  });
  if (open.length > 0) out.push('the last message has tool_calls without tool messages');
  return out;
}

function textOf(content: any): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b: any) =>
      b.type === 'text'
        ? b.text
        : typeof b.content === 'string'
          ? b.content
          : Array.isArray(b.content)
            ? textOf(b.content)
            : '',
    )
    .join('');
}

function seenAnthropic(body: any, headers: IncomingMessage['headers']): Seen {
  const messages: any[] = Array.isArray(body.messages) ? body.messages : [];
  const last = messages[messages.length - 1];
  const blocks = Array.isArray(last?.content) ? last.content : [];
  return {
    api: 'anthropic',
    body,
    headers,
    tools: (body.tools ?? []).map((t: any) => t.name),
    results: blocks
      .filter((b: any) => b.type === 'tool_result')
      .map((b: any) => ({
        id: b.tool_use_id,
        text: textOf(b.content),
        isError: b.is_error === true,
      })),
    lastUserText:
      last?.role === 'user'
        ? textOf(blocks.length > 0 ? blocks.filter((b: any) => b.type === 'text') : last.content)
        : '',
  };
}

function seenOpenAi(body: any, headers: IncomingMessage['headers']): Seen {
  const messages: any[] = Array.isArray(body.messages) ? body.messages : [];
  const results: Seen['results'] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i].role !== 'assistant'; i--) {
    const m = messages[i];
    if (m.role === 'tool') {
      const text = textOf(m.content);
      results.unshift({ id: m.tool_call_id, text, isError: text.startsWith('Error:') });
    }
  }
  const last = messages[messages.length - 1];
  return {
    api: 'openai',
    body,
    headers,
    tools: (body.tools ?? []).map((t: any) => t.function?.name),
    results,
    lastUserText: last?.role === 'user' ? textOf(last.content) : '',
  };
}
