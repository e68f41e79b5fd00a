// The scale-out tests' parts: a private nginx round-robin balancer (scripts/balancer.mjs, shared
// with `npm run conformance -- --balanced` and the bench) in front of several `mcpkit serve`
// child processes.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

export type { Balancer } from '../../scripts/balancer.mjs';
export { findNginx, freePort, startBalancer } from '../../scripts/balancer.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The built CLI (`npm run build`); MCPKIT_DIST points elsewhere. */
export const CLI = join(process.env['MCPKIT_DIST'] ?? join(ROOT, 'dist'), 'esm/src/cli/main.js');

/** A `mcpkit serve` child process. */
export interface Served {
  readonly url: string;
  /** host:port */
  readonly address: string;
  readonly child: ChildProcess;
  /** Its stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** Starts `mcpkit serve <args>` (with --http 127.0.0.1:0) and waits for its URL. */
export function startServe(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<Served> {
  return startCli(['serve', ...args, '--http', '127.0.0.1:0'], env);
}

/** Starts `mcpkit <args>` (a command serving over HTTP) and waits for the URL it prints. */
export async function startCli(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<Served> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`mcpkit ${args[0] ?? ''} did not start: ${stderr}`));
    }, 30_000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /serving at (http:\/\/\S+)\n/.exec(stderr);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`mcpkit ${args[0] ?? ''} exited (${String(code)}): ${stderr}`));
    });
  });
  return {
    url,
    address: new URL(url).host,
    child,
    stderr: () => stderr,
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      // A process that does not stop within 5 s is killed, so that no test leaves one behind.
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
