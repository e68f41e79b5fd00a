// mcpkit's MCP Apps rendered by a host built on the official App SDK's host side
// (test/fixtures/apps/official-host-page.ts: @modelcontextprotocol/ext-apps/app-bridge's AppBridge,
// PostMessageTransport, getToolUiResourceUri, buildAllowAttribute), in Chromium, both eras: a page
// served on 127.0.0.1 by the test next to mcpkit's everything server (Streamable HTTP, same origin)
// renders the sum form and the weather chart; the views initialize with AppBridge, show the
// tool's result, and their tools/call reaches the server. Two MCP clients behind AppBridge: the
// official SDK v2 client in the page (AppBridge forwards to it), and mcpkit's Client with
// appsClient() in the test (the view read with appsClient().view, its CSP applied; AppBridge's
// oncalltool passes the view's calls on).
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createEverythingServer } from '../../servers/everything/server.js';
import { Client } from '../../src/client/index.js';
import { appsClient } from '../../src/ext/apps/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/index.js';
import { createNodeHandler } from '../../src/transports/http/server/node.js';
import { chromiumMissing, look, screenshot } from '../helpers/browser.js';
import type { ShownView } from '../fixtures/apps/official-host-page.js';
import { bundleForBrowser } from './bundle.js';
import type { Cleanups } from './harness.js';
import { chromiumSuite, suiteName } from './harness.js';

const HOST_PAGE = fileURLToPath(new URL('../fixtures/apps/official-host-page.ts', import.meta.url));

/** A tools/call the everything server ran: who asked, in which era, with what. */
interface SeenCall {
  client: string | undefined;
  /** What the client declared under io.modelcontextprotocol/ui. */
  apps: unknown;
  era: string;
  revision: string | undefined;
  params: Record<string, unknown>;
}

/** `text` as a quoted HTML attribute value. */
function attribute(text: string): string {
  const entities: Record<string, string> = { '&': '&amp;', '"': '&quot;', '<': '&lt;' };
  return `"${text.replace(/[&"<]/g, (c) => entities[c] ?? c)}"`;
}

/** The eras: the official client's default (legacy, 2025-11-25), or pinned to 2026-07-28. */
const ERAS = ['2025-11-25', '2026-07-28'] as const;
type Era = (typeof ERAS)[number];

/** The MCP client behind AppBridge, and the name it gives the server. */
const BACKENDS = {
  official: 'official-app-bridge-host',
  mcpkit: 'mcpkit-app-bridge-host',
} as const;
type Backend = keyof typeof BACKENDS;

let hostScript: Promise<string> | undefined;

/**
 * mcpkit's everything server and the host page on one loopback origin: `/mcp` is the server's
 * Streamable HTTP endpoint, `/host?tool=&args=` the page. Resolves with the origin and the
 * server's tools/call requests as they arrive.
 */
async function startHost(cleanups: Cleanups): Promise<{ origin: string; calls: SeenCall[] }> {
  hostScript ??= bundleForBrowser(HOST_PAGE);
  const script = await hostScript;
  const everything = createEverythingServer({ updateIntervalMs: 100, researchStepMs: 10 });
  await everything.ready;
  const calls: SeenCall[] = [];
  everything.server.use((ctx, next) => {
    if (ctx.method === 'tools/call') {
      const apps = ctx.client?.capabilities.extensions?.['io.modelcontextprotocol/ui'];
      // The tool and its arguments (a 2026-07-28 request's _meta envelope left out).
      const params = { name: ctx.params['name'], arguments: ctx.params['arguments'] };
      calls.push({
        client: ctx.client?.info?.name,
        apps,
        era: ctx.era,
        revision: ctx.revision,
        params,
      });
    }
    return next();
  });
  const mcp = createNodeHandler(() => everything.server);
  const http: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/host') {
      mcp(req, res);
      return;
    }
    const tool = attribute(url.searchParams.get('tool') ?? '');
    const args = attribute(url.searchParams.get('args') ?? '{}');
    const pin = url.searchParams.get('pin');
    const backend = attribute(url.searchParams.get('backend') ?? 'official');
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><html><head><meta charset="utf-8"><title>AppBridge host</title></head>
<body data-backend=${backend} data-tool=${tool} data-args=${args}${pin === null ? '' : ` data-pin=${attribute(pin)}`}><h1>AppBridge host</h1><ul id="log" aria-label="Host log"></ul>
<div id="views"></div><script type="module">${script}</script></body></html>`);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  cleanups.add(() => everything.close());
  cleanups.add(
    () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => {
          resolve();
        });
      }),
  );
  const address = http.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { origin: `http://127.0.0.1:${String(port)}`, calls };
}

/**
 * mcpkit's Client with appsClient(), pinned to `era`, exposed to the page as `mcpkitView` (the
 * tool's view read with appsClient().view, its CSP, and the call's result) and `mcpkitCall`.
 */
async function exposeMcpkit(page: Page, cleanups: Cleanups, origin: string, era: Era) {
  const client = new Client({ name: BACKENDS.mcpkit, version: '1.0.0' }, { mode: { pin: era } });
  const views = client.extend(appsClient());
  await client.connect(createStreamableHttpClientTransport(`${origin}/mcp`));
  cleanups.add(() => client.close());
  await page.exposeFunction(
    'mcpkitView',
    async (name: string, args: Record<string, unknown>): Promise<ShownView> => {
      const tool = (await client.listTools()).find((t) => t.name === name);
      const view = tool === undefined ? undefined : await views.view(tool);
      if (view === undefined) throw new Error(`${name} has no view`);
      const result = await client.callTool(name, args);
      return {
        uri: view.uri,
        html: view.html,
        csp: view.csp,
        ...(view.meta.permissions === undefined ? {} : { permissions: view.meta.permissions }),
        result,
      };
    },
  );
  await page.exposeFunction(
    'mcpkitCall',
    (params: { name: string; arguments?: Record<string, unknown> | undefined }) =>
      client.callTool(params.name, params.arguments ?? {}),
  );
}

/** What a test opens: the host page for `tool` called with `args`. */
interface HostRun {
  readonly origin: string;
  readonly backend: Backend;
  readonly era: Era;
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

/** Opens the host page; resolves with the page and its view. */
async function openHost(
  suite: ReturnType<typeof chromiumSuite>,
  run: HostRun,
): Promise<{ page: Page; view: FrameLocator }> {
  const context = await suite.browser.newContext();
  suite.cleanups.add(() => context.close());
  const page = await context.newPage();
  const query = new URLSearchParams({
    tool: run.tool,
    args: JSON.stringify(run.args),
    backend: run.backend,
  });
  if (run.backend === 'mcpkit') await exposeMcpkit(page, suite.cleanups, run.origin, run.era);
  else if (run.era === '2026-07-28') query.set('pin', run.era);
  await page.goto(`${run.origin}/host?${query.toString()}`);
  return { page, view: page.frameLocator('iframe[title="App view"]') };
}

describe.skipIf(chromiumMissing !== undefined)(
  suiteName("mcpkit's Apps through the official AppBridge host pieces", chromiumMissing),
  { timeout: 90_000 },
  () => {
    const suite = chromiumSuite();
    const { cleanups } = suite;

    for (const [backend, era] of ERAS.flatMap((e) =>
      (['official', 'mcpkit'] as const).map((b) => [b, e] as const),
    )) {
      const client = BACKENDS[backend];
      it(`renders the sum form; its Add reaches the server through AppBridge (${backend} client, ${era})`, async () => {
        const { origin, calls } = await startHost(cleanups);
        const { page, view } = await openHost(suite, {
          origin,
          backend,
          era,
          tool: 'get-sum',
          args: { a: 2, b: 3 },
        });
        const log = page.getByRole('list', { name: 'Host log' });
        if (backend === 'official') await look(log).toContainText('connected to everything');
        await look(log).toContainText('view ui://everything/sum-form');
        await look(log).toContainText('initialized everything-sum-form');
        await look(view.locator('#result')).toHaveText('The sum of 2 and 3 is 5.');
        await look(view.locator('#a')).toHaveValue('2');
        await look(view.locator('#b')).toHaveValue('3');
        // The view's size-changed reached the host through AppBridge's sizechange event.
        await expect
          .poll(() =>
            page
              .locator('iframe[title="App view"]')
              .evaluate((f) => (f as HTMLElement).style.height),
          )
          .toMatch(/^\d+px$/);

        await view.locator('#a').fill('7');
        await view.locator('#b').fill('8');
        await view.getByRole('button', { name: 'Add' }).click();
        await look(view.locator('#result')).toHaveText('The sum of 7 and 8 is 15.');
        await screenshot(page, `apps-official-app-bridge-${backend}-${era}`);
        // The host's own call, then the view's, passed on by AppBridge to the client.
        expect(calls.map((c) => c.params)).toEqual([
          { name: 'get-sum', arguments: { a: 2, b: 3 } },
          { name: 'get-sum', arguments: { a: 7, b: 8 } },
        ]);
        for (const call of calls) {
          expect(call).toMatchObject({
            client,
            apps: { mimeTypes: ['text/html;profile=mcp-app'] },
            era: era === '2026-07-28' ? 'modern' : 'legacy',
            revision: era,
          });
        }
        await look(log).not.toContainText('failed');
        if (backend === 'mcpkit') {
          // The view ran under the CSP appsClient() built (everything's views declare none).
          await look(view.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute(
            'content',
            /connect-src 'none'/,
          );
        }
      });

      it(`renders the weather chart, redrawn for a city chosen in the view (${backend} client, ${era})`, async () => {
        const { origin, calls } = await startHost(cleanups);
        const { view } = await openHost(suite, {
          origin,
          backend,
          era,
          tool: 'get-structured-content',
          args: { location: 'Los Angeles' },
        });
        await look(view.locator('#city')).toHaveValue('Los Angeles');
        await look(view.locator('#chart')).toContainText('Temperature °C: 28');
        await look(view.locator('#conditions')).toHaveText('Sunny');
        await expect.poll(() => view.locator('#chart .bar').count()).toBe(2);
        await view.locator('#city').selectOption('Chicago');
        await look(view.locator('#conditions')).toHaveText('Light rain');
        await look(view.locator('#chart')).toContainText('Humidity %: 82');
        expect(calls.at(-1)?.params).toEqual({
          name: 'get-structured-content',
          arguments: { location: 'Chicago' },
        });
      });
    }
  },
);
