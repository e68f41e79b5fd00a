import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client } from '../client/index.js';
import { ErrorCode, JsonRpcError } from '../jsonrpc/errors.js';
import type { Request } from '../jsonrpc/message.js';
import type { RequestContext } from '../jsonrpc/serve.js';
import { createMemoryPair } from '../transports/memory.js';
import type { AuthInfo } from '../protocol/auth.js';
import type { ProtocolRevision } from '../protocol/version.js';
import type { MiddlewareContext, ToolCallContext } from './middleware.js';
import type { McpServerOptions } from './server.js';
import { tasks, tasksClient } from '../ext/tasks/index.js';
import { McpServer } from './server.js';

const ERAS = [
  ['legacy', '2025-11-25'],
  ['modern', '2026-07-28'],
] as const;

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function echoServer(options: McpServerOptions = {}): McpServer {
  const server = new McpServer({ name: 'mw', version: '1' }, options);
  const inputSchema = {
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
  } as const;
  server.tool({ name: 'echo', inputSchema }, (args) => `echo: ${String(args['text'])}`);
  server.tool({ name: 'fail', inputSchema }, () => {
    throw new Error('it failed');
  });
  return server;
}

async function connect(server: McpServer, revision: ProtocolRevision): Promise<Client> {
  const [a, b] = createMemoryPair();
  await server.connect(b);
  const client = new Client({ name: 'c', version: '1' }, { mode: { pin: revision } });
  clients.push(client);
  await client.connect(a);
  return client;
}

/** Serves one 2026-07-28 request on its own, as the HTTP transport does, with `auth` attached. */
async function serveModern(
  server: McpServer,
  method: string,
  params: Record<string, unknown>,
  auth?: AuthInfo,
) {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const request: Request = { jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: meta } };
  const context: RequestContext = {
    id: 7,
    signal: new AbortController().signal,
    info: auth === undefined ? undefined : { auth },
    notify: () => Promise.resolve(),
    request: () => Promise.reject(new Error('no requests')),
  };
  const response = await server.serveRequest(request, context);
  return response as {
    result?: Record<string, unknown>;
    error?: { code: number; message: string };
  };
}

const text = (result: unknown) =>
  ((result as { content: { text: string }[] }).content[0] ?? { text: '' }).text;

describe('request middleware', () => {
  for (const [era, revision] of ERAS) {
    it(`runs around every request in order, first registered outermost (${era})`, async () => {
      const server = echoServer();
      const seen: string[] = [];
      const contexts: MiddlewareContext[] = [];
      server.use(async (ctx, next) => {
        contexts.push(ctx);
        seen.push(`a> ${ctx.method}`);
        const result = await next();
        seen.push(`a< ${ctx.method}`);
        return result;
      });
      server.use(async (ctx, next) => {
        seen.push(`b> ${ctx.method}`);
        const result = await next();
        seen.push(`b< ${ctx.method}`);
        return result;
      });
      const client = await connect(server, revision);
      await client.listTools();
      seen.length = 0;
      contexts.length = 0;
      const result = await client.callTool('echo', { text: 'hi' });
      expect(text(result)).toBe('echo: hi');
      expect(seen).toEqual(['a> tools/call', 'b> tools/call', 'b< tools/call', 'a< tools/call']);
      const [ctx] = contexts;
      expect(ctx?.era).toBe(era);
      expect(ctx?.revision).toBe(revision);
      expect(ctx?.params).toMatchObject({ name: 'echo', arguments: { text: 'hi' } });
      expect(ctx?.client?.info?.name).toBe('c');
      expect(ctx?.auth).toBeUndefined();
      expect(ctx?.signal.aborted).toBe(false);
      // A connection's requests share its session; a 2026-07-28 request has none.
      expect(ctx?.session === undefined).toBe(era === 'modern');
    });

    it(`may answer, refuse, change params or change the result (${era})`, async () => {
      const server = echoServer();
      server.use((ctx, next) => {
        if (ctx.method === 'ping') return {};
        if (ctx.method === 'prompts/list') throw new JsonRpcError(-32000, 'no prompts for you');
        if (ctx.method !== 'tools/call') return next();
        const args = (ctx.params['arguments'] ?? {}) as Record<string, unknown>;
        ctx.params = { ...ctx.params, arguments: { text: String(args['text']).toUpperCase() } };
        return Promise.resolve(next()).then((result) => {
          const r = result as { content: { type: string; text: string }[] };
          return { ...r, content: [...r.content, { type: 'text', text: 'signed' }] };
        });
      });
      const client = await connect(server, revision);
      const result = await client.callTool('echo', { text: 'hi' });
      expect(result.content).toEqual([
        { type: 'text', text: 'echo: HI' },
        { type: 'text', text: 'signed' },
      ]);
      await expect(client.listPrompts()).rejects.toMatchObject({
        code: -32000,
        message: 'no prompts for you',
      });
    });
  }

  it('sees legacy initialize with no revision yet, and unknown methods before they fail', async () => {
    const server = echoServer();
    const seen: [string, string | undefined][] = [];
    server.use((ctx, next) => {
      seen.push([ctx.method, ctx.revision]);
      return next();
    });
    await connect(server, '2025-11-25');
    expect(seen).toEqual([['initialize', undefined]]);
    const unknown = await serveModern(server, 'nothing/here', {});
    expect(unknown.error?.code).toBe(ErrorCode.MethodNotFound);
    expect(seen.at(-1)).toEqual(['nothing/here', '2026-07-28']);
  });

  it('answers an Error it throws as -32603, reported; a rejected next() as its error', async () => {
    const onError = vi.fn();
    const server = echoServer({ onError });
    server.use((ctx, next) => {
      if (ctx.params['name'] === 'boom') throw new Error('secret detail');
      return next();
    });
    server.use(async (ctx, next) => {
      const result = await next();
      if (ctx.params['name'] === 'echo') throw new Error('late detail');
      return result;
    });
    const boom = await serveModern(server, 'tools/call', { name: 'boom', arguments: {} });
    expect(boom.error).toEqual({ code: -32603, message: 'internal error' });
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'secret detail' }),
      'connection',
    );
    const late = await serveModern(server, 'tools/call', {
      name: 'echo',
      arguments: { text: 'a' },
    });
    expect(late.error).toEqual({ code: -32603, message: 'internal error' });
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'late detail' }),
      'connection',
    );
    const unknown = await serveModern(server, 'tools/call', { name: 'nope', arguments: {} });
    expect(unknown.error?.code).toBe(ErrorCode.InvalidParams);
  });

  it('does not run for notifications', async () => {
    const server = echoServer();
    const methods: string[] = [];
    server.use((ctx, next) => {
      methods.push(ctx.method);
      return next();
    });
    const client = await connect(server, '2025-11-25');
    await client.listTools();
    await client.callTool('echo', { text: 'x' });
    // notifications/initialized went between initialize and tools/list.
    expect(methods).toEqual(['initialize', 'tools/list', 'tools/call']);
  });

  it('sees the principal the transport attached', async () => {
    const server = echoServer();
    let principal: string | undefined;
    server.use((ctx, next) => {
      principal = ctx.auth?.subject;
      return next();
    });
    const auth: AuthInfo = {
      subject: 'alice',
      clientId: 'app',
      scopes: [],
      expiresAt: undefined,
      claims: {},
    };
    const { result } = await serveModern(
      server,
      'tools/call',
      {
        name: 'echo',
        arguments: { text: 'hi' },
      },
      auth,
    );
    expect(text(result)).toBe('echo: hi');
    expect(principal).toBe('alice');
  });

  it('keeps a request answered at once synchronous through pass-through middleware', () => {
    const server = echoServer();
    server.use((ctx, next) => next());
    server.use({ toolCall: (call, next) => next() });
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const response = server.serveRequest(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'now' }, _meta: meta },
      },
      {
        id: 1,
        signal: new AbortController().signal,
        info: undefined,
        notify: () => Promise.resolve(),
        request: () => Promise.reject(new Error('no requests')),
      },
    );
    expect(response).not.toBeInstanceOf(Promise);
    expect(text((response as { result: unknown }).result)).toBe('echo: now');
  });

  it('refuses what is not a middleware', () => {
    const server = echoServer();
    expect(() => server.use(42 as never)).toThrow(TypeError);
    expect(() => server.use({})).toThrow(/server.use takes/);
    expect(() => server.use({ toolCall: 'x' } as never)).toThrow(TypeError);
    expect(server.use({ toolCall: (call, next) => next() })).toBe(server);
  });
});

describe('tool-call middleware', () => {
  for (const [era, revision] of ERAS) {
    it(`sees the tool, its validated arguments and the result, inside the request middleware (${era})`, async () => {
      const server = echoServer();
      const seen: string[] = [];
      const calls: ToolCallContext[] = [];
      server.use({
        toolCall: async (call, next) => {
          calls.push(call);
          seen.push('tool>');
          const result = await next();
          seen.push(`tool< ${text(result)}`);
          return result;
        },
      });
      server.use((ctx, next) => {
        seen.push(`request> ${ctx.method}`);
        return next();
      });
      const client = await connect(server, revision);
      await client.listTools();
      seen.length = 0;
      await client.callTool('echo', { text: 'hi' });
      expect(seen).toEqual(['request> tools/call', 'tool>', 'tool< echo: hi']);
      expect(calls[0]).toMatchObject({ name: 'echo', arguments: { text: 'hi' } });
      expect(calls[0]?.tool.name).toBe('echo');
      expect(calls[0]?.ctx.revision).toBe(revision);
      // Invalid arguments are answered before: the middleware never sees them.
      const invalid = await client.callTool('echo', { text: 3 });
      expect(invalid.isError).toBe(true);
      expect(calls).toHaveLength(1);
      // A handler's Error reaches next() as an isError result.
      const failed = await client.callTool('fail', { text: 'x' });
      expect(failed.isError).toBe(true);
      expect(seen.at(-1)).toBe('tool< it failed');
    });

    it(`answers from a cache, changes arguments, refuses with isError or a protocol error (${era})`, async () => {
      const onError = vi.fn();
      const server = echoServer({ onError });
      let runs = 0;
      server.tool({ name: 'count' }, () => `run ${String(++runs)}`);
      const cache = new Map<string, { content: { type: 'text'; text: string }[] }>();
      server.use({
        toolCall: async (call, next) => {
          if (call.name === 'fail') throw new JsonRpcError(-32001, 'not for you');
          if (call.arguments['text'] === 'forbidden') throw new Error('refused: ask an admin');
          if (call.arguments['text'] === 'odd') return { content: 'nope' } as never;
          if (call.name === 'echo')
            call.arguments = { text: `<${String(call.arguments['text'])}>` };
          if (call.name !== 'count') return next();
          const hit = cache.get(call.name);
          if (hit !== undefined) return hit;
          const result = await next();
          cache.set(call.name, result as never);
          return result;
        },
      });
      const client = await connect(server, revision);
      expect(text(await client.callTool('count'))).toBe('run 1');
      expect(text(await client.callTool('count'))).toBe('run 1');
      expect(runs).toBe(1);
      expect(text(await client.callTool('echo', { text: 'a' }))).toBe('echo: <a>');
      const refused = await client.callTool('echo', { text: 'forbidden' });
      expect(refused).toMatchObject({
        isError: true,
        content: [{ text: 'refused: ask an admin' }],
      });
      await expect(client.callTool('fail', { text: 'x' })).rejects.toMatchObject({
        code: -32001,
      });
      await expect(client.callTool('echo', { text: 'odd' })).rejects.toMatchObject({
        code: -32603,
      });
      expect(onError).toHaveBeenCalledWith(
        expect.objectContaining({ message: expect.stringContaining('a tool-call middleware') }),
        'tool "echo"',
      );
    });

    it(`answers what next() gave, from an async handler, a retry and an output schema (${era})`, async () => {
      const onError = vi.fn();
      const server = echoServer({ onError });
      let runs = 0;
      server.tool({ name: 'later' }, () => Promise.resolve(`run ${String(++runs)}`));
      const outputSchema = {
        type: 'object',
        properties: { n: { type: 'number' } },
        required: ['n'],
      } as const;
      server.tool({ name: 'data', outputSchema }, () => Promise.resolve({ n: 4 }));
      server.use({
        toolCall: async (call, next) => {
          const first = await next();
          // A retry: the first result is answered, though the handler's run answered the second.
          if (call.name === 'later') await next();
          return first;
        },
      });
      const client = await connect(server, revision);
      expect(text(await client.callTool('later'))).toBe('run 1');
      expect(runs).toBe(2);
      const data = await client.callTool('data');
      expect(data.structuredContent).toEqual({ n: 4 });
      expect(text(data)).toBe('{"n":4}');
      expect(text(await client.callTool('echo', { text: 'x' }))).toBe('echo: x');
      expect(onError).not.toHaveBeenCalled();
    });
  }

  it('runs for a tool called as a task (2025-11-25)', async () => {
    const server = new McpServer({ name: 'mw', version: '1' });
    server.extend(tasks());
    server.tool({ name: 'slow', task: 'optional' }, () => Promise.resolve('done'));
    const names: string[] = [];
    server.use({
      toolCall: (call, next) => {
        names.push(call.name);
        return next();
      },
    });
    const [a, b] = createMemoryPair();
    await server.connect(b);
    const client = new Client({ name: 'c', version: '1' }, { mode: { pin: '2025-11-25' } });
    const taskApi = client.extend(tasksClient());
    clients.push(client);
    await client.connect(a);
    const started = await taskApi.callToolAsTask('slow');
    if (!('task' in started)) throw new Error('not a task');
    expect(text(await taskApi.getTaskResult(started.task.taskId))).toBe('done');
    expect(names).toEqual(['slow']);
  });
});
