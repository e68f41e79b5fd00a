// Tool calls the model API gets wrong (issue #36, point 13): arguments that are not a JSON
// object, an id used twice, a call without an id. None of them runs a tool: the first two are
// answered with an is_error result naming the problem, and the last ends the run with a
// ModelError (a call without an id cannot be answered). Both APIs, JSON and streamed, against
// the fake model API, a real server over Streamable HTTP on 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';
import type { Host, ServerConfig } from '../../src/host/index.js';
import { McpServer } from '../../src/server/index.js';
import { listen } from '../../src/transports/http/server/node.js';
import type { FakeModel, Step } from '../helpers/fake-model.js';
import { fakeHost, startFakeModel } from '../helpers/fake-model.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A server whose tool `note` records the arguments of every run. */
async function noteServer(): Promise<{ config: ServerConfig; runs: unknown[] }> {
  const runs: unknown[] = [];
  const listening = await listen(() => {
    const server = new McpServer({ name: 'notes', version: '1.0.0' });
    server.tool(
      {
        name: 'note',
        description: 'Takes a note.',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      },
      (args) => {
        runs.push(args);
        return `noted ${String(args['text'])}`;
      },
    );
    return server;
  });
  cleanups.push(() => listening.close());
  return { config: { url: listening.url }, runs };
}

async function setUp(
  api: 'anthropic' | 'openai',
  stream: boolean,
  script: Step[],
): Promise<{ model: FakeModel; host: Host; runs: unknown[] }> {
  const model = await startFakeModel(script);
  cleanups.push(() => model.close());
  const server = await noteServer();
  const host = fakeHost(api, model, { notes: server.config }, { stream });
  cleanups.push(() => host.close());
  await host.connect();
  return { model, host, runs: server.runs };
}

describe.each([
  ['anthropic', false],
  ['anthropic', true],
  ['openai', false],
  ['openai', true],
] as const)('malformed tool calls from %s (stream: %s)', (api, stream) => {
  it('answers a call whose arguments are not a JSON object with an is_error result, not running it', async () => {
    // A string, and an array: Messages `input`s, or Chat Completions `arguments` texts.
    const { model, host, runs } = await setUp(api, stream, [
      {
        toolCalls: [
          { name: 'note', rawArguments: 'rm -rf /' },
          { name: 'note', rawArguments: api === 'anthropic' ? ['a'] : '["a"]' },
        ],
      },
      { text: 'ok' },
    ]);
    const result = await host.run([{ role: 'user', content: 'take notes' }]);
    expect(model.problems).toEqual([]);
    expect(runs).toEqual([]);
    const results = model.requests[1]!.results;
    expect(results).toHaveLength(2);
    for (const answer of results) {
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(
        /^Error: this tool call was not run: its arguments are not a JSON object/,
      );
    }
    expect(result.calls.map((call) => call.decision)).toEqual(['declined', 'declined']);
  });

  it('runs the first call of an id and answers a later one with the same id with an is_error result', async () => {
    const { model, host, runs } = await setUp(api, stream, [
      {
        toolCalls: [
          { name: 'note', id: 'same', arguments: { text: 'first' } },
          { name: 'note', id: 'same', arguments: { text: 'second' } },
        ],
      },
      // An id of an earlier turn, sent again.
      { toolCalls: [{ name: 'note', id: 'same', arguments: { text: 'third' } }] },
      { text: 'ok' },
    ]);
    await host.run([{ role: 'user', content: 'take notes' }]);
    expect(model.problems).toEqual([]);
    expect(runs).toEqual([{ text: 'first' }]);
    expect(model.requests[1]!.results).toEqual([
      { id: 'same', text: 'noted first', isError: false },
      {
        id: 'same',
        text: 'Error: this tool call was not run: its id "same" was already used by another tool call of this conversation',
        isError: true,
      },
    ]);
    expect(model.requests[2]!.results).toMatchObject([{ id: 'same', isError: true }]);
  });

  it('ends the run with a ModelError when a call has no id, running no call of that answer', async () => {
    const { model, host, runs } = await setUp(api, stream, [
      {
        toolCalls: [
          { name: 'note', arguments: { text: 'with an id' } },
          { name: 'note', id: null, arguments: { text: 'without' } },
        ],
      },
      { text: 'never asked' },
    ]);
    await expect(host.run([{ role: 'user', content: 'take notes' }])).rejects.toMatchObject({
      name: 'ModelError',
      message: expect.stringMatching(
        /sent a tool call to "note" without an id; no tool of that answer was run/,
      ),
    });
    expect(runs).toEqual([]);
    expect(model.requests).toHaveLength(1);
  });
});
