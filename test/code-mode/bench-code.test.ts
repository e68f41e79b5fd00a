// The code-mode column of `npm run bench:context` (#41 point 5), asserted as ratios: on the
// data-heavy task (a 1,000-row SQL result summed in code) code mode sends at least 95% fewer
// input tokens than eager, and every task's plan completes. The workload and the eager mode
// live in bench/context/ (the bench's own files); skipped when they are missing.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = new URL('../../bench/context/', import.meta.url);
const present = ['run.ts', 'modes/eager.ts', 'modes/code.ts'].every((file) =>
  existsSync(fileURLToPath(new URL(file, root))),
);
if (!present) console.log('bench-code: skipped, bench/context/ is missing');

interface Run {
  readonly inputTokens: number;
  readonly ok: boolean;
  readonly note?: string;
}

describe.skipIf(!present)('bench:context, code mode', () => {
  it('sends >= 95% fewer input tokens than eager on the data-heavy task', async () => {
    const load = (file: string): Promise<Record<string, unknown>> =>
      import(new URL(file, root).href) as Promise<Record<string, unknown>>;
    const [bench, eager, code] = await Promise.all([
      load('run.ts'),
      load('modes/eager.ts'),
      load('modes/code.ts'),
    ]);
    const runBench = bench['runBench'] as (
      modes: unknown[],
      only?: string[],
    ) => Promise<{ runs: ReadonlyMap<string, (Run | undefined)[]> }>;
    const result = await runBench([eager['mode'], code['mode']], ['revenue']);
    const [eagerRun, codeRun] = result.runs.get('revenue') ?? [];
    expect(eagerRun?.ok, eagerRun?.note).toBe(true);
    expect(codeRun?.ok, codeRun?.note).toBe(true);
    const saved = 1 - (codeRun?.inputTokens ?? Infinity) / (eagerRun?.inputTokens ?? 0);
    expect(saved).toBeGreaterThanOrEqual(0.95);
  }, 180_000);
});
