// Prints where a CPU profile (`node --cpu-prof`) spent its time: the functions with the most
// self time, and the most inclusive time, with their files.
//
//   node bench/cpuprofile-top.mjs FILE.cpuprofile [--top 30] [--filter dist/esm]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '30' }, filter: { type: 'string' } },
});
const profile = JSON.parse(readFileSync(positionals[0], 'utf8'));
const top = Number(values.top);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

// Self time per node from the samples and their time deltas.
const self = new Map();
profile.samples.forEach((id, i) => {
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);

const label = (n) => {
  const f = n.callFrame;
  const file = f.url.replace(/^file:\/\/.*?\/(node_modules|dist|bench)\//, '$1/');
  return `${f.functionName || '(anonymous)'} ${file}:${String(f.lineNumber + 1)}`;
};

const selfBy = new Map();
const inclBy = new Map();
for (const [id, t] of self) {
  const seen = new Set();
  selfBy.set(label(byId.get(id)), (selfBy.get(label(byId.get(id))) ?? 0) + t);
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const key = label(byId.get(cur));
    if (seen.has(key)) continue;
    seen.add(key);
    inclBy.set(key, (inclBy.get(key) ?? 0) + t);
  }
}
const show = (title, map) => {
  console.log(`\n${title} (of ${(total / 1000).toFixed(0)} ms sampled)`);
  [...map]
    .filter(([k]) => values.filter === undefined || k.includes(values.filter))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .forEach(([k, t]) => {
      console.log(`${((100 * t) / total).toFixed(1).padStart(6)}%  ${k}`);
    });
};
show('self time', selfBy);
show('inclusive time', inclBy);
