// Each rule of the host as a function: tool names, schema adaptation, result shaping
// (text, errors, images and audio, resource links, embedded resources, structuredContent,
// truncation), approval, progressive discovery, the config, and the model responses' parsing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CallToolResult, ReadResourceResult } from '../../src/client/index.js';
import { JsonRpcError } from '../../src/client/index.js';
import type { Tokenizer } from '../../src/host/index.js';
import { checkAnthropic, checkOpenAi } from '../helpers/fake-model.js';
import {
  ESTIMATE,
  MODEL_TOOL_NAME,
  SEARCH_TOOLS,
  adaptInputSchema,
  anthropicBody,
  createAnthropicAdapter,
  createOpenAiAdapter,
  decide,
  declinedResult,
  errorResult,
  loadTokenizer,
  nameTools,
  openAiBody,
  parseServersConfig,
  ruleFor,
  searchTools,
  shapeResult,
  truncateParts,
} from '../../src/host/index.js';

const tokenizer: Tokenizer = await loadTokenizer();
const TEXT_ONLY = { vision: false, audio: false };
const VISION = { vision: true, audio: false };

describe('tool names', () => {
  it('keeps unique valid names, and prefixes every tool of a shared name with its server', () => {
    const named = nameTools([
      { server: 'a', tool: 'PingME' },
      { server: 'b', tool: 'PingME' },
      { server: 'b', tool: 'echo' },
    ]);
    expect(named.map((n) => n.name)).toEqual(['a__PingME', 'b__PingME', 'echo']);
  });

  it('replaces characters the APIs refuse and fits 64 characters', () => {
    const long = 'x'.repeat(100);
    const named = nameTools([
      { server: 'files', tool: 'fs.read/file' },
      { server: 'my server', tool: long },
    ]);
    expect(named[0]!.name).toBe('files__fs_read_file');
    expect(named[1]!.name).toHaveLength(64);
    expect(named[1]!.name).toMatch(/^my_server__x+_[0-9a-f]{8}$/);
  });

  it('always gives valid, unique names that map back exactly, whatever the order', () => {
    const ref = fc.record({
      server: fc.constantFrom('a', 'b', 'srv.1', 'a__b', 'x'.repeat(70)),
      tool: fc.oneof(
        fc.constantFrom('t', 'b__t', 'a__b__t', 'PingME'),
        fc.string({ minLength: 1, maxLength: 80 }),
      ),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(ref, { selector: (r) => `${r.server}\u0000${r.tool}`, maxLength: 20 }),
        (refs) => {
          const named = nameTools(refs);
          const names = named.map((n) => n.name);
          expect(new Set(names).size).toBe(names.length);
          for (const name of names) expect(name).toMatch(MODEL_TOOL_NAME);
          named.forEach((n, i) => {
            expect([n.server, n.tool]).toEqual([refs[i]!.server, refs[i]!.tool]);
          });
          const reversed = nameTools([...refs].reverse());
          expect(new Map(reversed.map((n) => [`${n.server}/${n.tool}`, n.name]))).toEqual(
            new Map(named.map((n) => [`${n.server}/${n.tool}`, n.name])),
          );
        },
      ),
    );
  });
});

describe('input schemas', () => {
  it('gives an object schema with properties, as both APIs require', () => {
    expect(adaptInputSchema({ type: 'object' })).toEqual({ type: 'object', properties: {} });
    expect(adaptInputSchema(undefined)).toEqual({ type: 'object', properties: {} });
  });

  it('merges a top-level anyOf/oneOf/allOf away (Anthropic refuses them at the top)', () => {
    const adapted = adaptInputSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { mode: { type: 'string' } },
      required: ['mode'],
      oneOf: [
        { properties: { uri: { type: 'string' } }, required: ['uri'] },
        { properties: { data: { type: 'string' } } },
      ],
      allOf: [{ properties: { name: { type: 'string' } }, required: ['name'] }],
    });
    expect(adapted).toEqual({
      type: 'object',
      properties: {
        mode: { type: 'string' },
        uri: { type: 'string' },
        data: { type: 'string' },
        name: { type: 'string' },
      },
      required: ['mode', 'name'],
    });
  });

  it('gives schemas the fake APIs accept under their documented rules', () => {
    const awkward = [
      { anyOf: [{ properties: { a: { type: 'string' } } }] },
      {},
      { type: 'object', oneOf: [] },
    ];
    const request = {
      model: 'm',
      maxTokens: 10,
      stream: false,
      toolChoice: 'auto' as const,
      messages: [{ role: 'user' as const, content: 'hi' }],
      tools: awkward.map((schema, i) => ({
        name: `t${String(i)}`,
        description: 'd',
        inputSchema: adaptInputSchema(schema),
      })),
    };
    expect(checkAnthropic(anthropicBody(request), { 'anthropic-version': '2023-06-01' })).toEqual(
      [],
    );
    expect(checkOpenAi(openAiBody(request), { authorization: 'Bearer k' })).toEqual([]);
    // Unadapted, the first is refused.
    const raw = { ...request, tools: [{ name: 't', description: 'd', inputSchema: awkward[0]! }] };
    expect(
      checkAnthropic(
        {
          ...anthropicBody(raw),
          tools: [{ name: 't', description: 'd', input_schema: awkward[0] }],
        },
        { 'anthropic-version': '2023-06-01' },
      ),
    ).not.toEqual([]);
  });
});

function result(
  content: CallToolResult['content'],
  extra: Partial<CallToolResult> = {},
): CallToolResult {
  return { content, ...extra };
}

describe('result shaping', () => {
  it('passes text, and keeps isError', async () => {
    const shaped = await shapeResult(result([{ type: 'text', text: 'bad a' }], { isError: true }), {
      capabilities: VISION,
      tokenizer,
    });
    expect(shaped).toEqual({ content: [{ type: 'text', text: 'bad a' }], isError: true });
  });

  it('makes a protocol error and a refusal is_error results with the message', () => {
    expect(errorResult(new JsonRpcError(-32602, 'unknown tool "x"'))).toEqual({
      content: [{ type: 'text', text: 'Error: unknown tool "x"' }],
      isError: true,
    });
    expect(declinedResult().isError).toBe(true);
    expect(declinedResult().content[0]).toEqual({
      type: 'text',
      text: 'Error: the user declined this tool call',
    });
  });

  it('passes images to a vision model, and a note to others; audio likewise', async () => {
    const blocks: CallToolResult['content'] = [
      { type: 'image', data: 'A'.repeat(4000), mimeType: 'image/png' },
      { type: 'audio', data: 'A'.repeat(8), mimeType: 'audio/wav' },
    ];
    const withVision = await shapeResult(result(blocks), {
      capabilities: { vision: true, audio: true },
      tokenizer,
    });
    expect(withVision.content.map((p) => p.type)).toEqual(['image', 'audio']);
    const without = await shapeResult(result(blocks), { capabilities: TEXT_ONLY, tokenizer });
    expect(without.content).toEqual([
      { type: 'text', text: '[image omitted: image/png, 2.9 kB; this model does not take images]' },
      { type: 'text', text: '[audio omitted: audio/wav, 6 B; this model does not take audio]' },
    ]);
  });

  const link = {
    type: 'resource_link',
    uri: 'demo://notes.txt',
    name: 'notes',
    mimeType: 'text/plain',
  } as const;

  it('passes a resource_link as text unless the host resolves it', async () => {
    const shaped = await shapeResult(result([link]), { capabilities: VISION, tokenizer });
    expect(shaped.content).toEqual([
      { type: 'text', text: '[resource link: notes <demo://notes.txt> (text/plain)]' },
    ]);
  });

  it('resolves a resource_link through resources/read, capped', async () => {
    const read = (uri: string): Promise<ReadResourceResult> =>
      Promise.resolve({
        contents: [
          { uri, text: 'n'.repeat(50) },
          { uri: `${uri}#b`, blob: 'AAAA', mimeType: 'image/png' },
        ],
      });
    const shaped = await shapeResult(result([link]), {
      capabilities: VISION,
      tokenizer,
      readResource: read,
      maxLinkChars: 10,
    });
    expect(shaped.content).toEqual([
      {
        type: 'text',
        text: 'Resource demo://notes.txt:\nnnnnnnnnnn\n[cut: the resource has 50 characters; the first 10 are shown]',
      },
      { type: 'text', text: '[resource demo://notes.txt#b: image/png, 3 B, not shown]' },
    ]);
    const failing = await shapeResult(result([link]), {
      capabilities: VISION,
      tokenizer,
      readResource: () => Promise.reject(new Error('no such resource')),
    });
    expect(failing.content[0]).toEqual({
      type: 'text',
      text: '[resource link: notes <demo://notes.txt> (text/plain)] (could not be read: no such resource)',
    });
  });

  it('turns embedded resources into text, an image for a vision model, or a PDF document', async () => {
    const pdf = {
      type: 'resource',
      resource: { uri: 'demo://d.pdf', blob: 'JVBE', mimeType: 'application/pdf' },
    } as const;
    const shaped = await shapeResult(
      result([
        { type: 'resource', resource: { uri: 'demo://a', text: 'hello' } },
        { type: 'resource', resource: { uri: 'demo://b', blob: 'AAAA', mimeType: 'image/png' } },
        {
          type: 'resource',
          resource: { uri: 'demo://c', blob: 'AAAA', mimeType: 'application/gzip' },
        },
        pdf,
      ]),
      { capabilities: VISION, tokenizer },
    );
    expect(shaped.content).toEqual([
      { type: 'text', text: 'Resource demo://a:\nhello' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      { type: 'text', text: '[resource demo://c: application/gzip, 3 B, not shown]' },
      { type: 'document', data: 'JVBE', mimeType: 'application/pdf', title: 'demo://d.pdf' },
    ]);
    const without = await shapeResult(result([pdf]), {
      capabilities: { ...TEXT_ONLY, documents: false },
      tokenizer,
    });
    expect(without.content).toEqual([
      { type: 'text', text: '[resource demo://d.pdf: application/pdf, 3 B, not shown]' },
    ]);
  });

  it('does not send structuredContent when content is present, and sends it as JSON when not', async () => {
    const both = await shapeResult(
      result([{ type: 'text', text: '42' }], { structuredContent: { answer: 42 } }),
      {
        capabilities: VISION,
        tokenizer,
      },
    );
    expect(both.content).toEqual([{ type: 'text', text: '42' }]);
    const only = await shapeResult(result([], { structuredContent: { answer: 42 } }), {
      capabilities: VISION,
      tokenizer,
    });
    expect(only.content).toEqual([{ type: 'text', text: '{"answer":42}' }]);
  });

  it('truncates to the token budget (25,000 by default), counted with o200k_base, with a note', async () => {
    const big = 'The quick brown fox jumps over the lazy dog. '.repeat(20_000); // 900,000 chars
    const shaped = await shapeResult(result([{ type: 'text', text: big }]), {
      capabilities: VISION,
      tokenizer,
    });
    const [kept, note] = shaped.content as { text: string }[];
    expect(tokenizer.count(kept!.text)).toBeLessThanOrEqual(25_000);
    expect(tokenizer.count(kept!.text)).toBeGreaterThan(24_900);
    expect(big.startsWith(kept!.text)).toBe(true);
    expect(note!.text).toBe(
      `[truncated: the result had ${String(tokenizer.count(big))} tokens (900000 characters); the first ${String(shaped.truncated!.keptTokens)} tokens (${String(kept!.text.length)} characters) are shown, the rest was cut to fit the budget of 25000 tokens]`,
    );
  });

  it('lets a tool raise its limit with _meta["anthropic/maxResultSizeChars"]', () => {
    const text = 'word '.repeat(1000); // ~1000 tokens, 5000 chars
    const parts = [{ type: 'text' as const, text }];
    expect(truncateParts(parts, { tokenizer, maxTokens: 100 }).truncated).toBeDefined();
    expect(truncateParts(parts, { tokenizer, maxTokens: 100, maxChars: 10_000 })).toEqual({
      parts,
    });
    const cut = truncateParts(parts, { tokenizer, maxTokens: 100, maxChars: 2_000 });
    expect((cut.parts[0] as { text: string }).text).toHaveLength(2_000);
  });

  it('counts with an estimate when gpt-tokenizer is missing', () => {
    expect(ESTIMATE.count('abcdefgh')).toBe(2);
    expect(
      truncateParts([{ type: 'text', text: 'a'.repeat(100) }], {
        tokenizer: ESTIMATE,
        maxTokens: 10,
      }).parts[0],
    ).toEqual({
      type: 'text',
      text: 'a'.repeat(40),
    });
  });
});

describe('approval', () => {
  const call = { name: 'db__drop', server: 'db', tool: 'drop' };

  it('approves readOnlyHint tools of trusted servers and asks for the others, by annotations (the default)', () => {
    const trusted = { ...call, trusted: true };
    expect(ruleFor({}, { ...trusted, annotations: { readOnlyHint: true } })).toBe('always');
    expect(ruleFor({}, { ...trusted, annotations: { destructiveHint: true } })).toBe('ask');
    expect(ruleFor({}, trusted)).toBe('ask');
  });

  it('asks when the annotations come from a server not trusted, or contradict each other', () => {
    expect(ruleFor({}, { ...call, annotations: { readOnlyHint: true } })).toBe('ask');
    expect(ruleFor({}, { ...call, trusted: false, annotations: { readOnlyHint: true } })).toBe(
      'ask',
    );
    const both = { readOnlyHint: true, destructiveHint: true };
    expect(ruleFor({}, { ...call, trusted: true, annotations: both })).toBe('ask');
    // Rules and other modes are the user's: they apply whatever the server says.
    expect(ruleFor({ mode: 'always' }, { ...call, annotations: both })).toBe('always');
    expect(ruleFor({ tools: { 'db/drop': 'always' } }, call)).toBe('always');
  });

  it('follows the mode and per-tool rules, by model name or server/tool', () => {
    expect(ruleFor({ mode: 'always' }, call)).toBe('always');
    expect(ruleFor({ mode: 'never' }, call)).toBe('never');
    expect(ruleFor({ mode: 'always', tools: { 'db/drop': 'never' } }, call)).toBe('never');
    expect(ruleFor({ mode: 'never', tools: { db__drop: 'always' } }, call)).toBe('always');
  });

  it('declines when asked and refused, when no one can be asked, or when the callback throws', async () => {
    const request = {
      kind: 'tool',
      server: 'db',
      tool: 'drop',
      name: 'db__drop',
      arguments: {},
    } as const;
    expect(await decide('ask', request, () => true)).toBe('approved');
    expect(await decide('ask', request, () => false)).toBe('declined');
    expect(await decide('ask', request, undefined)).toBe('declined');
    expect(await decide('ask', request, () => Promise.reject(new Error('x')))).toBe('declined');
    expect(await decide('never', request, () => true)).toBe('declined');
  });
});

describe('progressive discovery', () => {
  it('finds tools by keywords in name and description, best first', () => {
    const tools = [
      { name: 'query', server: 'sql', description: 'Runs a read-only SQL query.' },
      { name: 'PingME', server: 'pingme', description: 'Checks the server is reachable.' },
      { name: 'list_tables', server: 'sql', description: 'Lists the tables of the database.' },
    ];
    expect(searchTools(tools, 'sql tables', 5).map((t) => t.name)).toEqual([
      'list_tables',
      'query',
    ]);
    expect(searchTools(tools, 'weather', 5)).toEqual([]);
    expect(SEARCH_TOOLS).toBe('search_tools');
  });
});

describe('config', () => {
  it('reads stdio and HTTP entries, and skips disabled ones', () => {
    expect(
      parseServersConfig({
        mcpServers: {
          files: { command: 'node', args: ['fs.js'], env: { A: '1' }, cwd: '/tmp' },
          remote: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } },
          off: { command: 'x', disabled: true },
        },
      }),
    ).toEqual({
      files: { command: 'node', args: ['fs.js'], env: { A: '1' }, cwd: '/tmp' },
      remote: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } },
    });
  });

  it('says which entry is wrong', () => {
    expect(() => parseServersConfig({})).toThrow('the config has no "mcpServers" object');
    expect(() => parseServersConfig({ mcpServers: { a: { args: [] } } })).toThrow(
      'server "a" has neither "command" nor "url"',
    );
    expect(() => parseServersConfig({ mcpServers: { a: { command: 'x', args: [1] } } })).toThrow(
      'server "a" has "args" that are not a list of strings',
    );
    expect(() => parseServersConfig({ mcpServers: { a: { url: 'not a url' } } })).toThrow(
      'server "a" has an invalid "url"',
    );
    expect(() =>
      parseServersConfig({ mcpServers: { a: { command: 'x', trusted: 'yes' } } }),
    ).toThrow('server "a" has a "trusted" that is not true or false');
  });

  it('reads "trusted": true, the servers whose tool annotations approval may rely on', () => {
    expect(
      parseServersConfig({
        mcpServers: {
          mine: { command: 'node', args: ['mine.js'], trusted: true },
          remote: { url: 'https://example.com/mcp', trusted: true },
          other: { url: 'https://example.org/mcp', trusted: false },
        },
      }),
    ).toEqual({
      mine: { command: 'node', args: ['mine.js'], env: {}, trusted: true },
      remote: { url: 'https://example.com/mcp', headers: {}, trusted: true },
      other: { url: 'https://example.org/mcp', headers: {} },
    });
  });
});

describe('model responses', () => {
  const reply =
    (body: unknown, status = 200) =>
    () =>
      Promise.resolve(
        new Response(JSON.stringify(body), {
          status,
          headers: { 'content-type': 'application/json' },
        }),
      );
  const request = {
    model: 'm',
    messages: [{ role: 'user' as const, content: 'hi' }],
    tools: [],
    toolChoice: 'auto' as const,
    maxTokens: 10,
    stream: false,
  };

  it('turns API errors into ModelError with the message and status', async () => {
    const adapter = createAnthropicAdapter({
      env: {},
      fetch: reply({ type: 'error', error: { message: 'invalid x-api-key' } }, 401),
    });
    await expect(adapter.complete(request)).rejects.toMatchObject({
      name: 'ModelError',
      status: 401,
      message: 'the model API answered 401: invalid x-api-key',
    });
    const unreachable = createOpenAiAdapter({
      env: {},
      baseUrl: 'http://127.0.0.1:9',
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    });
    await expect(unreachable.complete(request)).rejects.toThrow(
      'cannot reach the model API at http://127.0.0.1:9/chat/completions',
    );
  });

  it('marks tool arguments that are not a JSON object invalid (shown, not run) instead of crashing', async () => {
    const adapter = createOpenAiAdapter({
      env: {},
      fetch: reply({
        choices: [
          {
            message: {
              content: null,
              tool_calls: [
                { id: 'c', type: 'function', function: { name: 't', arguments: '{oops' } },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
      }),
    });
    const response = await adapter.complete(request);
    expect(response.content).toEqual([
      {
        type: 'tool_call',
        id: 'c',
        name: 't',
        arguments: {},
        invalid: 'its arguments are not a JSON object: {oops',
      },
    ]);
    expect(response.stopReason).toBe('tool_use');
  });
});
