// A probe, not part of `npm run bench`: machine instructions per `tools/call` in the process of an
// mcpkit Client (Streamable HTTP over createNodeFetch, 2026-07-28, 64 calls in flight), counted by
// valgrind's callgrind against bench/servers/mcpkit-http.mjs running outside valgrind: the
// upstream side of a forwarded call of `mcpkit gateway` (issue 40 point 8), without the
// downstream server's share, so that the client's own changes are seen apart. Like
// instructions.mjs --http: warm-up calls first, then the count is zeroed, N calls counted and
// dumped with callgrind_control. The calls are started by SIGUSR2 and their end written with
// writeSync, so that the harness runs no stream code of its own between the two (which, on the
// child's stdin, deoptimized node's stream functions the calls use, and had TurboFan recompile
// them inside the counted window). Needs `npm run build`.
//
//   node bench/client-instructions.mjs [--root DIR] [--warm W] [--calls N]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { ROOT, startServer } from './lib.mjs';

const { values: flags } = parseArgs({
  options: {
    root: { type: 'string', default: ROOT },
    warm: { type: 'string', default: '6000' },
    calls: { type: 'string', default: '3000' },
  },
});
const calls = Number(flags.calls);
const upstream = await startServer('mcpkit-http.mjs', { env: { PORT: '0' } });
const dir = mkdtempSync(join(tmpdir(), 'mcpkit-client-callgrind-'));
const child = spawn(
  'valgrind',
  [
    '--tool=callgrind',
    `--callgrind-out-file=${join(dir, 'out')}`,
    process.execPath,
    '--single-threaded',
    '--expose-gc',
    '--min-semi-space-size=16',
    '--max-semi-space-size=64',
    '--no-memory-reducer',
    join(ROOT, 'bench', 'client-instructions-child.mjs'),
  ],
  {
    env: {
      ...process.env,
      ROOT: flags.root,
      WARM: flags.warm,
      CALLS: flags.calls,
      URL: `http://127.0.0.1:${String(upstream.port)}/mcp`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
let complaints = ''; // valgrind's and node's stderr, shown if the count fails
child.stderr.on('data', (chunk) => {
  complaints = (complaints + String(chunk)).slice(-4000);
});
let said = '';
let heard = () => undefined;
child.stdout.on('data', (chunk) => {
  said += chunk;
  heard();
});
child.on('exit', () => heard());
const told = async (word) => {
  while (!said.includes(`${word}\n`)) {
    if (child.exitCode !== null) throw new Error(`the counted client exited (${child.exitCode})`);
    await new Promise((resolve) => (heard = resolve));
  }
  said = said.slice(said.indexOf(`${word}\n`) + word.length + 1);
};
try {
  await told('@@ready@@');
  child.kill('SIGUSR2'); // the warm-up
  await told('@@done@@');
  control('-z');
  child.kill('SIGUSR2'); // the counted calls
  await told('@@done@@');
  control('-d');
  const totals = /^totals:\s+(\d+)/m.exec(readFileSync(join(dir, 'out.1'), 'utf8'));
  if (totals === null) throw new Error('no totals in the dump');
  const per = Math.round(Number(totals[1]) / calls);
  console.log(`client   ${per.toLocaleString('en-US').padStart(8)} instructions/call (HTTP)`);
} catch (error) {
  process.stderr.write(complaints);
  throw error;
} finally {
  child.kill('SIGKILL');
  upstream.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}

function control(command) {
  const run = spawnSync('callgrind_control', [command, String(child.pid)], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`callgrind_control ${command}: ${run.stderr}`);
}
