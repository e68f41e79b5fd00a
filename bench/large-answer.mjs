// A probe, not part of `npm run bench`: how far one large answer raises the server's resident
// memory (issue #44 point 2). A child process runs an mcpkit server over HTTP (`listen`, 127.0.0.1)
// with one tool that returns a 10 MB string made at each call (ASCII: 10 MB once read); after a forced GC the child
// resets its peak RSS (/proc/self/clear_refs), this process makes one tools/call (2026-07-28, no
// session) and reads the answer to the end, then the child reports its peak (VmHWM) less the RSS
// before the call. `--mode json` answers with JSON (`responseMode: 'json'`), `sse` as an SSE
// stream; `--text plain` is ASCII that JSON writes as it is, `escaped` has a quote and a newline
// every 64 characters (JSON escapes them). Each case runs in a fresh child `--runs` times; the
// figure is the median.
//
//   node bench/large-answer.mjs [--root DIR] [--mode json,sse] [--text plain,escaped] [--runs N]
//
// DIR is a checkout with dist/ (default this one), as bench/instructions.mjs takes it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ROOT, headersFor, median, rpc } from './lib.mjs';

const SIZE = 10_000_000;
const MiB = 1024 * 1024;

const { values: flags } = parseArgs({
  options: {
    root: { type: 'string', default: ROOT },
    mode: { type: 'string', default: 'json,sse' },
    text: { type: 'string', default: 'plain,escaped' },
    runs: { type: 'string', default: '3' },
    child: { type: 'boolean', default: false },
  },
});

/**
 * A string of SIZE characters: ASCII, with a `"` and a newline every 64 when `escaped`. Made by
 * `repeat`, whose few nodes take SIZE bytes once flattened (what reading it first does), as a
 * string a tool built would.
 */
function answerText(kind) {
  const line = kind === 'escaped' ? `${'a'.repeat(61)}"b\n` : 'a'.repeat(64);
  return line.repeat(SIZE / 64);
}

/** The kB figure of `field` in /proc/self/status. */
function statusKb(field) {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
    readFileSync('/proc/self/status', 'utf8'),
  );
  return Number(match?.[1] ?? NaN);
}

/** The child: serves, reports its base, and its peak when told the call was answered. */
async function child() {
  const load = (path) => import(pathToFileURL(join(flags.root, 'dist/esm/src', path)).href);
  const { McpServer } = await load('server/index.js');
  const { listen } = await load('transports/http/node.js');
  const server = new McpServer({ name: 'large', version: '1.0.0' });
  server.tool({ name: 'big', inputSchema: { type: 'object' } }, () => answerText(flags.text));
  const mode = flags.mode;
  const served = await listen(() => server, { port: 0, sessions: false, responseMode: mode });
  const lines = createInterface({ input: process.stdin });
  const settle = () => {
    for (let i = 0; i < 3; i++) globalThis.gc();
  };
  settle();
  writeFileSync('/proc/self/clear_refs', '5');
  const base = statusKb('VmRSS');
  process.stdout.write(`${JSON.stringify({ url: served.url, base })}\n`);
  await once(lines, 'line');
  process.stdout.write(`${JSON.stringify({ peak: statusKb('VmHWM') })}\n`);
  await served.close();
  process.exit(0);
}

/** Runs one child, makes the call, and resolves with the peak above base in MiB. */
async function measure(mode, text) {
  const script = new URL(import.meta.url).pathname;
  const args = ['--expose-gc', script, '--child', '--root', flags.root];
  const proc = spawn(process.execPath, [...args, '--mode', mode, '--text', text], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const out = createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
  const { url, base } = JSON.parse((await out.next()).value);
  const headers = headersFor('modern', { method: 'tools/call', name: 'big' });
  const body = rpc('modern', { method: 'tools/call', params: { name: 'big', arguments: {} } });
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const reply = await response.text();
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith(mode === 'json' ? 'application/json' : 'text/event-stream')) {
    throw new Error(`${mode}: answered ${type}`);
  }
  if (reply.length < SIZE) throw new Error(`${mode}: a reply of ${String(reply.length)} chars`);
  proc.stdin.write('measure\n');
  const { peak } = JSON.parse((await out.next()).value);
  await once(proc, 'exit');
  return { above: (peak - base) / 1024, base: base / 1024, bytes: reply.length };
}

if (flags.child) {
  await child();
} else {
  for (const mode of flags.mode.split(',')) {
    for (const text of flags.text.split(',')) {
      const runs = [];
      for (let i = 0; i < Number(flags.runs); i++) runs.push(await measure(mode, text));
      const above = median(runs.map((r) => r.above));
      const base = median(runs.map((r) => r.base));
      const all = runs.map((r) => r.above.toFixed(1)).join(', ');
      console.log(
        `10 MB answer ${mode.padEnd(4)} ${text.padEnd(7)}  peak RSS ${above.toFixed(1).padStart(5)} MiB above base ` +
          `(base ${base.toFixed(0)} MiB; runs ${all}; reply ${(runs[0].bytes / MiB).toFixed(1)} MiB)`,
      );
    }
  }
}
