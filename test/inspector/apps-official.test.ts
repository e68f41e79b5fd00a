// An MCP App served by the official SDK v2 (@modelcontextprotocol/server, createMcpHandler and
// @modelcontextprotocol/node) with the official ext-apps server helpers (registerAppTool,
// registerAppResource), its view built with the official App SDK (`App`), rendered by `mcpkit
// inspect` in Chromium: the view initializes with the inspector, is given the tool's input and
// result, and its button calls the server's app-only tool through the inspector's bridge.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { look, screenshot } from '../helpers/browser.js';
import { startOfficialAppsServer } from '../fixtures/official-apps-server.js';
import { transcriptOf, viewFrame } from './apps-view.js';
import { bundleForBrowser } from './bundle.js';
import {
  browserSkip,
  chromiumSuite,
  field,
  openInspector,
  openTab,
  resultRegion,
  selectTool,
  suiteName,
} from './harness.js';

const VIEW = fileURLToPath(new URL('../fixtures/apps/official-counter-view.ts', import.meta.url));

/** The counter view: the App SDK script bundled and inlined in an HTML page. */
async function counterHtml(): Promise<string> {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Counter</title></head>
<body><h1>Counter</h1><p id="status">starting</p><p id="input"></p><p id="count"></p>
<button id="up">Count up</button>
<script type="module">${await bundleForBrowser(VIEW)}</script></body></html>`;
}

describe.skipIf(browserSkip !== undefined)(
  suiteName('mcpkit inspect in Chromium: an official SDK v2 + ext-apps server'),
  { timeout: 90_000 },
  () => {
    const suite = chromiumSuite();
    const { cleanups } = suite;

    for (const mode of ['2025-11-25', '2026-07-28'] as const) {
      it(`renders its App SDK view, whose button calls a tool (${mode})`, async () => {
        const official = await startOfficialAppsServer(await counterHtml());
        cleanups.add(() => official.close());
        const { page, inspector } = await openInspector(suite.browser, cleanups, {
          target: { kind: 'url', url: official.url, headers: {} },
          mode,
        });
        // The helpers' app-only tool is marked as such in the list.
        await look(page.getByRole('button', { name: /^count-up/ })).toContainText('app-only');
        const form = await selectTool(page, 'count-start');
        await field(form, 'start').fill('41');
        await page.getByRole('button', { name: 'Call', exact: true }).click();
        await look(resultRegion(page)).toContainText('Count is 41');

        const view = viewFrame(page);
        await look(view.locator('#status')).toHaveText('connected to mcpkit-inspector');
        await look(view.locator('#input')).toHaveText('{"start":41}');
        await look(view.locator('#count')).toHaveText('Count is 41');
        await view.getByRole('button', { name: 'Count up' }).click();
        await look(view.locator('#count')).toHaveText('Count is 42');
        await view.getByRole('button', { name: 'Count up' }).click();
        await look(view.locator('#count')).toHaveText('Count is 43');
        expect(official.countUps).toEqual([{ by: 1 }, { by: 1 }]);
        // The inspector declares the extension (client.extend(appsClient())): in 2026-07-28 the
        // server reads it from the request; in 2025-11-25 it is in the initialize (the official
        // legacy fallback is stateless: its servers never see an initialize).
        const declaration = { mimeTypes: ['text/html;profile=mcp-app'] };
        if (mode === '2026-07-28') expect(official.declared).toEqual([declaration]);
        const transcript = await transcriptOf(inspector);
        expect(transcript).toContain(`"io.modelcontextprotocol/ui":${JSON.stringify(declaration)}`);
        if (mode === '2026-07-28') await screenshot(page, 'apps-official-v2-server');

        await openTab(page, 'Wire');
        const log = page.getByRole('log', { name: 'Wire log' });
        for (const line of [
          'app >> ui/initialize #',
          'app >> tools/call',
          'app << tools/call result',
        ]) {
          await look(log).toContainText(line);
        }
        const state = (await fetch(`${inspector.origin}/api/state`, {
          headers: { 'x-mcpkit-token': inspector.token },
        }).then((r) => r.json())) as { revision?: string };
        expect(state.revision).toBe(mode);
      });
    }
  },
);
