// `mcpkit inspect` in Chromium (#26): results mcpkit's own servers never produce, from a server
// on the official SDK's low-level Server (fixtures/odd-server.mjs, a stdio child): structured
// content that breaks the tool's outputSchema (the page says so, with the error), and audio
// (a player). Also a server that fails its own output check: a protocol error, not a tool error.
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { McpServer } from '../../src/server/index.js';
import { listen } from '../../src/transports/http/server/node.js';
import { look } from '../helpers/browser.js';
import {
  browserSkip,
  chromiumSuite,
  openInspector,
  resultRegion,
  selectTool,
  suiteName,
} from './harness.js';
import type { Opened } from './harness.js';

const ODD_SERVER = fileURLToPath(new URL('./fixtures/odd-server.mjs', import.meta.url));

describe.skipIf(browserSkip !== undefined)(
  suiteName('mcpkit inspect in Chromium: results by kind'),
  { timeout: 60_000 },
  () => {
    const suite = chromiumSuite();
    const { cleanups } = suite;

    const openOdd = (): Promise<Opened> =>
      openInspector(suite.browser, cleanups, {
        target: { kind: 'command', command: process.execPath, args: [ODD_SERVER] },
      });

    it('says when structuredContent does not match the outputSchema', async () => {
      const { page } = await openOdd();
      await selectTool(page, 'weather');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      const result = resultRegion(page);
      await look(result).toContainText('Output does not match outputSchema');
      await look(result).toContainText('temperature');
      await look(result.getByRole('heading', { name: 'Tool error' })).toHaveCount(0);
    });

    it('plays audio content', async () => {
      const { page } = await openOdd();
      await selectTool(page, 'beep');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      // <audio controls> has no ARIA role: found by its element.
      const audio = resultRegion(page).locator('audio[controls]');
      await look(audio).toHaveCount(1);
      await look(audio).toHaveAttribute('src', /^data:audio\/wav;base64,UklGR/);
    });

    it('shows a server that breaks its own output check as a protocol error', async () => {
      const server = new McpServer({ name: 'broken', version: '1.0.0' }, { onError: () => {} });
      server.tool(
        {
          name: 'broken-weather',
          description: 'Returns the weather. Use it to see a server bug reported.',
          inputSchema: { type: 'object', properties: {} },
          outputSchema: {
            type: 'object',
            properties: { temperature: { type: 'number' } },
            required: ['temperature'],
          },
        },
        () => ({ content: [], structuredContent: { temperature: 'warm' } }),
      );
      const http = await listen(() => server);
      cleanups.add(() => server.close());
      cleanups.add(() => http.close());
      const { page } = await openInspector(suite.browser, cleanups, {
        target: { kind: 'url', url: http.url, headers: {} },
      });
      await selectTool(page, 'broken-weather');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      const result = resultRegion(page);
      await look(result.getByRole('heading', { name: 'Protocol error' })).toBeVisible();
      await look(result).toContainText('-32603');
      await look(result).toContainText('returned invalid structured content');
      await look(result.getByRole('heading', { name: 'Tool error' })).toHaveCount(0);
    });
  },
);
