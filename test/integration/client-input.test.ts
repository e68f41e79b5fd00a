// The client's handlers for the server's questions (elicitation, sampling, roots), written once
// and served in both eras: legacy server-to-client requests and 2026-07-28 multi round-trip
// requests driven by the client.
import { afterEach, describe, expect, it } from 'vitest';
import { LocalError } from '../../src/client/index.js';
import type { ClientOptions, ElicitParams } from '../../src/client/index.js';
import type * as Spec from '../../src/protocol/schema/2026-07-28.js';
import { McpServer } from '../../src/server/server.js';
import { ERAS, closeClients, connectClient } from '../helpers/client-pair.js';
import { assertValidMessage } from '../helpers/spec-schema.js';

afterEach(async () => {
  await closeClients();
});

const FORM: Spec.ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    color: { type: 'string', default: 'blue' },
  },
  required: ['name'],
};

function inputServer() {
  const server = new McpServer({ name: 'input', version: '1.0.0' });
  server.tool({ name: 'ask', description: 'Asks a name, then samples.' }, async (_args, ctx) => {
    const answer = await ctx.elicit({ mode: 'form', message: 'Your name?', requestedSchema: FORM });
    if (answer.action !== 'accept') return 'declined';
    const sampled = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'Greet' } }],
      maxTokens: 10,
    });
    return `hello ${JSON.stringify(answer.content)}, ${JSON.stringify(sampled.content)}`;
  });
  server.tool({ name: 'where', description: 'Lists roots.' }, async (_args, ctx) => {
    const roots = await ctx.roots();
    return roots.map((r) => r.uri).join(',');
  });
  server.tool({ name: 'visit', description: 'URL elicitation.' }, async (_args, ctx) => {
    const answer = await ctx.elicit({ mode: 'url', message: 'Sign in', url: 'https://x.test/' });
    return answer.action;
  });
  server.tool({ name: 'agent', description: 'Samples with tools.' }, async (_args, ctx) => {
    const sampled = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'Weather?' } }],
      maxTokens: 10,
      tools: [{ name: 'weather', inputSchema: { type: 'object' } }],
      toolChoice: { mode: 'auto' },
    });
    return JSON.stringify(sampled.content);
  });
  server.tool({ name: 'pester', description: 'Asks three times.' }, async (_args, ctx) => {
    for (let i = 0; i < 3; i++) {
      await ctx.elicit({ mode: 'form', message: `Again ${i}?`, requestedSchema: FORM });
    }
    return 'done';
  });
  return server;
}

function handlers(log: unknown[]): ClientOptions {
  return {
    onElicit: (params: ElicitParams, ctx) => {
      log.push(['elicit', params.mode ?? 'form', ctx.era, ctx.signal.aborted]);
      return params.mode === 'url'
        ? { action: 'accept' }
        : { action: 'accept', content: { name: 'Ada' } };
    },
    onSample: (params) => {
      log.push(['sample', params.tools?.map((t) => t.name) ?? []]);
      return params.tools === undefined
        ? { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' }
        : {
            role: 'assistant',
            content: { type: 'tool_use', id: 'call-1', name: 'weather', input: {} },
            model: 'm',
            stopReason: 'toolUse',
          };
    },
    onRoots: () => {
      log.push(['roots']);
      return [{ uri: 'file:///a' }, { uri: 'file:///b', name: 'b' }];
    },
    elicitation: { url: true },
    sampling: { tools: true },
  };
}

describe('the same handlers in both eras', () => {
  for (const [era, revision] of ERAS) {
    it(`answers elicitation, sampling and roots (${era})`, async () => {
      const log: unknown[] = [];
      const { client, frames } = await connectClient(inputServer(), {
        ...handlers(log),
        mode: { pin: revision },
      });
      const asked = await client.callTool('ask');
      expect(asked.content).toEqual([
        { type: 'text', text: 'hello {"name":"Ada"}, {"type":"text","text":"hi"}' },
      ]);
      await expect(client.callTool('where')).resolves.toMatchObject({
        content: [{ text: 'file:///a,file:///b' }],
      });
      await expect(client.callTool('visit')).resolves.toMatchObject({
        content: [{ text: 'accept' }],
      });
      await expect(client.callTool('agent')).resolves.toMatchObject({
        content: [{ text: '{"type":"tool_use","id":"call-1","name":"weather","input":{}}' }],
      });
      expect(log).toEqual([
        ['elicit', 'form', era, false],
        ['sample', []],
        ['roots'],
        ['elicit', 'url', era, false],
        ['sample', ['weather']],
      ]);
      const start = frames.findIndex((f) => f.message['method'] === 'initialize');
      const asks = new Map<unknown, string>();
      for (const frame of frames.slice(Math.max(0, start))) {
        const m = frame.message;
        if (frame.from === 'server' && 'method' in m) asks.set(m['id'], m['method']);
        if (frame.from !== 'client') continue;
        const method = 'method' in m ? undefined : asks.get(m['id']);
        assertValidMessage(revision, m, method === undefined ? {} : { method });
      }
    });

    it(`fills defaults into accepted content with applyDefaults (${era})`, async () => {
      const log: unknown[] = [];
      const { client } = await connectClient(inputServer(), {
        ...handlers(log),
        elicitation: { applyDefaults: true },
        mode: { pin: revision },
      });
      const asked = await client.callTool('ask');
      expect(asked.content[0]).toMatchObject({ text: /^hello \{"name":"Ada","color":"blue"\}/ });
    });
  }

  it('drives multi round-trip requests: new ids, per-round answers, state echoed', async () => {
    const log: unknown[] = [];
    const { client, frames, sent } = await connectClient(inputServer(), handlers(log));
    await client.callTool('ask');
    const calls = sent('tools/call').map((f) => f.message);
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((c) => c['id'])).size).toBe(3);
    const results = calls.map(
      (c) => frames.find((f) => f.from === 'server' && f.message['id'] === c['id'])!.message,
    );
    expect(results.map((r) => r['result']['resultType'])).toEqual([
      'input_required',
      'input_required',
      'complete',
    ]);
    expect(calls[0]!['params']).not.toHaveProperty('inputResponses');
    expect(calls[1]!['params']).toMatchObject({
      name: 'ask',
      arguments: {},
      requestState: results[0]!['result']['requestState'],
      inputResponses: { 'input-0': { action: 'accept', content: { name: 'Ada' } } },
    });
    expect(Object.keys(calls[2]!['params']['inputResponses'])).toEqual(['input-1']);
    expect(calls[2]!['params']['requestState']).toBe(results[1]!['result']['requestState']);
  });

  it('stops after maxInputRounds with a LocalError', async () => {
    const log: unknown[] = [];
    const { client } = await connectClient(inputServer(), { ...handlers(log), maxInputRounds: 2 });
    const error = await client.callTool('pester').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({ code: 'PROTOCOL_VIOLATION', message: /more than 2 rounds/ });
    const { client: patient } = await connectClient(inputServer(), handlers(log));
    await expect(patient.callTool('pester')).resolves.toMatchObject({
      content: [{ text: 'done' }],
    });
  });

  it('throws a clear LocalError when a question has no handler (2026-07-28)', async () => {
    const { client } = await connectClient(inputServer(), { capabilities: { elicitation: {} } });
    const error = await client.callTool('ask').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({ code: 'UNSUPPORTED', message: /no onElicit handler/ });
  });

  it('answers -32601 to a legacy question without a handler, and ping with {}', async () => {
    const { client, frames } = await connectClient(inputServer(), {
      capabilities: { roots: {} },
      mode: { pin: '2025-11-25' },
    });
    await expect(client.callTool('where')).rejects.toMatchObject({ code: -32601 });
    const answer = frames.find((f) => f.from === 'client' && 'error' in f.message);
    expect(answer?.message['error']).toMatchObject({ code: -32601 });
  });

  it('lets the server decline without declared capabilities', async () => {
    const { client } = await connectClient(inputServer(), { mode: { pin: '2025-11-25' } });
    await expect(client.callTool('ask')).resolves.toMatchObject({ isError: true });
    const { client: modern } = await connectClient(inputServer());
    await expect(modern.callTool('ask')).rejects.toMatchObject({ code: -32021 });
  });
});
