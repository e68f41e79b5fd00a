// A probe, not part of `npm run bench`: machine instructions per `tools/call`, counted by
// valgrind's callgrind. Unlike time, the count hardly depends on what else the machine does, so
// two builds, or mcpkit and raw node:http, can be compared on a shared, noisy machine
// (bench/RESULTS.md, "Sixth round", "Seventh round"). V8 runs on one thread. Expect about 1 %
// between two counts of the same build (when the garbage collector runs moves a little).
//
//   node bench/instructions.mjs [--http | --stdio] [--warm W] [--inflight F] [--split [--top K]]
//                               [--root DIR] [--calls N] [--redis] [--unsettled]
//                               [--gateway-with policies,limits,audit] KIND ...
//
// In process (the default) it runs bench/alloc-probe.mjs: the node face with stand-ins for the
// request and response, no sockets; KIND is modern, stateless, session, raw or raw-modern; the
// figure is the difference of two runs, N and 3N calls after the same start, per call. With
// --http it counts a real server (bench/servers/, under callgrind) answering N calls over 64
// keep-alive connections on 127.0.0.1, node:http and all (not the kernel), after W warm-up calls
// (default 20,000); KIND is raw, raw-modern, modern, stateless, session or gateway (`mcpkit
// gateway` in front of the modern server, which runs outside valgrind), raw-proxy (its ceiling,
// servers/raw-proxy.mjs, in front of the same server), or gateway-stdio,
// gateway-stdio-session and raw-proxy-stdio (the gateway and the raw proxy in front of the stdio
// upstream of the peer-gateway rows, issue 40, which runs outside valgrind). With --stdio it counts
// a stdio server the same way, the calls written one at a time as lines on its stdin: KIND is
// legacy (mcpkit-stdio.mjs, `initialize` first), modern (the same, 2026-07-28 requests), raw
// (raw-stdio.mjs, initialized alike) or raw-modern. --inflight F keeps F calls in flight instead
// (connections for --http; pipelined lines for --stdio, 32 in run.mjs). Only the server runs
// under valgrind; this driver does not. --split adds the K functions (default 40) that executed
// the most instructions themselves, per call. MCPKIT_PROBE_MIDDLEWARE=1 in the environment has
// the mcpkit servers (in process, --http, --stdio) run one pass-through request middleware and
// one pass-through tool-call middleware; =async, the same as async functions (bench/RESULTS.md,
// "Seams: middleware"). DIR is a checkout (or a copy of its dist/ and bench/) to count, by
// default this one; raw servers always come from this one. A run takes a minute (in process)
// or two to three (--http, --stdio). --redis (with --http) keeps the mcpkit servers' sessions and
// streams in Redis (MCPKIT_BENCH_REDIS_URL, else MCPKIT_TEST_REDIS_URL), as run.mjs's Redis rows
// do: `session` is then a legacy session whose record is in Redis (issue #44).
//
// A counted server (--http, --stdio) starts settled, every kind the same way (issue #44): its
// young generation starts at 16 MB semi-spaces and may grow to 64, V8's memory reducer is off
// (SETTLED_ARGS), and once it is up it collects its garbage (SIGUSR2, a full collection) before
// the first request. Without it a legacy session with Redis counted 1.06x-2.03x an in-memory
// one from run to run: under valgrind a server is slow enough for V8's memory reducer to take it
// for idle and run its full collections in the middle of the counted calls, more or fewer of
// them; the young generation's size, which a server's start decided (a collection forced at
// start with node's defaults shrank it: 1.15-1.4x for an in-memory server), is fixed besides.
// --unsettled counts the start as it was before (bench/RESULTS.md, issue 44, point 3).
// --gateway-with turns on, for KIND gateway, any of the gateway's team features
// (bench/servers/mcpkit-gateway.mjs): `policies` (four rules), `limits` (every rate limit, in
// memory, none refusing), `audit` (the audit log to a file); issue 40, what each costs a call.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Agent } from 'node:http';
import { join } from 'node:path';
import process from 'node:process';
import { parseArgs } from 'node:util';
import {
  ROOT,
  kindServer,
  openSession,
  openStdioSession,
  ownCounts,
  perfMap,
  post,
  startServer,
  stdioPeer,
  toolCall,
} from './lib.mjs';

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    root: { type: 'string', default: ROOT },
    calls: { type: 'string' },
    http: { type: 'boolean', default: false },
    stdio: { type: 'boolean', default: false },
    inflight: { type: 'string' },
    warm: { type: 'string', default: '20000' },
    split: { type: 'boolean', default: false },
    top: { type: 'string', default: '40' },
    redis: { type: 'boolean', default: false },
    unsettled: { type: 'boolean', default: false },
    'gateway-with': { type: 'string', default: '' },
  },
});
/** The environment bench/servers/mcpkit-gateway.mjs reads for each of --gateway-with's features. */
const GATEWAY_FEATURES = {
  policies: { MCPKIT_BENCH_GATEWAY_POLICY: '1' },
  limits: { MCPKIT_BENCH_GATEWAY_LIMITS: '1' },
  audit: { MCPKIT_BENCH_GATEWAY_AUDIT: '1' },
};
const gatewayEnv = {};
for (const feature of flags['gateway-with'].split(',').filter((f) => f !== '')) {
  const env = GATEWAY_FEATURES[feature];
  if (env === undefined) {
    throw new Error(
      `unknown --gateway-with ${feature} (${Object.keys(GATEWAY_FEATURES).join(', ')})`,
    );
  }
  Object.assign(gatewayEnv, env);
}
if (flags.http && flags.stdio) throw new Error('--http or --stdio, not both');
const REDIS_URL = process.env.MCPKIT_BENCH_REDIS_URL ?? process.env.MCPKIT_TEST_REDIS_URL;
if (flags.redis && (!flags.http || REDIS_URL === undefined)) {
  throw new Error('--redis needs --http and MCPKIT_BENCH_REDIS_URL or MCPKIT_TEST_REDIS_URL');
}
const served = flags.http || flags.stdio;
const calls = Number(flags.calls ?? (served ? 6000 : 10000));
const inflight = Number(flags.inflight ?? (flags.stdio ? 1 : 64));
const defaults = flags.stdio ? ['raw', 'legacy', 'modern'] : ['raw-modern', 'modern'];
const cases = positionals.length > 0 ? positionals : defaults;
const CALLGRIND = ['--tool=callgrind', '--callgrind-out-file=/dev/null'];
/**
 * A counted server's heap: 16 MB semi-spaces, below their largest size (64 MB), and no memory
 * reducer (under valgrind a server is slow enough for V8 to take it for idle and start the
 * reducer's full collections in the middle of the calls).
 */
const SETTLED_ARGS = [
  '--expose-gc',
  '--min-semi-space-size=16',
  '--max-semi-space-size=64',
  '--no-memory-reducer',
];

/** The instruction count callgrind printed, from its stderr. */
function refsOf(stderr) {
  const refs = /I\s+refs:\s+([\d,]+)/.exec(stderr);
  if (refs === null) throw new Error(`no count from callgrind:\n${stderr.slice(-2000)}`);
  return Number(refs[1].replaceAll(',', ''));
}

/** Instructions node executed running the in-process probe for `n` calls of `kind`. */
function countInProcess(kind, n) {
  const probe = join(flags.root, 'bench', 'alloc-probe.mjs');
  const args = [...CALLGRIND, process.execPath, '--single-threaded', probe, kind, String(n)];
  const run = spawnSync('valgrind', args, { encoding: 'utf8' });
  if (run.error !== undefined) throw new Error(`valgrind: ${run.error.message}`);
  return refsOf(run.stderr);
}

/**
 * Instructions per call of a server answering `n` calls, counted after `flags.warm` calls (so
 * that V8 has compiled what it will: counting from the start took in late optimizing, 2,000-4,000
 * instructions a call). The count is zeroed and dumped with callgrind_control. With `--split`,
 * also the `top` functions by their own instructions per call, JavaScript functions named from
 * node's `--perf-basic-prof` map.
 */
async function countServer(kind, n) {
  const { file, env, era, session, uniqueIds } = kindServer(kind, flags.root, {
    stdio: flags.stdio,
  });
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-callgrind-'));
  try {
    // The perf map names JIT code; V8's own log, which the flag turns on, goes with the dump.
    const perf = [
      '--perf-basic-prof',
      '--no-logfile-per-isolate',
      `--logfile=${join(dir, 'v8.log')}`,
    ];
    const { child, port, stop } = await startServer(file, {
      env: {
        ...env,
        ...(kind === 'gateway' ? gatewayEnv : {}),
        ...(flags.redis ? { BENCH_REDIS_URL: REDIS_URL } : {}),
      },
      stdio: flags.stdio,
      nodeArgs: [
        '--single-threaded',
        ...(flags.unsettled ? [] : SETTLED_ARGS),
        ...(flags.split ? perf : []),
      ],
      wrap: ['valgrind', '--tool=callgrind', `--callgrind-out-file=${join(dir, 'out')}`],
      timeoutMs: 600_000, // node starts slowly under valgrind, more so on a loaded machine
    });
    try {
      if (!flags.unsettled) await collected(child);
      const client = flags.stdio
        ? await stdioClient(child, era)
        : await httpClient(port, { session: session ?? kind === 'session', era, uniqueIds });
      await client.load(Number(flags.warm));
      callgrindControl('-z', child.pid);
      await client.load(n);
      callgrindControl('-d', child.pid);
      client.close();
      const dump = join(dir, 'out.1'); // the first dump callgrind_control asked for
      const totals = /^totals:\s+(\d+)/m.exec(readFileSync(dump, 'utf8'));
      if (totals === null) throw new Error(`no totals in ${dump}`);
      const split = flags.split ? byFunction(dump, child.pid, n) : undefined;
      return { perCall: Number(totals[1]) / n, split };
    } finally {
      await stop();
      rmSync(`/tmp/perf-${String(child.pid)}.map`, { force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `calls` calls of `one`, `inflight` at a time. */
async function inFlight(calls, one) {
  let next = 0;
  const lane = async () => {
    while (next < calls) {
      next++;
      await one();
    }
  };
  await Promise.all(Array.from({ length: inflight }, lane));
}

/** `tools/call` over keep-alive connections, one per call in flight (a session opened first). */
async function httpClient(port, { session: opened, era, uniqueIds }) {
  const url = `http://127.0.0.1:${String(port)}/mcp`;
  const agent = new Agent({ keepAlive: true, maxSockets: inflight });
  const session = opened ? await openSession(url, agent) : undefined;
  const request = toolCall(era, { session });
  let id = 1;
  return {
    load: (calls) =>
      inFlight(calls, async () => {
        const call = uniqueIds ? toolCall(era, { session, id: ++id }) : request;
        const reply = await postAgain(url, { ...call, agent });
        if (reply.status !== 200) throw new Error(`status ${String(reply.status)}: ${reply.text}`);
      }),
    close: () => agent.destroy(),
  };
}

/**
 * post(), sent again when the server reset the keep-alive connection it went on: under valgrind on
 * a loaded machine a pause of several seconds (a full collection) lets the server's keep-alive
 * timer fire before it reads the request already sent on that connection.
 */
async function postAgain(url, options) {
  try {
    return await post(url, options);
  } catch (error) {
    if (error?.code !== 'ECONNRESET') throw error;
    process.stderr.write('(a keep-alive connection was reset; the call was sent again)\n');
    return post(url, options);
  }
}

/** `tools/call` as lines on the server's stdin (a legacy peer initializes first). */
async function stdioClient(child, era) {
  const peer = stdioPeer(child);
  let id = 0;
  if (era === 'legacy') await openStdioSession(peer, ++id);
  const first = await peer.send(`${toolCall(era, { id: ++id }).body}\n`, id);
  if (!JSON.stringify(first).includes('hello world')) {
    throw new Error(`unexpected answer ${JSON.stringify(first)}`);
  }
  return {
    load: (calls) =>
      inFlight(calls, async () => {
        const mine = ++id;
        const reply = await peer.send(`${toolCall(era, { id: mine }).body}\n`, mine);
        if (!('result' in reply)) throw new Error(`no result: ${JSON.stringify(reply)}`);
      }),
    close: () => child.stdin.end(),
  };
}

/**
 * Has the server collect its garbage (SIGUSR2: a forced full collection, which also finishes any
 * marking under way) and resolves once it says it did (`COLLECTED` on stderr), before any request.
 */
function collected(child) {
  return new Promise((resolve, reject) => {
    let said = '';
    const timer = setTimeout(() => {
      child.stderr.off('data', heard);
      reject(new Error('the server did not collect its garbage within 10 minutes'));
    }, 600_000);
    const heard = (chunk) => {
      said += chunk.toString();
      if (!said.includes('COLLECTED')) return;
      clearTimeout(timer);
      child.stderr.off('data', heard);
      resolve();
    };
    child.stderr.on('data', heard);
    child.kill('SIGUSR2');
  });
}

function callgrindControl(command, pid) {
  const run = spawnSync('callgrind_control', [command, String(pid)], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`callgrind_control ${command}: ${run.stderr}`);
}

/**
 * The functions that executed the most instructions themselves (callees not counted), per call:
 * callgrind_annotate's list, with JIT code addresses named from the perf map.
 */
function byFunction(dump, pid, n) {
  const totals = ownCounts(dump, perfMap(`/tmp/perf-${String(pid)}.map`));
  const all = [...totals].sort((a, b) => b[1] - a[1]);
  // callgrind_annotate lists the entry points (main and the like) with everything below them.
  const own = all.filter(([, count]) => count < all[0][1] / 2);
  return own.slice(0, Number(flags.top)).map(([name, count]) => [name, count / n]);
}

const where = flags.http ? 'HTTP' : flags.stdio ? 'stdio' : 'in process';
const shape =
  (served && flags.inflight !== undefined ? `, ${String(inflight)} in flight` : '') +
  (flags.redis ? ', Redis' : '') +
  (flags['gateway-with'] === '' ? '' : `, gateway with ${flags['gateway-with']}`);
for (const kind of cases) {
  let per;
  let split;
  if (served) {
    ({ perCall: per, split } = await countServer(kind, calls));
  } else {
    per = (countInProcess(kind, 3 * calls) - countInProcess(kind, calls)) / (2 * calls);
  }
  console.log(
    `${kind.padEnd(12)} ${Math.round(per).toLocaleString('en-US').padStart(8)} instructions/call (${where}${shape})`,
  );
  for (const [name, count] of split ?? []) {
    console.log(
      `  ${Math.round(count).toLocaleString('en-US').padStart(7)}  ${name.slice(0, 110)}`,
    );
  }
}
