// A burst of `initialize` against a full table of busy legacy sessions (issue #44): a handler
// whose table (maxSessions N) holds N sessions, each kept busy by an open GET stream, is sent N
// more `initialize` requests, each answered 503 (no session may be evicted). In process, through
// the fetch face, one request after another. The figure is the time the burst takes: linear in
// N when the choice of a victim is O(1), quadratic when every `initialize` walks past every busy
// session. Filling the table is not timed. CPU time (of the process, for the burst) is the
// figure; elapsed time is printed too.
//
//   node bench/session-burst.mjs [--root DIR] [--counts 1000,10000] [--rounds R]
//
// DIR is a checkout (or a copy of its dist/) to measure, by default this one. Each count runs in
// a process of its own, R times (default 3); the median is printed, with the time per request.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import process from 'node:process';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ROOT, median } from './lib.mjs';

const { values: flags } = parseArgs({
  options: {
    root: { type: 'string', default: ROOT },
    counts: { type: 'string', default: '1000,10000' },
    rounds: { type: 'string', default: '3' },
    child: { type: 'string' },
  },
});

const URL_ = 'http://127.0.0.1/mcp';
const ACCEPT = 'application/json, text/event-stream';
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'burst', version: '1.0.0' },
  },
});

function initialize(handler) {
  return handler(
    new Request(URL_, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT },
      body: INITIALIZE,
    }),
  );
}

/** Fills a table of `n` sessions, each busy with an open GET stream; times `n` initializes. */
async function burst(n) {
  const dist = join(flags.root, 'dist', 'esm', 'src');
  const { McpServer } = await import(pathToFileURL(join(dist, 'server', 'index.js')).href);
  const { createFetchHandler } = await import(
    pathToFileURL(join(dist, 'transports', 'http', 'index.js')).href
  );
  const server = new McpServer({ name: 'burst', version: '1.0.0' });
  const handler = createFetchHandler(() => server, { maxSessions: n, keepAliveMs: 0 });
  const streams = [];
  for (let i = 0; i < n; i++) {
    const opened = await initialize(handler);
    const id = opened.headers.get('mcp-session-id');
    await opened.text();
    if (id === null) throw new Error(`initialize ${String(i)}: HTTP ${String(opened.status)}`);
    const abort = new AbortController();
    const get = await handler(
      new Request(URL_, {
        method: 'GET',
        headers: {
          accept: 'text/event-stream',
          'mcp-session-id': id,
          'mcp-protocol-version': '2025-11-25',
        },
        signal: abort.signal,
      }),
    );
    if (get.status !== 200) throw new Error(`GET ${String(i)}: HTTP ${String(get.status)}`);
    streams.push({ abort, body: get.body });
  }
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const refused = await initialize(handler);
    await refused.text();
    if (refused.status !== 503) throw new Error(`initialize in burst: HTTP ${refused.status}`);
  }
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  for (const { abort } of streams) abort.abort();
  return { ms, cpuMs: (used.user + used.system) / 1000 };
}

if (flags.child !== undefined) {
  const figures = await burst(Number(flags.child));
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  process.exit(0);
}

console.log(`initialize against a full table of busy sessions (${flags.root})`);
for (const n of flags.counts.split(',').map(Number)) {
  const runs = [];
  for (let round = 0; round < Number(flags.rounds); round++) {
    const script = new URL(import.meta.url).pathname;
    const args = [script, '--root', flags.root, '--child', String(n)];
    const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`burst of ${String(n)}: ${run.stderr}`);
    runs.push(JSON.parse(run.stdout));
  }
  const ms = median(runs.map((r) => r.ms));
  const cpuMs = median(runs.map((r) => r.cpuMs));
  const each = (cpuMs * 1000) / n;
  console.log(
    `${n.toLocaleString('en-US').padStart(7)} initialize: ${cpuMs.toFixed(1).padStart(9)} ms CPU (${each.toFixed(1)} µs each), ${ms.toFixed(1)} ms elapsed`,
  );
}
