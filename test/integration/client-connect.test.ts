// The client against mcpkit's own server over the in-memory pair: negotiation (auto, fallback,
// pinned revisions), the basic calls at every revision, and the wire the client writes,
// validated against each revision's official schema.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client } from '../../src/client/index.js';
import type { ClientOptions } from '../../src/client/index.js';
import { Connection } from '../../src/jsonrpc/connection.js';
import { JsonRpcError, LocalError } from '../../src/jsonrpc/errors.js';
import type { RequestHandler } from '../../src/jsonrpc/serve.js';
import type { Transport } from '../../src/jsonrpc/transport.js';
import { PROTOCOL_REVISIONS, type ProtocolRevision } from '../../src/protocol/version.js';
import type { McpServer } from '../../src/server/server.js';
import { createMemoryPair } from '../../src/transports/memory.js';
import { assertValidMessage } from '../helpers/spec-schema.js';
import { createSumServer } from '../helpers/sum-server.js';

type Frame = { from: 'client' | 'server'; message: Record<string, any> };

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function pair(): { a: Transport; b: Transport; frames: Frame[] } {
  const frames: Frame[] = [];
  const [a, b] = createMemoryPair({
    onFrame: (from, text) =>
      frames.push({ from: from === 'a' ? 'client' : 'server', message: JSON.parse(text) }),
  });
  return { a, b, frames };
}

async function connect(server: McpServer, options: ClientOptions = {}) {
  const { a, b, frames } = pair();
  await server.connect(b);
  const client = new Client({ name: 'test-client', version: '1.0.0', title: 'Test' }, options);
  clients.push(client);
  await client.connect(a);
  const sent = (method: string) =>
    frames.filter((f) => f.from === 'client' && f.message['method'] === method);
  return { client, frames, sent };
}

/** Validates what the client sent from the handshake on (the discover probe is another revision). */
function assertClientFramesValid(frames: Frame[], revision: ProtocolRevision): void {
  const start = Math.max(
    0,
    frames.findIndex((f) => f.message['method'] === 'initialize'),
  );
  const asked = new Map<unknown, string>();
  for (const frame of frames.slice(start)) {
    const m = frame.message;
    if (frame.from === 'server') {
      if (typeof m['method'] === 'string' && 'id' in m) asked.set(m['id'], m['method']);
      continue;
    }
    const method = 'method' in m ? undefined : asked.get(m['id']);
    assertValidMessage(revision, m, method === undefined ? {} : { method });
  }
}

/** A raw server: answers each method with `answers[method]` (a function may throw). */
async function stubServer(answers: Record<string, (params: any) => unknown>) {
  const { a, b, frames } = pair();
  const onRequest: RequestHandler = (request) => {
    const answer = answers[request.method];
    if (answer === undefined) {
      return Promise.reject(new JsonRpcError(-32601, `method not found: ${request.method}`));
    }
    return Promise.resolve().then(() => answer(request.params));
  };
  const server = new Connection(b, { onRequest });
  await server.start();
  return { transport: a, frames, server };
}

const initializeAnswer = (protocolVersion: string) => () => ({
  protocolVersion,
  capabilities: { tools: {} },
  serverInfo: { name: 'stub', version: '0' },
});

describe('negotiation', () => {
  it('picks 2026-07-28 against a server that speaks it (auto)', async () => {
    const { client, sent, frames } = await connect(createSumServer({ instructions: 'Add.' }));
    expect(client.era).toBe('modern');
    expect(client.revision).toBe('2026-07-28');
    expect(client.serverInfo).toEqual({ name: 'sum-server', version: '1.0.0' });
    expect(client.serverCapabilities.tools).toEqual({ listChanged: true });
    expect(client.instructions).toBe('Add.');
    expect(sent('initialize')).toEqual([]);
    const discover = sent('server/discover')[0]!.message;
    expect(discover['params']['_meta']).toEqual({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': {
        name: 'test-client',
        version: '1.0.0',
        title: 'Test',
      },
    });
    assertClientFramesValid(frames, '2026-07-28');
  });

  it('falls back to initialize when the server speaks only legacy revisions (-32022)', async () => {
    const server = createSumServer({ revisions: ['2025-06-18', '2025-11-25'] });
    const { client, sent, frames } = await connect(server);
    expect(client.era).toBe('legacy');
    expect(client.revision).toBe('2025-11-25');
    expect(client.serverInfo).toMatchObject({ name: 'sum-server' });
    expect(sent('server/discover')).toHaveLength(1);
    expect(sent('initialize')[0]!.message['params']).toEqual({
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'test-client', version: '1.0.0', title: 'Test' },
    });
    expect(sent('notifications/initialized')).toHaveLength(1);
    const discovered = frames.find((f) => f.from === 'server' && f.message['id'] === 1);
    expect(discovered?.message['error']).toMatchObject({ code: -32022 });
    assertClientFramesValid(frames, '2025-11-25');
  });

  it('falls back when the server does not know server/discover (-32601)', async () => {
    const stub = await stubServer({ initialize: initializeAnswer('2025-06-18') });
    const client = new Client({ name: 'c', version: '1' });
    clients.push(client);
    await client.connect(stub.transport);
    expect(client.revision).toBe('2025-06-18');
    expect(stub.frames.map((f) => f.message['method'] ?? f.message['error']?.code)).toEqual([
      'server/discover',
      -32601,
      'initialize',
      undefined,
      'notifications/initialized',
    ]);
  });

  it('falls back when discover answers without supportedVersions', async () => {
    const stub = await stubServer({
      'server/discover': () => ({ capabilities: {} }),
      initialize: initializeAnswer('2025-11-25'),
    });
    const client = new Client({ name: 'c', version: '1' });
    clients.push(client);
    await client.connect(stub.transport);
    expect(client.era).toBe('legacy');
  });

  it('speaks only legacy when the client has no modern revision', async () => {
    const client = new Client({ name: 'c', version: '1' }, { revisions: ['2025-03-26'] });
    clients.push(client);
    const { a, b, frames } = pair();
    await createSumServer().connect(b);
    await client.connect(a);
    expect(client.revision).toBe('2025-03-26');
    expect(frames[0]!.message['method']).toBe('initialize');
  });

  it('refuses a legacy revision it did not ask for when pinned, and closes', async () => {
    const server = createSumServer({ revisions: ['2025-06-18', '2025-11-25'] });
    const { a, b } = pair();
    await server.connect(b);
    const onClose = vi.fn();
    const client = new Client(
      { name: 'c', version: '1' },
      { mode: { pin: '2024-11-05' }, onClose },
    );
    const error = await client.connect(a).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({ code: 'UNSUPPORTED', message: /2025-11-25/ });
    await vi.waitFor(() => {
      expect(onClose).toHaveBeenCalled();
    });
    expect(client.isConnected).toBe(false);
    await expect(client.listTools()).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
  });

  it('fails without fallback when pinned to 2026-07-28 and the server is legacy-only', async () => {
    const server = createSumServer({ revisions: ['2025-11-25'] });
    const { a, b, frames } = pair();
    await server.connect(b);
    const client = new Client({ name: 'c', version: '1' }, { mode: { pin: '2026-07-28' } });
    await expect(client.connect(a)).rejects.toMatchObject({ code: -32022 });
    expect(frames.some((f) => f.message['method'] === 'initialize')).toBe(false);
  });

  it('stops connecting when closed meanwhile', async () => {
    const stub = await stubServer({ 'server/discover': () => new Promise(() => undefined) });
    const client = new Client({ name: 'c', version: '1' });
    const connecting = client.connect(stub.transport).catch((e: unknown) => e);
    await vi.waitFor(() => {
      expect(stub.frames).toHaveLength(1);
    });
    await client.close();
    await expect(connecting).resolves.toMatchObject({ code: 'CONNECTION_CLOSED' });
    expect(client.isConnected).toBe(false);
    expect(() => new Client({ name: 'c', version: '1' }, { timeoutMs: 0 })).toThrow(/timeoutMs/);
  });

  it('tells an HTTP-like transport the agreed revision', async () => {
    const { a, b } = pair();
    const setProtocolVersion = vi.fn();
    Object.assign(a, { setProtocolVersion });
    await createSumServer().connect(b);
    const client = new Client({ name: 'c', version: '1' }, { mode: { pin: '2025-06-18' } });
    clients.push(client);
    await client.connect(a);
    expect(setProtocolVersion).toHaveBeenCalledWith('2025-06-18');
  });

  it('rejects a second connect and calls before connect', async () => {
    const client = new Client({ name: 'c', version: '1' });
    expect(() => client.era).toThrow(LocalError);
    await expect(client.ping()).rejects.toMatchObject({ code: 'NOT_CONNECTED' });
    const { a, b } = pair();
    await createSumServer().connect(b);
    clients.push(client);
    await client.connect(a);
    await expect(client.connect(pair().a)).rejects.toMatchObject({ code: 'ALREADY_STARTED' });
    expect(() => new Client({ name: 'c', version: '1' }, { revisions: [] })).toThrow(TypeError);
    expect(
      () =>
        new Client(
          { name: 'c', version: '1' },
          { revisions: ['2025-11-25'], mode: { pin: '2026-07-28' } },
        ),
    ).toThrow(/pinned/);
  });
});

describe('every revision, pinned', () => {
  for (const revision of PROTOCOL_REVISIONS) {
    it(`serves the walk-through at ${revision}`, async () => {
      const capabilities = { roots: {} };
      const { client, frames } = await connect(createSumServer(), {
        mode: { pin: revision },
        onRoots: () => [],
        capabilities,
      });
      expect(client.revision).toBe(revision);
      expect(client.era).toBe(revision === '2026-07-28' ? 'modern' : 'legacy');
      const tools = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['get-sum']);
      const sum = await client.callTool('get-sum', { a: 7, b: 5 });
      expect(sum.content).toEqual([{ type: 'text', text: 'The sum of 7 and 5 is 12.' }]);
      expect(sum).not.toHaveProperty('resultType');
      const bad = await client.callTool('get-sum', { a: 'oops', b: 2 });
      expect(bad.isError).toBe(true);
      const unknown = await client.callTool('nope').catch((e: unknown) => e);
      expect(unknown).toBeInstanceOf(JsonRpcError);
      expect(unknown).toMatchObject({ code: -32602 });
      await expect(client.ping()).resolves.toBeUndefined();
      assertClientFramesValid(frames, revision);
    });
  }

  it('trims capabilities and client info to the revision', async () => {
    const options: ClientOptions = {
      onElicit: () => ({ action: 'decline' }),
      onSample: () => ({ role: 'assistant', content: { type: 'text', text: '' }, model: 'm' }),
      onRoots: () => [],
      sampling: { tools: true },
      elicitation: { url: true },
    };
    const seen: Record<string, unknown> = {};
    for (const revision of ['2024-11-05', '2025-06-18', '2025-11-25'] as const) {
      const { sent } = await connect(createSumServer(), { ...options, mode: { pin: revision } });
      const params = sent('initialize')[0]!.message['params'];
      seen[revision] = [params.capabilities, params.clientInfo];
    }
    const { sent } = await connect(createSumServer(), options);
    seen['2026-07-28'] = sent('tools/list').length; // none sent yet
    const meta = sent('server/discover')[0]!.message['params']['_meta'];
    expect(seen).toEqual({
      '2024-11-05': [
        { roots: { listChanged: true }, sampling: {} },
        { name: 'test-client', version: '1.0.0' },
      ],
      '2025-06-18': [
        { roots: { listChanged: true }, sampling: {}, elicitation: {} },
        { name: 'test-client', version: '1.0.0', title: 'Test' },
      ],
      '2025-11-25': [
        {
          roots: { listChanged: true },
          sampling: { tools: {} },
          elicitation: { form: {}, url: {} },
        },
        { name: 'test-client', version: '1.0.0', title: 'Test' },
      ],
      '2026-07-28': 0,
    });
    expect(meta['io.modelcontextprotocol/clientCapabilities']).toEqual({
      roots: {},
      sampling: { tools: {} },
      elicitation: { form: {}, url: {} },
    });
  });
});
