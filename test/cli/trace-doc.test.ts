// docs/cli.md's `call --trace` sample shows the messages in the order mcpkit sends them: the
// sample's `<what>` column (method and #id, direction) is compared with a real run against the
// everything reference server over stdio (the sample's server speaks the same 2026-07-28 flow).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, cli } from './run-cli.js';

const TRACE = /^trace \S+ (>>|<<) \S+ (.+?) \{/;

/** The direction and `<what>` of each message line of a trace. */
function messages(lines: readonly string[]): string[] {
  return lines.flatMap((line) => {
    const match = TRACE.exec(line);
    return match === null ? [] : [`${match[1] ?? ''} ${match[2] ?? ''}`];
  });
}

describe('docs/cli.md, call --trace', () => {
  it('lists the messages in the order a call sends them', async () => {
    const doc = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
    const sample = /\$ mcpkit call \S+ get-sum --arg a=2 --arg b=3 --trace\n([\s\S]*?)```/.exec(
      doc,
    );
    expect(sample, 'the --trace sample of docs/cli.md').not.toBeNull();
    const documented = messages((sample?.[1] ?? '').split('\n'));
    expect(documented.length).toBeGreaterThan(3);

    const ran = await cli(
      [
        'call',
        'get-sum',
        '--arg',
        'a=2',
        '--arg',
        'b=3',
        '--trace',
        '--',
        'node',
        BIN,
        'serve',
        'everything',
      ],
      { timeoutMs: 30_000 },
    );
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('5');
    expect(messages(ran.stderr.split('\n'))).toEqual(documented);
  }, 40_000);
});
