// Back-to-back HTTP comparison: starts every server given at once, then loads them in turn with
// wrk (64 connections, 1-second runs, the order reversed every other round) and prints, for each,
// the median req/s and the median of its per-round ratio to the first server. Ratios taken within
// one round share the machine's weather, so this tells a gain from drift far better than two
// `npm run bench` runs (bench/RESULTS.md, "Third round"). On Linux it also prints the server's
// CPU time per request under the load (user + system, every thread, from /proc), which is less
// noisy than req/s and says where a server is CPU-bound. Needs wrk.
//
//   node bench/pair.mjs [--rounds 10] [--seconds 1] NAME=KIND[@ROOT] ...
//
// KIND is raw, raw-modern (raw node:http given the 2026-07-28 request), modern, stateless,
// session, gateway or raw-proxy (the gateway's ceiling, issue 40); ROOT is a checkout whose dist/ and bench/servers/
// to run (default: this one), e.g. a copy of an older build:
//
//   node bench/pair.mjs raw=raw before=stateless@/tmp/old after=stateless
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { parseArgs } from 'node:util';
import {
  ROOT,
  cpuSeconds,
  kindServer,
  median,
  oneSocketAgent,
  openSession,
  startServer,
  toolCall,
} from './lib.mjs';

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '10' }, seconds: { type: 'string', default: '1' } },
});
const scratch = mkdtempSync(join(tmpdir(), 'mcpkit-pair-'));

/** Starts one server; resolves with its name, URL and wrk script. */
async function start(spec) {
  const [name, rest = ''] = spec.split('=');
  const [kind, root = ROOT] = rest.split('@');
  const { file, env, era, session: ownIds } = kindServer(kind, root);
  // A gateway's legacy session needs an id per call in flight, which this fixed body has not.
  if (ownIds === true) throw new Error(`${kind}: use bench/run.mjs or instructions.mjs`);
  const { child, port } = await startServer(file, { env });
  const url = `http://127.0.0.1:${String(port)}/mcp`;
  const request =
    era === 'modern' ? toolCall('modern') : toolCall('legacy', await session(kind, url));
  const lines = ['wrk.method = "POST"', `wrk.body = [==[${request.body}]==]`];
  for (const [header, value] of Object.entries(request.headers)) {
    lines.push(`wrk.headers["${header}"] = "${value}"`);
  }
  const script = join(scratch, `${name}.lua`);
  writeFileSync(script, `${lines.join('\n')}\n`);
  return { name, url, script, child, rps: [], cpu: [] };
}

/** For a `session` server, a fresh initialized session's id. */
async function session(kind, url) {
  return kind === 'session' ? { session: await openSession(url, oneSocketAgent()) } : {};
}

/** Loads `server` for `seconds`; records req/s and, where /proc is, CPU µs per request. */
function load(server, seconds) {
  const args = [
    '-t',
    '2',
    '-c',
    '64',
    '-d',
    `${String(seconds)}s`,
    '-s',
    server.script,
    server.url,
  ];
  const before = cpuSeconds(server.child.pid);
  const out = execFileSync('wrk', args, { encoding: 'utf8' });
  const after = cpuSeconds(server.child.pid);
  const total = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN);
  server.rps.push(Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN));
  if (before !== undefined && after !== undefined)
    server.cpu.push(((after - before) * 1e6) / total);
}

const servers = [];
try {
  for (const spec of positionals) servers.push(await start(spec));
  for (const server of servers) load(server, 1); // warm-up, not counted
  for (const server of servers) {
    server.rps.length = 0;
    server.cpu.length = 0;
  }
  const rounds = Number(flags.rounds);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    for (const server of order) load(server, Number(flags.seconds));
  }
  const [first] = servers;
  for (const server of servers) {
    const ratios = server.rps.map((rps, i) => rps / first.rps[i]);
    const cpu = server.cpu.length > 0 ? `  ${median(server.cpu).toFixed(1)} µs CPU/req` : '';
    process.stdout.write(
      `${server.name.padEnd(16)} ${String(Math.round(median(server.rps))).padStart(7)} req/s${cpu}` +
        `  ${median(ratios).toFixed(2)}x ${first.name} (rounds ${ratios.map((r) => r.toFixed(2)).join(' ')})\n`,
    );
  }
} finally {
  for (const server of servers) server.child.kill();
}
