// `mcpkit inspect` as an MCP Apps host (io.modelcontextprotocol/ui, 2026-01-26) in Chromium: the
// view of a tool (test/fixtures/apps-server.ts) rendered after a call through the sandbox proxy
// on another origin, in both eras; its button calling an app-only tool through the bridge; a
// model-only tool refused; ui/message and ui/open-link shown to the person; every ui/* message in
// the wire log; a view built with the official App SDK; and a hostile view, contained.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { listen } from '../../src/transports/http/server/node.js';
import { createAppsServer } from '../fixtures/apps-server.js';
import type { AppsServerOptions } from '../fixtures/apps-server.js';
import { look, screenshot } from '../helpers/browser.js';
import { callTool, transcriptOf, viewFrame } from './apps-view.js';
import { bundleForBrowser } from './bundle.js';
import type { Cleanups } from './harness.js';
import {
  browserSkip,
  chromiumSuite,
  openInspector,
  openTab,
  resultRegion,
  suiteName,
} from './harness.js';

const SDK_VIEW = fileURLToPath(new URL('../fixtures/apps/sdk-view.ts', import.meta.url));

/** The fixture server over Streamable HTTP on 127.0.0.1; resolves with its URL. */
async function startApps(cleanups: Cleanups, options: AppsServerOptions = {}): Promise<string> {
  const server = createAppsServer(options);
  const http = await listen(() => server);
  cleanups.add(() => server.close());
  cleanups.add(() => http.close());
  return http.url;
}

/** The view written with the official App SDK, bundled by esbuild into one HTML page. */
async function sdkViewHtml(): Promise<string> {
  const script = await bundleForBrowser(SDK_VIEW);
  return `<!doctype html><html><head><meta charset="utf-8"><title>SDK view</title></head>
<body><h1>SDK view</h1><p id="status">starting</p><p>Result: <span id="result"></span></p>
<button id="refresh">Refresh</button><p id="refreshed"></p>
<script type="module">${script}</script></body></html>`;
}

describe.skipIf(browserSkip !== undefined)(
  suiteName('mcpkit inspect in Chromium: MCP Apps'),
  { timeout: 90_000 },
  () => {
    const suite = chromiumSuite();
    const { cleanups } = suite;

    for (const era of ['2025-11-25', '2026-07-28'] as const) {
      it(`renders a tool's view and bridges its calls (${era})`, async () => {
        const url = await startApps(cleanups);
        const { page, inspector } = await openInspector(suite.browser, cleanups, {
          target: { kind: 'url', url, headers: {} },
          mode: era,
        });
        expect(new URL(inspector.sandboxOrigin).origin).not.toBe(new URL(inspector.origin).origin);
        // The list marks the app-only tool; its panel says what that means.
        await look(page.getByRole('button', { name: /^refresh-greeting/ })).toContainText(
          'app-only',
        );
        await callTool(page, 'greet', { name: 'Ada' });
        await look(resultRegion(page)).toContainText('Hello, Ada!');

        const region = page.getByRole('region', { name: 'App view' });
        const outer = region.locator('iframe[title^="MCP App"]');
        await look(outer).toHaveAttribute('sandbox', 'allow-scripts allow-same-origin');
        await look(outer).toHaveAttribute('src', new RegExp(`^${inspector.sandboxOrigin}/proxy`));
        const view = viewFrame(page);
        await look(view.locator('#result')).toHaveText('Hello, Ada!');
        await look(view.locator('#input')).toHaveText('{"name":"Ada"}');
        await look(view.locator('#status')).toContainText(
          'host mcpkit-inspector, protocol 2026-01-26, web, inline',
        );
        await look(view.locator('#status')).toContainText('tool greet');
        // size-changed: the frame took the view's height.
        const reported = /height (\d+)/.exec(await view.locator('#size').innerText())?.[1];
        expect(Number(reported)).not.toBe(240);
        await expect
          .poll(() => outer.evaluate((el) => (el as HTMLIFrameElement).style.height))
          .toBe(`${String(reported)}px`);

        await view.locator('#refresh').click();
        await look(view.locator('#refreshed')).toHaveText('Refreshed 1 time(s)');
        await view.locator('#model-only').click();
        await look(view.locator('#refused')).toContainText('refused -32600');
        await look(view.locator('#refused')).toContainText('not callable by apps');

        await view.locator('#say').click();
        await look(region.getByRole('list', { name: 'Requests of the view' })).toContainText(
          'Hello from the view',
        );
        await view.locator('#link').click();
        const deny = region.getByRole('button', { name: 'Deny' });
        await look(deny).toBeVisible();
        await look(region).toContainText('https://modelcontextprotocol.io/');
        await screenshot(page, `apps-view-${era}`);
        await deny.click();
        await look(view.locator('#refused')).toHaveText('link Link opening denied by user');

        await view.locator('#full').click();
        await look(view.locator('#mode')).toHaveText('mode fullscreen');
        await page.getByRole('button', { name: 'Exit full screen' }).click();
        await look(view.locator('#mode')).toHaveText('mode inline');

        await region.getByRole('button', { name: 'Close view' }).click();
        await look(region).toBeHidden();

        await openTab(page, 'Wire');
        const log = page.getByRole('log', { name: 'Wire log' });
        for (const line of [
          'app >> ui/notifications/sandbox-proxy-ready',
          'app << ui/notifications/sandbox-resource-ready',
          'app >> ui/initialize #1',
          'app << ui/initialize result #1',
          'app >> ui/notifications/initialized',
          'app << ui/notifications/tool-input',
          'app << ui/notifications/tool-result',
          'app >> tools/call',
          'app << tools/call error',
          'app >> ui/message',
          'app >> ui/open-link',
          'app >> ui/request-display-mode',
          'app << ui/notifications/host-context-changed',
          'app >> ui/notifications/size-changed',
          'app << ui/resource-teardown',
          '>> resources/read',
        ]) {
          await look(log).toContainText(line);
        }
        // The MCP transcript has the extension declared, and none of the app channel.
        const transcript = await transcriptOf(inspector);
        expect(transcript).toContain(
          '"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}',
        );
        expect(transcript).toContain('"method":"tools/call","params":{"name":"refresh-greeting"');
        // The model-only tool never reached the server: the host refused it.
        expect(transcript).not.toContain('"method":"tools/call","params":{"name":"model-secret"');
        expect(transcript).not.toMatch(/"method":"ui\//);
      });
    }

    it('runs a view written with the official App SDK', async () => {
      const url = await startApps(cleanups, { sdkViewHtml: await sdkViewHtml() });
      const { page } = await openInspector(suite.browser, cleanups, {
        target: { kind: 'url', url, headers: {} },
      });
      await callTool(page, 'sdk-greet', { name: 'Grace' });
      const view = viewFrame(page);
      await look(view.locator('#status')).toHaveText('SDK connected to mcpkit-inspector (web)');
      await look(view.locator('#result')).toHaveText('Hello from the SDK view, Grace!');
      await view.locator('#refresh').click();
      await look(view.locator('#refreshed')).toHaveText('Refreshed 1 time(s)');
      await screenshot(page, 'apps-sdk-view');
    });

    it('contains a hostile view, and the page keeps working', async () => {
      const { page, inspector } = await openInspector(suite.browser, cleanups);
      const url = await startApps(cleanups, { inspectorOrigin: inspector.origin });
      await inspector.connect({ kind: 'url', url, headers: {} });
      const undeclared = new URL(url).origin;
      await callTool(page, 'hostile', { inspector: inspector.origin, undeclared: `${url}?x=1` });
      const view = viewFrame(page);
      await look(view.locator('#done')).toBeVisible();
      for (const attempt of [
        'api-no-token',
        'api-guessed-token',
        'undeclared-connect',
        'parent-dom',
        'top-dom',
        'storage',
        'cookie',
        'top-navigation',
      ]) {
        await look(view.locator(`#${attempt}`)).toContainText(`${attempt}: blocked`);
      }
      await look(view.locator('#violations')).toContainText(
        `csp connect-src blocked ${undeclared}`,
      );
      // top.location: the page is still the inspector.
      expect(new URL(page.url()).origin).toBe(inspector.origin);
      const region = page.getByRole('region', { name: 'App view' });
      const dropped = region.getByRole('status');
      await look(dropped).toContainText('message too large');
      await look(dropped).toContainText('too many messages');
      const count = Number(/(\d+) × too many/.exec(await dropped.innerText())?.[1]);
      expect(count).toBeGreaterThan(9000);
      // The reserved sandbox message never reached the host, and the view stayed.
      await look(view.locator('h1')).toHaveText('Hostile view');

      // The view still works through the bridge, and so does the page.
      await view.locator('#refresh').click();
      await look(view.locator('#refreshed')).toHaveText('Refreshed 1 time(s)');
      await screenshot(page, 'apps-hostile');
      await callTool(page, 'greet', { name: 'Lin' });
      await look(resultRegion(page)).toContainText('Hello, Lin!');
      await openTab(page, 'Wire');
      await look(page.getByRole('log', { name: 'Wire log' })).toContainText('app >> dropped');
    });
  },
);
