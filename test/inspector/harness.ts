// Shared by the browser tests of `mcpkit inspect` (#26): why a file skips, the servers the
// inspector is pointed at (mcpkit's everything in process over Streamable HTTP, `mcpkit serve
// everything` as a stdio child, the official server-everything as a stdio child), and the
// inspector itself started in process with `startInspector`, opened in a fresh browser context.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createEverythingServer } from '../../servers/everything/server.js';
import type { EverythingServerOptions } from '../../servers/everything/server.js';
import type { Inspector, InspectorOptions } from '../../src/cli/inspect/server.js';
import { startInspector } from '../../src/cli/inspect/server.js';
import { listen } from '../../src/transports/http/server/node.js';
import type { TestBrowser } from '../helpers/browser.js';
import { chromiumMissing, launchChromium } from '../helpers/browser.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The built page the inspector serves (`npm run build`, or its vite step, writes it). */
export const UI_DIR = join(ROOT, 'dist/inspector');

/** Why the page cannot be served here, or undefined when it is built. */
export const uiMissing: string | undefined = existsSync(join(UI_DIR, 'index.html'))
  ? undefined
  : 'dist/inspector/index.html is missing (npm run build builds it)';

/** Why the browser tests skip here (no Chromium, or no built page), or undefined. */
export const browserSkip: string | undefined = chromiumMissing ?? uiMissing;

/** A suite's name, carrying the reason when it skips (so that the skip shows in the report). */
export function suiteName(name: string, skip: string | undefined = browserSkip): string {
  if (skip === undefined) return name;
  console.warn(`${name}: skipped, ${skip}`);
  return `${name} (skipped: ${skip})`;
}

/** Closes what a test opened, newest first; every step runs even when one fails. */
export class Cleanups {
  readonly #steps: (() => Promise<unknown>)[] = [];

  /** Registers `step` to run at {@link run}. */
  add(step: () => Promise<unknown>): void {
    this.#steps.push(step);
  }

  /** Runs every registered step (newest first) and forgets them; rethrows the first failure. */
  async run(): Promise<void> {
    const failures: unknown[] = [];
    for (const step of this.#steps.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) {
      throw failures[0] instanceof Error ? failures[0] : new Error(String(failures[0]));
    }
  }
}

/** A browser suite's Chromium and the cleanups of its tests. */
export interface ChromiumSuite {
  /** Launched before the suite's first test, closed after its last. */
  readonly browser: TestBrowser;
  /** Run after each test. */
  readonly cleanups: Cleanups;
}

/** Sets up a suite (call it inside `describe`): one Chromium for its tests, cleanups after each. */
export function chromiumSuite(): ChromiumSuite {
  let browser: TestBrowser | undefined;
  const cleanups = new Cleanups();
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterEach(() => cleanups.run());
  afterAll(async () => {
    await browser?.close();
  });
  return {
    get browser(): TestBrowser {
      if (browser === undefined) throw new Error('Chromium is launched in beforeAll, not before');
      return browser;
    },
    cleanups,
  };
}

/**
 * mcpkit's everything server in this process over Streamable HTTP on 127.0.0.1 (what `mcpkit
 * serve everything --http` runs), with fast simulated steps so that tests never wait long.
 */
export async function startEverythingHttp(
  cleanups: Cleanups,
  options: EverythingServerOptions = {},
): Promise<string> {
  const everything = createEverythingServer({
    updateIntervalMs: 100,
    researchStepMs: 10,
    ...options,
  });
  await everything.ready;
  const http = await listen(() => everything.server);
  cleanups.add(() => everything.close());
  cleanups.add(() => http.close());
  return http.url;
}

const BIN = join(ROOT, 'dist/esm/src/cli/main.js');
let bundled: Promise<string> | undefined;

/**
 * The mcpkit CLI as a JavaScript file Node runs: the build's bin when there is one (npm test
 * builds first), else src/cli/main.ts bundled by esbuild into node_modules/.cache/ (inside the
 * checkout, so that its bare imports resolve to node_modules and it finds package.json and
 * dist/inspector; out of reach of eslint and prettier).
 */
export function mcpkitBin(): Promise<string> {
  if (existsSync(BIN)) return Promise.resolve(BIN);
  bundled ??= (async () => {
    const { build } = await import('esbuild');
    const outdir = join(ROOT, 'node_modules/.cache/mcpkit-inspect-tests');
    mkdirSync(outdir, { recursive: true });
    // Built aside, then renamed (atomic): test files running in parallel never read half a file.
    const outfile = join(outdir, 'main.mjs');
    const building = join(outdir, `main-${String(process.pid)}.tmp.mjs`);
    await build({
      entryPoints: [join(ROOT, 'src/cli/main.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      outfile: building,
      logLevel: 'warning',
    });
    renameSync(building, outfile);
    return outfile;
  })();
  return bundled;
}

const require = createRequire(import.meta.url);

/** The official reference server (`@modelcontextprotocol/server-everything`), run with Node. */
export const OFFICIAL_EVERYTHING = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);

/** The inspector started for one test and its page. */
export interface Opened {
  readonly inspector: Inspector;
  readonly context: BrowserContext;
  readonly page: Page;
}

/**
 * Starts an inspector serving the built page (closed at cleanup) and opens its URL, token
 * included, in a new browser context.
 */
export async function openInspector(
  browser: TestBrowser,
  cleanups: Cleanups,
  options: Omit<InspectorOptions, 'uiDir'> = {},
): Promise<Opened> {
  const inspector = await startInspector({ ...options, uiDir: UI_DIR });
  cleanups.add(() => inspector.close());
  const context = await browser.newContext();
  cleanups.add(() => context.close());
  const page = await context.newPage();
  await page.goto(inspector.url);
  return { inspector, context, page };
}

/** The header's connection status ("Connected" / "Disconnected"). */
export function connectionStatus(page: Page): Locator {
  return page.getByRole('status').filter({ hasText: /Connected|Disconnected/ });
}

/** Opens a tab of the navigation by its exact name. */
export async function openTab(page: Page, name: string): Promise<void> {
  await page.getByRole('tablist').getByRole('tab', { name, exact: true }).click();
}

/**
 * Selects a tool in the Tools tab and returns its form (`Tool <name>`). The tool's button is
 * found by its name at the start of the button's accessible name (which also holds its title,
 * description and token cost).
 */
export async function selectTool(page: Page, name: string): Promise<Locator> {
  await openTab(page, 'Tools');
  await page.getByRole('button', { name: new RegExp(`^${escapeRegExp(name)}(?![\\w-])`) }).click();
  const form = page.getByRole('form', { name: `Tool ${name}` });
  await form.waitFor();
  return form;
}

/** The region results appear in. */
export function resultRegion(page: Page): Locator {
  return page.getByRole('region', { name: 'Result' });
}

/** A form field labelled by its property name (the label starts with it, a title may follow). */
export function field(scope: Pick<Page, 'getByLabel'>, property: string): Locator {
  return scope.getByLabel(new RegExp(`^${escapeRegExp(property)}(?![\\w-])`));
}

/** Text as a regular expression matching it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `process.execPath` and arguments as one command line for the page's `Command` field. */
export function commandLine(args: readonly string[]): string {
  return [process.execPath, ...args]
    .map((a) => (/[\s"']/.test(a) ? JSON.stringify(a) : a))
    .join(' ');
}

/** `mcpkit inspect` run as a child process, and the page address it printed. */
export interface InspectCli {
  readonly child: ChildProcess;
  /** The first line of its stdout: the page's URL with the token. */
  readonly address: string;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** Sends SIGTERM and resolves with its exit code once it has exited. */
  stop(): Promise<number | null>;
}

/**
 * Starts `mcpkit <args>` (the built bin, or the bundle of the sources), with a scratch config
 * folder so that no sign-in touches the user's, and waits for the first line of its stdout.
 */
export async function startInspectCli(
  cleanups: Cleanups,
  args: readonly string[],
): Promise<InspectCli> {
  const configDir = mkdtempSync(join(tmpdir(), 'mcpkit-inspect-cli-'));
  cleanups.add(() => {
    rmSync(configDir, { recursive: true, force: true });
    return Promise.resolve();
  });
  const child = spawn(process.execPath, [await mcpkitBin(), ...args], {
    env: { ...process.env, MCPKIT_CONFIG_DIR: configDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      resolve(code);
    });
  });
  const stop = (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  cleanups.add(stop);
  const address = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const newline = stdout.indexOf('\n');
      if (newline >= 0) resolve(stdout.slice(0, newline));
    });
    void exited.then((code) => {
      reject(new Error(`mcpkit ${args.join(' ')} exited (${String(code)}): ${stderr}`));
    });
  });
  return { child, address, stderr: () => stderr, stop };
}

/** Makes server-everything bind 127.0.0.1 and say where (test/interop's preload). */
const LOOPBACK_ONLY = new URL('../interop/fixtures/loopback-only.mjs', import.meta.url).href;

/**
 * The official server-everything over Streamable HTTP as a child process, bound to loopback by a
 * preload (it listens on every interface otherwise); resolves with its MCP endpoint.
 */
export async function startOfficialHttp(cleanups: Cleanups): Promise<string> {
  const child = spawn(
    process.execPath,
    ['--import', LOOPBACK_ONLY, OFFICIAL_EVERYTHING, 'streamableHttp'],
    { env: { PATH: process.env['PATH'] ?? '', PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      resolve();
    });
  });
  cleanups.add(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  });
  const address = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      const match = /LOOPBACK-LISTENING (\S+)\n/.exec(text);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    void exited.then(() => {
      reject(new Error(`server-everything exited before listening: ${text}`));
    });
  });
  return `http://${address}/mcp`;
}
