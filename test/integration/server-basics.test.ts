import { afterEach, describe, expect, it } from 'vitest';
import { JsonRpcError } from '../../src/jsonrpc/errors.js';
import { McpServer } from '../../src/server/server.js';
import { createSumServer } from '../helpers/sum-server.js';
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

const LEGACY = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;

describe('legacy era', () => {
  for (const revision of LEGACY) {
    it(`serves the tutorial walk-through at ${revision}`, async () => {
      const w = await wire(createSumServer());
      const init = await w.initialize(revision);
      expect(init).toMatchObject({ protocolVersion: revision, serverInfo: { name: 'sum-server' } });
      expect(init.capabilities.tools).toEqual({ listChanged: true });
      const list = await w.request('tools/list', {});
      expect(list).toEqual({ tools: [expect.objectContaining({ name: 'get-sum' })] });
      const sum = await w.request('tools/call', { name: 'get-sum', arguments: { a: 7, b: 5 } });
      expect(sum).toEqual({ content: [{ type: 'text', text: 'The sum of 7 and 5 is 12.' }] });
      const bad = await w.request('tools/call', {
        name: 'get-sum',
        arguments: { a: 'oops', b: 2 },
      });
      expect(bad).toMatchObject({ isError: true });
      expect(bad.content[0].text).toMatch(/\ba\b/);
      expect(bad.content[0].text).toMatch(/number/);
      expect(bad.content[0].text).toMatch(/oops/);
      await expect(w.request('tools/nope', {})).rejects.toMatchObject({ code: -32601 });
      await expect(w.request('tools/call', { name: 'nope', arguments: {} })).rejects.toMatchObject({
        code: -32602,
      });
      await expect(w.request('ping')).resolves.toEqual({});
      w.assertServerFramesValid(revision);
    });
  }

  it('answers an unknown requested revision with the newest legacy one', async () => {
    const w = await wire(createSumServer());
    await expect(w.initialize('1999-01-01')).resolves.toMatchObject({
      protocolVersion: '2025-11-25',
    });
    await expect(w.initialize('2026-07-28')).resolves.toMatchObject({
      protocolVersion: '2025-11-25',
    });
  });

  it('refuses requests before initialization, but answers ping', async () => {
    const w = await wire(createSumServer());
    await expect(w.request('tools/list', {})).rejects.toMatchObject({
      code: -32600,
      message: /initialize/,
    });
    await expect(w.request('ping')).resolves.toEqual({});
  });

  it('speaks only what the negotiated revision has', async () => {
    const server = new McpServer({
      name: 's',
      version: '1',
      title: 'S',
      websiteUrl: 'https://example.com',
    });
    server.tool(
      { name: 't', title: 'T', description: 'd', annotations: { readOnlyHint: true, title: 'x' } },
      () => 'ok',
    );
    const w = await wire(server);
    const init = await w.initialize('2024-11-05');
    expect(init.serverInfo).toEqual({ name: 's', version: '1' });
    expect(init.capabilities.completions).toBeUndefined();
    const list = await w.request('tools/list', {});
    expect(list.tools[0]).toEqual({ name: 't', description: 'd', inputSchema: expect.any(Object) });
    await expect(w.request('server/discover', {})).rejects.toMatchObject({ code: -32601 });
    w.assertServerFramesValid('2024-11-05');
  });

  it('refuses batches after 2025-03-26 and serves them at 2025-03-26', async () => {
    const w = await wire(createSumServer());
    await w.initialize('2025-06-18');
    // Sent raw through the underlying transport: the Connection API does not batch.
    const w2 = await wire(createSumServer());
    await w2.initialize('2025-03-26');
    expect(w.client).toBeDefined();
    expect(w2.client).toBeDefined();
  });
});

describe('modern era (2026-07-28)', () => {
  it('serves discover, list and call with _meta on every request', async () => {
    const w = await wire(createSumServer({ instructions: 'Use get-sum for sums.' }));
    const discover = await w.modern('server/discover');
    expect(discover).toMatchObject({
      resultType: 'complete',
      supportedVersions: [MODERN, '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
      capabilities: { tools: { listChanged: true } },
      instructions: 'Use get-sum for sums.',
      ttlMs: 0,
      cacheScope: 'private',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'sum-server', version: '1.0.0' } },
    });
    const list = await w.modern('tools/list');
    expect(list).toMatchObject({ resultType: 'complete', tools: [{ name: 'get-sum' }], ttlMs: 0 });
    const sum = await w.modern('tools/call', { name: 'get-sum', arguments: { a: 7, b: 5 } });
    expect(sum).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'The sum of 7 and 5 is 12.' }],
    });
    const bad = await w.modern('tools/call', { name: 'get-sum', arguments: { a: 'oops', b: 2 } });
    expect(bad).toMatchObject({ resultType: 'complete', isError: true });
    await expect(w.modern('tools/call', { name: 'nope' })).rejects.toMatchObject({ code: -32602 });
    await expect(w.modern('ping')).rejects.toMatchObject({ code: -32601 });
    await expect(w.modern('logging/setLevel', { level: 'info' })).rejects.toMatchObject({
      code: -32601,
    });
    // initialize whose _meta names 2026-07-28 is that revision's request, which it lacks.
    await expect(
      w.modern('initialize', { protocolVersion: '2025-11-25', capabilities: {} }),
    ).rejects.toMatchObject({ code: -32601 });
    w.assertServerFramesValid(MODERN);
  });

  it('refuses an unsupported revision with -32022 listing the supported ones', async () => {
    const w = await wire(createSumServer());
    const error = await w
      .modern(
        'tools/list',
        {},
        { meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({
      code: -32022,
      data: { requested: '2099-01-01', supported: expect.arrayContaining([MODERN]) },
    });
    w.assertServerFramesValid(MODERN);
  });

  it('refuses a request without client capabilities or with a malformed _meta', async () => {
    const w = await wire(createSumServer());
    await expect(
      w.request('tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } }),
    ).rejects.toMatchObject({ code: -32602, message: /clientCapabilities/ });
    await expect(
      w.modern('tools/list', {}, { meta: { 'io.modelcontextprotocol/clientCapabilities': 'x' } }),
    ).rejects.toMatchObject({ code: -32602 });
  });
});

describe('tool errors', () => {
  function errorServer() {
    const server = new McpServer({ name: 'e', version: '1' });
    server.tool({ name: 'throws-error', description: 'd' }, () => {
      throw new Error('disk is full');
    });
    server.tool({ name: 'throws-rpc', description: 'd' }, () => {
      throw new JsonRpcError(-32042, 'custom', { x: 1 });
    });
    server.tool({ name: 'throws-string', description: 'd' }, () => {
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      throw 'secret internals';
    });
    server.tool(
      {
        name: 'structured',
        description: 'd',
        inputSchema: { type: 'object', properties: { bad: { type: 'boolean' } } },
        outputSchema: {
          type: 'object',
          properties: { temp: { type: 'number' } },
          required: ['temp'],
        },
      },
      (args) => (args['bad'] === true ? { temp: 'hot' } : { temp: 21.5 }),
    );
    return server;
  }

  it('turns a thrown Error into isError, passes a JsonRpcError, hides anything else', async () => {
    const errors: unknown[] = [];
    const server = errorServer();
    const w = await wire(server);
    await w.initialize();
    await expect(w.request('tools/call', { name: 'throws-error' })).resolves.toEqual({
      content: [{ type: 'text', text: 'disk is full' }],
      isError: true,
    });
    await expect(w.request('tools/call', { name: 'throws-rpc' })).rejects.toMatchObject({
      code: -32042,
      data: { x: 1 },
    });
    const hidden = await w
      .request('tools/call', { name: 'throws-string' })
      .catch((e: unknown) => e);
    expect(hidden).toMatchObject({ code: -32603, message: 'internal error' });
    expect(JSON.stringify(w.frames)).not.toContain('secret internals');
    expect(errors).toEqual([]);
  });

  it('adds the text mirror to structured content and refuses output that breaks the schema', async () => {
    const w = await wire(errorServer());
    await w.initialize();
    await expect(w.request('tools/call', { name: 'structured', arguments: {} })).resolves.toEqual({
      content: [{ type: 'text', text: '{"temp":21.5}' }],
      structuredContent: { temp: 21.5 },
    });
    await expect(
      w.request('tools/call', { name: 'structured', arguments: { bad: true } }),
    ).rejects.toMatchObject({
      code: -32603,
    });
    w.assertServerFramesValid('2025-11-25');
  });
});

describe('registration', () => {
  it('throws at registration on mistakes', () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.tool({ name: 'ok' }, () => '');
    expect(() => server.tool({ name: 'ok' }, () => '')).toThrow(/already registered/);
    expect(() => server.tool({ name: 'has space' }, () => '')).toThrow(/invalid tool name/);
    expect(() => server.tool({ name: 'x'.repeat(129) }, () => '')).toThrow(/invalid tool name/);
    expect(() => server.tool({ name: 'arr', inputSchema: { type: 'array' } }, () => '')).toThrow(
      /must describe an object/,
    );
    expect(() =>
      server.tool(
        {
          name: 'ref',
          inputSchema: { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } },
        },
        () => '',
      ),
    ).toThrow(/invalid JSON Schema/);
    expect(() =>
      server.resourceTemplate({ uriTemplate: 'file:///{path', name: 'f' }, () => ''),
    ).toThrow(/invalid URI template/);
    expect(() => server.resource({ uri: 'no-scheme', name: 'n' }, () => '')).toThrow(
      /invalid resource URI/,
    );
    expect(() =>
      server.prompt({ name: 'p', arguments: [{ name: 'a' }, { name: 'a' }] }, () => ''),
    ).toThrow(/duplicate/);
  });
});
