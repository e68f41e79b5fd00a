// The OpenAI Responses API adapter (issue #41) against a fake Responses endpoint that checks
// every request's shape (test/helpers/fake-responses.ts): function tools from MCP servers, JSON
// and SSE; the hosted mcp tool with allowed_tools and require_approval from the approval policy,
// its approval requests answered within the turn; deferred loading behind tool_search.
import type OpenAI from 'openai';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { createPingmeServer } from '../../servers/pingme/server.js';
import type {
  HostOptions,
  ResponsesOptions,
  ResponsesRequestBody,
  ServerConfig,
} from '../../src/host/index.js';
import { Host, createResponsesAdapter, hostedMcpApproval } from '../../src/host/index.js';
import { listen } from '../../src/transports/http/server/node.js';
import type { FakeResponses, ResponsesStep } from '../helpers/fake-responses.js';
import { startFakeResponses } from '../helpers/fake-responses.js';
import { createSumServer } from '../helpers/sum-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(
  script: ResponsesStep[],
  options: Partial<HostOptions> = {},
  adapter: Partial<ResponsesOptions> = {},
): Promise<{ fake: FakeResponses; host: Host }> {
  const fake = await startFakeResponses(script);
  cleanups.push(() => fake.close());
  const servers: Record<string, ServerConfig> = {};
  for (const [name, make] of [
    ['pingme', createPingmeServer],
    ['sum', () => createSumServer()],
  ] as const) {
    const listening = await listen(() => make());
    cleanups.push(() => listening.close());
    servers[name] = { url: listening.url };
  }
  const host = new Host({
    model: createResponsesAdapter({ baseUrl: fake.url, apiKey: 'k', env: {}, ...adapter }),
    modelName: 'gpt-fake',
    servers,
    system: 'Be brief.',
    approval: { mode: 'always' },
    ...options,
  });
  cleanups.push(() => host.close());
  await host.connect();
  return { fake, host };
}

describe.each([false, true])('the Responses API (stream %s)', (stream) => {
  it('calls an MCP tool as a function tool and sends the result as function_call_output', async () => {
    const deltas: string[] = [];
    const { fake, host } = await setUp(
      [
        (body) => {
          expect(body.instructions).toBe('Be brief.');
          expect(body.store).toBe(false);
          expect(body.tools.map((t: any) => t.name).sort()).toEqual(['PingME', 'get-sum']);
          expect(body.tools[0]).toMatchObject({ type: 'function', strict: false });
          return { toolCalls: [{ name: 'get-sum', arguments: { a: 2, b: 3 } }] };
        },
        (body) => {
          const output = body.input.find((i: any) => i.type === 'function_call_output');
          expect(output.output).toBe('The sum of 2 and 3 is 5.');
          return { text: 'It is 5.' };
        },
      ],
      { stream, onEvent: (e) => (e.type === 'text_delta' ? deltas.push(e.text) : undefined) },
    );
    const result = await host.run([{ role: 'user', content: 'add 2 and 3' }]);
    expect(fake.problems).toEqual([]);
    expect(result.text).toBe('It is 5.');
    expect(deltas.join('')).toBe(stream ? 'It is 5.' : '');
  });
});

describe('the Responses API, hosted mcp and deferred loading', () => {
  it('offers a hosted mcp tool and answers its approval requests within the turn', async () => {
    const asked: unknown[] = [];
    const { fake, host } = await setUp(
      [
        (body) => {
          expect(body.tools.find((t: any) => t.type === 'mcp')).toEqual({
            type: 'mcp',
            server_label: 'docs',
            server_url: 'https://mcp.example.com/mcp',
            allowed_tools: ['search_docs'],
            require_approval: { never: { read_only: true } },
          });
          return {
            items: [
              {
                type: 'mcp_list_tools',
                id: 'mcpl_1',
                server_label: 'docs',
                tools: [{ name: 'search_docs', input_schema: {} }],
              },
              {
                type: 'mcp_approval_request',
                id: 'mcpr_1',
                server_label: 'docs',
                name: 'search_docs',
                arguments: '{"q":"mcp"}',
              },
            ],
          };
        },
        (body) => {
          expect(body.input.at(-1)).toEqual({
            type: 'mcp_approval_response',
            approval_request_id: 'mcpr_1',
            approve: true,
          });
          return {
            items: [
              {
                type: 'mcp_call',
                id: 'mcp_1',
                server_label: 'docs',
                name: 'search_docs',
                arguments: '{"q":"mcp"}',
                output: 'found 3',
              },
            ],
            text: 'Found 3 pages.',
          };
        },
        (body) => {
          // The hosted items go back as they came, in the next turn.
          expect(body.input.map((i: any) => i.type ?? i.role)).toEqual([
            'user',
            'mcp_list_tools',
            'mcp_approval_request',
            'mcp_approval_response',
            'mcp_call',
            'assistant',
            'user',
          ]);
          return { text: 'ok' };
        },
      ],
      {},
      {
        hostedMcp: [
          {
            label: 'docs',
            url: 'https://mcp.example.com/mcp',
            allowedTools: ['search_docs'],
            requireApproval: hostedMcpApproval({ mode: 'annotations' }, true),
          },
        ],
        onMcpApproval: (request) => {
          asked.push(request);
          return true;
        },
      },
    );
    const first = await host.run([{ role: 'user', content: 'search the docs' }]);
    expect(first.text).toBe('Found 3 pages.');
    expect(asked).toEqual([{ server: 'docs', tool: 'search_docs', arguments: '{"q":"mcp"}' }]);
    await host.run([...first.messages, { role: 'user', content: 'thanks' }]);
    expect(fake.problems).toEqual([]);
  });

  it('defers function tools behind tool_search, the tool list the same bytes each request', async () => {
    const { fake, host } = await setUp(
      [
        (body) => {
          expect(body.tools[0]).toEqual({ type: 'tool_search' });
          expect(body.tools.find((t: any) => t.name === 'get-sum').defer_loading).toBe(true);
          expect(body.tools.find((t: any) => t.name === 'PingME').defer_loading).toBeUndefined();
          return {
            items: [
              {
                type: 'tool_search_call',
                id: 'ts_1',
                call_id: null,
                execution: 'server',
                status: 'completed',
                arguments: { query: 'sum' },
              },
              {
                type: 'tool_search_output',
                id: 'tso_1',
                call_id: null,
                execution: 'server',
                status: 'completed',
                tools: [],
              },
            ],
            toolCalls: [{ name: 'get-sum', arguments: { a: 1, b: 2 } }],
          };
        },
        { text: '3' },
      ],
      { deferLoading: { threshold: 1, alwaysLoaded: ['PingME'] } },
    );
    await host.run([{ role: 'user', content: '1+2' }]);
    expect(fake.problems).toEqual([]);
    expect(new Set(fake.bodies.map((b) => JSON.stringify(b.tools))).size).toBe(1);
    expect(fake.bodies[1].input.map((i: any) => i.type ?? i.role)).toEqual([
      'user',
      'tool_search_call',
      'tool_search_output',
      'function_call',
      'function_call_output',
    ]);
  });

  it('derives require_approval from the approval policy', () => {
    expect(hostedMcpApproval({ mode: 'always' })).toBe('never');
    expect(hostedMcpApproval({ mode: 'ask' })).toBe('always');
    expect(hostedMcpApproval({})).toBe('always');
    expect(hostedMcpApproval({}, true)).toEqual({ never: { read_only: true } });
    expect(hostedMcpApproval({ mode: 'ask', tools: { 'docs/search': 'always' } })).toEqual({
      never: { tool_names: ['search'] },
    });
  });

  it('declines hosted approval requests without onMcpApproval', async () => {
    const { fake, host } = await setUp(
      [
        {
          items: [
            {
              type: 'mcp_approval_request',
              id: 'mcpr_9',
              server_label: 'docs',
              name: 'drop',
              arguments: '{}',
            },
          ],
        },
        (body) => {
          expect(body.input.at(-1)).toMatchObject({
            type: 'mcp_approval_response',
            approve: false,
          });
          return { text: 'declined' };
        },
      ],
      {},
      { hostedMcp: [{ label: 'docs', url: 'https://mcp.example.com/mcp' }] },
    );
    expect((await host.run([{ role: 'user', content: 'drop it' }])).text).toBe('declined');
    expect(fake.problems).toEqual([]);
  });

  it('has tools the official SDK takes', () => {
    expectTypeOf<NonNullable<ResponsesRequestBody['tool_choice']>>().toExtend<
      NonNullable<OpenAI.Responses.ResponseCreateParams['tool_choice']>
    >();
    expectTypeOf<ResponsesRequestBody['tools']>().toExtend<
      OpenAI.Responses.ResponseCreateParams['tools']
    >();
  });
});
