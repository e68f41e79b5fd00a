// A probe, not part of `npm run bench`: machine instructions per in-process `tools/call`
// through the node face, counted by valgrind's callgrind. Unlike time, the count hardly
// depends on what else the machine does, so two builds can be compared on a shared, noisy
// machine (bench/RESULTS.md, "Sixth round"). It runs bench/alloc-probe.mjs under callgrind with
// N and 3N calls after the same warm-up, V8 on one thread, and prints the difference per call.
// Each run takes a minute or two; expect about 1% between two counts of the same build.
//
//   node bench/instructions.mjs [--root DIR] [--calls N] modern|stateless|session|raw|raw-modern ...
//
// DIR is a checkout (or a copy of its dist/ and bench/) to count, by default this one.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { ROOT } from './lib.mjs';

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { root: { type: 'string', default: ROOT }, calls: { type: 'string', default: '10000' } },
});
const calls = Number(flags.calls);
const cases = positionals.length > 0 ? positionals : ['raw-modern', 'modern'];

/** Instructions that node executed running the probe for `n` calls of `kind`. */
function count(kind, n) {
  const probe = join(flags.root, 'bench', 'alloc-probe.mjs');
  const args = ['--tool=callgrind', '--callgrind-out-file=/dev/null'];
  args.push(process.execPath, '--single-threaded', probe, kind, String(n));
  const run = spawnSync('valgrind', args, { encoding: 'utf8' });
  if (run.error !== undefined) throw new Error(`valgrind: ${run.error.message}`);
  const refs = /I\s+refs:\s+([\d,]+)/.exec(run.stderr);
  if (refs === null) throw new Error(`no count from callgrind:\n${run.stderr.slice(-2000)}`);
  return Number(refs[1].replaceAll(',', ''));
}

for (const kind of cases) {
  const per = (count(kind, 3 * calls) - count(kind, calls)) / (2 * calls);
  console.log(
    `${kind.padEnd(12)} ${Math.round(per).toLocaleString('en-US').padStart(8)} instructions/call`,
  );
}
