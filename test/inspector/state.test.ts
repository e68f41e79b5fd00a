// `mcpkit inspect` in Chromium: the page shows the newest state. It reads the state over several
// connections (the event stream, GET /api/state, the answers of its POSTs) whose answers may
// arrive in any order; a snapshot taken before a connect but read after the connect's `state`
// event must not replace it. (It did: the page opened, then the inspector connected, and under
// load the page could end with the empty lists of its first GET /api/state, for good.)
import { describe, expect, it } from 'vitest';
import { startInspector } from '../../src/cli/inspect/server.js';
import { McpServer } from '../../src/server/index.js';
import { listen } from '../../src/transports/http/server/node.js';
import { look } from '../helpers/browser.js';
import { UI_DIR, browserSkip, chromiumSuite, connectionStatus, suiteName } from './harness.js';

describe.skipIf(browserSkip !== undefined)(
  suiteName('mcpkit inspect in Chromium: the newest state'),
  { timeout: 60_000 },
  () => {
    const suite = chromiumSuite();
    const { cleanups } = suite;

    it('keeps the state of a connect made after the page opened, whatever arrives last', async () => {
      const server = new McpServer({ name: 'late', version: '1.0.0' });
      server.tool({ name: 'lookup', inputSchema: { type: 'object' } }, () => 'found');
      const http = await listen(() => server);
      cleanups.add(() => server.close());
      cleanups.add(() => http.close());
      const inspector = await startInspector({ uiDir: UI_DIR });
      cleanups.add(() => inspector.close());
      const context = await suite.browser.newContext();
      cleanups.add(() => context.close());

      // The page's GET /api/state is answered by the backend at once (not connected yet), and
      // that answer reaches the page only once released: after the connect's event.
      let answered = (): void => undefined;
      const snapshotTaken = new Promise<void>((resolve) => {
        answered = resolve;
      });
      let release = (): void => undefined;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      await context.route('**/api/state', async (route) => {
        const response = await route.fetch();
        answered();
        await released;
        await route.fulfill({ response });
      });
      const page = await context.newPage();
      await page.goto(inspector.url);
      await snapshotTaken;

      await inspector.connect({ kind: 'url', url: http.url, headers: {} });
      const tool = page.getByRole('button', { name: /^lookup/ });
      await look(tool).toBeVisible();
      await look(connectionStatus(page)).toHaveText('Connected');

      const finished = page.waitForEvent('requestfinished', (request) =>
        request.url().endsWith('/api/state'),
      );
      release();
      await finished;
      // The page has read the old snapshot and rendered what it made of it.
      await page.evaluate(
        () =>
          new Promise((resolve) => {
            requestAnimationFrame(() => requestAnimationFrame(resolve));
          }),
      );
      expect(await connectionStatus(page).innerText()).toBe('Connected');
      expect(await tool.isVisible()).toBe(true);
    });
  },
);
