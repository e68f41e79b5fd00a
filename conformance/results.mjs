// Reading the suite's results: the checks.json files a run wrote, matched against the expected
// failures of expected-failures.yml, and the summary table `npm run conformance` prints.
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parse } from 'yaml';

/** The suffix the suite adds to every result folder: `-<ISO timestamp>`. */
const STAMP = /-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/**
 * Reads every checks.json under `dir` into a map scenario → checks. Server folders are named
 * `server-<scenario>-<stamp>`, client ones `<scenario>-<stamp>` (auth ones nest as `auth/…`).
 */
export async function readResults(dir, side) {
  const results = new Map();
  for (const file of await findChecks(dir)) {
    const folder = relative(dir, join(file, '..'));
    let scenario = folder.replace(STAMP, '');
    if (side === 'server') scenario = scenario.replace(/^server-/, '');
    results.set(scenario, JSON.parse(await readFile(file, 'utf8')));
  }
  return results;
}

async function findChecks(dir) {
  const found = [];
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await findChecks(path)));
    else if (entry.name === 'checks.json') found.push(path);
  }
  return found;
}

/** The baseline entry for a scenario of a run, if one applies to the run's suite version. */
export function entryFor(expected, run, scenario) {
  const entry = expected[run.side].get(scenario);
  if (entry?.suites !== undefined && !entry.suites.includes(run.version)) return undefined;
  return entry;
}

/** Counts of a scenario's checks, and the ids of those that failed (FAILURE or WARNING). */
export function tally(checks) {
  const count = (status) => checks.filter((c) => c.status === status).length;
  const failed = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
  // A success of the harness's wire-schema check alone does not make a scenario applicable.
  const substantive = checks.filter((c) => c.status === 'SUCCESS' && !c.id.startsWith('wire-'));
  return {
    substantive: substantive.length,
    success: count('SUCCESS'),
    failure: count('FAILURE'),
    warning: count('WARNING'),
    failed: [...new Set(failed.map((c) => c.id))],
    messages: failed.map((c) => `${c.id} ${c.status}: ${c.errorMessage ?? c.description ?? ''}`),
  };
}

/**
 * Loads expected-failures.yml: `server:` and `client:` maps from scenario name to
 * `{ reason, until, checks?, suites? }`. Without `checks` any failure of the scenario is
 * expected; with them, exactly those check ids may fail. `suites` limits the entry to those
 * suite versions (default: all).
 */
export async function loadExpected(path) {
  const doc = parse(await readFile(path, 'utf8'), { merge: true }) ?? {};
  const expected = { server: new Map(), client: new Map() };
  for (const side of ['server', 'client']) {
    for (const [scenario, entry] of Object.entries(doc[side] ?? {})) {
      if (typeof entry?.reason !== 'string' || typeof entry.until !== 'string') {
        throw new Error(`${path}: ${side}.${scenario} needs a reason and an until`);
      }
      if (entry.suites !== undefined && !Array.isArray(entry.suites)) {
        throw new Error(`${path}: ${side}.${scenario}.suites must be a list of versions`);
      }
      expected[side].set(scenario, entry);
    }
  }
  return expected;
}

/**
 * Judges one scenario's outcome against its baseline entry: `pass`, `skip` (no check was
 * scored), `fail` (unexpected), `xfail` (failed as listed) or `stale` (listed but passing, or
 * listed checks that passed).
 */
export function judge(outcome, entry) {
  const failing = outcome.failed.length > 0;
  if (!failing && outcome.substantive === 0) return 'skip'; // nothing applied to us
  if (entry === undefined) return failing ? 'fail' : 'pass';
  if (!failing) return 'stale';
  if (entry.checks === undefined) return 'xfail';
  const listed = new Set(entry.checks);
  if (outcome.failed.some((id) => !listed.has(id))) return 'fail';
  return entry.checks.every((id) => outcome.failed.includes(id)) ? 'xfail' : 'stale';
}

/** Formats rows as a fixed-width table. */
export function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
