// The host end to end: a fake model API (test/helpers/fake-model.ts) on one side, real MCP
// servers on the other (the PingME reference server over stdio through the built CLI, and
// in-process servers over Streamable HTTP on 127.0.0.1), every case of issue #23.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { afterEach, describe, expect, it } from 'vitest';
import { createPingmeServer } from '../../servers/pingme/server.js';
import type { Host, HostEvent, HostOptions, ServerConfig } from '../../src/host/index.js';
import { McpServer } from '../../src/server/index.js';
import type { Listening } from '../../src/transports/http/server/node.js';
import { listen } from '../../src/transports/http/server/node.js';
import type { FakeModel, Step } from '../helpers/fake-model.js';
import { fakeHost, startFakeModel } from '../helpers/fake-model.js';
import { createSumServer } from '../helpers/sum-server.js';
import { waitServer } from '../helpers/wait-server.js';

const BIN = join(process.env['MCPKIT_DIST'] ?? 'dist', 'esm/src/cli/main.js');
const hasDist = existsSync(BIN);
if (!hasDist)
  console.log('host-e2e: the stdio cases are skipped, dist/ is missing (npm run build)');

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

async function serve(server: () => McpServer): Promise<Listening> {
  const listening = await listen(() => server());
  cleanups.push(() => listening.close());
  return listening;
}

async function host(
  api: Api,
  model: FakeModel,
  servers: Record<string, ServerConfig>,
  options: Partial<HostOptions> = {},
): Promise<Host> {
  // Every call approved unless a test sets a policy (the approval case does).
  const created = fakeHost(api, model, servers, options);
  cleanups.push(() => created.close());
  await created.connect();
  return created;
}

/** The seeds' walk-through, as the model plays it. */
const PINGME_SCRIPT: Step[] = [
  { toolCalls: [{ name: 'PingME' }] },
  (seen) => {
    const word = seen.results[0]?.text ?? '?';
    return { text: `The magic word is ${word}.` };
  },
];

const pingmeStdio: ServerConfig = { command: process.execPath, args: [BIN, 'serve', 'pingme'] };

describe.each(['anthropic', 'openai'] as const)('the host with %s', (api) => {
  for (const stream of [false, true]) {
    it.skipIf(!hasDist)(
      `walks through PingME over stdio in one tool round${stream ? ', streaming' : ''}`,
      async () => {
        const model = await fake(PINGME_SCRIPT);
        const events: HostEvent[] = [];
        const h = await host(
          api,
          model,
          { pingme: pingmeStdio },
          { stream, onEvent: (e) => events.push(e) },
        );
        const result = await h.run([{ role: 'user', content: 'Call PingME for me' }]);
        expect(model.problems).toEqual([]);
        expect(result.text).toBe('The magic word is BISMILLAH.');
        expect(result.turns).toBe(2);
        expect(model.requests).toHaveLength(2);
        expect(model.requests[0]!.tools).toEqual(['PingME']);
        expect(model.requests[1]!.results).toEqual([
          { id: expect.any(String), text: 'BISMILLAH', isError: false },
        ]);
        expect(result.calls).toMatchObject([
          { name: 'PingME', server: 'pingme', decision: 'approved' },
        ]);
        const kinds = events.map((e) => e.type).filter((t) => t !== 'text_delta');
        expect(kinds).toEqual([
          'server_connected',
          'model_request',
          'tool_call',
          'approval',
          'tool_result',
          'model_request',
          'text',
          'done',
        ]);
        if (stream) expect(events.filter((e) => e.type === 'text_delta').length).toBeGreaterThan(1);
      },
      20_000,
    );
  }

  it('walks through PingME over Streamable HTTP', async () => {
    const model = await fake(PINGME_SCRIPT);
    const pingme = await serve(() => createPingmeServer());
    const h = await host(api, model, { pingme: { url: pingme.url } });
    const result = await h.run([{ role: 'user', content: 'Call PingME for me' }]);
    expect(model.problems).toEqual([]);
    expect(result.text).toBe('The magic word is BISMILLAH.');
  });

  it('sends a bad argument back as is_error, and the corrected call succeeds', async () => {
    const model = await fake([
      { toolCalls: [{ name: 'get-sum', arguments: { a: 'two', b: 3 } }] },
      (seen) => {
        expect(seen.results[0]?.isError).toBe(true);
        return { toolCalls: [{ name: 'get-sum', arguments: { a: 2, b: 3 } }] };
      },
      (seen) => ({ text: `Done: ${seen.results[0]?.text ?? ''}` }),
    ]);
    const sum = await serve(() => createSumServer());
    const h = await host(api, model, { sum: { url: sum.url } });
    const result = await h.run([{ role: 'user', content: 'add 2 and 3' }]);
    expect(model.problems).toEqual([]);
    expect(result.calls.map((c) => c.shaped.isError)).toEqual([true, false]);
    expect(result.text).toBe('Done: The sum of 2 and 3 is 5.');
  });

  it('gives a non-vision model a note instead of an image', async () => {
    const model = await fake([{ toolCalls: [{ name: 'snapshot' }] }, { text: 'ok' }]);
    const server = await serve(() => {
      const s = new McpServer({ name: 'camera', version: '1.0.0' });
      s.tool(
        { name: 'snapshot', description: 'Takes a picture.', inputSchema: { type: 'object' } },
        () => ({
          content: [
            { type: 'text', text: 'here it is' },
            { type: 'image', data: Buffer.alloc(300).toString('base64'), mimeType: 'image/png' },
          ],
        }),
      );
      return s;
    });
    const h = await host(
      api,
      model,
      { camera: { url: server.url } },
      { capabilities: { vision: false } },
    );
    await h.run([{ role: 'user', content: 'take a picture' }]);
    expect(model.problems).toEqual([]);
    const text = model.requests[1]!.results[0]!.text;
    expect(text).toContain('here it is');
    expect(text).toContain('[image omitted: image/png, 300 B; this model does not take images]');
    expect(JSON.stringify(model.requests[1]!.body)).not.toContain('image_url');
    expect(JSON.stringify(model.requests[1]!.body)).not.toContain('"type":"image"');
  });

  it('with handOff off, cuts a 200,000-character result to the budget, with a note', async () => {
    const model = await fake([{ toolCalls: [{ name: 'dump' }] }, { text: 'ok' }]);
    const server = await serve(() => {
      const s = new McpServer({ name: 'big', version: '1.0.0' });
      s.tool({ name: 'dump', description: 'Dumps a log.', inputSchema: { type: 'object' } }, () =>
        Array.from({ length: 20_000 }, (_, i) => `line ${String(i).padStart(4, '0')}`)
          .join('\n')
          .slice(0, 200_000)
          .padEnd(200_000, 'x'),
      );
      return s;
    });
    const h = await host(
      api,
      model,
      { big: { url: server.url } },
      { resultTokens: 2_000, handOff: false },
    );
    const result = await h.run([{ role: 'user', content: 'dump' }]);
    expect(model.problems).toEqual([]);
    const sent = model.requests[1]!.results[0]!.text;
    expect(sent.length).toBeLessThan(20_000);
    expect(sent).toMatch(
      /\[truncated: the result had \d+ tokens \(200000 characters\); the first \d+ tokens/,
    );
    expect(result.calls[0]!.shaped.truncated!.keptTokens).toBeLessThanOrEqual(2_000);
    expect(result.calls[0]!.result!.content[0]).toMatchObject({ type: 'text' }); // the record keeps it whole
  });

  it('refuses a call the user declines, and tells the model', async () => {
    let ran = false;
    const model = await fake([
      { toolCalls: [{ name: 'drop-table', arguments: { table: 'users' } }] },
      { text: 'understood' },
    ]);
    const server = await serve(() => {
      const s = new McpServer({ name: 'db', version: '1.0.0' });
      s.tool(
        {
          name: 'drop-table',
          description: 'Drops a table.',
          inputSchema: { type: 'object', properties: { table: { type: 'string' } } },
          annotations: { destructiveHint: true },
        },
        () => {
          ran = true;
          return 'dropped';
        },
      );
      return s;
    });
    const asked: unknown[] = [];
    const h = await host(
      api,
      model,
      { db: { url: server.url } },
      {
        approval: { mode: 'annotations' },
        onApproval: (request) => {
          asked.push(request);
          return false;
        },
      },
    );
    const result = await h.run([{ role: 'user', content: 'drop users' }]);
    expect(model.problems).toEqual([]);
    expect(ran).toBe(false);
    expect(asked).toMatchObject([
      { kind: 'tool', server: 'db', tool: 'drop-table', arguments: { table: 'users' } },
    ]);
    expect(model.requests[1]!.results[0]).toMatchObject({
      isError: true,
      text: 'Error: the user declined this tool call',
    });
    expect(result.calls[0]!.decision).toBe('declined');
  });

  it('names apart two servers with the same tool name, and routes each call to its server', async () => {
    const model = await fake([
      (seen) => {
        expect(seen.tools.sort()).toEqual(['a__PingME', 'b__PingME']);
        return { toolCalls: [{ name: 'b__PingME' }, { name: 'a__PingME' }] };
      },
      { text: 'both answered' },
    ]);
    const a = await serve(() => createPingmeServer());
    const b = await serve(() => createPingmeServer());
    const h = await host(api, model, { b: { url: b.url }, a: { url: a.url } });
    const result = await h.run([{ role: 'user', content: 'ping both' }]);
    expect(model.problems).toEqual([]);
    expect(result.calls.map((c) => [c.name, c.server, c.tool])).toEqual([
      ['b__PingME', 'b', 'PingME'],
      ['a__PingME', 'a', 'PingME'],
    ]);
  });

  it('gives the next turn a tool list that changed mid-conversation', async () => {
    const model = await fake([
      (seen) => {
        expect(seen.tools).toEqual(['unlock']);
        return { toolCalls: [{ name: 'unlock' }] };
      },
      (seen) => {
        expect(seen.tools.sort()).toEqual(['secret', 'unlock']);
        return { toolCalls: [{ name: 'secret' }] };
      },
      (seen) => ({ text: seen.results[0]?.text ?? '' }),
    ]);
    const shared = new McpServer({ name: 'vault', version: '1.0.0' });
    shared.tool(
      { name: 'unlock', description: 'Unlocks the secret tool.', inputSchema: { type: 'object' } },
      async () => {
        shared.tool(
          { name: 'secret', description: 'Tells the secret.', inputSchema: { type: 'object' } },
          () => 'open sesame',
        );
        // Let the batched list_changed go out before the result.
        await new Promise((resolve) => setTimeout(resolve, 50));
        return 'unlocked';
      },
    );
    const server = await serve(() => shared);
    const h = await host(api, model, { vault: { url: server.url } });
    const result = await h.run([{ role: 'user', content: 'unlock, then tell me the secret' }]);
    expect(model.problems).toEqual([]);
    expect(result.text).toBe('open sesame');
  });

  it("answers a server's sampling request with the same model", async () => {
    const model = await fake([
      { toolCalls: [{ name: 'haiku', arguments: { topic: 'rain' } }] },
      (seen) => {
        // The sampling request: no tools, the server's prompt.
        expect(seen.tools).toEqual([]);
        expect(seen.lastUserText).toBe('Write a haiku about rain');
        return { text: 'soft rain on the roof' };
      },
      (seen) => ({ text: `The server says: ${seen.results[0]?.text ?? ''}` }),
    ]);
    // One server for every request: its input rounds' requestState is sealed with its secret.
    const poet = new McpServer({ name: 'poet', version: '1.0.0' });
    poet.tool(
      {
        name: 'haiku',
        description: 'Writes a haiku.',
        inputSchema: { type: 'object', properties: { topic: { type: 'string' } } },
      },
      async (args, ctx) => {
        const { topic } = args as { topic: string };
        const answer = await ctx.sample({
          messages: [
            { role: 'user', content: { type: 'text', text: `Write a haiku about ${topic}` } },
          ],
          maxTokens: 100,
        });
        const content = answer.content as { type: string; text?: string };
        return content.text ?? '';
      },
    );
    const server = await serve(() => poet);
    const events: HostEvent[] = [];
    const h = await host(
      api,
      model,
      { poet: { url: server.url } },
      {
        approval: { mode: 'always', sampling: 'always' },
        onEvent: (e) => events.push(e),
      },
    );
    const result = await h.run([{ role: 'user', content: 'a haiku about rain, via the server' }]);
    expect(model.problems).toEqual([]);
    expect(result.text).toBe('The server says: soft rain on the roof');
    expect(events).toContainEqual({ type: 'sampling', server: 'poet', decision: 'approved' });
  });

  it("declines a server's sampling request when the policy says never: the tool sees the refusal", async () => {
    const model = await fake([
      { toolCalls: [{ name: 'haiku', arguments: { topic: 'snow' } }] },
      (seen) => ({ text: `The server says: ${seen.results[0]?.text ?? ''}` }),
    ]);
    const poet = new McpServer({ name: 'poet', version: '1.0.0' });
    poet.tool(
      {
        name: 'haiku',
        description: 'Writes a haiku.',
        inputSchema: { type: 'object', properties: { topic: { type: 'string' } } },
      },
      async (_args, ctx) => {
        try {
          await ctx.sample({
            messages: [{ role: 'user', content: { type: 'text', text: 'Write a haiku' } }],
            maxTokens: 100,
          });
          return 'sampled';
        } catch (error) {
          return `refused: ${error instanceof Error ? error.message : String(error)}`;
        }
      },
    );
    const server = await serve(() => poet);
    const events: HostEvent[] = [];
    const h = await host(
      api,
      model,
      { poet: { url: server.url } },
      {
        approval: { mode: 'always', sampling: 'never' },
        onEvent: (e) => events.push(e),
      },
    );
    const result = await h.run([{ role: 'user', content: 'a haiku about snow, via the server' }]);
    expect(model.problems).toEqual([]);
    // The refusal reaches the server (as the error ctx.sample throws, or the tool's error
    // result, by era) and the model reads it.
    expect(result.text).toMatch(/^The server says: .*the user declined the sampling request/);
    expect(events).toContainEqual({ type: 'sampling', server: 'poet', decision: 'declined' });
  });

  it('cancels the run and the MCP call in flight', async () => {
    const model = await fake([{ toolCalls: [{ name: 'wait' }] }, { text: 'never' }]);
    const { create, running, aborted } = waitServer();
    const server = await serve(create);
    const h = await host(api, model, { slow: { url: server.url } });
    const controller = new AbortController();
    const run = h.run([{ role: 'user', content: 'wait' }], { signal: controller.signal });
    await running;
    controller.abort(new Error('stopped by the user'));
    await expect(run).rejects.toThrow('stopped by the user');
    await aborted;
    expect(model.requests).toHaveLength(1);
  });
});
