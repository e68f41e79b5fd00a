// Hot reload of the team parts (#40 point 6): `mcpkit gateway --http` (run in process, its config
// file rewritten) while an official SDK v1 client holds a session and its GET stream on the
// endpoint `/mcp/docs`. An endpoint is added, served, then removed (its client gets 404s, its
// GET stream ends) while the docs session stays; docs itself changes; policies are added to a
// gateway started with neither policies nor an audit log; the audit log is opened, then moved
// to another file (both read back, each line matched to its call), and a file that cannot be
// opened is refused; the trusted headers change (a header accepted before is refused after, and
// the session is kept by its own principal only). Behind --auth-issuer, an added endpoint
// serves its protected resource metadata and takes tokens minted for it, and trusted headers are
// refused (the flag wins). Real parts: HTTP upstreams on 127.0.0.1, the gateway on port 0,
// oidc-provider.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { McpServer } from '../../src/server/index.js';
import type { Listening } from '../../src/transports/http/server/node.js';
import { listen } from '../../src/transports/http/server/node.js';
import type { AuthorizationServer } from '../helpers/oidc.js';
import { startAuthorizationServer } from '../helpers/oidc.js';
import { failureOf, reloadWith, serveGateway } from './harness.js';

const info = { name: 'reload-team-test', version: '1.0.0' };

async function upstream(tool: string): Promise<Listening> {
  const server = new McpServer({ name: tool, version: '1' });
  server.tool({ name: tool, inputSchema: { type: 'object' } }, (args) => {
    return `${tool} ${JSON.stringify(args)}`;
  });
  return listen(() => server, { port: 0 });
}

/** A v1 client of `url` whose requests (method, status, body) are recorded, headers swappable. */
function client(url: string, headers: Record<string, string>) {
  const requests: { method: string; status: number; body: string }[] = [];
  const state = { headers };
  const recording = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, {
      ...init,
      headers: { ...Object.fromEntries(new Headers(init?.headers)), ...state.headers },
    });
    requests.push({
      method: init?.method ?? 'GET',
      status: response.status,
      body: typeof init?.body === 'string' ? init.body : '',
    });
    return response;
  };
  const transport = new StreamableHttpV1(new URL(url), { fetch: recording });
  const sdk = new ClientV1(info);
  sdk.onerror = () => undefined;
  let told: () => void = () => undefined;
  sdk.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    told();
  });
  return {
    sdk,
    transport,
    requests,
    state,
    /** Resolves at the next tools list_changed. */
    listChanged: () =>
      new Promise<void>((resolve) => {
        told = resolve;
      }),
    tools: async () => (await sdk.listTools()).tools.map((tool) => tool.name).sort(),
  };
}

describe('hot reload of endpoints, identity, audit and policies (mcpkit gateway --http)', () => {
  let alpha: Listening;
  let beta: Listening;
  let dir: string;
  let file: string;
  let done: Promise<number>;
  let stderr: () => string;
  let url = '';

  const configOf = (team: Record<string, unknown>) => ({
    mcpServers: { a: { url: alpha.url }, b: { url: beta.url } },
    ...team,
  });
  const reload = (team: Record<string, unknown>) => reloadWith(file, configOf(team), stderr);

  beforeAll(async () => {
    [alpha, beta] = await Promise.all([upstream('alpha'), upstream('beta')]);
    dir = mkdtempSync(join(tmpdir(), 'mcpkit-gw-reload-team-'));
    file = join(dir, 'gateway.json');
    writeFileSync(
      file,
      JSON.stringify(
        configOf({
          endpoints: { docs: { servers: ['a'] } },
          identity: { header: { subject: 'x-user' } },
        }),
      ),
    );
    ({ done, url, stderr } = await serveGateway([
      '--config',
      file,
      '--http',
      '127.0.0.1:0',
      '--json',
    ]));
  });

  afterAll(async () => {
    process.emit('SIGTERM');
    expect(await done).toBe(0);
    await Promise.all([alpha.close(), beta.close()]);
  });

  it('applies every team part under a live session, which stays one session', async () => {
    const docs = client(`${url}/docs`, { 'x-user': 'ann' });
    await docs.sdk.connect(docs.transport);
    const session = docs.transport.sessionId;
    expect(await docs.tools()).toEqual(['alpha']);
    await vi.waitFor(() => {
      expect(docs.requests.some((r) => r.method === 'GET' && r.status === 200)).toBe(true);
    });

    // An endpoint added: served from the next request.
    expect(
      await reload({
        endpoints: { docs: { servers: ['a'] }, extra: { servers: ['b'] } },
        identity: { header: { subject: 'x-user' } },
      }),
    ).toMatchObject({ event: 'reloaded', endpoints: { added: ['extra'], removed: [] } });
    const extra = client(`${url}/extra`, { 'x-user': 'bob' });
    await extra.sdk.connect(extra.transport);
    expect(await extra.tools()).toEqual(['beta']);
    await vi.waitFor(() => {
      expect(extra.requests.some((r) => r.method === 'GET' && r.status === 200)).toBe(true);
    });

    // It removed, and docs changed (a server more): extra's client gets 404s, its GET stream
    // ends (the reconnection is a 404); docs' client is told, and lists both in its session.
    let told = docs.listChanged();
    expect(
      await reload({
        endpoints: { docs: { servers: ['a', 'b'] } },
        identity: { header: { subject: 'x-user' } },
      }),
    ).toMatchObject({ endpoints: { added: [], removed: ['extra'], changed: ['docs'] } });
    expect((await failureOf(extra.sdk.callTool({ name: 'beta', arguments: {} }))).code).toBe(404);
    await vi.waitFor(
      () => {
        expect(extra.requests.some((r) => r.method === 'GET' && r.status === 404)).toBe(true);
      },
      { timeout: 10_000 },
    );
    await told;
    expect(await docs.tools()).toEqual(['alpha', 'beta']);

    // Policies added to a gateway started with neither policies nor an audit log.
    told = docs.listChanged();
    expect(
      await reload({
        endpoints: { docs: { servers: ['a', 'b'] } },
        identity: { header: { subject: 'x-user' } },
        policies: [{ name: 'b-only', tools: { allow: ['b/*'] } }],
      }),
    ).toMatchObject({ event: 'reloaded', policies: 'changed' });
    await told;
    expect(await docs.tools()).toEqual(['beta']);
    expect((await failureOf(docs.sdk.callTool({ name: 'alpha', arguments: {} }))).code).toBe(
      -32602,
    );

    // The audit log opened (policies gone), then moved: each line in the file of its call.
    const first = join(dir, 'first.jsonl');
    const second = join(dir, 'second.jsonl');
    const team = {
      endpoints: { docs: { servers: ['a', 'b'] } },
      identity: { header: { subject: 'x-user' } },
    };
    expect(await reload({ ...team, audit: { to: first, arguments: true } })).toMatchObject({
      audit: 'changed',
      policies: 'changed',
    });
    await docs.sdk.callTool({ name: 'alpha', arguments: { n: 1 } });
    await docs.sdk.callTool({ name: 'beta', arguments: { n: 2 } });
    expect(await reload({ ...team, audit: { to: second, arguments: true } })).toMatchObject({
      event: 'reloaded',
      audit: 'changed',
    });
    await docs.sdk.callTool({ name: 'alpha', arguments: { n: 3 } });
    // A file that cannot be opened: refused, the log in force keeps the lines.
    const refused = await reload({
      ...team,
      audit: { to: join(dir, 'missing', 'x.jsonl'), arguments: true },
    });
    expect(refused).toMatchObject({ event: 'reload-refused' });
    expect(String(refused['error'])).toContain('cannot open the audit log');
    await docs.sdk.callTool({ name: 'beta', arguments: { n: 4 } });
    const lines = (path: string) =>
      readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .map(({ tool, arguments: args, principal, endpoint }) => ({
          tool,
          args,
          principal,
          endpoint,
        }));
    const ann = { subject: 'ann', source: 'header' };
    expect(lines(first)).toEqual([
      { tool: 'alpha', args: { n: 1 }, principal: ann, endpoint: 'docs' },
      { tool: 'beta', args: { n: 2 }, principal: ann, endpoint: 'docs' },
    ]);
    await vi.waitFor(() => {
      expect(lines(second)).toEqual([
        { tool: 'alpha', args: { n: 3 }, principal: ann, endpoint: 'docs' },
        { tool: 'beta', args: { n: 4 }, principal: ann, endpoint: 'docs' },
      ]);
    });

    // The trusted headers changed: x-user is refused from the next request; the session goes on
    // for its own principal under the new header, and is nobody else's.
    expect(
      await reload({
        ...team,
        identity: { header: { subject: 'x-member' } },
        audit: { to: second, arguments: true },
      }),
    ).toMatchObject({ event: 'reloaded', identity: 'changed' });
    expect((await failureOf(docs.sdk.callTool({ name: 'alpha', arguments: {} }))).code).toBe(401);
    const asBob = await fetch(`${url}/docs`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': session ?? '',
        'mcp-protocol-version': '2025-11-25',
        'x-member': 'bob',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(asBob.status).toBe(404);
    docs.state.headers = { 'x-member': 'ann' };
    expect(await docs.tools()).toEqual(['alpha', 'beta']);

    expect(docs.transport.sessionId).toBe(session);
    const initializes = docs.requests.filter((r) => r.body.includes('"initialize"'));
    expect(initializes).toHaveLength(1);
    expect(docs.requests.filter((r) => r.method === 'GET' && r.status !== 200)).toEqual([]);
    await Promise.all([docs.sdk.close(), extra.sdk.close()]);
  });
});

describe('hot reload of endpoints behind --auth-issuer (flags win over the file)', () => {
  let alpha: Listening;
  let as: AuthorizationServer;
  let file: string;
  let done: Promise<number>;
  let stderr: () => string;
  let url = '';

  const reload = (team: Record<string, unknown>) =>
    reloadWith(file, { mcpServers: { a: { url: alpha.url } }, ...team }, stderr);

  beforeAll(async () => {
    alpha = await upstream('alpha');
    as = await startAuthorizationServer(['mcp']);
    file = join(mkdtempSync(join(tmpdir(), 'mcpkit-gw-reload-auth-')), 'gateway.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { a: { url: alpha.url } } }));
    ({ done, url, stderr } = await serveGateway([
      '--config',
      file,
      '--http',
      '127.0.0.1:0',
      '--auth-issuer',
      as.issuer,
      '--json',
    ]));
  });

  afterAll(async () => {
    process.emit('SIGTERM');
    expect(await done).toBe(0);
    await Promise.all([alpha.close(), as.close()]);
  });

  it('serves an added endpoint its metadata and tokens, and refuses trusted headers', async () => {
    const metadata = `${new URL(url).origin}/.well-known/oauth-protected-resource/mcp/docs`;
    expect((await fetch(metadata)).status).toBe(404);
    expect(await reload({ endpoints: { docs: { servers: ['a'] } } })).toMatchObject({
      event: 'reloaded',
      endpoints: { added: ['docs'] },
    });
    const document = (await (await fetch(metadata)).json()) as Record<string, unknown>;
    expect(document).toMatchObject({ resource: `${url}/docs`, authorization_servers: [as.issuer] });

    // A token for /mcp/docs opens a session there; the same token is refused by /mcp.
    const token = await as.token(`${url}/docs`, 'mcp');
    const headers = { authorization: `Bearer ${token}` };
    const docs = new ClientV1(info);
    await docs.connect(new StreamableHttpV1(new URL(`${url}/docs`), { requestInit: { headers } }));
    expect((await docs.listTools()).tools.map((tool) => tool.name)).toEqual(['alpha']);
    const other = new ClientV1(info);
    const refused = await failureOf(
      other.connect(new StreamableHttpV1(new URL(url), { requestInit: { headers } })),
    );
    expect(refused.code).toBe(401);

    // identity.header with --auth-issuer: refused, the endpoint kept.
    const denied = await reload({
      endpoints: { docs: { servers: ['a'] } },
      identity: { header: { subject: 'x-user' } },
    });
    expect(denied).toMatchObject({ event: 'reload-refused' });
    expect(JSON.stringify(denied)).toContain('--auth-issuer');
    expect((await docs.listTools()).tools.map((tool) => tool.name)).toEqual(['alpha']);

    // Removed: its metadata and its route are gone.
    expect(await reload({})).toMatchObject({ endpoints: { removed: ['docs'] } });
    expect((await fetch(metadata)).status).toBe(404);
    expect((await failureOf(docs.listTools())).code).toBe(404);
    await docs.close();
  });
});
