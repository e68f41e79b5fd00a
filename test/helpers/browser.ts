// Harness of the browser tests (test/inspector/): Debian's Chromium driven by playwright-core,
// headless, offline-minded (no QUIC, no background networking, no component updates, no sync)
// and with a fresh profile in a temporary folder, deleted on close. `.ci/run` installs the
// `chromium` package when it is missing; where it cannot be installed, `chromiumMissing` says why
// and the tests skip with that reason in their name, so that a skip is never silent.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

/** The Chromium the tests drive: Debian's package (`apt-get install chromium`). */
export const CHROMIUM_PATH = process.env['MCPKIT_CHROMIUM'] ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when Chromium is installed. */
export const chromiumMissing: string | undefined = existsSync(CHROMIUM_PATH)
  ? undefined
  : `${CHROMIUM_PATH} is missing (install Debian's chromium package; .ci/run does)`;

/** The command-line switches of every launch (playwright-core adds its own automation ones). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where every run saves its screenshots (gitignored; CI keeps them as artifacts). */
export const SCREENSHOT_DIR = join(ROOT, 'test-results/inspector');

/** Where `MCPKIT_SCREENSHOTS=1` also writes them, for docs/inspector.md. */
export const DOCS_IMAGE_DIR = join(ROOT, 'docs/images');

/** A launched Chromium: one per test file, a new context per test. */
export interface TestBrowser {
  readonly browser: Browser;
  /** A fresh context (own cookies and storage), with a 1280x800 viewport unless told. */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** Closes every context and the browser, then deletes the profile folder. Idempotent. */
  close(): Promise<void>;
}

/**
 * Launches Chromium headless with a fresh profile. playwright-core refuses `--user-data-dir` in
 * `args` (a profile is what launchPersistentContext is for), so the profile folder goes through
 * launchPersistentContext and the tests open ordinary contexts on its browser beside it.
 */
export async function launchChromium(): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'mcpkit-chromium-'));
  let persistent: BrowserContext;
  try {
    persistent = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_ARGS],
    });
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  const browser = persistent.browser();
  if (browser === null) {
    await persistent.close();
    rmSync(profile, { recursive: true, force: true });
    throw new Error('playwright-core gave no Browser for the persistent context');
  }
  let closing: Promise<void> | undefined;
  return {
    browser,
    newContext: (options = {}) =>
      browser.newContext({ viewport: { width: 1280, height: 800 }, ...options }),
    close: () =>
      (closing ??= (async () => {
        try {
          const others = browser.contexts().filter((c) => c !== persistent);
          await Promise.all(others.map((c) => c.close()));
          await persistent.close();
        } finally {
          rmSync(profile, { recursive: true, force: true });
        }
      })()),
  };
}

/**
 * Saves a screenshot of `page` as `test-results/inspector/<name>.png`, and also as
 * `docs/images/inspector-<name>.png` when MCPKIT_SCREENSHOTS=1 (so that a normal run never
 * changes the checkout). Returns the artifact's path.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name)) {
    throw new TypeError(`screenshot name "${name}" must be kebab-case`);
  }
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const artifact = join(SCREENSHOT_DIR, `${name}.png`);
  const image = await page.screenshot({ path: artifact, animations: 'disabled' });
  if (process.env['MCPKIT_SCREENSHOTS'] === '1') {
    mkdirSync(DOCS_IMAGE_DIR, { recursive: true });
    writeFileSync(join(DOCS_IMAGE_DIR, `inspector-${name}.png`), image);
  }
  return artifact;
}
