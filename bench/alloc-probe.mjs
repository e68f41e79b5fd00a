// A probe, not part of `npm run bench`: runs one in-process case N times through the node face
// and prints µs/call and, with --trace-gc and fixed 1 MB semi-spaces, the scavenges per 1,000
// calls (≈ KB allocated per call) and old-space growth (what survived scavenges).
//
//   node --max-semi-space-size=1 --min-semi-space-size=1 --expose-gc bench/alloc-probe.mjs \
//        modern|stateless|session|raw|raw-modern [N]
//
// With --sites (after N), it prints instead where the bytes are allocated: V8's sampling heap
// profiler, collected objects included, bytes per call by allocating function (bundled names).
// With MCPKIT_PROBE_MIDDLEWARE=1 in the environment, the server runs one pass-through request
// middleware and one pass-through tool-call middleware (server.use; bench/RESULTS.md "Seams").
// With MCPKIT_PROBE_OTEL=api or sdk, mcpkit/otel traces the server (bench/otel-probe.mjs).
import { Session } from 'node:inspector/promises';
import process from 'node:process';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import { McpServer } from '../dist/esm/src/server/index.js';
import { createNodeHandler } from '../dist/esm/src/transports/http/node.js';
import { FakeRequest, fakeResponse, rawNode } from './node-fakes.mjs';
import { ADD_SCHEMA, ECHO_SCHEMA, answer, probeMiddleware } from './servers/common.mjs';
import { headersFor, rpc, toolCall } from './lib.mjs';
import { probeOtel } from './otel-probe.mjs';

const kind = process.argv[2] ?? 'modern';
const N = Number(process.argv[3] ?? 20000);

const server = new McpServer({ name: 'probe', version: '1.0.0' });
server.tool({ name: 'echo', inputSchema: ECHO_SCHEMA }, answer.echo);
server.tool({ name: 'add', inputSchema: ADD_SCHEMA }, answer.add);
probeMiddleware(server);
await probeOtel(server, new URL('../dist', import.meta.url).href);

let handler;
let headers;
let body;
if (kind === 'raw' || kind === 'raw-modern') {
  handler = rawNode;
  ({ headers, body } = toolCall(kind === 'raw' ? 'legacy' : 'modern'));
} else {
  handler = createNodeHandler(() => server, { sessions: kind !== 'stateless' });
  if (kind === 'session') {
    const init = rpc('legacy', {
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'p', version: '1' },
      },
    });
    const bytes = Buffer.from(JSON.stringify(init));
    const r = await new Promise((resolve) => {
      handler(
        new FakeRequest(headersFor('legacy', { method: 'initialize' }), bytes),
        fakeResponse(resolve, {}),
      );
    });
    const session = r.headers['mcp-session-id'];
    ({ headers, body } = toolCall('legacy', { session }));
  } else {
    ({ headers, body } = toolCall(kind === 'modern' ? 'modern' : 'legacy'));
  }
}
const bytes = Buffer.from(body);
const call = () =>
  new Promise((resolve) => {
    handler(new FakeRequest(headers, bytes), fakeResponse(resolve));
  });
const check = await call();
if (check.status !== 200 || !check.body.includes('hello')) throw new Error(JSON.stringify(check));
for (let i = 0; i < 5000; i++) await call();
if (process.argv.includes('--sites')) {
  await printAllocationSites();
  process.exit(0);
}
globalThis.gc?.();
let scavenges = 0;
const obs = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (e.detail?.kind === 1) scavenges++;
});
obs.observe({ entryTypes: ['gc'] });
const old0 = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_used_size;
const cpu = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < N; i++) await call();
const t1 = performance.now();
const used = process.cpuUsage(cpu);
const old1 = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_used_size;
await new Promise((r) => setTimeout(r, 50));
obs.disconnect();
console.log(
  `${kind.padEnd(10)} ${(((t1 - t0) * 1000) / N).toFixed(2)} µs/call (CPU ${((used.user + used.system) / N).toFixed(2)}), ` +
    `scavenges/1000 calls ${((scavenges * 1000) / N).toFixed(2)}, old-space growth ${((old1 - old0) / N).toFixed(0)} B/call`,
);

/** Samples every allocation of N calls (one in 256 bytes) and prints the top sites per call. */
async function printAllocationSites() {
  const inspector = new Session();
  inspector.connect();
  await inspector.post('HeapProfiler.enable');
  await inspector.post('HeapProfiler.startSampling', {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  for (let i = 0; i < N; i++) await call();
  const { profile } = await inspector.post('HeapProfiler.stopSampling');
  const bySite = new Map();
  let total = 0;
  const walk = (node) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const site = `${functionName || '(anonymous)'} ${url.replace(/^.*\/dist\/esm\//, '')}:${lineNumber}`;
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    total += node.selfSize;
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  console.log(`${kind}: ${(total / N).toFixed(0)} bytes allocated per call`);
  const top = [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 25);
  for (const [site, bytes] of top)
    console.log(`${String(Math.round(bytes / N)).padStart(7)}  ${site}`);
}
