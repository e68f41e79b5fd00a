// `npm run conformance`: runs the official MCP conformance suite against mcpkit, server side and
// client side, and judges the results against conformance/expected-failures.yml.
//
//   node conformance/run.mjs [--no-build] [--only <text>] [--scenario <name>] [--keep]
//                            [--balanced [--redis <url>]]
//
// Everything runs on this Node (20): the suite's CLI with node20.mjs, which supplies the one
// Node 22 export its bundle imports (fs.globSync, unused by the commands run here).
// Runs: @modelcontextprotocol/conformance 0.1.16 (every server and client scenario) and
// 0.2.0-alpha.12 (legacy server scenarios at 2025-11-25, every 2026-07-28 scenario, and the
// extension scenarios), servers over both faces of mcpkit's Streamable HTTP handler.
// Then the SDK tier figures: 0.2.0-alpha.12's frozen requirement sets of 2025-11-25 and 2026-07-28
// (`--requirements`; the server ones on the node face), scored and printed as the suite's
// `tier-check` does (conformance/tiers.mjs).
// --balanced instead runs the legacy server suites (0.1.16 `--suite all`, 0.2.0-alpha.12 at
// 2025-11-25) and the 2026-07-28 one against three fixture processes sharing one Redis
// (MCPKIT_TEST_REDIS_URL, or --redis) behind a private nginx that routes round-robin with no
// stickiness: scale-out (#22) passes when they pass as against one process.
/* eslint-disable no-console */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { findNginx, startBalancer } from '../scripts/balancer.mjs';
import { entryFor, judge, loadExpected, readResults, table, tally } from './results.mjs';
import { formatTiers, parseRequirements, REQUIREMENT_REVISIONS, scoreTiers } from './tiers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const COMPAT = join(here, 'node20.mjs');
const CLI = {
  '0.1.16': join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'),
  '0.2.0-alpha.12': join(root, 'node_modules/conformance-next/dist/index.js'),
};
const CLIENT_COMMAND = `${process.execPath} ${join(here, 'client.mjs')}`;
const CONCURRENCY = 4;
const CLI_TIMEOUT_MS = 120_000;

const { values: flags } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    only: { type: 'string' },
    scenario: { type: 'string' },
    keep: { type: 'boolean', default: false },
    balanced: { type: 'boolean', default: false },
    redis: { type: 'string' },
  },
});

/** Runs a command; resolves with its exit code and output (stdout and stderr together). */
function exec(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, ...options });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? CLI_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal === null ? 1 : 128), output });
    });
  });
}

/** Runs the conformance CLI of `version` with `args`. */
function conformance(version, args) {
  return exec(process.execPath, ['--import', COMPAT, CLI[version], ...args]);
}

/** Builds dist/ when a file under src/ is newer than it (CI has built already). */
async function buildIfStale() {
  const marker = join(root, 'dist/esm/src/index.js');
  const built = existsSync(marker) ? (await stat(marker)).mtimeMs : 0;
  if (built > 0 && (await newest(join(root, 'src'))) <= built) return;
  console.log('== building (npm run build)');
  const { code, output } = await exec('npm', ['run', 'build'], { timeoutMs: 300_000 });
  if (code !== 0) {
    console.error(output);
    throw new Error('npm run build failed; fix the build or pass --no-build');
  }
}

async function newest(dir) {
  let latest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const time = entry.isDirectory() ? await newest(path) : (await stat(path)).mtimeMs;
    latest = Math.max(latest, time);
  }
  return latest;
}

/** Starts the fixture server on one face; resolves with its URL and a stop function. */
function startFixture(face, extra = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(here, 'server.mjs'), '--face', face, ...extra], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let buffered = '';
    const onData = (chunk) => {
      buffered += chunk;
      const line = buffered.split('\n')[0];
      if (buffered.includes('\n')) {
        child.stdout.off('data', onData);
        child.stdout.resume();
        resolve({ url: line.trim(), stop: () => child.kill('SIGTERM') });
      }
    };
    child.stdout.on('data', onData);
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the ${face} fixture exited (${String(code)})`)));
  });
}

const lists = new Map();

/** Scenarios from the CLI's `list` command (lines `  - name [versions]`), cached. */
function listScenarios(version, args) {
  const key = [version, ...args].join(' ');
  if (!lists.has(key)) lists.set(key, fetchList(version, args));
  return lists.get(key);
}

async function fetchList(version, args) {
  const { code, output } = await conformance(version, ['list', ...args]);
  if (code !== 0) throw new Error(`conformance list failed:\n${output}`);
  return [...output.matchAll(/^\s+- (\S+)(?: \[([^\]]*)\])?$/gm)].map((m) => ({
    name: m[1],
    tags: (m[2] ?? '').split(','),
  }));
}

/**
 * The runs. Each is a suite version and a side; servers also have a face. `suite` runs every
 * scenario in one CLI call (client suites run their scenarios in parallel); otherwise each
 * scenario gets its own call. `alone` scenarios are timing-sensitive: they are run again by
 * themselves at the end, on a quiet machine, and that result counts.
 */
async function planRuns(urls) {
  const next = '0.2.0-alpha.12';
  const runs = [];
  for (const face of flags.balanced ? ['balanced'] : ['node', 'fetch']) {
    const url = urls[face];
    runs.push(
      { version: '0.1.16', side: 'server', face, url, suite: [] },
      { version: next, side: 'server', face, url, spec: '2025-11-25', suite: [] },
      { version: next, side: 'server', face, url, spec: '2026-07-28', suite: [] },
    );
  }
  if (!flags.balanced)
    runs.push(
      { version: next, side: 'server', face: 'node', url: urls.node, spec: 'extension' },
      { version: '0.1.16', side: 'client', suite: [], alone: ['sse-retry'] },
      { version: next, side: 'client', spec: '2025-11-25', suite: [] },
      { version: next, side: 'client', spec: '2026-07-28', suite: [] },
      { version: next, side: 'client', spec: 'extension' },
      ...REQUIREMENT_REVISIONS.flatMap((requirements) => [
        { version: next, side: 'server', face: 'node', url: urls.node, requirements },
        { version: next, side: 'client', requirements },
      ]),
    );
  for (const run of runs) {
    if (run.requirements !== undefined) {
      await planRequirements(run);
      continue;
    }
    const listed = await listScenarios(run.version, [`--${run.side}`, ...specArgs(run)]);
    run.scenarios = listed
      .filter((s) => run.spec !== 'extension' || s.tags.includes('extension'))
      .map((s) => s.name);
    if (run.suite !== undefined) run.suite = ['--suite', 'all', ...specArgs(run)];
    run.alone ??= [];
    run.name = [run.version, run.side, run.spec, run.face].filter(Boolean).join(' ');
  }
  return runs.filter(
    (run) =>
      (flags.only === undefined || run.name.includes(flags.only)) &&
      (flags.scenario === undefined ||
        (run.requirements === undefined && run.scenarios.includes(flags.scenario))),
  );
}

/**
 * A requirement-set run: one CLI call with `--requirements <revision>` (the suite picks the
 * scenarios, each at the revision's wire); it runs the required ones and those it reports
 * without scoring.
 */
async function planRequirements(run) {
  const { code, output } = await conformance(run.version, [
    'list',
    '--requirements',
    run.requirements,
  ]);
  if (code !== 0) throw new Error(`conformance list --requirements failed:\n${output}`);
  run.sets = parseRequirements(output);
  run.scenarios = [
    ...run.sets[run.side],
    ...run.sets.notScored.filter((n) => n.side === run.side).map((n) => n.scenario),
  ];
  run.suite = ['--requirements', run.requirements];
  run.alone = [];
  run.name = [run.version, run.side, 'requirements', run.requirements, run.face]
    .filter(Boolean)
    .join(' ');
}

const specArgs = (run) =>
  run.spec === undefined || run.spec === 'extension' ? [] : ['--spec-version', run.spec];

/** Runs one group into `out`: as a suite in one CLI call, or each scenario on its own. */
async function execute(run, out) {
  const base = run.side === 'server' ? ['server', '--url', run.url] : clientArgs;
  if (run.suite !== undefined && flags.scenario === undefined) {
    await conformance(run.version, [...base, ...run.suite, '-o', out]);
    return;
  }
  const queue = flags.scenario === undefined ? [...run.scenarios] : [flags.scenario];
  const worker = async () => {
    for (let s = queue.shift(); s !== undefined; s = queue.shift()) {
      await conformance(run.version, [...base, '--scenario', s, ...specArgs(run), '-o', out]);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

const clientArgs = ['client', '--command', CLIENT_COMMAND];

/** Runs a run's timing-sensitive scenarios again, one at a time, into `out`. */
async function executeAlone(run, out) {
  for (const s of run.alone.filter((a) => flags.scenario === undefined || a === flags.scenario)) {
    await conformance(run.version, [...clientArgs, '--scenario', s, ...specArgs(run), '-o', out]);
  }
}

/** Runs every group, then the scenarios that must run alone; returns each group's time. */
async function runAll(runs, outRoot) {
  const timings = [];
  for (const [index, run] of runs.entries()) {
    const t0 = Date.now();
    await execute(run, join(outRoot, String(index)));
    timings.push(Date.now() - t0);
    console.log(`== ${run.name}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  for (const [index, run] of runs.entries()) {
    const t0 = Date.now();
    await executeAlone(run, join(outRoot, `${String(index)}-alone`));
    timings[index] += Date.now() - t0;
  }
  return timings;
}

/** The outcome of a scenario that wrote no checks.json (the CLI crashed or timed out). */
const MISSING = { substantive: 0, success: 0, failure: 1, warning: 0, failed: ['(none)'] };

/** Judges one run's results: table rows, its totals, and the failures and stale entries. */
async function judgeRun(run, out, expected) {
  const results = await readResults(out, run.side);
  for (const [scenario, checks] of await readResults(`${out}-alone`, run.side)) {
    results.set(scenario, checks);
  }
  const rows = [];
  const problems = [];
  const sum = { pass: 0, xfail: 0, fail: 0, skip: 0, s: 0, f: 0, w: 0 };
  for (const scenario of flags.scenario === undefined ? run.scenarios : [flags.scenario]) {
    const checks = results.get(scenario);
    const outcome = checks === undefined ? { ...MISSING, messages: [] } : tally(checks);
    const verdict = judge(outcome, entryFor(expected, run, scenario));
    rows.push([run.name, scenario, verdict.toUpperCase(), ...counts(outcome)]);
    sum[verdict === 'stale' ? 'fail' : verdict]++;
    sum.s += outcome.success;
    sum.f += outcome.failure;
    sum.w += outcome.warning;
    if (verdict === 'fail' || verdict === 'stale') {
      problems.push({ run: run.name, scenario, verdict, outcome, missing: checks === undefined });
    }
  }
  return { rows, sum, problems };
}

async function main() {
  const started = Date.now();
  if (!flags['no-build']) await buildIfStale();
  const expected = await loadExpected(join(here, 'expected-failures.yml'));
  const outRoot = await mkdtemp(join(tmpdir(), 'mcpkit-conformance-'));
  const servers = flags.balanced ? await startBalanced() : await startFaces();
  let runs;
  let timings;
  try {
    runs = await planRuns(servers.urls);
    timings = await runAll(runs, outRoot);
  } finally {
    await servers.stop();
  }
  const rows = [];
  const totals = [];
  const problems = [];
  const scored = [];
  for (const [index, run] of runs.entries()) {
    const judged = await judgeRun(run, join(outRoot, String(index)), expected);
    if (run.requirements !== undefined) {
      const results = await readResults(join(outRoot, String(index)), run.side);
      scored.push({ revision: run.requirements, side: run.side, sets: run.sets, results });
    }
    rows.push(...judged.rows);
    problems.push(...judged.problems);
    totals.push({ run: run.name, ...judged.sum, seconds: (timings[index] / 1000).toFixed(1) });
  }
  report(rows, totals, problems);
  if (scored.length > 0) {
    const revisions = REQUIREMENT_REVISIONS.filter((r) => scored.some((s) => s.revision === r));
    console.log(`\n${formatTiers(scoreTiers(scored), revisions)}`);
  }
  if (problems.length > 0 || flags.keep) console.log(`\nresults kept in ${outRoot}`);
  else await rm(outRoot, { recursive: true, force: true });
  const elapsed = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`\n${problems.length === 0 ? 'OK' : 'FAILED'} in ${elapsed} s`);
  return problems.length === 0 ? 0 : 1;
}

/** The fixture on both faces, one process each. */
async function startFaces() {
  const fixtures = { node: await startFixture('node'), fetch: await startFixture('fetch') };
  return {
    urls: { node: fixtures.node.url, fetch: fixtures.fetch.url },
    stop: async () => {
      fixtures.node.stop();
      fixtures.fetch.stop();
    },
  };
}

/**
 * --balanced: three fixture processes (node face) sharing one Redis under a prefix of their own
 * and one state secret, behind a private nginx (scripts/balancer.mjs) on a free port,
 * round-robin, no stickiness, unbuffered for SSE. Stopping deletes this run's Redis keys.
 */
async function startBalanced() {
  const nginx = findNginx();
  if (nginx === undefined) {
    throw new Error('--balanced needs nginx: apt-get install nginx (.ci/run installs it)');
  }
  const redisUrl = flags.redis ?? process.env.MCPKIT_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `mcpkit-conformance-balanced:${String(process.pid)}`;
  const secret = `conformance-balanced-${String(Date.now())}-0123456789abcdef`;
  const args = ['--redis', redisUrl, '--redis-prefix', prefix, '--state-secret', secret];
  const fixtures = await Promise.all([0, 1, 2].map(() => startFixture('node', args)));
  const upstreams = fixtures.map((f) => new URL(f.url).host);
  const balancer = await startBalancer(upstreams, nginx);
  const { url } = balancer;
  console.log(
    `== balanced: nginx at ${url} -> ${upstreams.join(', ')} (Redis ${redisUrl}, prefix ${prefix})`,
  );
  return {
    urls: { balanced: url },
    stop: async () => {
      await balancer.close();
      for (const fixture of fixtures) fixture.stop();
      await forgetKeys(redisUrl, prefix);
    },
  };
}

/** Deletes the keys of one --balanced run. */
async function forgetKeys(url, prefix) {
  const { createClient } = await import('redis');
  const client = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  for await (const keys of client.scanIterator({ MATCH: `${prefix}:*`, COUNT: 500 })) {
    if (keys.length > 0) await client.del(keys);
  }
  await client.quit();
}

const counts = (o) => [o.success, o.failure, o.warning];

function report(rows, totals, problems) {
  console.log(`\n${table(['run', 'scenario', 'result', 'S', 'F', 'W'], rows)}`);
  const header = ['run', 'pass', 'xfail', 'fail', 'skip', 'S', 'F', 'W', 'time'];
  const totalRows = totals.map((t) => [
    ...[t.run, t.pass, t.xfail, t.fail, t.skip, t.s, t.f, t.w],
    `${t.seconds} s`,
  ]);
  console.log(`\n${table(header, totalRows)}`);
  for (const p of problems) {
    const what = p.verdict === 'stale' ? 'STALE baseline entry (passes now)' : 'UNEXPECTED failure';
    console.log(`\n${what}: ${p.run} ${p.scenario}`);
    for (const message of p.outcome.messages) console.log(`  ${message}`);
    if (p.missing) console.log('  no checks.json was written (crash or timeout)');
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
