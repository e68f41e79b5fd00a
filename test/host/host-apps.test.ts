// The host (#38 point 4) with MCP Apps servers: real stdio processes (test/gateway/fixtures/
// apps-upstream.mjs, each with a view at `ui://view`, a model+app tool and an app-only tool) and
// the gateway in front of two of them over HTTP on 127.0.0.1, a fake model API on 127.0.0.1.
// App-only tools never reach the model (its tools, search_tools, the budget); the call record
// of a UI tool carries its view, read once per URI and connection, and size-capped.
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Gateway, parseGatewayConfig } from '../../src/gateway/index.js';
import type { Host, HostOptions, ServerConfig } from '../../src/host/index.js';
import { listen } from '../../src/transports/http/server/node.js';
import type { FakeModel, Step } from '../helpers/fake-model.js';
import { fakeHost, startFakeModel } from '../helpers/fake-model.js';

const UPSTREAM = fileURLToPath(new URL('../gateway/fixtures/apps-upstream.mjs', import.meta.url));
const MIME = 'text/html;profile=mcp-app';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function upstream(options: Record<string, unknown>): ServerConfig & { command: string } {
  return { command: process.execPath, args: [UPSTREAM, JSON.stringify(options)] };
}

const SERVERS = { a: upstream({ name: 'a' }), b: upstream({ name: 'b', flat: true }) };

async function fake(script: Step[]): Promise<FakeModel> {
  const model = await startFakeModel(script);
  cleanups.push(() => model.close());
  return model;
}

async function host(
  model: FakeModel,
  servers: Record<string, ServerConfig>,
  options: Partial<HostOptions> = {},
): Promise<Host> {
  const created = fakeHost('anthropic', model, servers, options);
  cleanups.push(() => created.close());
  await created.connect();
  return created;
}

function meta(name: string) {
  return { csp: { connectDomains: [`https://${name}.example.com`] }, prefersBorder: true };
}

describe('the host with MCP Apps servers', () => {
  it('offers no app-only tool to the model and puts each UI call’s view on its record', async () => {
    const model = await fake([
      (seen) => {
        expect(seen.tools.sort()).toEqual(['a__caps', 'a__show', 'b__caps', 'b__show']);
        return { toolCalls: [{ name: 'a__show' }, { name: 'b__show' }, { name: 'a__refresh' }] };
      },
      { toolCalls: [{ name: 'a__show' }, { name: 'a__caps' }] },
      { text: 'done' },
    ]);
    const events: unknown[] = [];
    const h = await host(model, SERVERS, { views: true, onEvent: (e) => events.push(e) });
    expect(h.tools.map((tool) => tool.name).sort()).toEqual([
      'a__caps',
      'a__show',
      'b__caps',
      'b__show',
    ]);
    expect((await h.toolCosts()).map((cost) => cost.tools)).toEqual([2, 2]);
    const result = await h.run([{ role: 'user', content: 'show me' }]);
    expect(model.problems).toEqual([]);
    const [aShow, bShow, refresh, aAgain, caps] = result.calls;
    expect(aShow?.view).toEqual({
      uri: 'ui://view',
      html: expect.stringContaining('<h1>view of a</h1>') as string,
      meta: meta('a'),
    });
    // b links its view with the deprecated flat key.
    expect(bShow?.view?.html).toContain('<h1>view of b</h1>');
    expect(bShow?.view?.meta).toEqual(meta('b'));
    // The model cannot call an app-only tool: it is not in its namespace.
    expect(refresh?.server).toBeUndefined();
    expect(refresh?.shaped.isError).toBe(true);
    expect(refresh?.view).toBeUndefined();
    expect(aAgain?.view).toEqual(aShow?.view);
    expect(caps?.view).toBeUndefined();
    // Read once per URI and connection; the extension was declared at initialize.
    const seen = JSON.parse((caps?.result?.content[0] as { text: string }).text) as {
      reads: number;
      capabilities: { extensions?: Record<string, unknown> };
    };
    expect(seen.reads).toBe(1);
    expect(seen.capabilities.extensions?.['io.modelcontextprotocol/ui']).toEqual({
      mimeTypes: [MIME],
    });
    const results = events.filter((e) => (e as { type: string }).type === 'tool_result');
    expect((results[0] as { view?: unknown }).view).toEqual(aShow?.view);
  }, 30_000);

  it('keeps app-only tools out of search_tools and the budget', async () => {
    const model = await fake([
      (seen) => {
        expect(seen.tools).toEqual(['search_tools']);
        return { toolCalls: [{ name: 'search_tools', arguments: { query: 'refreshes button' } }] };
      },
      (seen) => {
        expect(seen.results[0]?.text).toBe(
          'No tool matches "refreshes button". Try other keywords.',
        );
        return { toolCalls: [{ name: 'search_tools', arguments: { query: 'view', limit: 20 } }] };
      },
      (seen) => {
        expect(seen.tools.sort()).toEqual(['a__show', 'b__show', 'search_tools']);
        return { text: 'done' };
      },
    ]);
    const h = await host(model, SERVERS, { views: true, toolBudget: 10 });
    await h.run([{ role: 'user', content: 'find' }]);
    expect(model.problems).toEqual([]);
  }, 30_000);

  it('declares nothing and reads no view with views off', async () => {
    const model = await fake([
      (seen) => {
        // The servers list their UI tools only to a host that declares the extension.
        expect(seen.tools.sort()).toEqual(['a__caps', 'b__caps']);
        return { toolCalls: [{ name: 'a__caps' }] };
      },
      { text: 'done' },
    ]);
    const h = await host(model, SERVERS);
    const result = await h.run([{ role: 'user', content: 'go' }]);
    expect(result.calls[0]?.view).toBeUndefined();
    expect(model.problems).toEqual([]);
  }, 30_000);

  it('leaves a view above the cap out, with a note', async () => {
    const model = await fake([{ toolCalls: [{ name: 'show' }] }, { text: 'done' }]);
    const big = { big: upstream({ name: 'big', viewBytes: 5000 }) };
    const h = await host(model, big, { views: { maxBytes: 4096 } });
    const result = await h.run([{ role: 'user', content: 'go' }]);
    const view = result.calls[0]?.view;
    expect(view?.html).toBeUndefined();
    expect(view?.note).toMatch(/^the view is \d+ bytes, above the cap of 4096; it was left out$/);
  }, 30_000);

  it('gets the views of two upstreams through the gateway, each under its own URI', async () => {
    const gateway = await Gateway.start(parseGatewayConfig({ mcpServers: SERVERS }), {
      timing: { pingIntervalMs: 0 },
    });
    const served = await listen(() => gateway.server);
    cleanups.push(async () => {
      await served.close();
      await gateway.close();
    });
    const model = await fake([
      (seen) => {
        expect(seen.tools.sort()).toEqual(['a__caps', 'a__show', 'b__caps', 'b__show']);
        return { toolCalls: [{ name: 'a__show' }, { name: 'b__show' }] };
      },
      { text: 'done' },
    ]);
    const h = await host(model, { gw: { url: served.url } }, { views: true });
    const result = await h.run([{ role: 'user', content: 'show both' }]);
    const [a, b] = result.calls;
    expect(a?.view?.uri).toBe('ui://a/view');
    expect(a?.view?.html).toContain('<h1>view of a</h1>');
    expect(a?.view?.meta).toEqual(meta('a'));
    expect(b?.view?.uri).toBe('ui://b/view');
    expect(b?.view?.html).toContain('<h1>view of b</h1>');
    expect(model.problems).toEqual([]);
  }, 30_000);
});
