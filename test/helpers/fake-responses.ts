// A fake OpenAI Responses API on 127.0.0.1 (POST /v1/responses), JSON or SSE as the request asks:
// it follows a script (one step a request), and checks every request against the API's shape
// (function, tool_search and mcp tools; input items; each function_call_output and
// mcp_approval_response answering an item before it). A request that breaks a rule gets a 400
// and the rule is recorded in `problems`.
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the model answers in one step: text, function calls, and raw output items before them. */
export interface ResponsesReply {
  readonly text?: string;
  readonly toolCalls?: readonly {
    readonly name: string;
    readonly arguments?: Record<string, unknown>;
  }[];
  readonly items?: readonly Record<string, unknown>[];
}

export type ResponsesStep = ResponsesReply | ((body: any) => ResponsesReply);

export interface FakeResponses {
  /** OPENAI_BASE_URL. */
  readonly url: string;
  readonly bodies: any[];
  readonly problems: string[];
  close(): Promise<void>;
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export async function startFakeResponses(script: readonly ResponsesStep[]): Promise<FakeResponses> {
  const bodies: any[] = [];
  const problems: string[] = [];
  let step = 0;
  let ids = 0;
  const server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      if (req.method !== 'POST' || req.url !== '/v1/responses') {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      bodies.push(body);
      const found = checkResponses(body, req.headers);
      const current = script[step++];
      if (current === undefined) found.push(`the script has no step ${String(step)}`);
      if (found.length > 0) {
        problems.push(...found.map((p) => `request ${String(bodies.length)}: ${p}`));
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ error: { message: found.join('; '), type: 'invalid_request_error' } }),
        );
        return;
      }
      const reply = typeof current === 'function' ? current(body) : current!;
      const output = [
        ...(reply.items ?? []),
        ...(reply.toolCalls ?? []).map((call) => ({
          type: 'function_call',
          id: `fc_${String(++ids)}`,
          call_id: `call_${String(ids)}`,
          name: call.name,
          arguments: JSON.stringify(call.arguments ?? {}),
          status: 'completed',
        })),
        ...(reply.text === undefined
          ? []
          : [
              {
                type: 'message',
                id: `msg_${String(++ids)}`,
                role: 'assistant',
                status: 'completed',
                content: [{ type: 'output_text', text: reply.text, annotations: [] }],
              },
            ]),
      ];
      const response = {
        id: 'resp_fake',
        object: 'response',
        model: body.model,
        status: 'completed',
        output,
        usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
      };
      if (body.stream === true) stream(res, response, reply.text);
      else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(response));
      }
    })();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}/v1`,
    bodies,
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

function stream(res: ServerResponse, response: any, text: string | undefined): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (data: unknown) =>
    res.write(`event: ${(data as { type: string }).type}\ndata: ${JSON.stringify(data)}\n\n`);
  send({ type: 'response.created', response: { ...response, status: 'in_progress', output: [] } });
  if (text !== undefined) {
    const half = Math.floor(text.length / 2);
    for (const delta of [text.slice(0, half), text.slice(half)]) {
      send({
        type: 'response.output_text.delta',
        item_id: 'msg',
        output_index: 0,
        content_index: 0,
        delta,
      });
    }
  }
  send({ type: 'response.completed', response });
  res.end();
}

/** The rules of a Responses request. */
export function checkResponses(body: any, headers: IncomingMessage['headers']): string[] {
  const out: string[] = [];
  if (headers.authorization === undefined) out.push('Authorization header missing');
  if (typeof body.model !== 'string' || body.model === '') out.push('model: a non-empty string');
  if (!Array.isArray(body.input) || body.input.length === 0) out.push('input: a non-empty list');
  if (body.messages !== undefined) out.push('messages is a Chat Completions field');
  const names = new Set<string>();
  const tools: any[] = body.tools ?? [];
  const search = tools.some((t) => t.type === 'tool_search');
  for (const [i, tool] of tools.entries()) {
    if (tool.type === 'function') {
      if (!NAME.test(tool.name))
        out.push(`tools.${String(i)}.name: does not match ${String(NAME)}`);
      if (tool.function !== undefined)
        out.push(`tools.${String(i)}: a Chat Completions function tool`);
      if (tool.parameters?.type !== 'object')
        out.push(`tools.${String(i)}.parameters.type: "object"`);
      if (tool.defer_loading === true && !search)
        out.push('defer_loading needs the tool_search tool');
      names.add(tool.name);
    } else if (tool.type === 'mcp') {
      if (typeof tool.server_label !== 'string')
        out.push(`tools.${String(i)}.server_label: a string`);
      if (typeof tool.server_url !== 'string' || !/^https?:\/\//.test(tool.server_url))
        out.push(`tools.${String(i)}.server_url: a URL`);
      const approval = tool.require_approval;
      if (
        approval !== undefined &&
        approval !== 'always' &&
        approval !== 'never' &&
        (typeof approval !== 'object' ||
          Object.keys(approval).some((k) => k !== 'always' && k !== 'never'))
      )
        out.push(`tools.${String(i)}.require_approval: always, never or a filter`);
      if (tool.allowed_tools !== undefined && !Array.isArray(tool.allowed_tools))
        out.push(`tools.${String(i)}.allowed_tools: a list`);
    } else if (tool.type !== 'tool_search')
      out.push(`tools.${String(i)}.type: unknown ${String(tool.type)}`);
  }
  const c = body.tool_choice;
  if (
    c !== undefined &&
    !(typeof c === 'string'
      ? ['auto', 'required', 'none'].includes(c)
      : c.type === 'function' && names.has(c.name))
  )
    out.push('tool_choice: auto, required, none or a function of the request');
  const calls = new Set<string>();
  const approvals = new Set<string>();
  for (const [i, item] of (body.input ?? []).entries()) {
    const at = `input.${String(i)}`;
    if (item.role !== undefined) {
      if (!['user', 'assistant', 'system', 'developer'].includes(item.role))
        out.push(`${at}.role: unknown`);
      if (Array.isArray(item.content)) {
        for (const part of item.content) {
          if (!['input_text', 'input_image', 'input_file', 'output_text'].includes(part.type))
            out.push(`${at}: a ${String(part.type)} part`);
        }
      } else if (typeof item.content !== 'string') out.push(`${at}.content: text or parts`);
    } else if (item.type === 'function_call') {
      if (typeof item.arguments !== 'string') out.push(`${at}.arguments: a JSON string`);
      calls.add(item.call_id);
    } else if (item.type === 'function_call_output') {
      if (!calls.has(item.call_id))
        out.push(`${at}: no function_call ${String(item.call_id)} before it`);
      calls.delete(item.call_id);
      if (typeof item.output !== 'string') out.push(`${at}.output: a string`);
    } else if (item.type === 'mcp_approval_request') approvals.add(item.id);
    else if (item.type === 'mcp_approval_response') {
      if (!approvals.has(item.approval_request_id))
        out.push(`${at}: answers no mcp_approval_request`);
    } else if (
      ![
        'mcp_call',
        'mcp_list_tools',
        'tool_search_call',
        'tool_search_output',
        'reasoning',
      ].includes(item.type)
    )
      out.push(`${at}.type: unknown ${String(item.type)}`);
  }
  if (calls.size > 0) out.push(`function calls without output: ${[...calls].join(', ')}`);
  return out;
}
