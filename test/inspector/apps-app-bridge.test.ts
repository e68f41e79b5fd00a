// mcpkit's MCP Apps rendered by a host made of the official pieces only (test/fixtures/apps/
// official-host-page.ts: the official SDK v2 client and @modelcontextprotocol/ext-apps/app-bridge's
// AppBridge, PostMessageTransport, getToolUiResourceUri, buildAllowAttribute), in Chromium: a
// page served on 127.0.0.1 by the test next to mcpkit's everything server (Streamable HTTP, same
// origin) renders the sum form and the weather chart; the views initialize with AppBridge, show
// the tool's result, and their tools/call reaches the server through AppBridge's forwarding.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createEverythingServer } from '../../servers/everything/server.js';
import { createNodeHandler } from '../../src/transports/http/server/node.js';
import { chromiumMissing, look, screenshot } from '../helpers/browser.js';
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

/** The official client's eras: its default (legacy, 2025-11-25) or pinned to 2026-07-28. */
const ERAS = ['2025-11-25', '2026-07-28'] as const;
type Era = (typeof ERAS)[number];

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
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><html><head><meta charset="utf-8"><title>AppBridge host</title></head>
<body data-tool=${tool} data-args=${args}${pin === null ? '' : ` data-pin=${attribute(pin)}`}><h1>AppBridge host</h1><ul id="log" aria-label="Host log"></ul>
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

/** Opens the host page for `tool` called with `args`; resolves with the page and its view. */
async function openHost(
  suite: ReturnType<typeof chromiumSuite>,
  origin: string,
  tool: string,
  args: Record<string, unknown>,
  era: Era,
): Promise<{ page: Page; view: FrameLocator }> {
  const context = await suite.browser.newContext();
  suite.cleanups.add(() => context.close());
  const page = await context.newPage();
  const query = new URLSearchParams({ tool, args: JSON.stringify(args) });
  if (era === '2026-07-28') query.set('pin', era);
  await page.goto(`${origin}/host?${query.toString()}`);
  return { page, view: page.frameLocator('iframe[title="App view"]') };
}

describe.skipIf(chromiumMissing !== undefined)(
  suiteName("mcpkit's Apps through the official AppBridge host pieces", chromiumMissing),
  { timeout: 90_000 },
  () => {
    const suite = chromiumSuite();
    const { cleanups } = suite;

    for (const era of ERAS) {
      it(`renders the sum form; its Add reaches the server through AppBridge (${era})`, async () => {
        const { origin, calls } = await startHost(cleanups);
        const { page, view } = await openHost(suite, origin, 'get-sum', { a: 2, b: 3 }, era);
        const log = page.getByRole('list', { name: 'Host log' });
        await look(log).toContainText('connected to everything');
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
        await screenshot(page, `apps-official-app-bridge-${era}`);
        // The host's own call, then the view's, forwarded by AppBridge to the official client.
        expect(calls.map((c) => c.params)).toEqual([
          { name: 'get-sum', arguments: { a: 2, b: 3 } },
          { name: 'get-sum', arguments: { a: 7, b: 8 } },
        ]);
        for (const call of calls) {
          expect(call).toMatchObject({
            client: 'official-app-bridge-host',
            apps: { mimeTypes: ['text/html;profile=mcp-app'] },
            era: era === '2026-07-28' ? 'modern' : 'legacy',
            revision: era,
          });
        }
        await look(log).not.toContainText('failed');
      });

      it(`renders the weather chart, redrawn for a city chosen in the view (${era})`, async () => {
        const { origin, calls } = await startHost(cleanups);
        const { view } = await openHost(
          suite,
          origin,
          'get-structured-content',
          {
            location: 'Los Angeles',
          },
          era,
        );
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
