// The demo's first `sql` call (issue 43 point 7): starts the demo as `npm start` does
// (scripts/start.mjs, MCPKIT_SKIP_BUILD=1, on a free port), waits for its banner, sends one
// 2026-07-28 tools/call of `query`, and reports how long the answer took and the memory of the
// server process (VmRSS, VmHWM from /proc) and of the wrapper before and after it.
//
//   node bench/first-sql.mjs [--root DIR] [--runs N] [--cold|--warm] [--json]
//
// --root: the checkout to start (default: this one; its dist/ must be built).
// --cold (default): an empty XDG_CACHE_HOME, as on a machine's first start.
// --warm: one run first to fill the cache, then the measured runs share it.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: new URL('..', import.meta.url).pathname },
    runs: { type: 'string', default: '3' },
    warm: { type: 'boolean', default: false },
    cold: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const root = resolve(values.root);

function freePort() {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
}

/** VmRSS and VmHWM of a process, in MiB (undefined once it is gone). */
function memory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name) =>
      Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) / 1024;
    return { rss: field('VmRSS'), hwm: field('VmHWM') };
  } catch {
    return undefined;
  }
}

/** The pids of `pid`'s children (every thread's). */
function children(pid) {
  try {
    const found = [];
    for (const task of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)) {
      if (task !== '') found.push(Number(task));
    }
    return found;
  } catch {
    return [];
  }
}

async function call(url, name, args) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  const text = await response.text();
  const body = JSON.parse(text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}'));
  if (body.result === undefined || body.result.isError === true) {
    throw new Error(`${name} failed: ${text.slice(0, 300)}`);
  }
  return body.result;
}

/** One start of the demo and its first query. */
async function once(cacheHome) {
  const port = await freePort();
  const started = performance.now();
  const wrapper = spawn(process.execPath, [join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), MCPKIT_SKIP_BUILD: '1', XDG_CACHE_HOME: cacheHome },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((done) => wrapper.once('exit', done));
  let output = '';
  await new Promise((done, fail) => {
    wrapper.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Claude Desktop')) done();
    });
    wrapper.once('exit', () => fail(new Error(`the demo exited before its banner:\n${output}`)));
  });
  const banner = performance.now() - started;
  // The server is the wrapper's child, or the wrapper itself once it has exec'd or exited.
  const serverPid = children(wrapper.pid)[0] ?? wrapper.pid;
  await new Promise((done) => setTimeout(done, 200)); // let the wrapper settle or exit
  const wrapperAfter = serverPid === wrapper.pid ? undefined : memory(wrapper.pid);
  const before = memory(serverPid);
  const t0 = performance.now();
  const result = await call(`http://127.0.0.1:${port}/mcp`, 'query', {
    sql: 'SELECT count(*) AS orders FROM orders',
  });
  const firstQuery = performance.now() - t0;
  const after = memory(serverPid);
  // The embedded database's own process, when it runs in one (a child of the server).
  const database = children(serverPid)
    .map(memory)
    .filter((m) => m !== undefined)
    .reduce((sum, m) => ({ rss: sum.rss + m.rss, hwm: sum.hwm + m.hwm }), { rss: 0, hwm: 0 });
  const t1 = performance.now();
  await call(`http://127.0.0.1:${port}/mcp`, 'query', { sql: 'SELECT 1' });
  const secondQuery = performance.now() - t1;
  process.kill(serverPid, 'SIGINT');
  if (serverPid !== wrapper.pid) wrapper.kill('SIGINT');
  await exited;
  const text = result.content?.[0]?.text ?? '';
  return {
    banner,
    firstQuery,
    secondQuery,
    before,
    after,
    database,
    wrapper: wrapperAfter,
    answer: text.replace(/\s+/g, ' ').slice(0, 60),
  };
}

const fmt = (n) => (n === undefined ? '-' : n.toFixed(1));
const runs = Number(values.runs);
const results = [];
const shared = mkdtempSync(join(tmpdir(), 'mcpkit-first-sql-'));
try {
  if (values.warm) await once(shared);
  for (let i = 0; i < runs; i++) {
    const home = values.warm ? shared : mkdtempSync(join(tmpdir(), 'mcpkit-first-sql-'));
    try {
      results.push(await once(home));
    } finally {
      if (!values.warm) rmSync(home, { recursive: true, force: true });
    }
  }
} finally {
  rmSync(shared, { recursive: true, force: true });
}
if (values.json) {
  console.log(JSON.stringify(results, null, 2));
} else {
  console.log(`${values.warm ? 'warm' : 'cold'} cache, ${root}`);
  console.log(
    'banner ms | 1st query ms | 2nd ms | server RSS before | after RSS / HWM | database RSS / HWM | total RSS | wrapper RSS (MiB)',
  );
  for (const r of results) {
    console.log(
      [
        fmt(r.banner),
        fmt(r.firstQuery),
        fmt(r.secondQuery),
        fmt(r.before?.rss),
        `${fmt(r.after?.rss)} / ${fmt(r.after?.hwm)}`,
        `${fmt(r.database.rss)} / ${fmt(r.database.hwm)}`,
        fmt((r.after?.rss ?? 0) + r.database.rss),
        fmt(r.wrapper?.rss),
      ].join(' | '),
    );
  }
  const median = (key) => results.map(key).sort((a, b) => a - b)[Math.floor(results.length / 2)];
  console.log(
    `median: first query ${fmt(median((r) => r.firstQuery))} ms, server RSS after ${fmt(median((r) => r.after?.rss ?? 0))} MiB (HWM ${fmt(median((r) => r.after?.hwm ?? 0))}), with the database ${fmt(median((r) => (r.after?.rss ?? 0) + r.database.rss))} MiB`,
  );
  console.log(`answer: ${results[0]?.answer ?? ''}`);
}
