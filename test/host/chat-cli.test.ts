// `mcpkit chat` end to end: the built CLI, a reference server over stdio, and the fake model
// API (test/helpers/fake-model.ts) reached through ANTHROPIC_BASE_URL or OPENAI_BASE_URL, as
// the "Done when" states it.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, cli } from '../cli/run-cli.js';
import type { FakeModel, Step } from '../helpers/fake-model.js';
import { startFakeModel } from '../helpers/fake-model.js';

const hasDist = existsSync(BIN);
if (!hasDist) console.log('chat-cli: skipped, dist/ is missing (npm run build)');

const PINGME = ['--', process.execPath, BIN, 'serve', 'pingme'];
/** PingME's readOnlyHint spares the prompt only when the server is trusted. */
const TRUST = ['--trust', 'pingme'];
const SCRIPT: Step[] = [
  { toolCalls: [{ name: 'PingME' }] },
  (seen) => ({ text: `The magic word is ${seen.results[0]?.text ?? '?'}.` }),
];
const NO_KEYS = {
  ANTHROPIC_API_KEY: '',
  ANTHROPIC_BASE_URL: '',
  OPENAI_API_KEY: '',
  OPENAI_BASE_URL: '',
};

let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

describe.skipIf(!hasDist)('mcpkit chat', () => {
  it('answers "Call PingME for me" after one tool_use/tool_result round (Anthropic)', async () => {
    model = await startFakeModel(SCRIPT);
    const ran = await cli(['chat', '-p', 'Call PingME for me', ...TRUST, '--server', ...PINGME], {
      env: { ...NO_KEYS, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test' },
    });
    expect(ran.stderr).toContain('→ PingME (pingme) {}');
    expect(ran.stderr).toContain('← BISMILLAH');
    expect(ran.stdout).toBe('The magic word is BISMILLAH.\n');
    expect(ran.code).toBe(0);
    expect(model.problems).toEqual([]);
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]!.results).toEqual([
      { id: 'toolu_1', text: 'BISMILLAH', isError: false },
    ]);
    expect(model.requests[0]!.headers['x-api-key']).toBe('sk-test');
  }, 20_000);

  it('does the same against an OpenAI-compatible endpoint, with --json', async () => {
    model = await startFakeModel(SCRIPT);
    const ran = await cli(
      [
        'chat',
        '--provider',
        'openai',
        '--model',
        'local-model',
        '--json',
        '-p',
        'Call PingME for me',
        ...TRUST,
        '--server',
        ...PINGME,
      ],
      { env: { ...NO_KEYS, OPENAI_BASE_URL: model.openaiUrl, OPENAI_API_KEY: 'sk-test' } },
    );
    expect(ran.code, ran.stderr).toBe(0);
    expect(model.problems).toEqual([]);
    expect(model.requests).toHaveLength(2);
    expect(model.requests[0]!.body.model).toBe('local-model');
    expect(model.requests[0]!.headers.authorization).toBe('Bearer sk-test');
    expect(JSON.parse(ran.stdout)).toMatchObject({
      provider: 'openai',
      answer: 'The magic word is BISMILLAH.',
      turns: 2,
      calls: [
        { name: 'PingME', server: 'pingme', tool: 'PingME', isError: false, decision: 'approved' },
      ],
    });
  }, 20_000);

  it('reads servers from an mcpServers config', async () => {
    model = await startFakeModel(SCRIPT);
    const dir = mkdtempSync(join(tmpdir(), 'mcpkit-chat-'));
    const config = join(dir, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          ping: { command: process.execPath, args: [BIN, 'serve', 'pingme'], trusted: true },
        },
      }),
    );
    const ran = await cli(['chat', '--config', config, '-p', 'Call PingME for me'], {
      env: { ...NO_KEYS, ANTHROPIC_BASE_URL: model.url },
    });
    expect(ran.stdout).toBe('The magic word is BISMILLAH.\n');
    expect(ran.code).toBe(0);
  }, 20_000);

  it('takes one prompt a line of piped stdin, the conversation kept across them', async () => {
    model = await startFakeModel([...SCRIPT, { text: 'Still BISMILLAH.' }]);
    const ran = await cli(['chat', ...TRUST, '--server', ...PINGME], {
      env: { ...NO_KEYS, ANTHROPIC_BASE_URL: model.url },
      input: 'Call PingME for me\nAnd again?\n',
    });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toBe('The magic word is BISMILLAH.\nStill BISMILLAH.\n');
    expect(model.problems).toEqual([]);
    // The third request carries the whole conversation: 5 messages.
    expect(model.requests[2]!.body.messages).toHaveLength(5);
    expect(model.requests[2]!.body.stream).toBe(true);
  }, 20_000);

  it('chats with no server at all', async () => {
    model = await startFakeModel([{ text: 'Hello!' }]);
    const ran = await cli(['chat', '-p', 'Hi'], {
      env: { ...NO_KEYS, ANTHROPIC_BASE_URL: model.url },
    });
    expect(ran.stdout).toBe('Hello!\n');
    expect(ran.code).toBe(0);
    expect(model.requests[0]!.body.tools).toBeUndefined();
  });

  it('declines a tool without readOnlyHint without a terminal or --yes, and runs it with --yes', async () => {
    const everything = ['--', process.execPath, BIN, 'serve', 'everything'];
    const script: Step[] = [
      { toolCalls: [{ name: 'toggle-simulated-logging' }] },
      (seen) => ({ text: seen.results[0]!.text }),
    ];
    model = await startFakeModel(script);
    const declined = await cli(['chat', '-p', 'echo hi', '--server', ...everything], {
      env: { ...NO_KEYS, ANTHROPIC_BASE_URL: model.url },
    });
    expect(declined.stdout).toBe('Error: the user declined this tool call\n');
    expect(declined.stderr).toContain('pass --yes');
    await model.close();
    model = await startFakeModel(script);
    const approved = await cli(['chat', '--yes', '-p', 'echo hi', '--server', ...everything], {
      env: { ...NO_KEYS, ANTHROPIC_BASE_URL: model.url },
    });
    expect(approved.stdout).toContain('Simulated logging is on');
    expect(approved.stdout).not.toContain('declined');
  }, 30_000);

  it('asks before a readOnlyHint tool of a server it was not told to trust', async () => {
    model = await startFakeModel(SCRIPT);
    const ran = await cli(['chat', '-p', 'Call PingME for me', '--server', ...PINGME], {
      env: { ...NO_KEYS, ANTHROPIC_BASE_URL: model.url },
    });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toContain('declined (no terminal to ask; pass --yes to approve)');
    expect(ran.stdout).toBe('The magic word is Error: the user declined this tool call.\n');
    const unknown = await cli(['chat', '-p', 'Hi', '--trust', 'pingmee', '--server', ...PINGME], {
      env: { ...NO_KEYS, ANTHROPIC_BASE_URL: model.url },
    });
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('--trust pingmee: there is no server "pingmee"');
    expect(unknown.stderr).toContain('the servers are pingme');
  }, 20_000);

  it('exits 2, running nothing, when the model sends a tool call without an id', async () => {
    model = await startFakeModel([{ toolCalls: [{ name: 'PingME', id: null }] }]);
    const ran = await cli(['chat', '--yes', '-p', 'Call PingME for me', '--server', ...PINGME], {
      env: { ...NO_KEYS, ANTHROPIC_BASE_URL: model.url },
    });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(
      'the Messages API sent a tool call to "PingME" without an id; no tool of that answer was run',
    );
    expect(ran.stderr).not.toContain('→ PingME');
    expect(model.requests).toHaveLength(1);
  }, 20_000);

  it('exits 2 when the model API fails, and 3 without one', async () => {
    model = await startFakeModel([]);
    const failed = await cli(['chat', '-p', 'Hi'], {
      env: { ...NO_KEYS, ANTHROPIC_BASE_URL: model.url },
    });
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain('the model API answered 400');
    const none = await cli(['chat', '-p', 'Hi'], { env: NO_KEYS });
    expect(none.code).toBe(3);
    expect(none.stderr).toContain('no model API configured');
    const badConfig = await cli(['chat', '--config', '/nonexistent/mcp.json', '-p', 'Hi'], {
      env: { ...NO_KEYS, ANTHROPIC_BASE_URL: model.url },
    });
    expect(badConfig.code).toBe(3);
  });

  it("--tool-search regex defers the tools behind the API's regex search; off sends them all", async () => {
    // An API of 120 operations, each described at length: past 10,000 tokens of definitions
    // (about 113 tokens each, once the OpenAPI server has trimmed the descriptions).
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 120; i++) {
      paths[`/items${String(i)}`] = {
        get: {
          operationId: `listItems${String(i)}`,
          description: `Lists the items of shelf ${String(i)}. ${'Each item has a name, a size, a colour and a price. '.repeat(12)}`,
          responses: { '200': { description: 'the items' } },
        },
      };
    }
    const dir = mkdtempSync(join(tmpdir(), 'mcpkit-chat-'));
    const spec = join(dir, 'api.json');
    writeFileSync(
      spec,
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'Shelves', version: '1' },
        servers: [{ url: 'http://127.0.0.1:9' }],
        paths,
      }),
    );
    const server = ['--server', '--', process.execPath, BIN, 'serve', 'openapi', spec];
    const tools = async (search: string) => {
      model = await startFakeModel([{ text: 'ok' }]);
      const ran = await cli(
        ['chat', '-p', 'Hi', '--tool-search', search, ...server, '--budget', 'off'],
        {
          env: { ...NO_KEYS, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test' },
          timeoutMs: 45_000,
        },
      );
      expect(ran.code, ran.stderr).toBe(0);
      const sent = model.requests[0]!.body.tools as { name: string; defer_loading?: boolean }[];
      await model.close();
      model = undefined;
      return sent;
    };
    const regex = await tools('regex');
    expect(regex[0]?.name).toBe('tool_search_tool_regex');
    expect(regex.filter((tool) => tool.defer_loading === true)).toHaveLength(120);
    const off = await tools('off');
    expect(off).toHaveLength(120);
    expect(
      off.some((tool) => tool.name.startsWith('tool_search') || tool.defer_loading === true),
    ).toBe(false);
    const bad = await cli(['chat', '-p', 'Hi', '--tool-search', 'fuzzy'], { env: NO_KEYS });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain('unknown --tool-search "fuzzy"');
  }, 120_000);
});
