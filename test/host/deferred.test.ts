// Native deferred loading (issue #41): above the threshold, the Messages API gets every tool with
// defer_loading behind its tool-search tool (BM25 or regex, with the beta header), the always-
// loaded tools in full; the API's search blocks go back as they came (the fake model refuses a
// call of a deferred tool that no tool_reference loaded); the tool list is the same bytes in
// every request, across turns and runs; Chat Completions falls back to search_tools.
import { afterEach, describe, expect, it } from 'vitest';
import { createPingmeServer } from '../../servers/pingme/server.js';
import type { HostOptions, ServerConfig } from '../../src/host/index.js';
import type { Listening } from '../../src/transports/http/server/node.js';
import { listen } from '../../src/transports/http/server/node.js';
import type { FakeModel, Seen, Step } from '../helpers/fake-model.js';
import { fakeHost, startFakeModel } from '../helpers/fake-model.js';
import { createSumServer } from '../helpers/sum-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function servers(): Promise<Record<string, ServerConfig>> {
  const out: Record<string, ServerConfig> = {};
  for (const [name, make] of [
    ['pingme', createPingmeServer],
    ['sum', () => createSumServer()],
  ] as const) {
    const listening: Listening = await listen(() => make());
    cleanups.push(() => listening.close());
    out[name] = { url: listening.url };
  }
  return out;
}

async function run(
  api: Seen['api'],
  script: Step[],
  options: Partial<HostOptions>,
  prompts = ['add 2 and 3'],
): Promise<FakeModel> {
  const model = await startFakeModel(script);
  cleanups.push(() => model.close());
  const host = fakeHost(api, model, await servers(), options);
  cleanups.push(() => host.close());
  await host.connect();
  let messages: Parameters<typeof host.run>[0] = [];
  for (const prompt of prompts) {
    messages = (await host.run([...messages, { role: 'user', content: prompt }])).messages;
  }
  return model;
}

/** The API's search for `tool`, as the Messages API answers it. */
function searched(tool: string, query: string, kind = 'bm25'): Record<string, unknown>[] {
  return [
    {
      type: 'server_tool_use',
      id: 'srvtoolu_1',
      name: `tool_search_tool_${kind}`,
      input: { query },
    },
    {
      type: 'tool_search_tool_result',
      tool_use_id: 'srvtoolu_1',
      content: {
        type: 'tool_search_tool_search_result',
        tool_references: [{ type: 'tool_reference', tool_name: tool }],
      },
    },
  ];
}

describe.each([false, true])('deferred loading (stream %s)', (stream) => {
  it('defers every tool but the always-loaded, runs the tool the search found, and keeps the tool list byte-identical', async () => {
    const script: Step[] = [
      (seen) => {
        expect(seen.body.tools[0]).toEqual({
          type: 'tool_search_tool_bm25_20251119',
          name: 'tool_search_tool_bm25',
        });
        const rest = seen.body.tools.slice(1);
        expect(rest.find((t: any) => t.name === 'PingME').defer_loading).toBeUndefined();
        expect(rest.find((t: any) => t.name === 'get-sum').defer_loading).toBe(true);
        expect(seen.headers['anthropic-beta']).toBe('advanced-tool-use-2025-11-20');
        return {
          text: 'Searching.',
          blocks: searched('get-sum', 'add numbers'),
          toolCalls: [{ name: 'get-sum', arguments: { a: 2, b: 3 } }],
        };
      },
      (seen) => {
        expect(seen.results[0]?.text).toBe('The sum of 2 and 3 is 5.');
        return { text: 'It is 5.' };
      },
      // A second run on the same host (the conversation goes on).
      { toolCalls: [{ name: 'PingME' }] },
      { text: 'BISMILLAH' },
    ];
    const model = await run(
      'anthropic',
      script,
      {
        stream,
        deferLoading: { threshold: 1, alwaysLoaded: ['pingme/*'] },
      },
      ['add 2 and 3', 'and the magic word?'],
    );
    expect(model.problems).toEqual([]);
    expect(model.requests).toHaveLength(4);
    const lists = model.requests.map((seen) => JSON.stringify(seen.body.tools));
    expect(new Set(lists).size).toBe(1);
    // The search blocks went back in the assistant message, as they came.
    const assistant = model.requests[1]?.body.messages[1];
    expect(assistant.content.map((b: any) => b.type)).toEqual([
      'text',
      'server_tool_use',
      'tool_search_tool_result',
      'tool_use',
    ]);
    expect(assistant.content[1].input).toEqual({ query: 'add numbers' });
  });
});

describe('deferred loading, other settings', () => {
  it("sends the regex tool search when asked, and adds its beta to the caller's", async () => {
    const model = await startFakeModel([
      (seen) => {
        expect(seen.body.tools[0].type).toBe('tool_search_tool_regex_20251119');
        expect(seen.headers['anthropic-beta']).toBe(
          'files-api-2025-04-14,advanced-tool-use-2025-11-20',
        );
        return {
          blocks: searched('get-sum', 'sum|add', 'regex'),
          toolCalls: [{ name: 'get-sum', arguments: { a: 1, b: 1 } }],
        };
      },
      { text: 'two' },
    ]);
    cleanups.push(() => model.close());
    const { Host, createAnthropicAdapter } = await import('../../src/host/index.js');
    const host = new Host({
      model: createAnthropicAdapter({
        baseUrl: model.url,
        apiKey: 'k',
        env: {},
        headers: { 'anthropic-beta': 'files-api-2025-04-14' },
      }),
      modelName: 'fake-1',
      servers: await servers(),
      approval: { mode: 'always' },
      deferLoading: { threshold: 1, search: 'regex', alwaysLoaded: ['PingME'] },
    });
    cleanups.push(() => host.close());
    await host.connect();
    const result = await host.run([{ role: 'user', content: '1+1' }]);
    expect(model.problems).toEqual([]);
    expect(result.calls[0]?.shaped.content).toEqual([
      { type: 'text', text: 'The sum of 1 and 1 is 2.' },
    ]);
  });

  it('refuses (in the fake API) a deferred tool called without a search: the check holds', async () => {
    const model = await run(
      'anthropic',
      [{ toolCalls: [{ name: 'get-sum', arguments: { a: 1, b: 2 } }] }, { text: 'x' }],
      { deferLoading: { threshold: 1, alwaysLoaded: ['PingME'] } },
    ).catch((error: unknown) => error);
    expect(String(model)).toContain('which no tool search loaded');
  });

  it('falls back to search_tools on Chat Completions, the always-loaded tools kept', async () => {
    const model = await run(
      'openai',
      [
        (seen) => {
          expect(seen.tools).toEqual(['search_tools', 'PingME']);
          return { toolCalls: [{ name: 'search_tools', arguments: { query: 'adds numbers' } }] };
        },
        (seen) => {
          expect(seen.tools).toEqual(['search_tools', 'PingME', 'get-sum']);
          return { text: 'found' };
        },
      ],
      { deferLoading: { threshold: 1, alwaysLoaded: ['PingME'] } },
    );
    expect(model.problems).toEqual([]);
  });

  it('stays eager below the threshold (default 10,000 tokens), and with deferLoading false', async () => {
    for (const deferLoading of [undefined, false, { threshold: 1 } as const]) {
      const model = await run(
        'anthropic',
        [{ text: 'hi' }],
        deferLoading === undefined ? {} : { deferLoading },
      );
      const body = model.requests[0]?.body;
      const deferred = deferLoading !== undefined && deferLoading !== false;
      expect(body.tools.some((t: any) => t.type !== undefined)).toBe(deferred);
      expect(model.requests[0]?.headers['anthropic-beta']).toBe(
        deferred ? 'advanced-tool-use-2025-11-20' : undefined,
      );
    }
  });
});
