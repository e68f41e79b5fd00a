// A fake Anthropic Messages endpoint for the context bench: it answers POST /v1/messages (JSON)
// by a script, one step a request, and counts each request twice: the whole body as sent
// (`wireTokens`), and what it puts in the model's context (`tokens`): the body less the tool
// definitions sent with `defer_loading: true` that no tool_reference of the conversation loaded,
// which the API keeps out of the context (and out of the bill) until its tool search finds them.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Tokenizer } from '../../src/host/index.js';
import type { Endpoint, EndpointReply, EndpointStep } from './types.js';

/** Starts an endpoint following `script`. */
export async function startEndpoint(
  script: readonly EndpointStep[],
  tokenizer: Tokenizer,
): Promise<Endpoint> {
  const bodies: unknown[] = [];
  const tokens: number[] = [];
  const wireTokens: number[] = [];
  const problems: string[] = [];
  let step = 0;
  let ids = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = JSON.parse(text) as Record<string, unknown>;
      bodies.push(body);
      wireTokens.push(tokenizer.count(text));
      tokens.push(tokenizer.count(JSON.stringify(contextOf(body))));
      const current = script[step++];
      if (current === undefined) {
        problems.push(`the script has no step ${String(step)}`);
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            type: 'error',
            error: { type: 'invalid_request_error', message: 'no step' },
          }),
        );
        return;
      }
      const reply = typeof current === 'function' ? current(body) : current;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(message(String(body['model']), reply, () => `toolu_${String(++ids)}`)),
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    bodies,
    tokens,
    wireTokens,
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

/** The body as the model's context holds it: deferred tools not yet loaded left out. */
export function contextOf(body: Record<string, unknown>): Record<string, unknown> {
  const tools = body['tools'] as Record<string, unknown>[] | undefined;
  if (tools === undefined) return body;
  const loaded = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) {
      const record = value as Record<string, unknown>;
      if (record['type'] === 'tool_reference' && typeof record['tool_name'] === 'string') {
        loaded.add(record['tool_name']);
      }
      Object.values(record).forEach(walk);
    }
  };
  walk(body['messages']);
  return {
    ...body,
    tools: tools.filter(
      (tool) => tool['defer_loading'] !== true || loaded.has(String(tool['name'])),
    ),
  };
}

function message(model: string, reply: EndpointReply, id: () => string): Record<string, unknown> {
  const calls = (reply.toolCalls ?? []).map((call) => ({
    type: 'tool_use',
    id: id(),
    name: call.name,
    input: call.arguments,
  }));
  return {
    id: 'msg_bench',
    type: 'message',
    role: 'assistant',
    model,
    content: [
      ...(reply.text === undefined ? [] : [{ type: 'text', text: reply.text }]),
      ...(reply.blocks ?? []),
      ...calls,
    ],
    stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 0, output_tokens: 0 },
  };
}
