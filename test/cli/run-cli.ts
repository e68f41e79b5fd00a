// Harness of the CLI tests: runs the built bin (dist/esm/src/cli/main.js, which `npm test` builds
// first) as a child process, and compares JSON outputs with golden files (UPDATE=1 rewrites them).
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The build under test: `dist/`, or the directory MCPKIT_DIST names (fixtures load it too). */
export const DIST = process.env['MCPKIT_DIST'] ?? join(ROOT, 'dist');
export const BIN = join(DIST, 'esm/src/cli/main.js');
export const FIXTURES = join(ROOT, 'test/cli/fixtures');
/**
 * The CLI's config folder in tests (MCPKIT_CONFIG_DIR): a scratch one, so that a sign-in never
 * writes to the user's own ~/.config/mcpkit.
 */
export const CONFIG_DIR = mkdtempSync(join(tmpdir(), 'mcpkit-cli-config-'));
/** The feature fixture server as a stdio command: `[...args, '--', ...FIXTURE]`. */
export const FIXTURE = ['node', join(FIXTURES, 'server.mjs')];

/** A stdio command serving the tools of `fixtures/<name>.json` (see static-server.mjs). */
export function staticServer(name: string, serverName = name): string[] {
  return ['node', join(FIXTURES, 'static-server.mjs'), join(FIXTURES, `${name}.json`), serverName];
}

/** What a finished CLI run printed, and its exit code. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link cli}. */
export interface CliOptions {
  /** Written to stdin, which is then closed. Default: stdin closed at once. */
  input?: string;
  /** Added to this process's environment. */
  env?: Record<string, string>;
  /** Kills the run after this long. Default 15 s. */
  timeoutMs?: number;
}

/** Runs `mcpkit <args>` to completion. */
export function cli(args: readonly string[], options: CliOptions = {}): Promise<Ran> {
  const child = spawnCli(args, options.env);
  child.stdin?.end(options.input ?? '');
  return collect(child, options.timeoutMs ?? 15_000);
}

/** Starts `mcpkit <args>` and leaves it running (stdin open). */
export function spawnCli(args: readonly string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, MCPKIT_DIST: DIST, MCPKIT_CONFIG_DIR: CONFIG_DIR, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Waits for a child to exit, collecting its output. */
export function collect(child: ChildProcess, timeoutMs = 15_000): Promise<Ran> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `mcpkit did not exit within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`,
        ),
      );
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Resolves with the first chunk of `stream` output matching `pattern`. */
export function waitFor(
  child: ChildProcess,
  pattern: RegExp,
  timeoutMs = 15_000,
): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => {
      reject(new Error(`no match for ${pattern} within ${timeoutMs} ms; saw: ${seen}`));
    }, timeoutMs);
    const onData = (chunk: Buffer | string) => {
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (match !== null) {
        clearTimeout(timer);
        child.stderr?.off('data', onData);
        resolve(match);
      }
    };
    child.stderr?.on('data', onData);
  });
}

/** A TCP port nobody listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Parses stdout as JSON, failing the test with the output when it is not. */
export function json(ran: Ran): any {
  try {
    return JSON.parse(ran.stdout);
  } catch {
    throw new Error(
      `stdout is not JSON (exit ${String(ran.code)}):\n${ran.stdout}\nstderr:\n${ran.stderr}`,
    );
  }
}

/** Compares `value` with `test/cli/golden/<name>.json`; UPDATE=1 writes it instead. */
export function expectGolden(name: string, value: unknown): void {
  const path = join(ROOT, 'test/cli/golden', `${name}.json`);
  if (process.env['UPDATE'] === '1') {
    writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
    return;
  }
  if (!existsSync(path)) throw new Error(`no golden file ${path}: run the test with UPDATE=1`);
  expect(value).toEqual(JSON.parse(readFileSync(path, 'utf8')));
}

/** Output without ANSI colour codes? (Tests run without a terminal, so there must be none.) */
export function hasAnsi(text: string): boolean {
  // eslint-disable-next-line no-control-regex -- detecting escapes is the point
  return /\u001b\[/.test(text);
}
