// Settings of the property-based (fuzz) tests: a fixed seed and a modest number of runs in CI, so
// they are repeatable and quick; `npm run fuzz` runs many more with a random seed. A failure
// prints its seed and path; rerun it with MCPKIT_FUZZ_SEED=<seed> (and the path, see docs/fuzzing.md).
import fc from 'fast-check';

const runs = Number(process.env['MCPKIT_FUZZ_RUNS'] ?? 200);
const seedText = process.env['MCPKIT_FUZZ_SEED'] ?? '20261124';

/** fast-check parameters for every property of the fuzz tests. */
export const FUZZ: fc.Parameters<unknown> = {
  numRuns: Number.isInteger(runs) && runs > 0 ? runs : 200,
  ...(seedText === 'random' ? {} : { seed: Number(seedText) }),
  ...(process.env['MCPKIT_FUZZ_PATH'] === undefined
    ? {}
    : { path: process.env['MCPKIT_FUZZ_PATH'] }),
};

/** A vitest timeout that grows with the number of runs. */
export const FUZZ_TIMEOUT_MS: number = Math.max(30_000, (FUZZ.numRuns ?? 200) * 50);

/** Any JSON value, a little deep. */
export const jsonValue: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 4 });

/** Valid JSON-RPC messages: requests, notifications, results and errors. */
export const message: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.oneof(fc.string(), fc.maxSafeInteger()),
    method: fc.string(),
    params: fc.dictionary(fc.string(), jsonValue, { maxKeys: 4 }),
  }),
  fc.record({ jsonrpc: fc.constant('2.0'), method: fc.string() }),
  fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.oneof(fc.string(), fc.maxSafeInteger()),
    result: jsonValue,
  }),
  fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.oneof(fc.string(), fc.maxSafeInteger(), fc.constant(null)),
    error: fc.record({ code: fc.integer(), message: fc.string() }),
  }),
);

/** Splits `text` at `cuts` (positions taken modulo its length, sorted). */
export function chunks(text: string, cuts: readonly number[]): string[] {
  if (text.length === 0) return [text];
  const at = [...new Set(cuts.map((c) => c % text.length))].sort((a, b) => a - b);
  const out: string[] = [];
  let start = 0;
  for (const cut of at) {
    out.push(text.slice(start, cut));
    start = cut;
  }
  out.push(text.slice(start));
  return out;
}
