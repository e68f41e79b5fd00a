// A probe, not part of `npm run bench`: machine instructions per `tools/call`, counted by
// valgrind's callgrind. Unlike time, the count hardly depends on what else the machine does, so
// two builds, or mcpkit and raw node:http, can be compared on a shared, noisy machine
// (bench/RESULTS.md, "Sixth round"). Each figure is the difference of two runs, N and 3N calls
// after the same start, per call; V8 runs on one thread. Expect a few per cent between two counts
// of the same build (when the garbage collector runs moves a little).
//
//   node bench/instructions.mjs [--http] [--root DIR] [--calls N] KIND ...
//
// In process (the default) it runs bench/alloc-probe.mjs: the node face with stand-ins for the
// request and response, no sockets; KIND is modern, stateless, session, raw or raw-modern. With
// --http it counts a real server (bench/servers/, under callgrind) answering N calls over 64
// keep-alive connections on 127.0.0.1, node:http and all (not the kernel); KIND is raw,
// raw-modern, modern, stateless or session. DIR is a checkout (or a copy of its dist/ and bench/)
// to count, by default this one. A run takes a minute or two.
import { spawn, spawnSync } from 'node:child_process';
import { Agent } from 'node:http';
import { join } from 'node:path';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { BENCH, ROOT, openSession, post, toolCall } from './lib.mjs';

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    root: { type: 'string', default: ROOT },
    calls: { type: 'string' },
    http: { type: 'boolean', default: false },
  },
});
const calls = Number(flags.calls ?? (flags.http ? 4000 : 10000));
const cases = positionals.length > 0 ? positionals : ['raw-modern', 'modern'];
const CALLGRIND = ['--tool=callgrind', '--callgrind-out-file=/dev/null'];

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

/** Instructions a server executed from its start to its end, having answered `n` calls. */
async function countHttp(kind, n) {
  const file = kind.startsWith('raw')
    ? join(BENCH, 'servers', 'raw-http.mjs')
    : join(flags.root, 'bench', 'servers', 'mcpkit-http.mjs');
  const env = { ...process.env, PORT: '0', BENCH_SESSIONS: kind === 'stateless' ? '0' : '1' };
  const child = spawn('valgrind', [...CALLGRIND, process.execPath, '--single-threaded', file], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const port = await new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const ready = /READY (\d+)/.exec(stderr);
      if (ready !== null) resolve(Number(ready[1]));
    });
    child.once('exit', (code) => reject(new Error(`server exited (${String(code)}): ${stderr}`)));
  });
  const url = `http://127.0.0.1:${String(port)}/mcp`;
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const era = kind === 'modern' || kind === 'raw-modern' ? 'modern' : 'legacy';
  const session = kind === 'session' ? await openSession(url, agent) : undefined;
  const request = toolCall(era, { session });
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      const reply = await post(url, { ...request, agent });
      if (reply.status !== 200) throw new Error(`status ${String(reply.status)}: ${reply.text}`);
    }
  };
  await Promise.all(Array.from({ length: 64 }, worker));
  agent.destroy();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await exited;
  return refsOf(stderr);
}

for (const kind of cases) {
  const count = flags.http ? countHttp : countInProcess;
  const per = ((await count(kind, 3 * calls)) - (await count(kind, calls))) / (2 * calls);
  const where = flags.http ? 'HTTP' : 'in process';
  console.log(
    `${kind.padEnd(12)} ${Math.round(per).toLocaleString('en-US').padStart(8)} instructions/call (${where})`,
  );
}
