// More of the host end to end, over in-memory and HTTP connections: progressive discovery
// (search_tools above a token budget, and above OpenAI's 128 tools), tool_choice, elicitation
// routed to a callback, resource_link resolution, and the legacy era (list_changed and
// sampling from a 2025-11-25 server).
import { afterEach, describe, expect, it } from 'vitest';
import { loadTokenizer as loadCliTokenizer, serializeTool } from '../../src/cli/tokens.js';
import type { Host, HostOptions, ServerConfig } from '../../src/host/index.js';
import { McpServer } from '../../src/server/index.js';
import { listen } from '../../src/transports/http/server/node.js';
import { createMemoryPair } from '../../src/transports/memory.js';
import type { FakeModel, Step } from '../helpers/fake-model.js';
import { fakeHost, startFakeModel } from '../helpers/fake-model.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Api = 'anthropic' | 'openai';

async function fake(script: Step[]): Promise<FakeModel> {
  const model = await startFakeModel(script);
  cleanups.push(() => model.close());
  return model;
}

/** A server reached over the in-memory pair. */
function inMemory(server: McpServer): ServerConfig {
  return {
    transport: async () => {
      const [a, b] = createMemoryPair();
      await server.connect(b);
      return a;
    },
  };
}

async function host(
  api: Api,
  model: FakeModel,
  servers: Record<string, ServerConfig>,
  options: Partial<HostOptions> = {},
): Promise<Host> {
  const created = fakeHost(api, model, servers, options);
  cleanups.push(() => created.close());
  await created.connect();
  return created;
}

/** A server with `count` tools named `<topic>-<i>`. */
function toolServer(name: string, topic: string, count: number): McpServer {
  const server = new McpServer({ name, version: '1.0.0' });
  for (let i = 0; i < count; i++) {
    server.tool(
      {
        name: `${topic}-${String(i)}`,
        description: `Does ${topic} thing number ${String(i)}, with a description long enough to cost some tokens in a model context.`,
        inputSchema: {
          type: 'object',
          properties: { input: { type: 'string', description: 'what to work on' } },
        },
      },
      () => `${topic} ${String(i)} done`,
    );
  }
  return server;
}

const TOPICS = [
  'weather',
  'calendar',
  'mail',
  'files',
  'git',
  'sql',
  'maps',
  'music',
  'notes',
  'tasks',
  'shop',
  'bank',
  'news',
  'chat',
  'photos',
];

describe.each(['anthropic', 'openai'] as const)('the host with %s', (api) => {
  it('switches to search_tools above the token budget, so fifteen servers fit', async () => {
    const model = await fake([
      (seen) => {
        expect(seen.tools).toEqual(['search_tools']);
        return { toolCalls: [{ name: 'search_tools', arguments: { query: 'weather', limit: 2 } }] };
      },
      (seen) => {
        expect(seen.results[0]!.text).toContain(
          'These tools are now available to call:\n- weather-0 (weather)',
        );
        expect(seen.tools).toEqual(['search_tools', 'weather-0', 'weather-1']);
        return { toolCalls: [{ name: 'weather-1', arguments: { input: 'Paris' } }] };
      },
      (seen) => ({ text: seen.results[0]!.text }),
    ]);
    const servers = Object.fromEntries(
      TOPICS.map((topic) => [topic, inMemory(toolServer(topic, topic, 5))]),
    );
    const h = await host(api, model, servers, { toolBudget: 2_000 });
    const costs = await h.toolCosts();
    expect(costs).toHaveLength(15);
    // The counter of `mcpkit budget`.
    const count = await loadCliTokenizer();
    const weather = h.tools.filter((t) => t.server === 'weather').map((t) => t.tool);
    expect(costs.find((c) => c.server === 'weather')!.tokens).toBe(
      weather.reduce((sum, t) => sum + count(serializeTool(t)), 0),
    );
    expect(costs.reduce((sum, c) => sum + c.tokens, 0)).toBeGreaterThan(2_000);
    const result = await h.run([{ role: 'user', content: 'weather in Paris?' }]);
    expect(model.problems).toEqual([]);
    expect(result.text).toBe('weather 1 done');
  });

  it('honours tool_choice in the first turn only (any, then auto)', async () => {
    const model = await fake([{ toolCalls: [{ name: 'weather-0' }] }, { text: 'done' }]);
    const h = await host(api, model, { w: inMemory(toolServer('w', 'weather', 1)) });
    await h.run([{ role: 'user', content: 'go' }], { toolChoice: 'any' });
    const choices = model.requests.map((r) => r.body.tool_choice);
    expect(choices).toEqual(
      api === 'anthropic' ? [{ type: 'any' }, { type: 'auto' }] : ['required', 'auto'],
    );
    expect(model.problems).toEqual([]);
  });

  it('honours a named tool_choice, and none', async () => {
    const model = await fake([
      { toolCalls: [{ name: 'weather-0' }] },
      { text: 'done' },
      { text: 'no tools' },
    ]);
    const h = await host(api, model, { w: inMemory(toolServer('w', 'weather', 2)) });
    await h.run([{ role: 'user', content: 'go' }], { toolChoice: { name: 'weather-0' } });
    await h.run([{ role: 'user', content: 'talk' }], { toolChoice: 'none' });
    const choices = model.requests.map((r) => r.body.tool_choice);
    expect(choices).toEqual(
      api === 'anthropic'
        ? [{ type: 'tool', name: 'weather-0' }, { type: 'auto' }, { type: 'none' }]
        : [{ type: 'function', function: { name: 'weather-0' } }, 'auto', 'none'],
    );
    expect(model.problems).toEqual([]);
  });

  it('routes elicitation to the callback', async () => {
    const server = new McpServer({ name: 'form', version: '1.0.0' });
    server.tool(
      { name: 'book', description: 'Books a table.', inputSchema: { type: 'object' } },
      async (_args, ctx) => {
        const answer = await ctx.elicit({
          mode: 'form',
          message: 'How many people?',
          requestedSchema: {
            type: 'object',
            properties: { people: { type: 'number' } },
            required: ['people'],
          },
        });
        return answer.action === 'accept'
          ? `booked for ${String(answer.content?.['people'])}`
          : 'not booked';
      },
    );
    const model = await fake([
      { toolCalls: [{ name: 'book' }] },
      (seen) => ({ text: seen.results[0]!.text }),
    ]);
    const asked: string[] = [];
    const h = await host(
      api,
      model,
      { form: inMemory(server) },
      {
        onElicit: (params) => {
          asked.push(params.message);
          return { action: 'accept', content: { people: 4 } };
        },
      },
    );
    const result = await h.run([{ role: 'user', content: 'book' }]);
    expect(asked).toEqual(['How many people?']);
    expect(result.text).toBe('booked for 4');
  });

  it('resolves a resource_link through resources/read when allowed', async () => {
    const server = new McpServer({ name: 'docs', version: '1.0.0' });
    server.resource(
      { uri: 'docs://readme', name: 'readme', mimeType: 'text/plain' },
      () => 'Read me first.',
    );
    server.tool(
      { name: 'find', description: 'Finds a document.', inputSchema: { type: 'object' } },
      () => ({
        content: [
          { type: 'resource_link', uri: 'docs://readme', name: 'readme', mimeType: 'text/plain' },
        ],
      }),
    );
    const model = await fake([
      { toolCalls: [{ name: 'find' }] },
      (seen) => ({ text: seen.results[0]!.text }),
    ]);
    const h = await host(api, model, { docs: inMemory(server) }, { resolveResourceLinks: true });
    const result = await h.run([{ role: 'user', content: 'find the readme' }]);
    expect(result.text).toBe('Resource docs://readme:\nRead me first.');
  });
});

describe('the host and maxTurns', () => {
  it('stops after maxTurns model requests, with the calls made so far', async () => {
    const again = { toolCalls: [{ name: 'weather-0' }] };
    const model = await fake([again, again, again]);
    const h = await host('openai', model, { w: inMemory(toolServer('w', 'weather', 1)) });
    const result = await h.run([{ role: 'user', content: 'loop' }], { maxTurns: 2 });
    expect(result).toMatchObject({ stopReason: 'max_turns', turns: 2, text: '' });
    expect(result.calls).toHaveLength(2);
    expect(model.requests).toHaveLength(2);
  });
});

describe('the host and cancellation', () => {
  it('cancels a model request under way, rejecting with the reason', async () => {
    let arrived!: () => void;
    const asked = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const model = await fake([
      () => {
        arrived();
        return new Promise<never>(() => undefined); // the model never answers
      },
    ]);
    const h = await host('anthropic', model, {}, { stream: true });
    const controller = new AbortController();
    const run = h.run([{ role: 'user', content: 'hi' }], { signal: controller.signal });
    await asked;
    controller.abort(new Error('stopped'));
    await expect(run).rejects.toThrow('stopped');
  });
});

describe('the host and a lost connection', () => {
  it('reconnects a server whose connection closed before the next turn', async () => {
    const server = toolServer('w', 'weather', 1);
    const ends: { close(): Promise<void> }[] = [];
    const config: ServerConfig = {
      transport: async () => {
        const [a, b] = createMemoryPair();
        await server.connect(b);
        ends.push(b);
        return a;
      },
    };
    const model = await fake([
      { toolCalls: [{ name: 'weather-0' }] },
      { text: 'first' },
      { toolCalls: [{ name: 'weather-0' }] },
      (seen) => ({ text: seen.results[0]!.text }),
    ]);
    const h = await host('anthropic', model, { w: config });
    await h.run([{ role: 'user', content: 'one' }]);
    await ends[0]!.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.servers[0]!.status).toBe('closed');
    const result = await h.run([{ role: 'user', content: 'two' }]);
    expect(ends).toHaveLength(2);
    expect(h.servers[0]!.status).toBe('connected');
    expect(result.text).toBe('weather 0 done');
  });
});

describe('the host with OpenAI and many tools', () => {
  it('offers search_tools instead of more than 128 tools', async () => {
    const model = await fake([
      (seen) => {
        expect(seen.tools).toEqual(['search_tools']);
        return { text: 'ok' };
      },
    ]);
    const h = await host('openai', model, { many: inMemory(toolServer('many', 'thing', 130)) });
    expect(h.tools).toHaveLength(130);
    await h.run([{ role: 'user', content: 'hi' }]);
    expect(model.problems).toEqual([]);
  });
});

describe('the host and a legacy (2025-11-25) server over HTTP', () => {
  it('follows list_changed and answers sampling', async () => {
    const legacy = new McpServer({ name: 'old', version: '1.0.0' }, { revisions: ['2025-11-25'] });
    legacy.tool(
      { name: 'unlock', description: 'Adds the ask tool.', inputSchema: { type: 'object' } },
      async () => {
        legacy.tool(
          { name: 'ask', description: 'Asks the model.', inputSchema: { type: 'object' } },
          async (_args, ctx) => {
            const answer = await ctx.sample({
              messages: [{ role: 'user', content: { type: 'text', text: 'say yes' } }],
              maxTokens: 5,
            });
            return (answer.content as { text: string }).text;
          },
        );
        await new Promise((resolve) => setTimeout(resolve, 50));
        return 'unlocked';
      },
    );
    const listening = await listen(() => legacy);
    cleanups.push(() => listening.close());
    const model = await fake([
      { toolCalls: [{ name: 'unlock' }] },
      (seen) => {
        expect(seen.tools.sort()).toEqual(['ask', 'unlock']);
        return { toolCalls: [{ name: 'ask' }] };
      },
      { text: 'yes' },
      (seen) => ({ text: `the server got: ${seen.results[0]!.text}` }),
    ]);
    const h = await host('anthropic', model, { old: { url: listening.url } });
    expect(h.client('old')!.revision).toBe('2025-11-25');
    const result = await h.run([{ role: 'user', content: 'go' }]);
    expect(model.problems).toEqual([]);
    expect(result.text).toBe('the server got: yes');
  });

  it('weighs the tool budget again when list_changed grows the tools past it', async () => {
    const legacy = new McpServer({ name: 'old', version: '1.0.0' }, { revisions: ['2025-11-25'] });
    legacy.tool(
      { name: 'grow', description: 'Adds twenty tools.', inputSchema: { type: 'object' } },
      async () => {
        for (let i = 0; i < 20; i++) {
          legacy.tool(
            {
              name: `weather-${String(i)}`,
              description: `Does weather thing number ${String(i)}, with a description long enough to cost some tokens in a model context.`,
              inputSchema: { type: 'object' },
            },
            () => 'done',
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
        return 'grown';
      },
    );
    const listening = await listen(() => legacy);
    cleanups.push(() => listening.close());
    const model = await fake([
      (seen) => {
        expect(seen.tools).toEqual(['grow']);
        return { toolCalls: [{ name: 'grow' }] };
      },
      (seen) => {
        expect(seen.tools).toEqual(['search_tools']);
        return { text: 'searching from now on' };
      },
    ]);
    const h = await host('anthropic', model, { old: { url: listening.url } }, { toolBudget: 500 });
    const result = await h.run([{ role: 'user', content: 'go' }]);
    expect(h.tools).toHaveLength(21);
    expect(model.problems).toEqual([]);
    expect(result.text).toBe('searching from now on');
  });
});
