// Custom headers from tool parameters (spec 2026-07-28 server/tools#x-mcp-header, SEP-2243) end
// to end: the server checks Mcp-Param-* headers against the arguments (both faces), mcpkit's
// client mirrors annotated arguments into them over a real socket, leaves tools with invalid
// annotations out of its listings, and retries once when the tool's definition changed.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '../../src/client/index.js';
import { McpServer } from '../../src/server/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import { listen } from '../../src/transports/http/server/node.js';
import { assertValidMessage } from '../helpers/spec-schema.js';
import type { Face } from './http-server-harness.js';
import {
  FACES,
  initializeBody,
  modernRequest,
  sessionRequest,
  startFace,
} from './http-server-harness.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const DEPLOY_SCHEMA = {
  type: 'object',
  properties: {
    region: { type: 'string', 'x-mcp-header': 'Region' },
    replicas: { type: ['integer', 'null'], 'x-mcp-header': 'Replicas' },
    note: { type: 'string' },
  },
  required: ['region'],
} as const;

/** A server whose `deploy` tool answers with the Mcp-Param-* headers it received. */
function deployServer(): McpServer {
  const server = new McpServer({ name: 'param-headers', version: '1.0.0' });
  server.tool(
    { name: 'deploy', description: 'Deploys.', inputSchema: DEPLOY_SCHEMA },
    (_args: unknown, ctx) => {
      const headers = ctx.transport?.headers ?? {};
      const mirrored = Object.entries(headers).filter(([name]) => name.startsWith('mcp-param-'));
      return JSON.stringify(Object.fromEntries(mirrored.sort()));
    },
  );
  return server;
}

const b64 = (value: string) => `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;

describe('McpServer: x-mcp-header annotations at registration', () => {
  it('refuses a tool whose annotations clients would drop', () => {
    const server = new McpServer({ name: 's', version: '1' });
    const register = (property: Record<string, unknown>) =>
      server.tool(
        {
          name: 'bad',
          inputSchema: { type: 'object', properties: { value: property } },
        },
        () => 'never',
      );
    expect(() => register({ type: 'number', 'x-mcp-header': 'Score' })).toThrow(
      /tool "bad" inputSchema: x-mcp-header "Score" is on a property of type "number"/,
    );
    expect(() => register({ type: 'string', 'x-mcp-header': 'My Region' })).toThrow(
      /not an HTTP token/,
    );
  });
});

describe.each(FACES)('Streamable HTTP server, Mcp-Param-* headers (%s)', (kind) => {
  async function start(): Promise<Face> {
    const face = await startFace(kind, deployServer());
    cleanups.push(() => face.close());
    return face;
  }

  const deploy = (args: Record<string, unknown>, headers: Record<string, string>) =>
    modernRequest('tools/call', { name: 'deploy', arguments: args }, { headers });

  it('serves a call whose headers agree with its arguments, decoded and numeric', async () => {
    const face = await start();
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ region: 'eu-west1' }, { 'mcp-param-region': 'eu-west1' }],
      [
        { region: 'Zürich', replicas: 3 },
        { 'Mcp-Param-Region': b64('Zürich'), 'MCP-PARAM-REPLICAS': '3' },
      ],
      [{ region: 'SGk=' }, { 'mcp-param-region': 'SGk=' }], // no wrapper: literal
      [{ region: 'a', replicas: null }, { 'mcp-param-region': 'a' }], // null: no header expected
    ];
    for (const [args, headers] of cases) {
      const res = await face.request(deploy(args, headers));
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.result.isError).toBeUndefined();
      assertValidMessage('2026-07-28', body);
    }
  });

  it('rejects a missing, different, malformed or extra header with 400 HeaderMismatch', async () => {
    const face = await start();
    const cases: [Record<string, unknown>, Record<string, string>, RegExp][] = [
      [{ region: 'eu' }, {}, /missing Mcp-Param-Region header/],
      [{ region: 'eu' }, { 'mcp-param-region': 'us' }, /Mcp-Param-Region header does not match/],
      [{ region: 'Hello' }, { 'mcp-param-region': '=?base64?SGVsbG8?=' }, /malformed/],
      [{ region: 'Hello' }, { 'mcp-param-region': '=?base64?SGVs!!!bG8=?=' }, /malformed/],
      [
        { region: 'eu', replicas: 2 },
        { 'mcp-param-region': 'eu', 'mcp-param-replicas': '3' },
        /Mcp-Param-Replicas/,
      ],
      [{ region: 'eu' }, { 'mcp-param-region': 'eu', 'mcp-param-replicas': '1' }, /no value/],
    ];
    for (const [args, headers, message] of cases) {
      const res = await face.request(deploy(args, headers));
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error.code).toBe(-32020);
      expect(body.error.message).toMatch(message);
      assertValidMessage('2026-07-28', body);
    }
    // Still serving afterwards.
    const ok = await face.request(deploy({ region: 'eu' }, { 'mcp-param-region': 'eu' }));
    expect(ok.status).toBe(200);
  });

  it('leaves mistyped arguments to input validation, and legacy requests unchecked', async () => {
    const face = await start();
    const res = await face.request(deploy({ region: 7 }, {}));
    expect(res.status).toBe(200);
    const invalid = await res.json();
    expect(invalid.result.isError).toBe(true);
    assertValidMessage('2026-07-28', invalid);

    const init = await face.request({ body: initializeBody() });
    const session = init.headers.get('mcp-session-id') ?? '';
    await init.body?.cancel();
    const legacy = await face.request(
      sessionRequest(session, {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'deploy', arguments: { region: 'eu' } },
      }),
    );
    expect(legacy.status).toBe(200);
    const text = await legacy.text();
    expect(text).toContain('"result"');
  });
});

describe('Client: Mcp-Param-* headers over a real socket', () => {
  it('mirrors annotated arguments (encoded when needed), in calls of tools never listed too', async () => {
    const running = await listen(() => deployServer(), { port: 0 });
    cleanups.push(() => running.close());
    const client = new Client({ name: 'c', version: '1' });
    await client.connect(createStreamableHttpClientTransport(running.url));
    cleanups.push(() => client.close());
    expect(client.revision).toBe('2026-07-28');
    const result = await client.callTool('deploy', { region: ' Zürich ', replicas: 2, note: 'x' });
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual({
      'mcp-param-region': b64(' Zürich '),
      'mcp-param-replicas': '2',
    });
  });

  it('sends none in a legacy session', async () => {
    const running = await listen(() => deployServer(), { port: 0 });
    cleanups.push(() => running.close());
    const client = new Client({ name: 'c', version: '1' }, { mode: { pin: '2025-11-25' } });
    await client.connect(createStreamableHttpClientTransport(running.url));
    cleanups.push(() => client.close());
    const result = await client.callTool('deploy', { region: 'eu' });
    expect((result.content[0] as { text: string }).text).toBe('{}');
  });
});

/** A 2026-07-28 server on node:http whose tool list the test sets; it records tools/call headers. */
async function fakeModernServer(state: { tools: unknown[] }) {
  const calls: { name: unknown; headers: IncomingMessage['headers'] }[] = [];
  const counts = { lists: 0 };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const message = JSON.parse(body) as { id?: number; method: string; params?: any };
      const reply = (status: number, payload: Record<string, unknown>) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...payload }));
      };
      if (message.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      switch (message.method) {
        case 'server/discover':
          reply(200, {
            result: {
              resultType: 'complete',
              supportedVersions: ['2026-07-28'],
              capabilities: { tools: {} },
              _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'fake', version: '1' } },
            },
          });
          return;
        case 'tools/list':
          counts.lists += 1;
          reply(200, { result: { resultType: 'complete', tools: state.tools } });
          return;
        case 'tools/call': {
          calls.push({ name: message.params?.name, headers: req.headers });
          // The current definition of `route` wants Mcp-Param-Zone.
          if (message.params?.name === 'route' && req.headers['mcp-param-zone'] === undefined) {
            reply(400, {
              error: { code: -32020, message: 'missing Mcp-Param-Zone header' },
            });
            return;
          }
          reply(200, {
            result: { resultType: 'complete', content: [{ type: 'text', text: 'ok' }] },
          });
          return;
        }
        default:
          reply(200, { error: { code: -32601, message: 'not found' } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${String(port)}/mcp`, calls, counts };
}

const tool = (name: string, properties: Record<string, unknown>) => ({
  name,
  inputSchema: { type: 'object', properties },
});

describe('Client: tools with x-mcp-header annotations from other servers', () => {
  it('leaves out tools with invalid annotations, with a warning naming tool and reason', async () => {
    const state = {
      tools: [
        tool('valid_tool', { region: { type: 'string', 'x-mcp-header': 'Region' } }),
        tool('invalid_number', { score: { type: 'number', 'x-mcp-header': 'Score' } }),
        tool('invalid_duplicate', {
          a: { type: 'string', 'x-mcp-header': 'MyField' },
          b: { type: 'string', 'x-mcp-header': 'myfield' },
        }),
        tool('plain', { query: { type: 'string' } }),
      ],
    };
    const fake = await fakeModernServer(state);
    const warnings: string[] = [];
    const client = new Client(
      { name: 'c', version: '1' },
      { onError: (error) => warnings.push(error.message) },
    );
    await client.connect(createStreamableHttpClientTransport(fake.url));
    cleanups.push(() => client.close());
    const names = (await client.listTools()).map((t) => t.name);
    expect(names).toEqual(['valid_tool', 'plain']);
    expect(warnings).toEqual([
      expect.stringMatching(/tool "invalid_number" left out of tools\/list: .*"number"/),
      expect.stringMatching(/tool "invalid_duplicate" left out of tools\/list: .*not unique/),
    ]);
    await client.callTool('valid_tool', { region: 'eu' });
    expect(fake.calls.at(-1)?.headers['mcp-param-region']).toBe('eu');
  });

  it('lists the tools once per tool list for a tool it has not seen, not once per check', async () => {
    const state = { tools: [tool('plain', { query: { type: 'string' } })] };
    const fake = await fakeModernServer(state);
    const client = new Client({ name: 'c', version: '1' });
    await client.connect(createStreamableHttpClientTransport(fake.url));
    cleanups.push(() => client.close());
    await client.callTool('unlisted', {});
    await client.callTool('unlisted', {});
    await client.callTool('plain', { query: 'q' });
    expect(fake.counts.lists).toBe(1);
    expect(fake.calls.map((c) => c.name)).toEqual(['unlisted', 'unlisted', 'plain']);
  });

  it('retries once with the new definition when the server says the headers mismatch', async () => {
    const state = {
      tools: [tool('route', { zone: { type: 'string', 'x-mcp-header': 'Region' } })],
    };
    const fake = await fakeModernServer(state);
    const client = new Client({ name: 'c', version: '1' });
    await client.connect(createStreamableHttpClientTransport(fake.url));
    cleanups.push(() => client.close());
    await client.listTools();
    // The server renamed the header since the client listed its tools.
    state.tools = [tool('route', { zone: { type: 'string', 'x-mcp-header': 'Zone' } })];
    const result = await client.callTool('route', { zone: 'b' });
    expect(result.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(
      fake.calls.map((c) => [c.headers['mcp-param-region'], c.headers['mcp-param-zone']]),
    ).toEqual([
      ['b', undefined],
      [undefined, 'b'],
    ]);
    // With nothing new to send, the error stands.
    state.tools = [tool('route', { zone: { type: 'string' } })];
    await client.listTools();
    await expect(client.callTool('route', { zone: 'b' })).rejects.toMatchObject({ code: -32020 });
  });
});
