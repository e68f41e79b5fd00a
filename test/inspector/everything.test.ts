// `mcpkit inspect` end to end in Chromium (#26) against mcpkit's everything server: connecting
// from the page over Streamable HTTP and over stdio (`mcpkit serve everything` as a child), a
// tool form filled and called, a tool error, an image, progress and cancellation, an
// elicitation answered, a resource read and its update, a prompt with completion, the token
// budget and the wire log. Every test starts its own server and inspector and drives the page
// by roles and labels only (the UI conventions of the contract). Screenshots go to
// test-results/inspector/ (and docs/images/ with MCPKIT_SCREENSHOTS=1).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import process from 'node:process';
import { createEverythingServer } from '../../servers/everything/server.js';
import { createNodeHandler } from '../../src/transports/http/server/node.js';
import { describe, expect, it } from 'vitest';
import { look, lookUrl, screenshot } from '../helpers/browser.js';
import {
  browserSkip,
  chromiumSuite,
  commandLine,
  connectionStatus,
  field,
  mcpkitBin,
  openInspector,
  openTab,
  resultRegion,
  selectTool,
  startEverythingHttp,
  startInspectCli,
  suiteName,
} from './harness.js';

/** Runs a program to its end without blocking this process (whose servers it may talk to). */
function run(
  file: string,
  args: readonly string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ code, stdout, stderr });
    });
  });
}

/** How the sweep fills each tool's form, and what its result must show. */
const SWEEP: Record<
  string,
  { fill?: Record<string, string>; select?: Record<string, string>; shows: string | RegExp }
> = {
  echo: { fill: { message: 'hi' }, shows: 'Echo: hi' },
  'get-sum': { fill: { a: '1', b: '2' }, shows: 'The sum of 1 and 2 is 3.' },
  'get-env': { shows: '{}' },
  'get-structured-content': {
    select: { location: 'New York' },
    shows: 'Output matches outputSchema',
  },
  'get-tiny-image': { shows: 'That was a 1x1 PNG.' },
  'get-annotated-message': {
    select: { messageType: 'success' },
    shows: 'The operation completed successfully.',
  },
  'get-resource-links': { shows: /3 resources/ },
  'get-resource-reference': {
    fill: { resourceId: '7' },
    shows: 'Here is demo://resource/dynamic/text/7:',
  },
  'gzip-file-as-resource': {
    fill: { name: 'hi.gz', data: 'hello' },
    shows: /Compressed 5 bytes to \d+ bytes\./,
  },
  'toggle-simulated-logging': { shows: 'Simulated logging is on' },
  'toggle-subscriber-updates': { shows: 'Simulated resource updates are on' },
  'trigger-long-running-operation': {
    fill: { duration: '0.2', steps: '2' },
    shows: 'Long running operation completed',
  },
  'simulate-research-query': { fill: { topic: 'owls' }, shows: 'Research summary for "owls"' },
  'sample-llm': { fill: { prompt: 'Say yes.' }, shows: 'LLM sampling result: yes' },
  'get-roots-list': { shows: 'The client shares no roots.' },
};

describe.skipIf(browserSkip !== undefined)(
  suiteName('mcpkit inspect in Chromium: mcpkit serve everything'),
  { timeout: 60_000 },
  () => {
    const suite = chromiumSuite();
    const { cleanups } = suite;

    it('connects over Streamable HTTP from the Connect form', async () => {
      const url = await startEverythingHttp(cleanups);
      const { page } = await openInspector(suite.browser, cleanups);
      // The token leaves the address bar once the page has read it.
      await lookUrl(page, /token=/, true);
      await look(connectionStatus(page)).toHaveText(/Disconnected/);
      const connect = page.getByRole('form', { name: 'Connect' });
      // Without --allow-stdio the page cannot start a command.
      await look(connect.getByRole('option', { name: 'stdio command' })).toBeDisabled();
      await connect.getByLabel('Server URL').fill(url);
      await connect.getByRole('button', { name: 'Connect', exact: true }).click();
      await look(connectionStatus(page)).toHaveText(/Connected/);
      await look(connectionStatus(page)).not.toHaveText(/Disconnected/);
      await look(page.getByText(/^20\d\d-\d\d-\d\d$/).first()).toBeVisible();
      await openTab(page, 'Tools');
      await look(page.getByRole('button', { name: /^get-sum(?![\w-])/ })).toBeVisible();
      await screenshot(page, 'connect');
    });

    it('mcpkit inspect <url> --no-open: the printed address opens a page connected at once', async () => {
      const url = await startEverythingHttp(cleanups);
      const cli = await startInspectCli(cleanups, ['inspect', url, '--no-open']);
      expect(cli.address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/);
      const context = await suite.browser.newContext();
      cleanups.add(() => context.close());
      const page = await context.newPage();
      await page.goto(cli.address);
      await look(connectionStatus(page)).toHaveText(/Connected/);
      await look(connectionStatus(page)).not.toHaveText(/Disconnected/);
      const form = await selectTool(page, 'get-sum');
      await field(form, 'a').fill('7');
      await field(form, 'b').fill('5');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      await look(resultRegion(page)).toContainText('The sum of 7 and 5 is 12.');
      expect(cli.stderr()).toContain(`mcpkit inspect: inspecting ${url}`);
      expect(await cli.stop()).toBe(0);
    });

    it('connects over stdio to mcpkit serve everything (--allow-stdio)', async () => {
      const bin = await mcpkitBin();
      const { page } = await openInspector(suite.browser, cleanups, { allowStdio: true });
      const connect = page.getByRole('form', { name: 'Connect' });
      await connect.getByLabel('Transport').selectOption({ label: 'stdio command' });
      await connect
        .getByLabel('Command')
        .fill(commandLine([bin, 'serve', 'everything', '--stdio']));
      await connect.getByRole('button', { name: 'Connect', exact: true }).click();
      await look(connectionStatus(page)).toHaveText(/Connected/);
      await look(connectionStatus(page)).not.toHaveText(/Disconnected/);
      await openTab(page, 'Tools');
      await look(page.getByRole('button', { name: /^get-sum(?![\w-])/ })).toBeVisible();
      await openTab(page, 'Server');
      await look(page.getByText(/each tool demonstrates one MCP feature/)).toBeVisible();
    });

    it('fills and calls get-sum (7 and 5 give 12), the raw JSON in sync', async () => {
      const url = await startEverythingHttp(cleanups);
      const { page } = await openInspector(suite.browser, cleanups, {
        target: { kind: 'url', url, headers: {} },
      });
      const form = await selectTool(page, 'get-sum');
      await look(field(form, 'a')).toHaveAttribute('type', 'number');
      await look(field(form, 'a')).toHaveAttribute('aria-required', 'true');
      await field(form, 'a').fill('7');
      await field(form, 'b').fill('5');
      await page.getByRole('button', { name: 'Raw JSON' }).click();
      const raw = page.getByLabel('Arguments (JSON)');
      await look(raw).toHaveValue(/"a":\s*7/);
      await look(raw).toHaveValue(/"b":\s*5/);
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      await look(resultRegion(page)).toContainText('The sum of 7 and 5 is 12.');
      await screenshot(page, 'tool-result');
    });

    it('shows a bad argument as a tool error (isError), not a protocol error', async () => {
      const url = await startEverythingHttp(cleanups);
      const { page } = await openInspector(suite.browser, cleanups, {
        target: { kind: 'url', url, headers: {} },
      });
      await selectTool(page, 'get-sum');
      await page.getByRole('button', { name: 'Raw JSON' }).click();
      await page.getByLabel('Arguments (JSON)').fill('{"a": "oops", "b": 2}');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      const result = resultRegion(page);
      await look(result.getByRole('heading', { name: 'Tool error' })).toBeVisible();
      await look(result).toContainText('invalid arguments for tool "get-sum"');
      await look(result.getByRole('heading', { name: 'Protocol error' })).toHaveCount(0);
    });

    it('renders an image result', async () => {
      const url = await startEverythingHttp(cleanups);
      const { page } = await openInspector(suite.browser, cleanups, {
        target: { kind: 'url', url, headers: {} },
      });
      await selectTool(page, 'get-tiny-image');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      const result = resultRegion(page);
      await look(result.getByRole('img', { name: 'image result' })).toBeVisible();
      await look(result).toContainText('Here is a tiny image:');
      await look(result).toContainText('That was a 1x1 PNG.');
    });

    for (const era of [
      { mode: 'auto', name: '2026-07-28' },
      { mode: '2025-11-25', name: 'legacy, pinned 2025-11-25' },
    ] as const) {
      it(`shows the progress of a long-running operation and cancels it (${era.name})`, async () => {
        const url = await startEverythingHttp(cleanups);
        const { page } = await openInspector(suite.browser, cleanups, {
          target: { kind: 'url', url, headers: {} },
          mode: era.mode,
        });
        const form = await selectTool(page, 'trigger-long-running-operation');
        // 40 steps of half a second each: it is still running whenever the test cancels it.
        await field(form, 'duration').fill('20');
        await field(form, 'steps').fill('40');
        await page.getByRole('button', { name: 'Call', exact: true }).click();
        const bar = page.getByRole('progressbar');
        await look(bar).toHaveAttribute('aria-valuemax', '40');
        await look(bar).toHaveAttribute('aria-valuenow', /^([3-9]|\d\d)$/);
        if (era.mode === 'auto') await screenshot(page, 'progress');
        await page.getByRole('button', { name: 'Cancel', exact: true }).click();
        await look(resultRegion(page)).toContainText('Cancelled');
        await look(bar).toHaveCount(0);
        await look(resultRegion(page)).not.toContainText('Long running operation completed');
        if (era.mode === '2025-11-25') {
          await openTab(page, 'Wire');
          await look(page.getByRole('log', { name: 'Wire log' })).toContainText(
            '>> notifications/cancelled',
          );
        }
      });
    }

    for (const mode of ['auto', '2025-11-25'] as const) {
      it(`calls every tool of the server from its form (${mode})`, async () => {
        const url = await startEverythingHttp(cleanups);
        const { page, inspector } = await openInspector(suite.browser, cleanups, {
          target: { kind: 'url', url, headers: {} },
          mode,
        });
        const state = (await (
          await fetch(new URL('/api/state', inspector.origin), {
            headers: { 'X-Mcpkit-Token': inspector.token },
          })
        ).json()) as { tools: { name: string }[] };
        const names = state.tools.map((t) => t.name);
        expect(names.sort()).toEqual(Object.keys(SWEEP).sort());
        for (const name of names) {
          const plan = SWEEP[name] ?? { shows: '' };
          const form = await selectTool(page, name);
          for (const [property, value] of Object.entries(plan.fill ?? {})) {
            await field(form, property).fill(value);
          }
          for (const [property, value] of Object.entries(plan.select ?? {})) {
            await field(form, property).selectOption(value);
          }
          // A tool chosen anew shows no result yet (so the check below is this call's).
          await look(resultRegion(page)).not.toContainText(plan.shows);
          await page.getByRole('button', { name: 'Call', exact: true }).click();
          if (name === 'simulate-research-query') {
            const dialog = page.getByRole('dialog', { name: /^Server asks:/ });
            await field(dialog, 'depth').selectOption('overview');
            await dialog.getByRole('button', { name: 'Accept', exact: true }).click();
          }
          if (name === 'sample-llm') {
            const dialog = page.getByRole('dialog', { name: 'Sampling request' });
            await dialog.getByLabel('Reply').fill('yes');
            await dialog.getByRole('button', { name: 'Send reply', exact: true }).click();
          }
          const result = resultRegion(page);
          await look(result).toContainText(plan.shows);
          await look(result.getByRole('heading', { name: /error/ })).toHaveCount(0);
        }
        await look(page.getByRole('alert')).toHaveCount(0);
      });
    }

    it('sends the headers of the Connect form; once reloaded, the page holds no secret', async () => {
      // A server that answers only with the right bearer token.
      const everything = createEverythingServer();
      await everything.ready;
      const handler = createNodeHandler(() => everything.server);
      const guarded = createServer((req, res) => {
        if (req.headers.authorization === 'Bearer s3cret-t0ken') {
          handler(req, res);
          return;
        }
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"no"}');
      });
      await new Promise<void>((resolve) => guarded.listen(0, '127.0.0.1', resolve));
      cleanups.add(() => everything.close());
      cleanups.add(
        () =>
          new Promise((resolve) => {
            guarded.closeAllConnections();
            guarded.close(resolve);
          }),
      );
      const { port } = guarded.address() as AddressInfo;
      const { page, inspector } = await openInspector(suite.browser, cleanups);
      const connect = page.getByRole('form', { name: 'Connect' });
      await connect.getByLabel('Server URL').fill(`http://127.0.0.1:${String(port)}/mcp`);
      await connect.getByLabel('Headers').fill('Authorization: Bearer s3cret-t0ken\nX-Trace: on');
      await connect.getByRole('button', { name: 'Connect', exact: true }).click();
      await look(connectionStatus(page)).toHaveText(/Connected/);
      await look(connectionStatus(page)).not.toHaveText(/Disconnected/);
      await look(page.getByText('Everything (MCP feature tour)').first()).toBeVisible();
      // Once the page is rebuilt from the backend's State, the secret is nowhere in it: the
      // target's headers come back masked, the wire log masks credentials.
      await page.reload();
      await look(connectionStatus(page)).toHaveText(/Connected/);
      await look(connectionStatus(page)).not.toHaveText(/Disconnected/);
      await openTab(page, 'Wire');
      await look(page.getByRole('log', { name: 'Wire log' })).toContainText(/HTTP POST 200/);
      const form = page.getByRole('form', { name: 'Connect' });
      expect(await form.getByLabel('Headers').inputValue()).not.toContain('s3cret-t0ken');
      expect(await page.content()).not.toContain('s3cret-t0ken');
      const state = await (
        await fetch(new URL('/api/state', inspector.origin), {
          headers: { 'X-Mcpkit-Token': inspector.token },
        })
      ).text();
      expect(state).not.toContain('s3cret-t0ken');
    });

    for (const era of [
      { mode: 'auto', revision: '2026-07-28', how: 'modern era: discovered' },
      { mode: '2025-11-25', revision: '2025-11-25', how: 'legacy era: agreed in initialize' },
    ] as const) {
      it(`shows the server: info, revision and era, instructions, capabilities; pings (${era.revision})`, async () => {
        const url = await startEverythingHttp(cleanups);
        const { page } = await openInspector(suite.browser, cleanups, {
          target: { kind: 'url', url, headers: {} },
          mode: era.mode,
        });
        await openTab(page, 'Server');
        await look(
          page.getByRole('heading', { name: /^Everything \(MCP feature tour\)/ }),
        ).toBeVisible();
        await look(page.getByText(era.revision, { exact: true }).first()).toBeVisible();
        await look(page.getByText(era.how).first()).toBeVisible();
        await look(page.getByText(/each tool demonstrates one MCP feature/)).toBeVisible();
        await look(page.getByRole('heading', { name: 'Capabilities' })).toBeVisible();
        await look(page.getByText(/"completions"/).first()).toBeVisible();
        await page.getByRole('button', { name: 'Ping', exact: true }).click();
        await look(page.getByText(/^Pong in \d+ ms\.$/)).toBeVisible();
      });
    }

    it('pins a legacy revision from the Connect form', async () => {
      const url = await startEverythingHttp(cleanups);
      const { page } = await openInspector(suite.browser, cleanups);
      const connect = page.getByRole('form', { name: 'Connect' });
      await connect.getByLabel('Server URL').fill(url);
      await connect.getByLabel('Protocol revision').selectOption('2025-06-18');
      await connect.getByRole('button', { name: 'Connect', exact: true }).click();
      await look(connectionStatus(page)).toHaveText(/Connected/);
      await look(page.getByText('2025-06-18', { exact: true }).first()).toBeVisible();
      const form = await selectTool(page, 'get-sum');
      await field(form, 'a').fill('-1.5');
      await field(form, 'b').fill('2');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      await look(resultRegion(page)).toContainText('The sum of -1.5 and 2 is 0.5.');
    });

    it('checks structuredContent against the outputSchema', async () => {
      const url = await startEverythingHttp(cleanups);
      const { page } = await openInspector(suite.browser, cleanups, {
        target: { kind: 'url', url, headers: {} },
      });
      const form = await selectTool(page, 'get-structured-content');
      // An enum is a drop-down of its values.
      await field(form, 'location').selectOption('Chicago');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      await look(resultRegion(page)).toContainText('Output matches outputSchema');
      await look(resultRegion(page)).toContainText('"temperature"');
    });

    it('opens a resource_link from a result', async () => {
      const url = await startEverythingHttp(cleanups);
      const { page } = await openInspector(suite.browser, cleanups, {
        target: { kind: 'url', url, headers: {} },
      });
      const form = await selectTool(page, 'get-resource-links');
      await look(field(form, 'count')).toHaveValue('3');
      await field(form, 'count').fill('2');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      const open = resultRegion(page).getByRole('button', { name: /^Open demo:\/\// });
      await look(open).toHaveCount(2);
      await open.first().click();
      await look(resultRegion(page)).toContainText(/demo:\/\/resource\/static\/document\/\S+/);
      await look(resultRegion(page).getByRole('alert')).toHaveCount(0);
    });

    it('answers a sampling request with an edited reply', async () => {
      const url = await startEverythingHttp(cleanups);
      const { page } = await openInspector(suite.browser, cleanups, {
        target: { kind: 'url', url, headers: {} },
      });
      const form = await selectTool(page, 'sample-llm');
      await field(form, 'prompt').fill('Name a colour.');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Sampling request' });
      await look(dialog).toContainText('Name a colour.');
      await dialog.getByLabel('Reply').fill('Ultramarine.');
      await screenshot(page, 'sampling');
      await dialog.getByRole('button', { name: 'Send reply', exact: true }).click();
      await look(dialog).toHaveCount(0);
      await look(resultRegion(page)).toContainText('LLM sampling result: Ultramarine.');
    });

    it('shares the roots set in the Roots tab', async () => {
      const url = await startEverythingHttp(cleanups);
      const { page } = await openInspector(suite.browser, cleanups, {
        target: { kind: 'url', url, headers: {} },
      });
      await openTab(page, 'Roots');
      await page.getByLabel('Root URI').fill('file:///tmp/inspected-project');
      await page.getByLabel('Root name').fill('project');
      await page.getByRole('button', { name: 'Add root', exact: true }).click();
      await page.getByRole('button', { name: 'Save roots', exact: true }).click();
      await look(page.getByText(/Saved/)).toBeVisible();
      await selectTool(page, 'get-roots-list');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      await look(resultRegion(page)).toContainText('- file:///tmp/inspected-project (project)');
    });

    it('shows an embedded resource', async () => {
      const url = await startEverythingHttp(cleanups);
      const { page } = await openInspector(suite.browser, cleanups, {
        target: { kind: 'url', url, headers: {} },
      });
      const form = await selectTool(page, 'get-resource-reference');
      await field(form, 'resourceId').fill('2');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      const result = resultRegion(page);
      await look(result).toContainText('Here is demo://resource/dynamic/text/2:');
      await look(result).toContainText(/Dynamic text resource 2, revision \d+\./);
    });

    it('sets the log level and shows the server log', async () => {
      const url = await startEverythingHttp(cleanups);
      const { page } = await openInspector(suite.browser, cleanups, {
        target: { kind: 'url', url, headers: {} },
      });
      await openTab(page, 'Logs');
      await page.getByLabel('Log level').selectOption('debug');
      await selectTool(page, 'toggle-simulated-logging');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      await look(resultRegion(page)).toContainText('Simulated logging is on');
      await openTab(page, 'Logs');
      await look(page.getByText('simulated logging is on', { exact: true }).first()).toBeVisible();
    });

    it('keeps the session and the wire history across a reload, and disconnects', async () => {
      const url = await startEverythingHttp(cleanups);
      const { page } = await openInspector(suite.browser, cleanups, {
        target: { kind: 'url', url, headers: {} },
      });
      await selectTool(page, 'get-tiny-image');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      await look(resultRegion(page).getByRole('img', { name: 'image result' })).toBeVisible();
      await page.reload();
      await look(connectionStatus(page)).toHaveText(/Connected/);
      await look(connectionStatus(page)).not.toHaveText(/Disconnected/);
      await openTab(page, 'Wire');
      await look(page.getByRole('log', { name: 'Wire log' })).toContainText(/>> tools\/call #\S+/);
      await page.getByRole('button', { name: 'Disconnect', exact: true }).click();
      await look(connectionStatus(page)).toHaveText(/Disconnected/);
    });

    it('answers an elicitation form', async () => {
      const url = await startEverythingHttp(cleanups);
      const { page } = await openInspector(suite.browser, cleanups, {
        target: { kind: 'url', url, headers: {} },
      });
      const form = await selectTool(page, 'simulate-research-query');
      await field(form, 'topic').fill('octopus');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      const dialog = page.getByRole('dialog', {
        name: /^Server asks: Before researching "octopus": how deep should I go\?/,
      });
      await look(dialog).toBeVisible();
      await field(dialog, 'depth').selectOption('detailed');
      await field(dialog, 'focus').fill('tentacles');
      await screenshot(page, 'elicitation');
      await dialog.getByRole('button', { name: 'Accept', exact: true }).click();
      await look(dialog).toHaveCount(0);
      await look(resultRegion(page)).toContainText(
        'Research summary for "octopus" (depth: detailed, focus: tentacles)',
      );
    });

    it('reads a resource, subscribes and shows an update with the contents re-read', async () => {
      const url = await startEverythingHttp(cleanups);
      const { page } = await openInspector(suite.browser, cleanups, {
        target: { kind: 'url', url, headers: {} },
      });
      // Simulated updates on (every 100 ms here): the dynamic resources change.
      await selectTool(page, 'toggle-subscriber-updates');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      await look(resultRegion(page)).toContainText('Simulated resource updates are on');
      await openTab(page, 'Resources');
      await page
        .getByRole('button', {
          name: /dynamic-text-1(?!\d)|demo:\/\/resource\/dynamic\/text\/1(?!\d)/,
        })
        .first()
        .click();
      const contents = page.getByRole('region', { name: 'Resource contents' });
      await look(contents).toContainText(/Dynamic text resource 1, revision \d+\./);
      const first = /revision (\d+)/.exec((await contents.textContent()) ?? '')?.[1];
      expect(first).toBeDefined();
      await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
      await look(page.getByRole('heading', { name: 'Updates' })).toBeVisible();
      await look(page.getByText('demo://resource/dynamic/text/1').first()).toBeVisible();
      await look(contents).not.toContainText(`revision ${first ?? ''}.`);
      await screenshot(page, 'resources');
      await page.getByRole('button', { name: 'Unsubscribe', exact: true }).click();
      await look(page.getByRole('button', { name: 'Subscribe', exact: true })).toBeVisible();
    });

    it('reads a resource template filled in, its variable completed', async () => {
      const url = await startEverythingHttp(cleanups);
      const { page } = await openInspector(suite.browser, cleanups, {
        target: { kind: 'url', url, headers: {} },
      });
      await openTab(page, 'Resources');
      const template = page.getByRole('form', { name: 'Template dynamic-text' });
      const id = field(template, 'id');
      await id.pressSequentially('4');
      const suggestions = page.getByRole('listbox', { name: 'Suggestions for id' });
      await suggestions.getByRole('option', { name: '42', exact: true }).click();
      await look(id).toHaveValue('42');
      await template.getByRole('button', { name: 'Read', exact: true }).click();
      await look(page.getByRole('region', { name: 'Resource contents' })).toContainText(
        /Dynamic text resource 42, revision \d+\./,
      );
    });

    it('runs a tool as a task (2026-07-28): asked first, then followed in the Tasks tab', async () => {
      const url = await startEverythingHttp(cleanups);
      const { page } = await openInspector(suite.browser, cleanups, {
        target: { kind: 'url', url, headers: {} },
      });
      const form = await selectTool(page, 'simulate-research-query');
      await field(form, 'topic').fill('tides');
      await form.getByLabel('Run as a task').check();
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: /^Server asks: Before researching "tides"/ });
      await field(dialog, 'depth').selectOption('overview');
      await dialog.getByRole('button', { name: 'Accept', exact: true }).click();
      await openTab(page, 'Tasks');
      const result = page.getByRole('button', { name: /^Result of task / });
      await look(result).toBeVisible();
      await look(page.getByText('completed', { exact: true }).first()).toBeVisible();
      await result.click();
      await look(
        page.getByText(/Research summary for "tides" \(depth: overview\)/).first(),
      ).toBeVisible();
    });

    it('completes a prompt argument as it is typed and gets the prompt', async () => {
      const url = await startEverythingHttp(cleanups);
      const { page } = await openInspector(suite.browser, cleanups, {
        target: { kind: 'url', url, headers: {} },
      });
      await openTab(page, 'Prompts');
      await page
        .getByRole('button', { name: /^args-prompt(?![\w-])|^Prompt with arguments/ })
        .first()
        .click();
      const form = page.getByRole('form', { name: 'Prompt args-prompt' });
      const city = form.getByRole('combobox', { name: /^city(?![\w-])/ });
      await city.pressSequentially('Bo');
      // Suggestions from completion/complete: Boston, not Chicago.
      const suggestions = page.getByRole('listbox', { name: 'Suggestions for city' });
      await look(suggestions.getByRole('option', { name: 'Boston' })).toBeVisible();
      await look(suggestions.getByRole('option', { name: 'Chicago' })).toHaveCount(0);
      await screenshot(page, 'prompt-completion');
      await suggestions.getByRole('option', { name: 'Boston' }).click();
      await look(city).toHaveValue('Boston');
      await page.getByRole('button', { name: 'Get prompt', exact: true }).click();
      await look(page.getByRole('region', { name: 'Prompt messages' })).toContainText(
        "What's the weather in Boston?",
      );
    });

    it("shows each tool's token cost, the server's total and lint findings", async () => {
      const url = await startEverythingHttp(cleanups);
      const { page } = await openInspector(suite.browser, cleanups, {
        target: { kind: 'url', url, headers: {} },
      });
      await openTab(page, 'Tools');
      await look(page.getByText(/^Total: \d+ tokens$/)).toBeVisible();
      await look(
        page.getByRole('button', { name: /^get-sum(?![\w-]).*\b\d+ tokens\b/ }),
      ).toBeVisible();
      // mcpkit lint finds that this description does not say when to use the tool.
      await look(
        page.getByRole('button', { name: /^gzip-file-as-resource(?![\w-])/ }),
      ).toContainText('does not say when to use the tool');
      // Its form: a string with a pattern, a uri with a format, an optional string.
      const form = await selectTool(page, 'gzip-file-as-resource');
      // (the page may escape it for the `v` flag browsers compile a pattern attribute with)
      await look(field(form, 'name')).toHaveAttribute(
        'pattern',
        /^\^\[A-Za-z0-9\._\\?-\]\{1,64\}\$$/,
      );
      await look(field(form, 'name')).toHaveAttribute('aria-required', 'true');
      await look(field(form, 'uri')).toHaveAttribute('type', 'url');
      // The suite.browser enforces the pattern (an invalid one would be ignored).
      const mismatch = (el: Element) => (el as HTMLInputElement).validity.patternMismatch;
      await field(form, 'name').fill('bad name!');
      expect(await field(form, 'name').evaluate(mismatch)).toBe(true);
      await field(form, 'name').fill('notes.txt.gz');
      expect(await field(form, 'name').evaluate(mismatch)).toBe(false);
      await field(form, 'uri').fill('demo://resource/static/document/notes.txt');
      await screenshot(page, 'tools');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      await look(resultRegion(page)).toContainText(/Compressed \d+ bytes to \d+ bytes\./);
    });

    it('shows the tools/call exchange in the wire log; its transcript downloads and replays', async () => {
      const url = await startEverythingHttp(cleanups);
      const { page } = await openInspector(suite.browser, cleanups, {
        target: { kind: 'url', url, headers: {} },
      });
      const form = await selectTool(page, 'get-sum');
      await field(form, 'a').fill('7');
      await field(form, 'b').fill('5');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      await look(resultRegion(page)).toContainText('12');
      await openTab(page, 'Wire');
      const log = page.getByRole('log', { name: 'Wire log' });
      await look(log).toContainText(/>> tools\/call #\S+/);
      await look(log).toContainText(/<< tools\/call result #\S+/);
      await look(log).toContainText(/POST 200/);
      await page.getByLabel('Filter').fill('tools/call');
      await look(log).not.toContainText('tools/list');
      await look(log).toContainText('>> tools/call');
      // An entry opens to its JSON.
      await log.getByRole('button', { name: />> tools\/call #\d+/ }).click();
      await look(log).toContainText(/"arguments":\s*\{\s*"a":\s*7,\s*"b":\s*5\s*\}/);
      await screenshot(page, 'wire-log');
      // Download transcript saves the session as a file, which mcpkit replay runs again.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download transcript' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('mcpkit-transcript.txt');
      const file = await download.path();
      const text = readFileSync(file, 'utf8');
      expect(text).toMatch(/^# revision: \S+/m);
      expect(text).toMatch(/^>> \{.*"method":"tools\/call"/m);
      expect(text).toMatch(/^<< \{.*"The sum of 7 and 5 is 12\."/m);
      // (A child, not spawnSync: the server it replays against runs in this process.)
      const replay = await run(process.execPath, [await mcpkitBin(), 'replay', file, url]);
      expect(replay.code, `${replay.stdout}\n${replay.stderr}`).toBe(0);
    });
  },
);
