// The official conformance server suites against `mcpkit gateway --http` in front of the
// conformance fixture (conformance/server.mjs, which passes them all directly): the gateway must
// pass what its upstream passes. Needs the built CLI.
import type { ChildProcess } from 'node:child_process';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, spawnCli, waitFor } from '../cli/run-cli.js';

const SUITES = {
  '0.1.16': join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'),
  next: join(ROOT, 'node_modules/conformance-next/dist/index.js'),
};
const BUILT = existsSync(BIN);
if (!BUILT) console.log(`skipping the gateway conformance tests: ${BIN} is missing`);

/** Runs one suite against `url`: the checks that passed, and the scenarios that failed. */
function runSuite(
  suite: string,
  url: string,
  extra: string[],
): Promise<{ passed: number; failed: string[] }> {
  const args = ['--import', join(ROOT, 'conformance/node20.mjs'), suite, 'server'];
  args.push('--url', url, '--suite', 'all', ...extra);
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      args,
      { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, timeout: 240_000 },
      (error, stdout) => {
        const summary = stdout.split('=== SUMMARY ===')[1];
        if (summary === undefined) {
          reject(error ?? new Error(`no summary in the suite's output: ${stdout.slice(-2000)}`));
          return;
        }
        const failed = [...summary.matchAll(/^✗ (\S+):/gm)].map((match) => match[1] ?? '');
        const passed = Number(/Total: (\d+) passed/.exec(summary)?.[1] ?? 0);
        resolve({ passed, failed });
      },
    );
  });
}

describe.skipIf(!BUILT)('the conformance server suites through the gateway', () => {
  let fixture: ChildProcess;
  let gateway: ChildProcess;
  let url = '';

  beforeAll(async () => {
    fixture = spawn(process.execPath, [join(ROOT, 'conformance/server.mjs')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const [chunk] = (await once(fixture.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
    const upstream = chunk.toString().trim().split('\n')[0] ?? '';
    const dir = mkdtempSync(join(tmpdir(), 'mcpkit-gateway-conformance-'));
    const config = join(dir, 'servers.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { fixture: { url: upstream } } }));
    gateway = spawnCli(['gateway', '--config', config, '--http', '0']);
    url = (await waitFor(gateway, /serving at (http:\/\/\S+)\n/, 20_000))[1] ?? '';
  }, 30_000);

  afterAll(async () => {
    for (const child of [gateway, fixture]) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await once(child, 'close');
      }
    }
  });

  it('0.1.16, every server scenario', async () => {
    const { passed, failed } = await runSuite(SUITES['0.1.16'], url, []);
    expect(failed).toEqual([]);
    expect(passed).toBeGreaterThan(40);
  }, 240_000);

  it('2026-07-28 (0.2.0-alpha.12): every server scenario', async () => {
    const { passed, failed } = await runSuite(SUITES.next, url, ['--spec-version', '2026-07-28']);
    expect(failed).toEqual([]);
    expect(passed).toBeGreaterThan(140);
  }, 240_000);
});
