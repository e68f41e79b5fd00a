// Hot reload (#40): the gateway's config file rewritten while a client holds a session and its
// GET stream. Upstreams are added, removed and changed without a new session (one initialize,
// the same session id, the GET stream kept), the client is told through list_changed, and an
// invalid config is refused with the reason while the old one keeps serving; SIGHUP re-reads it.
// Real parts: HTTP upstreams on 127.0.0.1, the gateway served over Streamable HTTP, the official
// SDK v1 client and mcpkit's client (2026-07-28).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../src/client/index.js';
import type { ConfigWatch } from '../../src/gateway/index.js';
import { Gateway, parseGatewayConfig, watchConfig } from '../../src/gateway/index.js';
import { McpServer } from '../../src/server/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import type { Listening } from '../../src/transports/http/server/node.js';
import { listen } from '../../src/transports/http/server/node.js';
import { nextEvent, watchedSession } from './harness.js';

const info = { name: 'reload-test', version: '1.0.0' };

async function upstream(tool: string, answer: string): Promise<Listening> {
  const server = new McpServer({ name: tool, version: '1' });
  server.tool(
    { name: tool, description: `The ${tool} tool.`, inputSchema: { type: 'object' } },
    () => answer,
  );
  return listen(() => server, { port: 0 });
}

function textOf(result: unknown): string {
  const blocks = ((result as { content?: unknown }).content ?? []) as { text?: string }[];
  return blocks.map((block) => block.text ?? '').join('\n');
}

describe('hot reload of the gateway config', () => {
  let alpha: Listening;
  let beta: Listening;
  let betaChanged: Listening;
  let gateway: Gateway;
  let served: Listening;
  let watch: ConfigWatch;
  let file: string;
  const events: Record<string, unknown>[] = [];

  const write = (servers: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    writeFileSync(file, JSON.stringify({ mcpServers: servers, ...extra }));
  };
  const load = () => parseGatewayConfig(JSON.parse(readFileSync(file, 'utf8')));

  beforeAll(async () => {
    [alpha, beta, betaChanged] = await Promise.all([
      upstream('alpha', 'from alpha'),
      upstream('beta', 'from beta'),
      upstream('beta', 'from the new beta'),
    ]);
    file = join(mkdtempSync(join(tmpdir(), 'mcpkit-gw-reload-')), 'gateway.json');
    write({ a: { url: alpha.url } });
    gateway = await Gateway.start(load(), { timing: { pingIntervalMs: 0 } });
    served = await listen(() => gateway.server, { port: 0 });
    watch = watchConfig(file, {
      load,
      apply: (config) => gateway.reload(config),
      onEvent: (event) => events.push(event),
      settleMs: 50,
    });
  });

  afterAll(async () => {
    watch.close();
    await served.close();
    await gateway.close();
    await Promise.all([alpha.close(), beta.close(), betaChanged.close()]);
  });

  it('adds, changes and removes upstreams under a live session and GET stream', async () => {
    const { client, transport, requests, told, changes } = await watchedSession(served.url, info);
    const session = transport.sessionId;
    expect(session).toBeDefined();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['alpha']);
    // The GET stream is open once the session is.
    expect(requests.some((request) => request.method === 'GET')).toBe(true);

    // Added: beta.
    let listChanged = told();
    let reloaded = nextEvent(events, (e) => e['event'] === 'reloaded');
    write({ a: { url: alpha.url }, b: { url: beta.url } });
    expect(await reloaded).toMatchObject({ added: ['b'], removed: [], changed: [], kept: ['a'] });
    await listChanged;
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
      'alpha',
      'beta',
    ]);
    expect(textOf(await client.callTool({ name: 'beta', arguments: {} }))).toBe('from beta');

    // Changed: b now at another URL (a new connection); removed: a.
    listChanged = told();
    reloaded = nextEvent(events, (e) => e['event'] === 'reloaded');
    write({ b: { url: betaChanged.url } });
    expect(await reloaded).toMatchObject({ added: [], removed: ['a'], changed: ['b'], kept: [] });
    await listChanged;
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['beta']);
    expect(textOf(await client.callTool({ name: 'beta', arguments: {} }))).toBe(
      'from the new beta',
    );
    const alphaCall = await client
      .callTool({ name: 'alpha', arguments: {} })
      .catch((e: unknown) => e);
    expect((alphaCall as Error).message).toContain('alpha');

    // One session throughout: one initialize, the same id, no second GET stream needed.
    expect(transport.sessionId).toBe(session);
    expect(requests.filter((request) => request.body.includes('"initialize"'))).toHaveLength(1);
    expect(changes()).toBeGreaterThanOrEqual(2);
    await client.close();
  });

  it('refuses an invalid config with the reason and keeps serving the old one', async () => {
    const client = new Client(info);
    await client.connect(createStreamableHttpClientTransport(served.url));
    const before = (await client.listTools()).map((tool) => tool.name);
    let refused = nextEvent(events, (e) => e['event'] === 'reload-refused');
    writeFileSync(file, '{"mcpServers": {"x": {"url": "not a url"}}}');
    expect(await refused).toMatchObject({
      reason: 'file changed',
      error: 'server "x" has an invalid "url": not a url',
    });
    refused = nextEvent(events, (e) => e['event'] === 'reload-refused');
    write({ b: { url: betaChanged.url } }, { rateLimits: { principal: { rate: 0 } } });
    expect((await refused)['error']).toBe(
      'the config "rateLimits.principal".rate is not a positive number',
    );
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(before);
    expect(textOf(await client.callTool('beta', {}))).toBe('from the new beta');
    await client.close();
  });

  it('applies policies added to a gateway started with neither policies nor an audit log', async () => {
    const client = new Client(info);
    await client.connect(createStreamableHttpClientTransport(served.url));
    const before = (await client.listTools()).map((tool) => tool.name);
    expect(before).toEqual(['beta']);
    let reloaded = nextEvent(events, (e) => e['event'] === 'reloaded');
    write({ b: { url: betaChanged.url } }, { policies: [{ tools: { allow: ['a/*'] } }] });
    expect(await reloaded).toMatchObject({ policies: 'changed', kept: ['b'] });
    expect(await client.listTools()).toEqual([]);
    await expect(client.callTool('beta', {})).rejects.toMatchObject({ code: -32602 });
    reloaded = nextEvent(events, (e) => e['event'] === 'reloaded');
    write({ b: { url: betaChanged.url } });
    expect(await reloaded).toMatchObject({ policies: 'changed' });
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(before);
    await client.close();
  });

  it('refuses code mode together with policies (the code would bypass them)', async () => {
    const config = parseGatewayConfig({
      mcpServers: { a: { url: alpha.url } },
      policies: [{ tools: { allow: ['a/*'] } }],
    });
    await expect(Gateway.start(config, { codeMode: true })).rejects.toThrow(
      'codeMode cannot be combined with policies',
    );
  });

  it('re-reads the file on SIGHUP, and applies new rate limits to the sessions in place', async () => {
    const client = new Client(info);
    await client.connect(createStreamableHttpClientTransport(served.url));
    watch.close();
    // The watcher is closed: only SIGHUP (of a new watch) reads the file now.
    write(
      { b: { url: betaChanged.url } },
      { rateLimits: { tools: { beta: { rate: 1, per: 'hour' } } } },
    );
    watch = watchConfig(file, {
      load,
      apply: (config) => gateway.reload(config),
      onEvent: (event) => events.push(event),
      settleMs: 50,
    });
    const reloaded = nextEvent(
      events,
      (e) => e['event'] === 'reloaded' && e['reason'] === 'SIGHUP',
    );
    process.emit('SIGHUP', 'SIGHUP');
    expect(await reloaded).toMatchObject({ kept: ['b'] });
    expect((await client.callTool('beta', {})).isError).not.toBe(true);
    const second = await client.callTool('beta', {});
    expect(second.isError).toBe(true);
    expect(textOf(second)).toContain('your calls of the tool "beta" are limited to 1 per hour');
    await client.close();
  });
});
