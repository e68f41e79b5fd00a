// The extension seam (docs/extensions.md) end to end: examples/extension.ts's `com.example/notes`
// added to a real server behind a real socket (Streamable HTTP on 127.0.0.1) and to a real client,
// in both eras: its methods served and declared (Mcp-Name mirrors `params.id`), its capability
// in 2026-07-28 only once a note exists, its cache hints, its resources, its tool-call middleware,
// the client's declared settings; and what server.extend refuses.
import { afterEach, describe, expect, it } from 'vitest';
import { NOTES, notes, notesClient } from '../../examples/extension.js';
import { Client, JsonRpcError } from '../../src/client/index.js';
import type { ProtocolRevision } from '../../src/protocol/version.js';
import { McpServer } from '../../src/server/index.js';
import type { ServerExtension } from '../../src/server/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import { listen } from '../../src/transports/http/node.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** A server with the notes extension (and one tool), and what the client declared to it. */
function notesServer(): { server: McpServer; seen: unknown[] } {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  const seen: unknown[] = [];
  server.use((ctx, next) => {
    if (ctx.method === 'notes/list') seen.push(ctx.client?.capabilities);
    return next();
  });
  const extension = notes();
  extension.add({ id: 'first', text: 'before extend' });
  server.extend(extension);
  extension.add({ id: 'second', text: 'after extend' });
  server.tool({ name: 'echo', description: 'Echoes.' }, () => 'echo');
  return { server, seen };
}

async function connect(server: McpServer, revision: ProtocolRevision) {
  const running = await listen(() => server);
  const headers: Record<string, string>[] = [];
  const transport = createStreamableHttpClientTransport(running.url, {
    fetch: (input, init) => {
      headers.push(Object.fromEntries(new Headers(init?.headers).entries()));
      return fetch(input, init);
    },
  });
  const client = new Client({ name: 'notes-test', version: '1.0.0' }, { mode: { pin: revision } });
  const api = client.extend(notesClient());
  await client.connect(transport);
  cleanups.push(async () => {
    await client.close();
    await running.close();
  });
  return { client, api, headers };
}

describe.each([['2025-11-25'], ['2026-07-28']] as const)(
  'an extension over HTTP, %s',
  (revision) => {
    it('serves its methods, resources and tool-call middleware', async () => {
      const { server, seen } = notesServer();
      const { client, api } = await connect(server, revision);
      expect(await api.list()).toEqual([
        { id: 'first', text: 'before extend' },
        { id: 'second', text: 'after extend' },
      ]);
      expect(await api.get('second')).toEqual({ id: 'second', text: 'after extend' });
      await expect(api.get('third')).rejects.toBeInstanceOf(JsonRpcError);
      await expect(api.get('third')).rejects.toMatchObject({ code: -32602 });
      const read = await client.readResource('note://first');
      expect(read.contents[0]).toMatchObject({ text: 'before extend' });
      const called = await client.callTool('echo', {});
      expect(called._meta?.[`${NOTES}/count`]).toBe(2);
      const extensions = (client.serverCapabilities as { extensions?: Record<string, unknown> })
        .extensions;
      const declared = (seen[0] as { extensions?: Record<string, unknown> } | undefined)
        ?.extensions;
      // A client declares its extensions in every revision (SEP-1724); a server's capabilities
      // have `extensions` from 2026-07-28 on.
      expect(declared?.[NOTES]).toEqual({});
      if (revision === '2026-07-28') expect(extensions?.[NOTES]).toEqual({ count: true });
      else expect(extensions).toBeUndefined();
    });
  },
);

describe('an extension in 2026-07-28', () => {
  it('gives cache hints and mirrors its name param in Mcp-Name', async () => {
    const { server } = notesServer();
    const { api, headers } = await connect(server, '2026-07-28');
    await api.get('first');
    const sent = headers.find((h) => h['mcp-method'] === 'notes/get');
    expect(sent?.['mcp-name']).toBe('first');
    const response = await server.serveRequest(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'notes/list',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
      {
        id: 1,
        signal: new AbortController().signal,
        info: undefined,
        notify: () => Promise.resolve(),
        request: () => Promise.reject(new Error('no requests to the client here')),
      },
    );
    expect(response).toMatchObject({ result: { ttlMs: 0, cacheScope: 'private' } });
  });

  it('is not declared before its first note, and its methods are -32601 without it', async () => {
    const bare = new McpServer({ name: 'bare', version: '1.0.0' });
    bare.tool({ name: 'echo', description: 'Echoes.' }, () => 'echo');
    const { client, api } = await connect(bare, '2026-07-28');
    expect(client.serverCapabilities).not.toHaveProperty('extensions');
    await expect(api.list()).rejects.toMatchObject({ code: -32601 });

    const empty = new McpServer({ name: 'empty', version: '1.0.0' }).extend(notes());
    const second = await connect(empty, '2026-07-28');
    expect(second.client.serverCapabilities).not.toHaveProperty('extensions');
  });
});

describe('server.extend refuses', () => {
  it('a bad extension, one added twice, and a method served already', () => {
    const server = new McpServer({ name: 'x', version: '1.0.0' });
    expect(() => server.extend(null as unknown as ServerExtension)).toThrow(TypeError);
    expect(() => server.extend({ id: '' })).toThrow(/needs an id/);
    const method = { kind: 'request', direction: 'client-to-server', revisions: ['2026-07-28'] };
    const bad = (methods: unknown): ServerExtension =>
      ({ id: 'com.example/bad', methods }) as ServerExtension;
    expect(() => server.extend(bad({ 'x/y': { ...method, kind: 'call' } }))).toThrow(
      /needs a kind/,
    );
    expect(() => server.extend(bad({ 'x/y': { ...method, revisions: [] } }))).toThrow(
      /needs the revisions/,
    );
    expect(() => server.extend(bad({ 'x/y': { ...method, serve: 'no' } }))).toThrow(
      /serve must be a function/,
    );
    server.extend(notes());
    expect(() => server.extend(notes())).toThrow(/added already/);
    const serve = () => ({});
    const core: ServerExtension = {
      id: 'com.example/shadow',
      methods: {
        'tools/list': {
          kind: 'request',
          direction: 'client-to-server',
          revisions: ['2026-07-28'],
          serve,
        },
      },
    };
    expect(() => server.extend(core)).toThrow(/served already in 2026-07-28/);
    // A method that is not served but would change what Mcp-Name mirrors.
    const clash: ServerExtension = {
      id: 'com.example/clash',
      methods: {
        'tools/call': {
          kind: 'request',
          direction: 'client-to-server',
          revisions: ['2026-07-28'],
          nameParam: 'id',
        },
      },
    };
    expect(() => server.extend(clash)).toThrow(/mirrors params.name in Mcp-Name already/);
  });
});
