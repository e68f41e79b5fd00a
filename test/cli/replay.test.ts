// mcpkit replay, run in-process from source (no build needed): golden transcripts and ones
// recorded by mcpkit inspect, sent again to a server over Streamable HTTP or stdio (a real
// child process); equal answers exit 0, changed ones exit 1 with the differences.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/commands/replay.js';
import { startInspector } from '../../src/cli/inspect/server.js';
import type { McpServer } from '../../src/server/server.js';
import type { Listening } from '../../src/transports/http/server/node.js';
import { listen } from '../../src/transports/http/server/node.js';
import { captureIo } from '../helpers/capture-io.js';
import { createSumServer } from '../helpers/sum-server.js';

const GOLDEN = new URL('../transcripts/', import.meta.url);
let dir = '';
let sum: Listening;
let changed: Listening;

/** The sum server, but its answer worded differently. */
function changedSumServer(): McpServer {
  return createSumServer({}, (a, b) => `Sum: ${String(a + b)}`);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpkit-replay-'));
  const sumServer = createSumServer();
  sum = await listen(() => sumServer, { port: 0 });
  const changedServer = changedSumServer();
  changed = await listen(() => changedServer, { port: 0 });
});

afterAll(async () => {
  await sum.close();
  await changed.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs `mcpkit replay <args>` in this process and collects its output. */
async function replay(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { io, stdout, stderr } = captureIo();
  const code = await run(args, io);
  return { code, stdout: stdout(), stderr: stderr() };
}

const golden = (name: string) => new URL(name, GOLDEN).pathname;

describe('mcpkit replay', () => {
  it('finds the golden legacy transcript equal against the sum server over HTTP (exit 0)', async () => {
    const ran = await replay([golden('legacy-walkthrough.txt'), sum.url]);
    expect(ran.stderr).toBe('');
    expect(ran.stdout).toMatch(/^equal: 7 messages sent to http:\/\/127\.0\.0\.1:\d+\/mcp/);
    expect(ran.code).toBe(0);
  });

  it('finds the golden 2026-07-28 transcript equal too', async () => {
    const ran = await replay([golden('modern-walkthrough.txt'), sum.url]);
    expect(ran.stdout).toMatch(/^equal: /);
    expect(ran.code).toBe(0);
  });

  it('prints the differences of a changed server and exits 1', async () => {
    const ran = await replay([golden('legacy-walkthrough.txt'), changed.url]);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toContain('@@ response to #3');
    expect(ran.stdout).toContain(
      '- {"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"The sum of 7 and 5 is 12."}]}}',
    );
    expect(ran.stdout).toContain(
      '+ {"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"Sum: 12"}]}}',
    );
    expect(ran.stdout).toMatch(/different: .* 1 difference \(- recorded, \+ now\)/);
    const json = await replay([golden('legacy-walkthrough.txt'), changed.url, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      equal: false,
      sent: 7,
      differences: [{ what: 'response to #3' }],
    });
  });

  for (const [mode, revision] of [
    ['auto', '2026-07-28'],
    ['2025-11-25', '2025-11-25'],
  ] as const) {
    it(`replays what mcpkit inspect recorded (mode ${mode}): equal, then different`, async () => {
      const inspector = await startInspector({
        target: { kind: 'url', url: sum.url, headers: {} },
        mode,
      });
      try {
        const call = async (args: object) => {
          const response = await fetch(`${inspector.origin}/api/request`, {
            method: 'POST',
            headers: { 'X-Mcpkit-Token': inspector.token, 'Content-Type': 'application/json' },
            body: JSON.stringify({ op: 'callTool', params: { name: 'get-sum', arguments: args } }),
          });
          return response.json();
        };
        await call({ a: 7, b: 5 });
        await call({ a: 'oops', b: 1 });
        const response = await fetch(`${inspector.origin}/api/transcript`, {
          headers: { 'X-Mcpkit-Token': inspector.token },
        });
        const file = join(dir, `recorded-${mode}.txt`);
        await writeFile(file, await response.text());
        const same = await replay([file, sum.url]);
        expect(same.stdout, same.stdout).toMatch(/^equal: /);
        expect(same.code).toBe(0);
        const other = await replay([file, changed.url]);
        expect(other.code).toBe(1);
        expect(other.stdout).toContain('Sum: 12');
        expect((await import('node:fs')).readFileSync(file, 'utf8')).toContain(
          `# revision: ${revision}`,
        );
      } finally {
        await inspector.close();
      }
    });
  }

  it('replays to a stdio server (a child process)', async () => {
    const script = `
const rl = require('node:readline').createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { echoed: m.method } }) + '\\n');
});`;
    const file = join(dir, 'stdio.txt');
    await writeFile(
      file,
      [
        '# revision: 2025-11-25',
        '>> {"jsonrpc":"2.0","id":1,"method":"ping"}',
        '<< {"jsonrpc":"2.0","id":1,"result":{"echoed":"ping"}}',
        '>> {"jsonrpc":"2.0","id":2,"method":"tools/list"}',
        '<< {"jsonrpc":"2.0","id":2,"result":{"echoed":"tools/list"}}',
        '',
      ].join('\n'),
    );
    const ran = await replay([file, '--', process.execPath, '-e', script]);
    expect(ran.stdout).toMatch(/^equal: 2 messages sent to /);
    expect(ran.code).toBe(0);
  });

  it('refuses a bad transcript or no target (exit 3) and reports an unreachable server (exit 2)', async () => {
    const bad = join(dir, 'bad.txt');
    await writeFile(bad, '>> {"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    const noRevision = await replay([bad, sum.url]);
    expect(noRevision.code).toBe(3);
    expect(noRevision.stderr).toContain('# revision:');
    await writeFile(bad, '# revision: 2025-11-25\n>> {not json\n');
    expect((await replay([bad, sum.url])).stderr).toContain('line 2: not JSON');
    expect((await replay([golden('legacy-walkthrough.txt')])).code).toBe(3);
    expect((await replay([])).code).toBe(3);
    expect((await replay([join(dir, 'missing.txt'), sum.url])).stderr).toContain('cannot read');
    const down = await listen(() => createSumServer(), { port: 0 });
    const url = down.url;
    await down.close();
    const unreachable = await replay([golden('legacy-walkthrough.txt'), url]);
    expect(unreachable.code, unreachable.stdout + unreachable.stderr).toBe(2);
  });
});
