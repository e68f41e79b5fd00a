// Tasks across implementations: the official SDK v1 client's task API (2025-11-25 core tasks,
// `client.experimental.tasks`) against an mcpkit server over Streamable HTTP, with a question
// the task asks answered by the official client's elicitation handler; the official ext-tasks
// requester in both generations; and mcpkit's own client driving the same server's tasks in
// both generations.
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableHttpV2,
} from '@modelcontextprotocol/client';
import {
  createTaskSessionFromClient,
  resultFromTaskOutcome,
} from '@modelcontextprotocol/ext-tasks/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../src/client/index.js';
import { McpServer } from '../../src/server/index.js';
import { tasks, tasksClient } from '../../src/ext/tasks/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/index.js';
import type { Listening } from '../../src/transports/http/server/node.js';
import { listen } from '../../src/transports/http/server/node.js';

function taskServer(): McpServer {
  const server = new McpServer({ name: 'tasks', version: '1.0.0' }, { onError: () => {} });
  server.extend(tasks());
  server.tool(
    {
      name: 'survey',
      description: 'Asks for a colour, then works a little.',
      inputSchema: { type: 'object', properties: { topic: { type: 'string' } } },
      task: 'required',
    },
    async ({ topic }, ctx) => {
      const answer = await ctx.elicit({
        message: `Favourite colour for ${String(topic)}?`,
        requestedSchema: { type: 'object', properties: { colour: { type: 'string' } } },
      });
      await ctx.progress(1, 2, 'thinking');
      await new Promise((resolve) => setTimeout(resolve, 100));
      return `${String(topic)}: ${String(answer.content?.['colour'])}`;
    },
  );
  server.tool(
    { name: 'tally', description: 'Counts to three, slowly.', task: 'required' },
    async (_args, ctx) => {
      for (let i = 1; i <= 3; i++) {
        await ctx.progress(i, 3, `counted ${String(i)}`);
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
      return 'three';
    },
  );
  return server;
}

let running: Listening;
beforeAll(async () => {
  const server = taskServer();
  running = await listen(() => server, { port: 0 });
});
afterAll(() => running.close());

describe('official SDK v1 client, core tasks (2025-11-25) → mcpkit server', () => {
  it('lists the tool as task-required, streams the task to its result, answers its question', async () => {
    const client = new ClientV1(
      { name: 'official-v1', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { colour: 'teal' } };
    });
    await client.connect(new StreamableHttpV1(new URL(running.url)));
    try {
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === 'survey')?.execution).toEqual({
        taskSupport: 'required',
      });
      const kinds: string[] = [];
      let final: unknown;
      for await (const message of client.experimental.tasks.callToolStream({
        name: 'survey',
        arguments: { topic: 'tea' },
      })) {
        kinds.push(message.type);
        if (message.type === 'result') final = message.result;
        if (message.type === 'error') throw message.error;
      }
      expect(kinds[0]).toBe('taskCreated');
      expect(kinds.at(-1)).toBe('result');
      expect(final).toMatchObject({ content: [{ type: 'text', text: 'tea: teal' }] });
      expect(asked).toEqual(['Favourite colour for tea?']);
      const { tasks } = await client.experimental.tasks.listTasks();
      expect(tasks.some((t) => t.status === 'completed')).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('refuses the plain call of a tool that requires a task (-32601)', async () => {
    const client = new ClientV1({ name: 'official-v1', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new StreamableHttpV1(new URL(running.url)));
    try {
      await expect(
        client.request(
          { method: 'tools/call', params: { name: 'survey', arguments: { topic: 'x' } } },
          (await import('@modelcontextprotocol/sdk/types.js')).CallToolResultSchema,
        ),
      ).rejects.toMatchObject({ code: -32601 });
    } finally {
      await client.close();
    }
  });
});

// The ext-tasks requester polls tasks/get and calls tasks/result only at the end: in 2025-11-25 it
// gets a task's questions sent on its tasks/get requests (related to the task by `_meta`); in 2026-07-28
// it reads them from the task (`inputRequests`) and answers with tasks/update, over its raw
// request path (the SDK's own codecs do not carry the extension's shapes).
describe('official @modelcontextprotocol/ext-tasks requester → mcpkit server', () => {
  const answerColour = (asked: unknown[]) => (request: unknown) => {
    asked.push(request);
    return Promise.resolve({ action: 'accept', content: { colour: 'teal' } } as never);
  };

  it('2025-11-25: settles a task whose question comes while it polls tasks/get, and one without', async () => {
    const client = new ClientV2(
      { name: 'ext-tasks', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    await client.connect(new StreamableHttpV2(new URL(running.url)));
    const asked: unknown[] = [];
    const session = createTaskSessionFromClient(client, {
      endpointId: 'mcpkit-interop',
      onInputRequest: answerColour(asked),
    });
    try {
      const tally = await session.callTool('tally', {});
      expect(resultFromTaskOutcome((await tally.settle()).outcome)).toMatchObject({
        content: [{ type: 'text', text: 'three' }],
      });
      const survey = await session.callTool('survey', { topic: 'tea' });
      expect(survey.kind).toBe('task');
      expect(resultFromTaskOutcome((await survey.settle()).outcome)).toMatchObject({
        content: [{ type: 'text', text: 'tea: teal' }],
      });
      expect(asked).toMatchObject([
        {
          kind: 'elicitation',
          params: {
            message: 'Favourite colour for tea?',
            _meta: { 'io.modelcontextprotocol/related-task': { taskId: expect.any(String) } },
          },
        },
      ]);
    } finally {
      await session.close();
      await client.close();
    }
  });

  it('2026-07-28: settles a task through tasks/get and tasks/update, answering its question', async () => {
    const clientInfo = { name: 'ext-tasks', version: '1.0.0' };
    const clientCapabilities = { elicitation: {} };
    const client = new ClientV2(clientInfo, {
      capabilities: clientCapabilities,
      versionNegotiation: { mode: 'auto' },
    });
    await client.connect(new StreamableHttpV2(new URL(running.url)));
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const asked: unknown[] = [];
    const session = createTaskSessionFromClient(client, {
      endpointId: 'mcpkit-interop-v2',
      onInputRequest: answerColour(asked),
      rawDispatch: (request, options) => postRaw(running.url, request, options?.signal),
      v2RequestFraming: { protocolVersion: '2026-07-28', clientInfo, clientCapabilities },
    });
    try {
      const survey = await session.callTool('survey', { topic: 'jam' });
      expect(survey.kind).toBe('task');
      expect(resultFromTaskOutcome((await survey.settle()).outcome)).toMatchObject({
        content: [{ type: 'text', text: 'jam: teal' }],
      });
      expect(asked).toMatchObject([
        { kind: 'elicitation', params: { message: 'Favourite colour for jam?' } },
      ]);
    } finally {
      await session.close();
      await client.close();
    }
  });
});

let rawIds = 0;

/**
 * The ext-tasks requester's raw request path for 2026-07-28 (its `rawDispatch`): one POST with
 * the standard headers, answered in JSON or on an SSE stream (read to its response).
 */
async function postRaw(
  url: string,
  request: unknown,
  signal: AbortSignal | undefined,
): Promise<
  | { kind: 'result'; result: never }
  | { kind: 'error'; error: { code: number; message: string; data?: never } }
> {
  const { method, params } = request as { method: string; params: Record<string, unknown> };
  const id = `raw-${String(++rawIds)}`;
  const name = params['name'] ?? params['taskId'];
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    ...(signal === undefined ? {} : { signal }),
  });
  const text = await response.text();
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim();
  const messages =
    mediaType === 'text/event-stream'
      ? text
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>)
      : [JSON.parse(text) as Record<string, unknown>];
  const answer = messages.find((m) => m['id'] === id);
  if (answer === undefined) throw new Error(`no response to ${method}: ${text}`);
  if (answer['error'] !== undefined) return { kind: 'error', error: answer['error'] as never };
  return { kind: 'result', result: answer['result'] as never };
}

describe("mcpkit's client drives the same tasks in both generations", () => {
  for (const mode of [{ pin: '2025-11-25' as const }, 'auto' as const]) {
    it(`callTool follows the task to its result (${typeof mode === 'string' ? '2026-07-28' : mode.pin})`, async () => {
      const messages: string[] = [];
      const client = new Client(
        { name: 'mcpkit', version: '1.0.0' },
        { mode, onElicit: () => ({ action: 'accept', content: { colour: 'plum' } }) },
      );
      client.extend(tasksClient());
      await client.connect(createStreamableHttpClientTransport(running.url));
      try {
        const result = await client.callTool(
          'survey',
          { topic: 'jam' },
          { onProgress: (_p, _t, message) => message !== undefined && messages.push(message) },
        );
        expect(result.content).toEqual([{ type: 'text', text: 'jam: plum' }]);
      } finally {
        await client.close();
      }
    });
  }
});
