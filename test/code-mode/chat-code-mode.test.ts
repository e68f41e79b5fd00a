// `mcpkit chat --code-mode` and `mcpkit gateway --code-mode` through the built CLI (#41's "Done
// when"): the chat completes the data-heavy task against the sql reference server over stdio,
// the rows never sent to the model; the gateway's --check shows run_code as the one tool.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, cli } from '../cli/run-cli.js';
import type { FakeModel } from '../helpers/fake-model.js';
import { startFakeModel } from '../helpers/fake-model.js';

const hasDist = existsSync(BIN);
if (!hasDist) console.log('chat-code-mode: skipped, dist/ is missing (npm run build)');

const NO_KEYS = {
  ANTHROPIC_API_KEY: '',
  ANTHROPIC_BASE_URL: '',
  OPENAI_API_KEY: '',
  OPENAI_BASE_URL: '',
};

const CODE = `
const r = await sql.query({ sql: 'SELECT order_id, quantity, unit_price FROM order_lines', maxRows: 1000 });
let revenue = 0;
for (const [, quantity, price] of r.rows) revenue += quantity * Number(price);
console.log('rows:', r.rowCount);
return Math.round(revenue * 100) / 100;`;

let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

describe.skipIf(!hasDist)('code mode through the CLI', () => {
  it('mcpkit chat --code-mode sums a SQL result in the sandbox: the rows never reach the model', async () => {
    model = await startFakeModel([
      { toolCalls: [{ name: 'run_code', arguments: { code: CODE } }] },
      (seen) => ({ text: `Revenue: ${seen.results[0]?.text ?? '?'}` }),
    ]);
    const ran = await cli(
      [
        'chat',
        '--code-mode',
        '--yes',
        '-p',
        'What is the revenue of all order lines?',
        '--server',
        '--',
        process.execPath,
        BIN,
        'serve',
        'sql',
      ],
      { env: { ...NO_KEYS, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'sk-test' } },
    );
    expect(model.problems).toEqual([]);
    expect(ran.code).toBe(0);
    expect(model.requests.map((r) => r.tools)).toEqual([['run_code'], ['run_code']]);
    const result = model.requests[1]!.results[0]!;
    expect(result.isError).toBe(false);
    expect(result.text).toMatch(/^rows: \d+\nReturned: \d+(\.\d+)?$/);
    expect(ran.stdout).toBe(`Revenue: ${result.text}\n`);
    // The second request carries the code and two short lines, not the rows.
    const [first, second] = model.requests.map((r) => JSON.stringify(r.body).length);
    expect(second! - first!).toBeLessThan(CODE.length * 2 + 600);
  }, 90_000);

  it('mcpkit gateway --code-mode --check serves run_code alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpkit-code-mode-'));
    const config = join(dir, 'servers.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { pingme: { command: process.execPath, args: [BIN, 'serve', 'pingme'] } },
      }),
    );
    const ran = await cli(['gateway', '--config', config, '--code-mode', '--check', '--json'], {
      env: NO_KEYS,
    });
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('run_code');
    expect(ran.stdout).not.toMatch(/"PingME"/);
  }, 60_000);
});
