// The everything reference server's MCP Apps (servers/everything/apps.ts) rendered by `mcpkit
// inspect` in Chromium, in both eras: get-sum's sum form shows the call's numbers and result and
// adds again from the view (its tools/call reaches the server through the inspector's bridge);
// get-structured-content's weather chart draws bars of the structured result and redraws them
// for another city asked for from the view.
import type { FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { look } from '../helpers/browser.js';
import type { Inspector } from '../../src/cli/inspect/server.js';
import { transcriptOf, viewFrame } from './apps-view.js';
import type { Cleanups } from './harness.js';
import {
  browserSkip,
  chromiumSuite,
  field,
  openInspector,
  openTab,
  resultRegion,
  selectTool,
  startEverythingHttp,
  suiteName,
} from './harness.js';
import type { TestBrowser } from '../helpers/browser.js';

const ERAS = ['2025-11-25', '2026-07-28'] as const;

/** The inspector pinned to `era`, connected to mcpkit's everything over Streamable HTTP. */
async function openEverything(
  browser: TestBrowser,
  cleanups: Cleanups,
  era: (typeof ERAS)[number],
): Promise<{ page: Page; inspector: Inspector }> {
  const url = await startEverythingHttp(cleanups);
  return openInspector(browser, cleanups, { target: { kind: 'url', url, headers: {} }, mode: era });
}

/** The widths of the chart's bars, as set in their style. */
function barWidths(view: FrameLocator): Promise<string[]> {
  return view
    .locator('#chart .bar')
    .evaluateAll((bars) => bars.map((b) => (b as HTMLElement).style.width));
}

describe.skipIf(browserSkip !== undefined)(
  suiteName("mcpkit inspect in Chromium: the everything server's Apps"),
  { timeout: 90_000 },
  () => {
    const suite = chromiumSuite();
    const { cleanups } = suite;

    for (const era of ERAS) {
      it(`get-sum's sum form adds again through the bridge (${era})`, async () => {
        const { page, inspector } = await openEverything(suite.browser, cleanups, era);
        const form = await selectTool(page, 'get-sum');
        await field(form, 'a').fill('2');
        await field(form, 'b').fill('3');
        await page.getByRole('button', { name: 'Call', exact: true }).click();
        await look(resultRegion(page)).toContainText('The sum of 2 and 3 is 5.');

        const view = viewFrame(page);
        await look(view.locator('#result')).toHaveText('The sum of 2 and 3 is 5.');
        await look(view.locator('#a')).toHaveValue('2');
        await look(view.locator('#b')).toHaveValue('3');

        await view.locator('#a').fill('10');
        await view.locator('#b').fill('5.5');
        await view.getByRole('button', { name: 'Add' }).click();
        await look(view.locator('#result')).toHaveText('The sum of 10 and 5.5 is 15.5.');
        // Enter in a field adds too (the view has no <form>: the sandbox does not allow forms).
        await view.locator('#a').fill('1');
        await view.locator('#a').press('Enter');
        await look(view.locator('#result')).toHaveText('The sum of 1 and 5.5 is 6.5.');

        await openTab(page, 'Wire');
        const log = page.getByRole('log', { name: 'Wire log' });
        for (const line of [
          'app >> ui/initialize #1',
          'app << ui/notifications/tool-input',
          'app << ui/notifications/tool-result',
          'app >> tools/call',
          'app << tools/call result',
        ]) {
          await look(log).toContainText(line);
        }
        // The view's numbers reached the server, on the inspector's one MCP connection.
        const transcript = await transcriptOf(inspector);
        expect(transcript).toContain('"name":"get-sum","arguments":{"a":2,"b":3}');
        expect(transcript).toContain('"name":"get-sum","arguments":{"a":10,"b":5.5}');
        expect(transcript).toContain('The sum of 10 and 5.5 is 15.5.');
      });

      it(`get-structured-content's weather chart redraws for another city (${era})`, async () => {
        const { page, inspector } = await openEverything(suite.browser, cleanups, era);
        const form = await selectTool(page, 'get-structured-content');
        await field(form, 'location').selectOption('New York');
        await page.getByRole('button', { name: 'Call', exact: true }).click();
        await look(resultRegion(page)).toContainText('Output matches outputSchema');

        const view = viewFrame(page);
        await look(view.locator('#city')).toHaveValue('New York');
        await look(view.locator('#chart')).toContainText('Temperature °C: 22.5');
        await look(view.locator('#chart')).toContainText('Humidity %: 65');
        await look(view.locator('#conditions')).toHaveText('Partly cloudy');
        await expect.poll(() => barWidths(view)).toEqual(['45%', '65%']);

        await view.locator('#city').selectOption('Chicago');
        await look(view.locator('#chart')).toContainText('Temperature °C: 18');
        await look(view.locator('#conditions')).toHaveText('Light rain');
        await expect.poll(() => barWidths(view)).toEqual(['36%', '82%']);

        await openTab(page, 'Wire');
        await look(page.getByRole('log', { name: 'Wire log' })).toContainText(
          'app << tools/call result',
        );
        expect(await transcriptOf(inspector)).toContain(
          '"name":"get-structured-content","arguments":{"location":"Chicago"}',
        );
      });
    }
  },
);
