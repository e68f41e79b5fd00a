// `mcpkit inspect` end to end in Chromium (#26) against the official reference server,
// @modelcontextprotocol/server-everything (the v1 SDK, 2025-11-25), run as a stdio child
// process: the basic flow of the mcpkit everything tests (connect, a tool form, an image, the
// wire log) works the same on a server mcpkit did not write.
import { describe, it } from 'vitest';
import { look, screenshot } from '../helpers/browser.js';
import {
  browserSkip,
  chromiumSuite,
  commandLine,
  connectionStatus,
  field,
  OFFICIAL_EVERYTHING,
  openInspector,
  openTab,
  resultRegion,
  selectTool,
  startOfficialHttp,
  suiteName,
} from './harness.js';
import type { Opened } from './harness.js';
import process from 'node:process';

describe.skipIf(browserSkip !== undefined)(
  suiteName('mcpkit inspect in Chromium: the official server-everything'),
  { timeout: 60_000 },
  () => {
    const suite = chromiumSuite();
    const { cleanups } = suite;

    /** An inspector started connected to server-everything over stdio. */
    const open = (): Promise<Opened> =>
      openInspector(suite.browser, cleanups, {
        allowStdio: true,
        target: {
          kind: 'command',
          command: process.execPath,
          args: [OFFICIAL_EVERYTHING, 'stdio'],
        },
      });

    it('connects over stdio from the Connect form and shows the server', async () => {
      const { page } = await openInspector(suite.browser, cleanups, { allowStdio: true });
      const connect = page.getByRole('form', { name: 'Connect' });
      await connect.getByLabel('Transport').selectOption({ label: 'stdio command' });
      await connect.getByLabel('Command').fill(commandLine([OFFICIAL_EVERYTHING, 'stdio']));
      await connect.getByRole('button', { name: 'Connect', exact: true }).click();
      await look(connectionStatus(page)).toHaveText(/Connected/);
      await look(connectionStatus(page)).not.toHaveText(/Disconnected/);
      // The v1 SDK negotiates 2025-11-25 at most.
      await look(page.getByText('2025-11-25', { exact: true }).first()).toBeVisible();
      await openTab(page, 'Server');
      await look(page.getByText(/mcp-servers\/everything|everything/i).first()).toBeVisible();
    });

    it('connects over Streamable HTTP and calls get-sum', async () => {
      const url = await startOfficialHttp(cleanups);
      const { page } = await openInspector(suite.browser, cleanups, {
        target: { kind: 'url', url, headers: {} },
      });
      await look(connectionStatus(page)).toHaveText(/Connected/);
      await look(page.getByText('2025-11-25', { exact: true }).first()).toBeVisible();
      const form = await selectTool(page, 'get-sum');
      await field(form, 'a').fill('40');
      await field(form, 'b').fill('2');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      await look(resultRegion(page)).toContainText('The sum of 40 and 2 is 42.');
      await openTab(page, 'Wire');
      // auto: the 2026-07-28 probe refused, then a legacy initialize and its session's id.
      const log = page.getByRole('log', { name: 'Wire log' });
      await look(log).toContainText(/>> server\/discover #\d+/);
      await look(log).toContainText(/>> initialize #\d+/);
      await look(log).toContainText(/session [0-9a-f]{6,}/);
    });

    it('fills and calls get-sum (7 and 5 give 12)', async () => {
      const { page } = await open();
      const form = await selectTool(page, 'get-sum');
      await field(form, 'a').fill('7');
      await field(form, 'b').fill('5');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      await look(resultRegion(page)).toContainText('The sum of 7 and 5 is 12.');
    });

    it('renders the tiny image', async () => {
      const { page } = await open();
      await selectTool(page, 'get-tiny-image');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      await look(
        resultRegion(page).getByRole('img', { name: 'image result' }).first(),
      ).toBeVisible();
    });

    it('answers its elicitation form (defaults, formats, titled choices)', async () => {
      const { page } = await open();
      await selectTool(page, 'trigger-elicitation-request');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      const dialog = page.getByRole('dialog', {
        name: /^Server asks: Please provide inputs for the following fields:/,
      });
      await look(dialog).toBeVisible();
      await look(field(dialog, 'integer')).toHaveValue('42');
      await look(field(dialog, 'firstLine')).toHaveValue('It was a dark and stormy night.');
      await look(field(dialog, 'email')).toHaveAttribute('type', 'email');
      await look(field(dialog, 'name')).toHaveAttribute('aria-required', 'true');
      await field(dialog, 'name').fill('Ada');
      await field(dialog, 'check').check();
      // oneOf with titles: the titles are shown, the constants sent.
      await field(dialog, 'titledSingleSelectEnum').selectOption({ label: 'Wonder Woman' });
      await screenshot(page, 'official-elicitation');
      await dialog.getByRole('button', { name: 'Accept', exact: true }).click();
      await look(dialog).toHaveCount(0);
      const result = resultRegion(page);
      await look(result).toContainText('- Name: Ada');
      await look(result).toContainText('- Agreed to terms: true');
      await look(result).toContainText('- Favorite Integer: 42');
      await look(result).toContainText(/"titledSingleSelectEnum":\s*"hero-3"/);
    });

    it('shows a URL elicitation as a link, then accepts it', async () => {
      const { page } = await open();
      const form = await selectTool(page, 'trigger-url-elicitation');
      await field(form, 'url').fill('https://example.com/consent');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      const dialog = page.getByRole('dialog', {
        name: /^Server asks: Please open the link to complete this action\./,
      });
      await look(
        dialog.getByRole('link', { name: /https:\/\/example\.com\/consent/ }),
      ).toBeVisible();
      await dialog.getByRole('button', { name: 'Accept', exact: true }).click();
      await look(dialog).toHaveCount(0);
      await look(resultRegion(page)).toContainText('User completed the URL elicitation flow.');
    });

    it('shows a -32042 (URL elicitation required) as a protocol error with the link', async () => {
      const { page } = await open();
      const form = await selectTool(page, 'trigger-url-elicitation');
      await field(form, 'url').fill('https://example.com/consent');
      await field(form, 'errorPath').check();
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      const result = resultRegion(page);
      await look(result.getByRole('heading', { name: 'Protocol error' })).toBeVisible();
      await look(result).toContainText('-32042');
      await look(
        result.getByRole('link', { name: /https:\/\/modelcontextprotocol\.io/ }),
      ).toBeVisible();
      await look(result.getByRole('heading', { name: 'Tool error' })).toHaveCount(0);
    });

    it('shows progress and cancels a long-running operation', async () => {
      const { page } = await open();
      const form = await selectTool(page, 'trigger-long-running-operation');
      await field(form, 'duration').fill('30');
      await field(form, 'steps').fill('60');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      const bar = page.getByRole('progressbar');
      await look(bar).toHaveAttribute('aria-valuenow', /^([2-9]|\d\d)$/);
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
      await look(resultRegion(page)).toContainText('Cancelled');
      await openTab(page, 'Wire');
      await look(page.getByRole('log', { name: 'Wire log' })).toContainText(
        '>> notifications/cancelled',
      );
    });

    it('reads one of its resources', async () => {
      const { page } = await open();
      await openTab(page, 'Resources');
      await page
        .getByRole('button', { name: /features\.md/ })
        .first()
        .click();
      const contents = page.getByRole('region', { name: 'Resource contents' });
      await look(contents).toContainText('demo://resource/static/document/features.md');
      await look(contents).toContainText(/Tools/);
    });

    it('completes a prompt argument in the context of the one before', async () => {
      const { page } = await open();
      await openTab(page, 'Prompts');
      await page.getByRole('button', { name: /^completable-prompt(?![\w-])/ }).click();
      const form = page.getByRole('form', { name: 'Prompt completable-prompt' });
      const department = form.getByRole('combobox', { name: /^department(?![\w-])/ });
      await department.pressSequentially('Sa');
      await page
        .getByRole('listbox', { name: 'Suggestions for department' })
        .getByRole('option', { name: 'Sales', exact: true })
        .click();
      await look(department).toHaveValue('Sales');
      // The server completes `name` from the department chosen: Sales has Eve, Engineering none.
      const name = form.getByRole('combobox', { name: /^name(?![\w-])/ });
      await name.pressSequentially('E');
      const names = page.getByRole('listbox', { name: 'Suggestions for name' });
      await names.getByRole('option', { name: 'Eve', exact: true }).click();
      await look(name).toHaveValue('Eve');
      await form.getByRole('button', { name: 'Get prompt', exact: true }).click();
      await look(page.getByRole('region', { name: 'Prompt messages' })).toContainText(
        'Please promote Eve to the head of the Sales team.',
      );
    });

    it('shows the tools/call exchange in the wire log', async () => {
      const { page } = await open();
      const form = await selectTool(page, 'echo');
      await field(form, 'message').fill('héllo from the inspector');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      await look(resultRegion(page)).toContainText('Echo: héllo from the inspector');
      await openTab(page, 'Wire');
      const log = page.getByRole('log', { name: 'Wire log' });
      await look(log).toContainText(/>> tools\/call #\S+/);
      await look(log).toContainText(/<< tools\/call result #\S+/);
    });
  },
);
