import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpServer } from '../../src/server/server.js';
import { MODERN, connectWire, type Wire } from '../helpers/wire.js';

const wires: Wire[] = [];
async function wire(server: McpServer, options?: Parameters<typeof connectWire>[1]) {
  const w = await connectWire(server, options);
  wires.push(w);
  return w;
}
afterEach(async () => {
  await Promise.all(wires.splice(0).map((w) => w.close()));
});

const FORM = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

function featureServer(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const server = new McpServer({ name: 'features', version: '2.0.0' }, options);
  server.tool({ name: 'slow', description: 'Reports progress.' }, async (_args, ctx) => {
    await ctx.progress(0, 2, 'starting');
    await ctx.log('info', 'working');
    await ctx.log('debug', 'details');
    await ctx.progress(2, 2);
    return 'done';
  });
  server.tool({ name: 'hang', description: 'Waits until cancelled.' }, (_args, ctx) => {
    return new Promise((resolve) => {
      ctx.signal.addEventListener('abort', () => {
        resolve('cancelled');
      });
    });
  });
  server.tool(
    { name: 'ask', description: 'Asks for a name, then a confirmation.' },
    async (_args, ctx) => {
      const first = await ctx.elicit({
        mode: 'form',
        message: 'Your name?',
        requestedSchema: FORM,
      } as never);
      if (first.action !== 'accept') return 'declined';
      const sampled = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: 'Greet' } }],
        maxTokens: 10,
      } as never);
      return `hello ${String(first.content?.['name'])}, ${JSON.stringify(sampled.content)}`;
    },
  );
  server.tool({ name: 'parallel', description: 'Asks two things at once.' }, async (_args, ctx) => {
    const [a, b] = await Promise.all([
      ctx.elicit({ mode: 'form', message: 'A?', requestedSchema: FORM } as never),
      ctx.elicit({ mode: 'form', message: 'B?', requestedSchema: FORM } as never),
    ]);
    return `${String(a.content?.['name'])}+${String(b.content?.['name'])}`;
  });
  server.tool({ name: 'where', description: 'Lists roots.' }, async (_args, ctx) => {
    const roots = await ctx.roots();
    return roots.map((r) => r.uri).join(',');
  });
  server.resource(
    { uri: 'test://static', name: 'static', mimeType: 'text/plain' },
    () => 'static text',
  );
  server.resource(
    { uri: 'test://bytes', name: 'bytes', mimeType: 'application/octet-stream' },
    () => new Uint8Array([1, 2, 3]),
  );
  server.resourceTemplate(
    {
      uriTemplate: 'test://items/{id}',
      name: 'item',
      mimeType: 'application/json',
      complete: { id: (value) => ['1', '12', '123'].filter((v) => v.startsWith(value)) },
    },
    (uri, vars) => JSON.stringify({ uri, id: vars['id'] }),
  );
  server.prompt(
    {
      name: 'greet',
      description: 'Greets someone.',
      arguments: [
        {
          name: 'who',
          required: true,
          complete: (v) => ['alice', 'bob'].filter((x) => x.startsWith(v)),
        },
      ],
    },
    (args) => `Say hello to ${args['who'] ?? ''}.`,
  );
  return server;
}

describe('progress and logging', () => {
  it('echoes the progress token exactly and honours logging/setLevel (legacy)', async () => {
    const w = await wire(featureServer());
    await w.initialize('2025-11-25');
    await w.request('logging/setLevel', { level: 'info' });
    await w.request('tools/call', {
      name: 'slow',
      arguments: {},
      _meta: { progressToken: 'tok-1' },
    });
    const methods = w.notifications.map((n) => [
      n.method,
      (n.params as any).progressToken ?? (n.params as any).data,
    ]);
    expect(methods).toEqual([
      ['notifications/progress', 'tok-1'],
      ['notifications/message', 'working'],
      ['notifications/progress', 'tok-1'],
    ]);
    expect(w.notifications[0]!.params).toEqual({
      progressToken: 'tok-1',
      progress: 0,
      total: 2,
      message: 'starting',
    });
    w.assertServerFramesValid('2025-11-25');
  });

  it('sends no progress without a token, and no logs in 2026-07-28 unless _meta asks', async () => {
    const w = await wire(featureServer());
    await w.modern('tools/call', { name: 'slow' });
    expect(w.notifications).toEqual([]);
    await w.modern(
      'tools/call',
      { name: 'slow', _meta: { progressToken: 7 } },
      { meta: { 'io.modelcontextprotocol/logLevel': 'debug' } },
    );
    expect(w.notifications.map((n) => n.method)).toEqual([
      'notifications/progress',
      'notifications/message',
      'notifications/message',
      'notifications/progress',
    ]);
    expect((w.notifications[0]!.params as any).progressToken).toBe(7);
    w.assertServerFramesValid(MODERN);
  });
});

describe('cancellation', () => {
  it('aborts the handler on notifications/cancelled and sends no response', async () => {
    const w = await wire(featureServer());
    await w.initialize();
    const call = w.client
      .request('tools/call', { name: 'hang', arguments: {} }, { id: 'h1', timeoutMs: 200 })
      .catch((e: unknown) => e);
    await vi.waitFor(() => {
      expect(w.frames.some((f) => f.message['id'] === 'h1')).toBe(true);
    });
    await w.client.notify('notifications/cancelled', { requestId: 'h1', reason: 'user' });
    await expect(call).resolves.toMatchObject({ code: 'REQUEST_TIMEOUT' });
    expect(w.frames.filter((f) => f.dir === '<<' && f.message['id'] === 'h1')).toEqual([]);
  });
});

describe('elicitation, sampling and roots', () => {
  const answers = {
    'elicitation/create': { action: 'accept', content: { name: 'Ada' } },
    'sampling/createMessage': {
      role: 'assistant',
      content: { type: 'text', text: 'hi' },
      model: 'm',
    },
    'roots/list': { roots: [{ uri: 'file:///a' }, { uri: 'file:///b' }] },
  } as Record<string, unknown>;
  const everything = { elicitation: {}, sampling: {}, roots: {} };

  it('sends server-to-client requests over the legacy session', async () => {
    const asked: string[] = [];
    const w = await wire(featureServer(), {
      onRequest: (request) => {
        asked.push(request.method);
        return Promise.resolve(answers[request.method]);
      },
    });
    await w.initialize('2025-11-25', everything);
    const result = await w.request('tools/call', { name: 'ask', arguments: {} });
    expect(result.content[0].text).toBe('hello Ada, {"type":"text","text":"hi"}');
    await expect(w.request('tools/call', { name: 'where', arguments: {} })).resolves.toMatchObject({
      content: [{ text: 'file:///a,file:///b' }],
    });
    expect(asked).toEqual(['elicitation/create', 'sampling/createMessage', 'roots/list']);
    w.assertServerFramesValid('2025-11-25');
  });

  it('gives a clear isError when a legacy client lacks the capability', async () => {
    const w = await wire(featureServer());
    await w.initialize('2025-11-25', {});
    const result = await w.request('tools/call', { name: 'ask', arguments: {} });
    expect(result).toMatchObject({ isError: true });
    expect(result.content[0].text).toMatch(/does not support elicitation/);
  });

  it('runs multi round-trip requests in 2026-07-28 with the same handler', async () => {
    const w = await wire(featureServer());
    const call = (extra: Record<string, unknown>) =>
      w.modern(
        'tools/call',
        { name: 'ask', arguments: {}, ...extra },
        { capabilities: everything },
      );
    const first = await call({});
    expect(first).toMatchObject({ resultType: 'input_required', requestState: expect.any(String) });
    expect(first.inputRequests).toEqual({
      'input-0': {
        method: 'elicitation/create',
        params: { mode: 'form', message: 'Your name?', requestedSchema: FORM },
      },
    });
    const second = await call({
      requestState: first.requestState,
      inputResponses: { 'input-0': answers['elicitation/create'] },
    });
    expect(second).toMatchObject({ resultType: 'input_required' });
    expect(Object.keys(second.inputRequests)).toEqual(['input-1']);
    // inputResponses are per round: earlier answers come back from the sealed state.
    const done = await call({
      requestState: second.requestState,
      inputResponses: { 'input-1': answers['sampling/createMessage'] },
    });
    expect(done).toMatchObject({
      resultType: 'complete',
      content: [{ text: 'hello Ada, {"type":"text","text":"hi"}' }],
    });
    w.assertServerFramesValid(MODERN);
  });

  it('uses the keys handlers name, and refuses an answer of the wrong shape', async () => {
    const server = new McpServer({ name: 'k', version: '1' });
    server.tool({ name: 'named', description: 'd' }, async (_args, ctx) => {
      const answer = await ctx.elicit(
        { mode: 'form', message: 'Name?', requestedSchema: FORM } as never,
        { key: 'user_name' },
      );
      return String(answer.content?.['name']);
    });
    const w = await wire(server);
    const caps = { capabilities: everything };
    const first = await w.modern('tools/call', { name: 'named', arguments: {} }, caps);
    expect(Object.keys(first.inputRequests)).toEqual(['user_name']);
    const retry = (answer: unknown) =>
      w.modern(
        'tools/call',
        {
          name: 'named',
          arguments: {},
          requestState: first.requestState,
          inputResponses: { user_name: answer },
        },
        caps,
      );
    await expect(retry(12345)).rejects.toMatchObject({ code: -32602, message: /user_name/ });
    await expect(retry({ action: 'maybe' })).rejects.toMatchObject({ code: -32602 });
    await expect(retry({ action: 'accept', content: { name: 'Ada' } })).resolves.toMatchObject({
      content: [{ text: 'Ada' }],
    });
    w.assertServerFramesValid(MODERN);
  });

  it('collects parallel requests into one round', async () => {
    const w = await wire(featureServer());
    const first = await w.modern(
      'tools/call',
      { name: 'parallel', arguments: {} },
      { capabilities: everything },
    );
    expect(Object.keys(first.inputRequests)).toEqual(['input-0', 'input-1']);
    const done = await w.modern(
      'tools/call',
      {
        name: 'parallel',
        arguments: {},
        requestState: first.requestState,
        inputResponses: {
          'input-0': { action: 'accept', content: { name: 'x' } },
          'input-1': { action: 'accept', content: { name: 'y' } },
        },
      },
      { capabilities: everything },
    );
    expect(done.content[0].text).toBe('x+y');
  });

  it('binds requestState to the arguments as JSON values: key order does not matter, values do', async () => {
    const server = featureServer();
    const question = { mode: 'form', message: 'Sure?', requestedSchema: FORM } as never;
    server.tool(
      {
        name: 'ask_args',
        description: 'd',
        inputSchema: { type: 'object', additionalProperties: true },
      },
      async (_args, ctx) => {
        await ctx.elicit(question);
        await ctx.elicit(question);
        return 'done';
      },
    );
    const w = await wire(server);
    const call = (args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      w.modern(
        'tools/call',
        { name: 'ask_args', arguments: args, ...extra },
        { capabilities: everything },
      );
    const first = await call({ a: 1, b: { c: 2, d: [1, { e: 3, f: 4 }] } });
    const answer = { inputResponses: { 'input-0': answers['elicitation/create'] } };
    const reordered = await call(
      { b: { d: [1, { f: 4, e: 3 }], c: 2 }, a: 1 },
      { requestState: first.requestState, ...answer },
    );
    expect(reordered, JSON.stringify(reordered)).toMatchObject({ resultType: 'input_required' });
    expect(Object.keys(reordered.inputRequests)).toEqual(['input-1']);
    await expect(
      call(
        { b: { d: [{ f: 4, e: 3 }, 1], c: 2 }, a: 1 },
        { requestState: first.requestState, ...answer },
      ),
    ).rejects.toMatchObject({ code: -32602, message: /another request/ });
  });

  it('refuses tampered, foreign and expired state before the handler runs', async () => {
    const handler = vi.fn();
    const server = featureServer({ stateTtlMs: 60_000 });
    server.tool({ name: 'other', description: 'd' }, handler);
    const w = await wire(server);
    const first = await w.modern(
      'tools/call',
      { name: 'ask', arguments: {} },
      { capabilities: everything },
    );
    const state: string = first.requestState;
    const at = state.length - 8;
    const tampered = state.slice(0, at) + (state[at] === 'A' ? 'B' : 'A') + state.slice(at + 1);
    for (const [requestState, pattern] of [
      [tampered, /tampered|malformed/],
      ['garbage', /malformed/],
    ] as const) {
      await expect(
        w.modern(
          'tools/call',
          { name: 'ask', arguments: {}, requestState },
          { capabilities: everything },
        ),
      ).rejects.toMatchObject({ code: -32602, message: pattern });
    }
    await expect(
      w.modern(
        'tools/call',
        { name: 'other', arguments: {}, requestState: state },
        { capabilities: everything },
      ),
    ).rejects.toMatchObject({ code: -32602, message: /another request/ });
    await expect(
      w.modern(
        'tools/call',
        { name: 'ask', arguments: { x: 1 }, requestState: state },
        { capabilities: everything },
      ),
    ).rejects.toMatchObject({ code: -32602, message: /another request/ });
    expect(handler).not.toHaveBeenCalled();
    const other = new McpServer({ name: 'x', version: '1' });
    other.tool({ name: 'ask', description: 'd' }, handler);
    const w2 = await wire(other);
    await expect(
      w2.modern(
        'tools/call',
        { name: 'ask', arguments: {}, requestState: state },
        { capabilities: everything },
      ),
    ).rejects.toMatchObject({ code: -32602, message: /tampered/ });
    expect(handler).not.toHaveBeenCalled();
  });

  it('answers -32021 when the request did not declare the capability', async () => {
    const w = await wire(featureServer());
    const error = await w
      .modern('tools/call', { name: 'ask', arguments: {} })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
    w.assertServerFramesValid(MODERN);
  });
});

describe('pagination and listings', () => {
  it('pages with opaque cursors and refuses a forged one', async () => {
    const server = new McpServer({ name: 'p', version: '1' }, { pageSize: 2 });
    for (const name of ['a', 'b', 'c', 'd', 'e'])
      server.tool({ name, description: name }, () => name);
    const w = await wire(server);
    await w.initialize();
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await w.request('tools/list', cursor === undefined ? {} : { cursor });
      names.push(...page.tools.map((t: { name: string }) => t.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(names).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(pages).toBe(3);
    await expect(w.request('tools/list', { cursor: 'bogus' })).rejects.toMatchObject({
      code: -32602,
    });
    w.assertServerFramesValid('2025-11-25');
  });
});

describe('changes while serving', () => {
  it('notifies legacy sessions of list changes and applies enable/disable/update/remove', async () => {
    const server = featureServer();
    const w = await wire(server);
    await w.initialize();
    const handle = server.tool({ name: 'late', description: 'added later' }, () => 'v1');
    await vi.waitFor(() => {
      expect(w.notifications.map((n) => n.method)).toContain('notifications/tools/list_changed');
    });
    await expect(w.request('tools/call', { name: 'late', arguments: {} })).resolves.toMatchObject({
      content: [{ text: 'v1' }],
    });
    handle.disable();
    await expect(w.request('tools/call', { name: 'late', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
    expect(
      (await w.request('tools/list', {})).tools.map((t: { name: string }) => t.name),
    ).not.toContain('late');
    handle.enable();
    handle.update({ description: 'updated' });
    expect(
      (await w.request('tools/list', {})).tools.find((t: { name: string }) => t.name === 'late')
        .description,
    ).toBe('updated');
    handle.remove();
    await expect(w.request('tools/call', { name: 'late', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
    expect(() => {
      handle.enable();
    }).toThrow(/removed/);
  });

  it('streams subscribed notifications on subscriptions/listen, tagged with its id (2026-07-28)', async () => {
    const server = featureServer();
    const w = await wire(server);
    const listen = w.client.request(
      'subscriptions/listen',
      {
        notifications: { toolsListChanged: true, resourceSubscriptions: ['test://static'] },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
      { id: 'sub-1' },
    );
    await vi.waitFor(() => {
      expect(w.notifications).toHaveLength(1);
    });
    expect(w.notifications[0]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: {
        notifications: { toolsListChanged: true, resourceSubscriptions: ['test://static'] },
        _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' },
      },
    });
    server.tool({ name: 'new-one', description: 'd' }, () => '');
    server.prompt({ name: 'new-prompt', description: 'd' }, () => '');
    server.resourceUpdated('test://static');
    server.resourceUpdated('test://other');
    await vi.waitFor(() => {
      expect(w.notifications).toHaveLength(3);
    });
    // list_changed is batched per tick, so it may follow the resource update.
    expect(w.notifications.slice(1)).toHaveLength(2);
    expect(w.notifications.slice(1)).toEqual(
      expect.arrayContaining([
        {
          jsonrpc: '2.0',
          method: 'notifications/tools/list_changed',
          params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' } },
        },
        {
          jsonrpc: '2.0',
          method: 'notifications/resources/updated',
          params: {
            uri: 'test://static',
            _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' },
          },
        },
      ]),
    );
    await server.close();
    await expect(listen).resolves.toMatchObject({
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' },
    });
    w.assertServerFramesValid(MODERN);
  });
});

describe('resources, prompts and completion', () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`reads static, binary and templated resources (${era})`, async () => {
      const w = await wire(featureServer());
      const send = era === 'legacy' ? w.request : w.modern;
      if (era === 'legacy') await w.initialize();
      await expect(send('resources/read', { uri: 'test://static' })).resolves.toMatchObject({
        contents: [{ uri: 'test://static', mimeType: 'text/plain', text: 'static text' }],
      });
      await expect(send('resources/read', { uri: 'test://bytes' })).resolves.toMatchObject({
        contents: [{ uri: 'test://bytes', blob: 'AQID' }],
      });
      await expect(send('resources/read', { uri: 'test://items/42' })).resolves.toMatchObject({
        contents: [
          {
            uri: 'test://items/42',
            mimeType: 'application/json',
            text: '{"uri":"test://items/42","id":"42"}',
          },
        ],
      });
      const missing = await send('resources/read', { uri: 'test://missing' }).catch(
        (e: unknown) => e,
      );
      expect(missing).toMatchObject({
        code: era === 'legacy' ? -32002 : -32602,
        data: { uri: 'test://missing' },
      });
      const list = await send('resources/list', {});
      expect(list.resources.map((r: { uri: string }) => r.uri)).toEqual([
        'test://static',
        'test://bytes',
      ]);
      const templates = await send('resources/templates/list', {});
      expect(templates.resourceTemplates).toEqual([
        { uriTemplate: 'test://items/{id}', name: 'item', mimeType: 'application/json' },
      ]);
      w.assertServerFramesValid(era === 'legacy' ? '2025-11-25' : MODERN);
    });

    it(`gets prompts and completes arguments (${era})`, async () => {
      const w = await wire(featureServer());
      const send = era === 'legacy' ? w.request : w.modern;
      if (era === 'legacy') await w.initialize();
      await expect(
        send('prompts/get', { name: 'greet', arguments: { who: 'Ada' } }),
      ).resolves.toMatchObject({
        messages: [{ role: 'user', content: { type: 'text', text: 'Say hello to Ada.' } }],
      });
      await expect(send('prompts/get', { name: 'greet', arguments: {} })).rejects.toMatchObject({
        code: -32602,
        message: /who/,
      });
      await expect(send('prompts/get', { name: 'nope' })).rejects.toMatchObject({ code: -32602 });
      await expect(
        send('completion/complete', {
          ref: { type: 'ref/prompt', name: 'greet' },
          argument: { name: 'who', value: 'a' },
        }),
      ).resolves.toMatchObject({ completion: { values: ['alice'] } });
      await expect(
        send('completion/complete', {
          ref: { type: 'ref/resource', uri: 'test://items/{id}' },
          argument: { name: 'id', value: '12' },
        }),
      ).resolves.toMatchObject({ completion: { values: ['12', '123'] } });
      w.assertServerFramesValid(era === 'legacy' ? '2025-11-25' : MODERN);
    });
  }

  it('sends resources/updated to legacy subscribers only', async () => {
    const server = featureServer();
    const w = await wire(server);
    await w.initialize();
    await w.request('resources/subscribe', { uri: 'test://static' });
    server.resourceUpdated('test://static');
    server.resourceUpdated('test://bytes');
    await vi.waitFor(() => {
      expect(w.notifications).toHaveLength(1);
    });
    expect(w.notifications[0]).toMatchObject({
      method: 'notifications/resources/updated',
      params: { uri: 'test://static' },
    });
    await w.request('resources/unsubscribe', { uri: 'test://static' });
    server.resourceUpdated('test://static');
    await w.request('ping');
    expect(w.notifications).toHaveLength(1);
  });
});

describe('failures of resource and prompt handlers', () => {
  function failing(onError?: (error: unknown, where: string) => void) {
    const server = new McpServer(
      { name: 'failing', version: '1.0.0' },
      onError === undefined ? {} : { onError },
    );
    server.resourceTemplate({ uriTemplate: 'test://items/{id}', name: 'item' }, (_uri, { id }) =>
      id === '1' ? 'one' : undefined,
    );
    server.resource({ uri: 'test://broken', name: 'broken' }, () => {
      throw new Error('disk on fire');
    });
    server.prompt({ name: 'broken' }, () => {
      throw new Error('no template');
    });
    return server;
  }

  it('answers "resource not found" when a handler returns undefined, in both eras', async () => {
    const w = await wire(failing(() => undefined));
    await w.initialize();
    await expect(w.request('resources/read', { uri: 'test://items/1' })).resolves.toMatchObject({
      contents: [{ text: 'one' }],
    });
    await expect(w.request('resources/read', { uri: 'test://items/2' })).rejects.toMatchObject({
      code: -32002,
      data: { uri: 'test://items/2' },
    });
    await expect(w.modern('resources/read', { uri: 'test://items/2' })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('answers a thrown Error with its message (-32603) and reports it where it happened', async () => {
    const reported: string[] = [];
    const w = await wire(
      failing((error, where) => reported.push(`${where}: ${(error as Error).message}`)),
    );
    await w.initialize();
    await expect(w.request('resources/read', { uri: 'test://broken' })).rejects.toMatchObject({
      code: -32603,
      message: 'disk on fire',
    });
    await expect(w.request('prompts/get', { name: 'broken' })).rejects.toMatchObject({
      code: -32603,
      message: 'no template',
    });
    expect(reported).toEqual([
      'resource "test://broken": disk on fire',
      'prompt "broken": no template',
    ]);
  });

  it('prints what it reports on stderr by default', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const w = await wire(failing());
      await w.initialize();
      await expect(w.request('resources/read', { uri: 'test://broken' })).rejects.toMatchObject({
        code: -32603,
      });
      expect(printed).toHaveBeenCalledWith('mcpkit server: resource "test://broken": disk on fire');
    } finally {
      printed.mockRestore();
    }
  });
});
