// MCP Apps on the server (mcpkit/apps, src/ext/apps) over a real socket, in both eras: a view and
// the tools linked to it, read by a client that declares the extension (appsClient), and the same
// server as a text server to a client that does not (app-only tools absent and refused). The
// view's sources (text, file, bundle, function) and what apps() refuses.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { APP_MIME_TYPE, apps, appsClient } from '../../src/ext/apps/index.js';
import { Client, JsonRpcError } from '../../src/client/index.js';
import type { ProtocolRevision } from '../../src/protocol/version.js';
import { McpServer } from '../../src/server/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import { listen } from '../../src/transports/http/node.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpkit-apps-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const FORM = '<!doctype html><html><body><form id="sum"></form></body></html>';

/** A server with one view, a tool the model and the view call, and an app-only tool. */
function appServer(): McpServer {
  const server = new McpServer({ name: 'apps', version: '1.0.0' });
  const ui = apps();
  server.extend(ui);
  const form = ui.view({
    uri: 'ui://apps/sum-form',
    name: 'Sum form',
    html: FORM,
    csp: { connectDomains: ['https://api.example.com'] },
    prefersBorder: true,
  });
  server.tool(
    { name: 'get-sum', description: 'Adds two numbers.', _meta: form.link() },
    () => 'The sum is 3.',
  );
  server.tool(
    {
      name: 'sum-history',
      description: 'The sums the form computed.',
      _meta: form.link({ visibility: ['app'] }),
    },
    () => '[]',
  );
  return server;
}

async function connect(server: McpServer, revision: ProtocolRevision, withApps: boolean) {
  const running = await listen(() => server);
  const transport = createStreamableHttpClientTransport(running.url);
  const client = new Client({ name: 'apps-test', version: '1.0.0' }, { mode: { pin: revision } });
  const views = withApps ? client.extend(appsClient()) : undefined;
  await client.connect(transport);
  cleanups.push(async () => {
    await client.close();
    await running.close();
  });
  return { client, views };
}

describe.each([['2025-11-25'], ['2026-07-28']] as const)('MCP Apps over HTTP, %s', (revision) => {
  it('lists linked tools and serves the view to a client that declares the extension', async () => {
    const { client, views } = await connect(appServer(), revision, true);
    const tools = await client.listTools();
    expect(tools.map((t) => [t.name, t._meta])).toEqual([
      ['get-sum', { ui: { resourceUri: 'ui://apps/sum-form' } }],
      ['sum-history', { ui: { resourceUri: 'ui://apps/sum-form', visibility: ['app'] } }],
    ]);
    const view = await views?.view(tools[0] ?? {});
    expect(view).toMatchObject({
      uri: 'ui://apps/sum-form',
      html: FORM,
      meta: { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true },
    });
    expect(view?.csp).toContain('connect-src https://api.example.com');
    expect(await client.callTool('sum-history', {})).toMatchObject({
      content: [{ type: 'text', text: '[]' }],
    });
    const listed = await client.listResources();
    expect(listed).toContainEqual(
      expect.objectContaining({ uri: 'ui://apps/sum-form', mimeType: APP_MIME_TYPE }),
    );
    const extensions = (client.serverCapabilities as { extensions?: Record<string, unknown> })
      .extensions;
    if (revision === '2026-07-28') expect(extensions?.['io.modelcontextprotocol/ui']).toEqual({});
    else expect(extensions).toBeUndefined();
  });

  it('is a text server to a client without the extension', async () => {
    const { client } = await connect(appServer(), revision, false);
    const tools = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['get-sum']);
    expect(await client.callTool('get-sum', {})).toMatchObject({
      content: [{ type: 'text', text: 'The sum is 3.' }],
    });
    const refused = client.callTool('sum-history', {});
    await expect(refused).rejects.toBeInstanceOf(JsonRpcError);
    await expect(refused).rejects.toMatchObject({ code: -32602 });
  });
});

describe('a view', () => {
  it('comes from a file, a built script or a function, read as the server serves it', async () => {
    const file = join(dir, 'view.html');
    writeFileSync(file, '<!doctype html><p>from a file</p>');
    const bundle = join(dir, 'view.js');
    writeFileSync(bundle, 'document.body.textContent = "</script> safe";');
    const server = new McpServer({ name: 'sources', version: '1.0.0' });
    const ui = apps();
    const fromFile = ui.view({ uri: 'ui://s/file', name: 'file', html: { file } });
    const fromBundle = ui.view({ uri: 'ui://s/bundle', name: 'bundle', html: { bundle } });
    const fromFunction = ui.view({ uri: 'ui://s/fn', name: 'fn', html: () => '<p>made</p>' });
    server.extend(ui);
    for (const view of [fromFile, fromBundle, fromFunction]) {
      server.tool({ name: view.uri.slice(7).replace('/', '-'), _meta: view.link() }, () => 'ok');
    }
    const { client, views } = await connect(server, '2026-07-28', true);
    const tools = await client.listTools();
    const html = await Promise.all(tools.map(async (tool) => (await views?.view(tool))?.html));
    expect(html[0]).toBe('<!doctype html><p>from a file</p>');
    expect(html[1]).toContain(
      '<script type="module">document.body.textContent = "<\\/script> safe";',
    );
    expect(html[2]).toBe('<p>made</p>');
  });

  it('is refused when its URI, name or source is wrong, or declared twice', () => {
    const ui = apps();
    expect(() => ui.view({ uri: 'https://x', name: 'x', html: '' })).toThrow(/ui:\/\/ URI/);
    expect(() => ui.view({ uri: 'ui://x', name: '', html: '' })).toThrow(/needs a name/);
    expect(() => ui.view({ uri: 'ui://x', name: 'x', html: 7 as never })).toThrow(/html is/);
    const view = ui.view({ uri: 'ui://x', name: 'x', html: '' });
    expect(() => ui.view({ uri: 'ui://x', name: 'x', html: '' })).toThrow(/declared already/);
    expect(() => view.link({ visibility: [] })).toThrow(/visibility/);
    // A URI the server serves already: refused, and the view is not left half declared.
    const server = new McpServer({ name: 'taken', version: '1.0.0' });
    server.resource({ uri: 'ui://taken/view', name: 'taken' }, () => 'text');
    server.extend(ui);
    const taken = { uri: 'ui://taken/view', name: 'taken', html: '' };
    expect(() => ui.view(taken)).toThrow(/already registered/);
    expect(() => ui.view(taken)).toThrow(/already registered/);
    expect(() => view.link({ visibility: ['robot' as never] })).toThrow(/visibility/);
  });

  it('a view too large, or not HTML, is refused by the client', async () => {
    const server = new McpServer({ name: 'big', version: '1.0.0' });
    const ui = apps();
    server.extend(ui);
    const big = ui.view({ uri: 'ui://big/view', name: 'big', html: 'x'.repeat(4096) });
    server.tool({ name: 'big', _meta: big.link() }, () => 'ok');
    server.resource({ uri: 'ui://big/text', name: 'text' }, () => 'plain text');
    server.tool({ name: 'plain', _meta: { ui: { resourceUri: 'ui://big/text' } } }, () => 'ok');
    const running = await listen(() => server);
    const client = new Client({ name: 'small', version: '1.0.0' });
    const views = client.extend(appsClient({ maxViewBytes: 1024 }));
    await client.connect(createStreamableHttpClientTransport(running.url));
    cleanups.push(async () => {
      await client.close();
      await running.close();
    });
    const [bigTool, plainTool] = await client.listTools();
    await expect(views.view(bigTool ?? {})).rejects.toMatchObject({ code: 'PROTOCOL_VIOLATION' });
    await expect(views.view(plainTool ?? {})).rejects.toThrow(/must be text\/html;profile=mcp-app/);
  });
});
