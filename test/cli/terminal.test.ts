// Server text on a terminal (issue #36, point 12): the built CLI run under a pseudo-terminal
// (util-linux `script`), so that stdout and stderr are TTYs as a person's would be. A server's
// control sequences (window title, clear screen, clipboard) must be shown, not obeyed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import process from 'node:process';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeModel } from '../helpers/fake-model.js';
import { startFakeModel } from '../helpers/fake-model.js';
import type { Ran } from './run-cli.js';
import { BIN, CONFIG_DIR, DIST, FIXTURE, ROOT, cli, collect, staticServer } from './run-cli.js';

const hasDist = existsSync(BIN);
const hasScript = spawnSync('script', ['--version']).status === 0;
if (!hasDist) console.log('cli terminal: skipped, dist/ is missing (npm run build)');
if (!hasScript) console.log('cli terminal: skipped, util-linux `script` is not installed');

const HOSTILE = 'Page text.\u001b]0;PWNED-TITLE\u0007\u001b[2J';
const SHOWN = 'Page text.\\x1b]0;PWNED-TITLE\\x07\\x1b[2J';

/** Runs `mcpkit <args>` with stdin, stdout and stderr on a pseudo-terminal. */
function onTerminal(args: readonly string[], env: Record<string, string> = {}): Promise<Ran> {
  const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, BIN, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    cwd: ROOT,
    env: {
      ...process.env,
      MCPKIT_DIST: DIST,
      MCPKIT_CONFIG_DIR: CONFIG_DIR,
      NO_COLOR: '',
      TERM: 'xterm',
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin?.end();
  return collect(child, 20_000);
}

/** Whether `text` holds an escape sequence other than an SGR colour code. */
function obeyable(text: string): boolean {
  // eslint-disable-next-line no-control-regex -- finding raw control characters is the point
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/.test(
    // eslint-disable-next-line no-control-regex -- mcpkit's own colours (and the pty's CRLF) may stay
    text.replace(/\u001b\[[0-9;]*m/g, '').replace(/\r\n/g, '\n'),
  );
}

let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

describe.skipIf(!hasDist || !hasScript)('server text on a terminal', () => {
  it("mcpkit call shows a result's control sequences escaped", async () => {
    const message = JSON.stringify({ message: HOSTILE });
    const ran = await onTerminal(['call', 'echo', message, '--', ...FIXTURE]);
    expect(ran.code, ran.stdout).toBe(0);
    expect(ran.stdout).toContain(`echo: ${SHOWN}`);
    expect(obeyable(ran.stdout)).toBe(false);
    // Piped, the text is passed on as the server sent it (a script gets the bytes).
    const piped = await cli(['call', 'echo', message, '--', ...FIXTURE]);
    expect(piped.stdout).toBe(`echo: ${HOSTILE}\n`);
  }, 30_000);

  it("mcpkit list shows a tool's name, title and description escaped", async () => {
    const ran = await onTerminal(['list', '--', ...staticServer('terminal-hostile')]);
    expect(ran.code, ran.stdout).toBe(0);
    expect(ran.stdout).toContain('read_page\\x1b]0;PWNED-NAME\\x07');
    expect(ran.stdout).toContain('\\x1b]52;c;cm0gLXJmIH4=\\x07');
    expect(obeyable(ran.stdout)).toBe(false);
  }, 30_000);

  it('mcpkit chat shows tool results and the answer escaped', async () => {
    model = await startFakeModel([
      { toolCalls: [{ name: 'echo', arguments: { message: HOSTILE } }] },
      (seen) => ({ text: `It said: ${seen.results[0]!.text}` }),
    ]);
    const ran = await onTerminal(['chat', '--yes', '-p', 'echo it', '--', ...FIXTURE], {
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'sk-test',
    });
    expect(ran.code, ran.stdout).toBe(0);
    expect(ran.stdout).toContain(`← echo: ${SHOWN}`);
    expect(ran.stdout).toContain(`It said: echo: ${SHOWN}`);
    expect(obeyable(ran.stdout)).toBe(false);
  }, 30_000);
});
