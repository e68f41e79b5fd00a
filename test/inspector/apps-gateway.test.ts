// `mcpkit inspect` in Chromium pointed at `mcpkit gateway` (issue #38, "the gateway in front of
// two upstreams with Apps, each view rendered through it"), in both eras: the gateway (in process,
// Streamable HTTP on 127.0.0.1) fronts two real stdio upstreams (test/gateway/fixtures/
// apps-upstream.mjs, `a` and `b`, each with its own `ui://view`). Each upstream's model+app tool
// called from the inspector renders that upstream's own view under the gateway's URI
// (`ui://<upstream>/view`); the view's button calls its own upstream's app-only tool through the
// bridge and shows the result. Its call of the other upstream's app-only tool should be refused:
// it is not yet (the `it.todo` below).
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import type { FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { Gateway, parseGatewayConfig } from '../../src/gateway/index.js';
import { listen } from '../../src/transports/http/server/node.js';
import type { TestBrowser } from '../helpers/browser.js';
import { look } from '../helpers/browser.js';
import { callTool, transcriptOf, viewFrame } from './apps-view.js';
import type { Cleanups, Opened } from './harness.js';
import { browserSkip, chromiumSuite, openInspector, resultRegion, suiteName } from './harness.js';

const UPSTREAM = fileURLToPath(new URL('../gateway/fixtures/apps-upstream.mjs', import.meta.url));

function upstream(options: Record<string, unknown>) {
  return { command: process.execPath, args: [UPSTREAM, JSON.stringify(options)] };
}

/** `a` links its view with `_meta.ui`, `b` with the deprecated flat key and leaves it unlisted. */
const CONFIG = {
  mcpServers: {
    a: upstream({ name: 'a' }),
    b: upstream({ name: 'b', flat: true, unlisted: true }),
  },
};

/** The gateway of CONFIG served over Streamable HTTP on 127.0.0.1 (closed at cleanup). */
async function startGateway(cleanups: Cleanups): Promise<string> {
  const gateway = await Gateway.start(parseGatewayConfig(CONFIG), {
    timing: { pingIntervalMs: 0 },
  });
  cleanups.add(() => gateway.close());
  const served = await listen(() => gateway.server);
  cleanups.add(() => served.close());
  return served.url;
}

const ERAS = ['2025-11-25', '2026-07-28'] as const;

/** The inspector pinned to `era`, connected to a new gateway of CONFIG. */
async function openThroughGateway(
  browser: TestBrowser,
  cleanups: Cleanups,
  era: (typeof ERAS)[number],
): Promise<Opened> {
  const url = await startGateway(cleanups);
  return openInspector(browser, cleanups, { target: { kind: 'url', url, headers: {} }, mode: era });
}

/**
 * Calls `upstream`'s model+app tool through the gateway from its form; resolves with its view once
 * it shows that upstream's own HTML, under the gateway's URI, given the call's result.
 */
async function showView(page: Page, upstream: string): Promise<FrameLocator> {
  await callTool(page, `${upstream}__show`);
  await look(resultRegion(page)).toContainText(`${upstream}: shown`);
  const region = page.getByRole('region', { name: 'App view' });
  await look(region.locator('.app-uri')).toHaveText(`ui://${upstream}/view`);
  const view = viewFrame(page, `ui://${upstream}/view`);
  await look(view.locator('h1')).toHaveText(`view of ${upstream}`);
  await look(view.locator('#result')).toHaveText(`${upstream}: shown`);
  return view;
}

describe.skipIf(browserSkip !== undefined)(
  suiteName('mcpkit inspect in Chromium: MCP Apps through mcpkit gateway'),
  { timeout: 90_000 },
  () => {
    const suite = chromiumSuite();
    const { cleanups } = suite;

    for (const era of ERAS) {
      it(`renders each upstream's view under its gateway URI and bridges its calls (${era})`, async () => {
        const { page, inspector } = await openThroughGateway(suite.browser, cleanups, era);
        for (const own of ['a', 'b']) {
          const view = await showView(page, own);
          // Its button calls its own upstream's app-only tool, named as the gateway serves it.
          await look(view.locator('#tool')).toHaveValue(`${own}__refresh`);
          await view.locator('#call').click();
          await look(view.locator('#called')).toHaveText(`${own}: refreshed`);
        }
        const transcript = await transcriptOf(inspector);
        for (const name of ['a', 'b']) {
          expect(transcript).toContain(`"uri":"ui://${name}/view"`);
          expect(transcript).toContain(`"text":"${name}: refreshed"`);
        }
        expect(transcript).not.toContain('"uri":"ui://view"');
      });

      // Known gap (docs/gateway.md, Limits): behind the gateway both upstreams are one server
      // to the inspector, which lets a view call any app-visible tool of its connection
      // (src/cli/inspect/apps.ts callRefusal), so a's view calling b__refresh gets "b: refreshed".
      it.todo(`refuses a view's call of the other upstream's app-only tool (${era})`);
    }
  },
);
