// Large results handed off (issue #41): a result over the budget is kept by the host, the model
// gets its head and reads the rest in slices with read_result, in both APIs; a server's own
// ranged resource (largeResults of mcpkit/server) is read a slice at a time the same way. The
// slices read back make the whole text, exactly.
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../src/host/index.js';
import { McpServer, largeResults } from '../../src/server/index.js';
import type { Listening } from '../../src/transports/http/server/node.js';
import { listen } from '../../src/transports/http/server/node.js';
import type { FakeModel, Seen, Step } from '../helpers/fake-model.js';
import { fakeHost, startFakeModel } from '../helpers/fake-model.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** 200,000 characters of numbered lines, the same each time. */
const BIG = Array.from(
  { length: 20_000 },
  (_, i) => `line ${String(i).padStart(5, '0')}: ${'é'.repeat(i % 7)}`,
)
  .join('\n')
  .slice(0, 200_000);

async function serve(make: () => McpServer): Promise<ServerConfig> {
  const listening: Listening = await listen(make);
  cleanups.push(() => listening.close());
  return { url: listening.url };
}

/**
 * A model that calls `tool`, then reads `id` from offset 0 in slices of 30,000 until the end,
 * and answers; `parts` receives each slice.
 */
function reader(tool: string, id: () => string, parts: string[]): Step[] {
  const read = (seen: Seen) => {
    const text = seen.results[0]?.text ?? '';
    const mark = /\[characters (\d+)-(\d+) of (\d+); (?:read on|this is the end)/.exec(text);
    if (mark !== null) {
      const [, from, to, total] = mark.map(Number) as [number, number, number, number];
      parts.push(text.slice(0, to - from));
      if (to >= total) return { text: 'read it all' };
      return {
        toolCalls: [{ name: 'read_result', arguments: { id: id(), offset: to, length: 30_000 } }],
      };
    }
    return {
      toolCalls: [{ name: 'read_result', arguments: { id: id(), offset: 0, length: 30_000 } }],
    };
  };
  return [{ toolCalls: [{ name: tool }] }, ...Array.from({ length: 12 }, () => read)];
}

describe.each(['anthropic', 'openai'] as const)('result hand-off with %s', (api) => {
  async function play(
    servers: Record<string, ServerConfig>,
    script: Step[],
  ): Promise<{ model: FakeModel; first: Seen }> {
    const model = await startFakeModel(script);
    cleanups.push(() => model.close());
    const host = fakeHost(api, model, servers, {
      resultTokens: 2_000,
      handOff: { headTokens: 300 },
    });
    cleanups.push(() => host.close());
    await host.connect();
    const result = await host.run([{ role: 'user', content: 'dump' }]);
    expect(result.text).toBe('read it all');
    expect(model.problems).toEqual([]);
    return { model, first: model.requests[1]! };
  }

  it('keeps a result over the budget and serves it in slices with read_result', async () => {
    const servers = {
      big: await serve(() => {
        const s = new McpServer({ name: 'big', version: '1.0.0' });
        s.tool(
          { name: 'dump', description: 'Dumps a log.', inputSchema: { type: 'object' } },
          () => BIG,
        );
        return s;
      }),
    };
    const parts: string[] = [];
    const { model, first } = await play(
      servers,
      reader('dump', () => 'r1', parts),
    );
    // The head and how to read on, well within the budget.
    expect(first.results[0]!.text).toContain('line 00000');
    expect(first.results[0]!.text).toContain('read_result {"id": "r1", "offset": ');
    expect(first.results[0]!.text.length).toBeLessThan(5_000);
    // read_result is offered once a result was handed off.
    expect(model.requests[0]!.tools).not.toContain('read_result');
    expect(first.tools).toContain('read_result');
    expect(parts.join('')).toBe(BIG);
    expect(parts.length).toBe(Math.ceil(BIG.length / 30_000));
  });

  it("reads a server's ranged resource_link a slice at a time", async () => {
    let reads = 0;
    const large = largeResults({ headChars: 1_000 });
    const servers = {
      big: await serve(() => {
        const s = new McpServer({ name: 'big', version: '1.0.0' });
        large.attach(s);
        s.use((ctx, next) => {
          if (ctx.method === 'resources/read') reads++;
          return next();
        });
        s.tool({ name: 'export', description: 'Exports.', inputSchema: { type: 'object' } }, () =>
          large.result(BIG, { name: 'export.log' }),
        );
        return s;
      }),
    };
    const parts: string[] = [];
    const { first } = await play(
      servers,
      reader('export', () => 'result://1', parts),
    );
    expect(first.results[0]!.text).toContain('read_result {"id": "result://1"');
    expect(parts.join('')).toBe(BIG);
    // One ranged read a slice: the host never asked for the whole.
    expect(reads).toBe(parts.length);
  });

  it('answers a bad read as an error the model can read', async () => {
    const servers = {
      big: await serve(() => {
        const s = new McpServer({ name: 'big', version: '1.0.0' });
        s.tool({ name: 'dump', description: 'Dumps.', inputSchema: { type: 'object' } }, () => BIG);
        return s;
      }),
    };
    const model = await startFakeModel([
      { toolCalls: [{ name: 'dump' }] },
      {
        toolCalls: [
          { name: 'read_result', arguments: { id: 'r9' } },
          { name: 'read_result', arguments: { id: 'r1', offset: -1 } },
        ],
      },
      (seen) => {
        expect(seen.results.map((r) => r.isError)).toEqual([true, true]);
        expect(seen.results[0]!.text).toContain('there is no kept result "r9"');
        return { text: 'ok' };
      },
    ]);
    cleanups.push(() => model.close());
    const host = fakeHost(api, model, servers, { resultTokens: 2_000 });
    cleanups.push(() => host.close());
    await host.connect();
    await host.run([{ role: 'user', content: 'dump' }]);
    expect(model.problems).toEqual([]);
  });
});
