// The client's calls against mcpkit's own server in both eras: listings and pagination, tool
// results and errors, progress and its timeout reset, cancellation, output schemas, and the
// 2026-07-28 list cache.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalError } from '../../src/client/index.js';
import { McpServer } from '../../src/server/server.js';
import type { McpServerOptions } from '../../src/server/server.js';
import { ERAS, closeClients, connectClient } from '../helpers/client-pair.js';

afterEach(async () => {
  vi.useRealTimers();
  await closeClients();
});

function callServer(options: McpServerOptions = {}) {
  const server = new McpServer({ name: 'calls', version: '1.0.0' }, options);
  const state = { started: 0, aborted: 0, long: 0 };
  server.tool({ name: 'slow', description: 'Reports progress.' }, async (_args, ctx) => {
    await ctx.progress(1, 2, 'half');
    await ctx.progress(2, 2);
    return 'done';
  });
  server.tool({ name: 'long', description: 'Progress every 40 ms.' }, async (_args, ctx) => {
    state.long++;
    for (let i = 1; i <= 5; i++) {
      await new Promise((resolve) => setTimeout(resolve, 40));
      await ctx.progress(i, 5);
    }
    return 'finished';
  });
  server.tool({ name: 'hang', description: 'Waits until cancelled.' }, (_args, ctx) => {
    state.started++;
    return new Promise((resolve) => {
      ctx.signal.addEventListener('abort', () => {
        state.aborted++;
        resolve('cancelled');
      });
    });
  });
  server.tool({ name: 'fails', description: 'Always fails.' }, () => {
    throw new Error('disk is full');
  });
  server.resource({ uri: 'test://static', name: 'static', mimeType: 'text/plain' }, () => 'text');
  server.prompt(
    {
      name: 'greet',
      arguments: [
        {
          name: 'who',
          required: true,
          complete: (v) => ['ada', 'alan'].filter((x) => x.startsWith(v)),
        },
      ],
    },
    (args) => `Hello ${args['who'] ?? ''}.`,
  );
  return { server, state };
}

describe('listings', () => {
  for (const [era, revision] of ERAS) {
    it(`follows nextCursor through every page (${era})`, async () => {
      const server = new McpServer({ name: 'p', version: '1' }, { pageSize: 2 });
      for (const name of ['a', 'b', 'c', 'd', 'e']) server.tool({ name }, () => name);
      for (const name of ['p1', 'p2', 'p3']) server.prompt({ name }, () => name);
      for (const n of [1, 2, 3]) server.resource({ uri: `test://r${n}`, name: `r${n}` }, () => '');
      server.resourceTemplate({ uriTemplate: 'test://t/{id}', name: 't' }, () => '');
      const { client, sent } = await connectClient(server, { mode: { pin: revision } });
      const names: string[] = [];
      for await (const tool of client.tools()) names.push(tool.name);
      expect(names).toEqual(['a', 'b', 'c', 'd', 'e']);
      expect(sent('tools/list').map((f) => f.message['params']?.['cursor'])).toEqual([
        undefined,
        expect.any(String),
        expect.any(String),
      ]);
      expect((await client.listTools()).map((t) => t.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
      expect((await client.listPrompts()).map((p) => p.name)).toEqual(['p1', 'p2', 'p3']);
      expect((await client.listResources()).map((r) => r.uri)).toEqual([
        'test://r1',
        'test://r2',
        'test://r3',
      ]);
      const templates: string[] = [];
      for await (const t of client.resourceTemplates()) templates.push(t.uriTemplate);
      expect(templates).toEqual(['test://t/{id}']);
      const prompts: string[] = [];
      for await (const p of client.prompts()) prompts.push(p.name);
      expect(prompts).toHaveLength(3);
      const resources: string[] = [];
      for await (const r of client.resources()) resources.push(r.name);
      expect(resources).toHaveLength(3);
    });
  }

  it('stops after maxPages with a LocalError', async () => {
    const server = new McpServer({ name: 'p', version: '1' }, { pageSize: 1 });
    for (const name of ['a', 'b', 'c']) server.tool({ name }, () => name);
    const { client } = await connectClient(server);
    const error = await client.listTools({ maxPages: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({ code: 'PROTOCOL_VIOLATION', message: /more than 2 pages/ });
    const { client: capped } = await connectClient(server, { maxPages: 3 });
    await expect(capped.listTools()).resolves.toHaveLength(3);
  });

  it('caches a 2026-07-28 list within its ttlMs, and only then', async () => {
    const server = new McpServer(
      { name: 'c', version: '1' },
      { cacheHints: { 'tools/list': { ttlMs: 60_000, cacheScope: 'public' } } },
    );
    server.tool({ name: 'a' }, () => 'a');
    server.prompt({ name: 'p' }, () => 'p');
    const { client, sent } = await connectClient(server);
    vi.useFakeTimers({ toFake: ['Date'] });
    const first = await client.listTools();
    first.pop();
    expect(await client.listTools()).toEqual([expect.objectContaining({ name: 'a' })]);
    expect(sent('tools/list')).toHaveLength(1);
    await client.listPrompts();
    await client.listPrompts();
    expect(sent('prompts/list')).toHaveLength(2); // ttlMs 0: never cached
    vi.setSystemTime(Date.now() + 60_001);
    await client.listTools();
    expect(sent('tools/list')).toHaveLength(2);
    const { client: legacy, sent: legacySent } = await connectClient(server, {
      mode: { pin: '2025-11-25' },
    });
    await legacy.listTools();
    await legacy.listTools();
    expect(legacySent('tools/list')).toHaveLength(2);
  });
});

describe('calls', () => {
  for (const [era, revision] of ERAS) {
    it(`returns tool failures and throws protocol errors (${era})`, async () => {
      const { client } = await connectClient(callServer().server, { mode: { pin: revision } });
      await expect(client.callTool('fails')).resolves.toMatchObject({
        isError: true,
        content: [{ type: 'text', text: 'disk is full' }],
      });
      await expect(client.callTool('nope')).rejects.toMatchObject({
        name: 'JsonRpcError',
        code: -32602,
      });
      await expect(client.readResource('test://static')).resolves.toMatchObject({
        contents: [{ uri: 'test://static', text: 'text' }],
      });
      await expect(client.readResource('test://missing')).rejects.toMatchObject({
        code: era === 'legacy' ? -32002 : -32602,
      });
      const prompt = await client.getPrompt('greet', { who: 'Ada' });
      expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Hello Ada.' });
      const completion = await client.complete(
        { type: 'ref/prompt', name: 'greet' },
        { name: 'who', value: 'a' },
        { context: { arguments: {} } },
      );
      expect(completion.completion.values).toEqual(['ada', 'alan']);
    });

    it(`reports progress with total and message (${era})`, async () => {
      const { client, sent } = await connectClient(callServer().server, {
        mode: { pin: revision },
      });
      const seen: unknown[] = [];
      const result = await client.callTool(
        'slow',
        {},
        {
          onProgress: (progress, total, message) => seen.push([progress, total, message]),
        },
      );
      expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
      expect(seen).toEqual([
        [1, 2, 'half'],
        [2, 2, undefined],
      ]);
      const call = sent('tools/call')[0]!.message;
      expect(call['params']['_meta']['progressToken']).toBe(call['id']);
      await client.callTool('slow');
      expect(sent('tools/call')[1]!.message['params']['_meta']?.['progressToken']).toBeUndefined();
    });

    it(`cancels through an AbortSignal and tells the server (${era})`, async () => {
      const { server, state } = callServer();
      const { client, sent } = await connectClient(server, { mode: { pin: revision } });
      const controller = new AbortController();
      const call = client.callTool('hang', {}, { signal: controller.signal });
      await vi.waitFor(() => {
        expect(state.started).toBe(1);
      });
      const reason = new Error('user gave up');
      controller.abort(reason);
      await expect(call).rejects.toBe(reason);
      await vi.waitFor(() => {
        expect(state.aborted).toBe(1);
      });
      const id = sent('tools/call')[0]!.message['id'];
      expect(sent('notifications/cancelled')[0]!.message['params']).toEqual({
        requestId: id,
        reason: 'user gave up',
      });
      await expect(client.ping()).resolves.toBeUndefined();
    });

    it(`tells the server of a call that timed out (${era})`, async () => {
      const { server, state } = callServer();
      const { client, sent } = await connectClient(server, { mode: { pin: revision } });
      const call = client.callTool('hang', {}, { timeoutMs: 200 });
      await expect(call).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT' });
      await vi.waitFor(() => {
        expect(state.aborted).toBe(1);
      });
      expect(state.started).toBe(1);
      const id = sent('tools/call')[0]!.message['id'];
      expect(sent('notifications/cancelled')[0]!.message['params']).toMatchObject({
        requestId: id,
        reason: expect.stringContaining('timed out') as unknown,
      });
    });
  }

  it('restarts the timeout on progress, so long calls with progress never time out', async () => {
    const { server, state } = callServer();
    const { client } = await connectClient(server);
    // The server starts its handler after real async work (2026-07-28 hashes the request), so
    // fake time only moves once the handler has started its first timer.
    const started = async (count: number) => {
      while (state.long < count) await new Promise((resolve) => setImmediate(resolve));
    };
    // The client's timeouts are measured on performance.now(): fake time moves it too.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const progress: number[] = [];
    const call = client.callTool(
      'long',
      {},
      { timeoutMs: 100, onProgress: (p) => progress.push(p) },
    );
    await started(1);
    for (let i = 0; i < 5; i++) await vi.advanceTimersByTimeAsync(40);
    await expect(call).resolves.toMatchObject({ content: [{ text: 'finished' }] });
    expect(progress).toEqual([1, 2, 3, 4, 5]);
    const strict = client
      .callTool(
        'long',
        {},
        {
          timeoutMs: 100,
          onProgress: () => undefined,
          resetTimeoutOnProgress: false,
        },
      )
      .catch((e: unknown) => e);
    await started(2);
    await vi.advanceTimersByTimeAsync(100);
    await expect(strict).resolves.toMatchObject({ code: 'REQUEST_TIMEOUT' });
    await vi.advanceTimersByTimeAsync(200);
  });

  it('ends a call whose progress never stops at maxTotalTimeoutMs, and tells the server', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    let aborted = 0;
    server.tool({ name: 'forever', description: 'Progress forever.' }, async (_args, ctx) => {
      for (let i = 1; !ctx.signal.aborted; i++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        await ctx.progress(i);
      }
      aborted++;
      return 'stopped';
    });
    for (const [era, revision] of ERAS) {
      const { client } = await connectClient(server, { mode: { pin: revision } });
      let progress = 0;
      const error = await client
        .callTool(
          'forever',
          {},
          {
            timeoutMs: 50,
            maxTotalTimeoutMs: 200,
            onProgress: () => progress++,
          },
        )
        .catch((e: unknown) => e);
      expect(error, era).toBeInstanceOf(LocalError);
      expect(error).toMatchObject({
        code: 'REQUEST_TIMEOUT',
        message: expect.stringMatching(/total limit of 200 ms/),
      });
      expect(progress).toBeGreaterThan(10);
    }
    await vi.waitFor(() => {
      expect(aborted).toBe(ERAS.length);
    });
  });

  it('checks structuredContent against the output schema, compiled once', async () => {
    // A server that skips its own output check, so the client's check is what is tested.
    const lax = { compile: () => () => ({ valid: true, issues: [] }) };
    const server = new McpServer({ name: 's', version: '1' }, { validator: lax });
    const outputSchema = {
      type: 'object',
      properties: { temp: { type: 'number' } },
      required: ['temp'],
    };
    server.tool({ name: 'weather', outputSchema }, (args) =>
      (args as { bad?: boolean }).bad === true ? { temp: 'hot' } : { temp: 21.5 },
    );
    server.tool({ name: 'failing', outputSchema }, () => {
      throw new Error('no data');
    });
    for (const [era, revision] of ERAS) {
      const { client, sent } = await connectClient(server, { mode: { pin: revision } });
      await expect(client.callTool('weather')).resolves.toMatchObject({
        structuredContent: { temp: 21.5 },
      });
      expect(sent('tools/list')).toHaveLength(1); // fetched on demand, once
      const error = await client.callTool('weather', { bad: true }).catch((e: unknown) => e);
      expect(error, era).toBeInstanceOf(LocalError);
      expect(error).toMatchObject({
        code: 'PROTOCOL_VIOLATION',
        message: /weather.*outputSchema[\s\S]*temp: expected number/,
      });
      await expect(client.callTool('failing')).resolves.toMatchObject({ isError: true });
      expect(sent('tools/list')).toHaveLength(1);
    }
  });
});
