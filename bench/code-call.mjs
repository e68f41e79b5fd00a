// A probe, not part of `npm run bench`: machine instructions of a tool call made from code mode's
// sandbox against the same call made directly (issue 41 point 5), counted by valgrind's callgrind
// on the whole process, the sandbox's worker thread included, and per thread.
//
//   node bench/code-call.mjs [--root DIR] [--warm W] [--calls N] [--split [--top K]] [KIND ...]
//
// KIND is `direct` (client.callTool('PingME', {}) over an in-memory pair, as bench:context's
// sandbox rows) or `code` (the same calls made by one run_code run: `await pingme.PingME({})` in
// a loop, through runCodeTool, as those rows do); both by default. A process (node
// --single-threaded, under callgrind with one count per thread) connects a client to PingME over
// createMemoryPair, makes W direct calls and one run of W calls from code (both kinds warm up
// alike), then counts two windows: N calls and 3N calls of KIND, each zeroed and dumped with
// callgrind_control. The figure is their difference over 2N (a run's own start, in both windows,
// cancels out), for the process and for each thread (1 is the host's, 2 the sandbox worker's).
// --split adds the K functions (default 30) that executed the most instructions themselves,
// per call, by thread; JavaScript and WebAssembly functions named from node's perf map. DIR is
// a checkout whose dist/ is counted, by default this one (`node scripts/bundle.mjs` rebuilds
// dist/esm in seconds).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ROOT, ownCounts, perfMap } from './lib.mjs';

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    root: { type: 'string', default: ROOT },
    warm: { type: 'string', default: '3000' },
    calls: { type: 'string', default: '300' },
    split: { type: 'boolean', default: false },
    top: { type: 'string', default: '30' },
    child: { type: 'string' },
  },
});

/** In the counted process: the pair, the warm-up, then one window of calls per line on stdin. */
async function child(kind) {
  const load = (path) => import(pathToFileURL(join(flags.root, 'dist/esm', path)).href);
  const { Client } = await load('src/client/index.js');
  const { createMemoryPair } = await load('src/transports/memory.js');
  const { createPingmeServer } = await load('servers/pingme/server.js');
  const { buildCodeApi, runCodeTool } = await load('src/code-mode/index.js');
  const [a, b] = createMemoryPair();
  await createPingmeServer().connect(b);
  const client = new Client({ name: 'probe', version: '1.0.0' });
  await client.connect(a);
  const tools = await client.listTools();
  const api = buildCodeApi(tools.map((tool) => ({ server: 'pingme', tool })));
  const fn = [...api.entries.keys()][0];
  const direct = async (n) => {
    for (let i = 0; i < n; i++) await client.callTool('PingME', {});
  };
  const code = async (n) => {
    const result = await runCodeTool(
      api,
      { code: `for (let i = 0; i < ${String(n)}; i++) await ${fn}({});` },
      {
        call: (entry, args) => client.callTool(entry.tool.name, args),
        // Under valgrind the code runs some 50 times slower: no time limit may end it.
        limits: { maxToolCalls: n, timeoutMs: 3_600_000, wallTimeoutMs: 3_600_000 },
      },
    );
    if (result.isError === true) throw new Error(JSON.stringify(result.content));
  };
  const warm = Number(flags.warm);
  await direct(warm);
  await code(warm);
  const calls = kind === 'code' ? code : direct;
  const lines = createInterface({ input: process.stdin });
  process.stdout.write('ready\n');
  for await (const line of lines) {
    if (line === 'quit') break;
    await calls(Number(line));
    process.stdout.write('done\n');
  }
  lines.close();
  await client.close();
  process.exit(0);
}

async function driver() {
  const cases = positionals.length > 0 ? positionals : ['direct', 'code'];
  const n = Number(flags.calls);
  for (const kind of cases) {
    const { total, threads, split, perPair } = await count(kind, n);
    for (const [thread, pairs] of perPair) {
      if (pairs.some((v) => Math.abs(v) >= 100)) {
        console.log(`  (thread ${String(thread)}, pair by pair: ${pairs.map(fmt).join(', ')})`);
      }
    }
    const each = [...threads]
      .filter(([, v]) => Math.abs(v) >= 100)
      .map(([t, v]) => `thread ${String(t)}: ${fmt(v)}`)
      .join(', ');
    console.log(`${kind.padEnd(7)} ${fmt(total).padStart(9)} instructions/call (${each})`);
    for (const [thread, rows] of split) {
      if (Math.abs(threads.get(thread) ?? 0) < 100) continue;
      console.log(`  thread ${thread}:`);
      for (const [name, per] of rows)
        console.log(`    ${fmt(per).padStart(8)}  ${name.slice(0, 110)}`);
    }
  }
}

/** Pairs of windows (N, 3N calls) counted one after the other; the last one is reported. */
const PAIRS = 3;

const fmt = (value) => Math.round(value).toLocaleString('en-US');

/** Runs one counted process for `kind`: per-call instructions, in all and by thread. */
async function count(kind, n) {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-code-call-'));
  const perf = flags.split
    ? ['--perf-basic-prof', '--no-logfile-per-isolate', `--logfile=${join(dir, 'v8.log')}`]
    : [];
  const args = [
    '--tool=callgrind',
    '--separate-threads=yes',
    `--callgrind-out-file=${join(dir, 'out')}`,
    process.execPath,
    '--single-threaded',
    ...perf,
    new URL(import.meta.url).pathname,
    '--root',
    flags.root,
    '--warm',
    flags.warm,
    '--child',
    kind,
  ];
  const proc = spawn('valgrind', args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
  const expect = async (word) => {
    const { value, done } = await lines.next();
    if (done === true || value !== word) throw new Error(`the probe said ${String(value)}`);
  };
  try {
    await expect('ready');
    control('-z', proc.pid);
    for (let pair = 0; pair < PAIRS; pair++) {
      for (const calls of [n, 3 * n]) {
        proc.stdin.write(`${String(calls)}\n`);
        await expect('done');
        control('-d', proc.pid);
      }
    }
    proc.stdin.write('quit\n');
    await new Promise((resolve) => proc.once('exit', resolve));
    const files = readdirSync(dir);
    const dumpOf = (k) => files.filter((f) => new RegExp(`^out\\.${String(k)}-\\d+$`).test(f));
    const threads = new Map();
    const split = new Map();
    const perPair = new Map();
    const map = `/tmp/perf-${String(proc.pid)}.map`;
    const names = flags.split && existsSync(map) ? perfMap(map) : undefined;
    // The last pair of windows: the warmest (the JIT still compiles in the first ones).
    const last = 2 * PAIRS;
    for (const file of dumpOf(last - 1)) {
      const thread = Number(/-(\d+)$/.exec(file)[1]);
      const second = join(dir, file.replace(/^out\.\d+-/, `out.${String(last)}-`));
      const first = join(dir, file);
      const pairs = [];
      for (let k = 1; k < last; k += 2) {
        const a = join(dir, file.replace(/^out\.\d+-/, `out.${String(k)}-`));
        const b = join(dir, file.replace(/^out\.\d+-/, `out.${String(k + 1)}-`));
        pairs.push((totalsOf(b) - totalsOf(a)) / (2 * n));
      }
      perPair.set(thread, pairs);
      threads.set(thread, (totalsOf(second) - totalsOf(first)) / (2 * n));
      if (names !== undefined) {
        const a = byFunction(first, names);
        const b = byFunction(second, names);
        const own = threads.get(thread);
        // callgrind_annotate lists the entry points (main, a thread's start) with all below them.
        const rows = [...b]
          .map(([name, value]) => [name, (value - (a.get(name) ?? 0)) / (2 * n)])
          .filter(([, per]) => per < 0.9 * own)
          .sort((x, y) => y[1] - x[1]);
        split.set(thread, rows.slice(0, Number(flags.top)));
      }
    }
    const total = [...threads.values()].reduce((s, v) => s + v, 0);
    return { total, threads, split, perPair };
  } finally {
    if (proc.exitCode === null) proc.kill();
    rmSync(`/tmp/perf-${String(proc.pid)}.map`, { force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

function control(command, pid) {
  const run = spawnSync('callgrind_control', [command, String(pid)], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`callgrind_control ${command}: ${run.stderr}`);
}

function totalsOf(dump) {
  const totals = /^totals:\s+(\d+)/m.exec(readFileSync(dump, 'utf8'));
  if (totals === null) throw new Error(`no totals in ${dump}`);
  return Number(totals[1]);
}

/** Instructions each function executed itself in `dump`; JIT code without a name is one row. */
function byFunction(dump, names) {
  const totals = new Map();
  for (const [name, count] of ownCounts(dump, names)) {
    const row = /^0x[0-9a-f]+/.test(name) ? 'JIT code without a name (WebAssembly)' : name;
    totals.set(row, (totals.get(row) ?? 0) + count);
  }
  return totals;
}

if (flags.child !== undefined) await child(flags.child);
else await driver();
