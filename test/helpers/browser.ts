// Harness of the browser tests (test/inspector/): Debian's Chromium driven by playwright-core,
// headless, offline-minded (no QUIC, no background networking, no component updates, no sync)
// and with a fresh profile in a temporary folder, deleted on close. `.ci/run` installs the
// `chromium` package when it is missing; where it cannot be installed, `chromiumMissing` says why
// and the tests skip with that reason in their name, so that a skip is never silent.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import type {
  Browser,
  BrowserContext,
  BrowserContextOptions,
  Locator,
  Page,
} from 'playwright-core';
import { chromium } from 'playwright-core';
import { expect } from 'vitest';

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
    const docsImage = join(DOCS_IMAGE_DIR, `inspector-${name}.png`);
    writeFileSync(docsImage, image);
    await shrink(docsImage);
  }
  return artifact;
}

/** pngquant, which makes the docs' screenshots about a third of their size, when installed. */
const PNGQUANT = '/usr/bin/pngquant';

/** Quantizes a PNG in place with pngquant (Debian's package) when there is one. */
function shrink(file: string): Promise<void> {
  if (!existsSync(PNGQUANT)) return Promise.resolve();
  const args = ['--quality=80-95', '--speed=1', '--strip', '--force', '--output', file, file];
  return new Promise((resolve, reject) => {
    // Not spawnSync: the servers under test run in this process and must keep answering.
    execFile(PNGQUANT, args, (error) => {
      // 99: the quality asked for needs more colours; the file is left as it was.
      if (error === null || error.code === 99) resolve();
      else reject(new Error(`pngquant failed on ${file}: ${error.message}`));
    });
  });
}

/** How long an assertion on the page waits for it to hold (the page is async throughout). */
export const LOOK_TIMEOUT_MS = 15_000;

type Pattern = string | RegExp;

/** Auto-waiting assertions on a locator (playwright-core has no `expect` of its own). */
export interface LocatorAssertions {
  toBeVisible(): Promise<void>;
  toBeAttached(): Promise<void>;
  toBeHidden(): Promise<void>;
  toHaveCount(count: number): Promise<void>;
  /** The inner text of the matched elements, joined by newlines, contains or matches it. */
  toContainText(pattern: Pattern): Promise<void>;
  /** Same as toContainText for a RegExp; a string must equal the whole (trimmed) text. */
  toHaveText(pattern: Pattern): Promise<void>;
  toHaveAttribute(name: string, pattern: Pattern): Promise<void>;
  toHaveValue(pattern: Pattern): Promise<void>;
  toBeDisabled(): Promise<void>;
  readonly not: {
    toContainText(pattern: Pattern): Promise<void>;
    toHaveText(pattern: Pattern): Promise<void>;
  };
}

/**
 * Waits until `locator` meets an expectation, failing after {@link LOOK_TIMEOUT_MS} with what it
 * saw: Playwright's locator assertions, built on vitest's `expect.poll` and `waitFor`. Never a
 * fixed sleep.
 */
export function look(locator: Locator): LocatorAssertions {
  const timeout = LOOK_TIMEOUT_MS;
  const message = String(locator);
  const text = async () => (await locator.allInnerTexts()).join('\n').trim();
  const matches = (pattern: Pattern, whole: boolean) => (actual: string) =>
    typeof pattern === 'string'
      ? whole
        ? actual === pattern
        : actual.includes(pattern)
      : pattern.test(actual);
  const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout, message });
  const textCheck = async (pattern: Pattern, whole: boolean, wanted: boolean) => {
    const test = matches(pattern, whole);
    await poll(async () => {
      const actual = await text();
      return test(actual) === wanted ? true : actual;
    }).toBe(true);
  };
  return {
    toBeVisible: () => locator.waitFor({ state: 'visible', timeout }),
    toBeAttached: () => locator.first().waitFor({ state: 'attached', timeout }),
    toBeHidden: () => locator.waitFor({ state: 'hidden', timeout }),
    toHaveCount: (count) => poll(() => locator.count()).toBe(count),
    toContainText: (pattern) => textCheck(pattern, false, true),
    toHaveText: (pattern) => textCheck(pattern, true, true),
    toHaveAttribute: async (name, pattern) => {
      const test = matches(pattern, true);
      await poll(async () => {
        const actual = await locator.evaluateAll(
          (els, n) => els.map((el) => el.getAttribute(n)),
          name,
        );
        const [only] = actual;
        return actual.length === 1 && typeof only === 'string' && test(only) ? true : actual;
      }).toBe(true);
    },
    toHaveValue: async (pattern) => {
      const test = matches(pattern, true);
      await poll(async () => {
        const actual = await locator.evaluateAll((els) =>
          els.map((el) => (el as HTMLInputElement).value),
        );
        return actual.length === 1 && test(actual[0] ?? '') ? true : actual;
      }).toBe(true);
    },
    toBeDisabled: () =>
      poll(() =>
        locator.evaluateAll((els) => els.map((el) => (el as HTMLInputElement).disabled)),
      ).toEqual([true]),
    not: {
      toContainText: (pattern) => textCheck(pattern, false, false),
      toHaveText: (pattern) => textCheck(pattern, true, false),
    },
  };
}

/** Waits until the page's address matches `pattern` (or, with `negate`, stops matching it). */
export async function lookUrl(page: Page, pattern: RegExp, negate = false): Promise<void> {
  await expect
    .poll(() => page.url(), { timeout: LOOK_TIMEOUT_MS })
    .toSatisfy((url: string) => pattern.test(url) !== negate);
}
