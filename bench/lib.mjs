// Helpers of the orchestrator: the requests each era sends, a small HTTP client, server
// processes, and statistics.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpRequest, Agent } from 'node:http';
import { createServer } from 'node:net';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import process from 'node:process';

export const BENCH = fileURLToPath(new URL('.', import.meta.url));
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export const MODERN = '2026-07-28';
export const LEGACY = '2025-11-25';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
};
const ACCEPT = 'application/json, text/event-stream';

/** The arguments of each tool the load calls. */
export const CALLS = {
  echo: { message: 'hello world' },
  add: { a: 2, b: 3 },
  wide_00: { id: 'x1', name: 'n', count: 3, tags: ['a', 'b'], mode: 'fast', owner: { id: 'o' } },
};

/** A JSON-RPC request of `era` ('modern' adds the `_meta` envelope). */
export function rpc(era, { id = 1, method, params = {} }) {
  const body = { jsonrpc: '2.0', id, method, params };
  if (era === 'modern') body.params = { ...params, _meta: META };
  return body;
}

/** The headers of a POST of `era`, for `method` (and `name`, for tools/call). */
export function headersFor(era, { method, name, session } = {}) {
  const headers = { 'content-type': 'application/json', accept: ACCEPT };
  if (era === 'modern') {
    headers['mcp-protocol-version'] = MODERN;
    if (method !== undefined) headers['mcp-method'] = method;
    if (name !== undefined) headers['mcp-name'] = name;
  } else {
    headers['mcp-protocol-version'] = LEGACY;
    if (session !== undefined) headers['mcp-session-id'] = session;
  }
  return headers;
}

/** The body and headers of one `tools/call` of `tool` in `era`. */
export function toolCall(era, { tool = 'echo', session, id = 1 } = {}) {
  const body = rpc(era, {
    id,
    method: 'tools/call',
    params: { name: tool, arguments: CALLS[tool] },
  });
  return {
    body: JSON.stringify(body),
    headers: headersFor(era, { method: 'tools/call', name: tool, session }),
  };
}

/** A keep-alive agent with one socket: requests go one after another on one connection. */
export function oneSocketAgent() {
  return new Agent({ keepAlive: true, maxSockets: 1 });
}

/** POSTs `body` and resolves with { status, headers, text }. */
export function post(url, { body, headers, agent, method = 'POST' }) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        resolve({
          status: res.statusCode,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The JSON-RPC messages in a reply: a JSON body, or the data lines of an SSE body. */
export function messagesOf(reply) {
  const type = String(reply.headers['content-type'] ?? '');
  if (reply.text === '') return [];
  if (type.split(';')[0].trim() === 'text/event-stream') {
    return reply.text
      .split('\n')
      .filter((line) => line.startsWith('data:') && line.slice(5).trim() !== '')
      .map((line) => JSON.parse(line.slice(5)))
      .filter((m) => m !== '' && m !== null);
  }
  const value = JSON.parse(reply.text);
  return Array.isArray(value) ? value : [value];
}

/** The response to request `id` in a reply, or throws with what came instead. */
export function responseOf(reply, id) {
  const found = messagesOf(reply).find((m) => m.id === id && ('result' in m || 'error' in m));
  if (found === undefined || 'error' in found) {
    throw new Error(
      `no result for id ${String(id)}: HTTP ${reply.status} ${reply.text.slice(0, 300)}`,
    );
  }
  return found.result;
}

/** The legacy `initialize` request both transports open a session with. */
function initializeRequest(id) {
  return rpc('legacy', {
    id,
    method: 'initialize',
    params: {
      protocolVersion: LEGACY,
      capabilities: {},
      clientInfo: { name: 'bench', version: '1.0.0' },
    },
  });
}

/** Opens a legacy session: initialize, then notifications/initialized. Resolves with its id. */
export async function openSession(url, agent, id = 0) {
  const init = initializeRequest(id);
  const reply = await post(url, {
    body: JSON.stringify(init),
    headers: { 'content-type': 'application/json', accept: ACCEPT },
    agent,
  });
  responseOf(reply, id);
  const session = reply.headers['mcp-session-id'];
  const headers = headersFor('legacy', { session });
  const note = await post(url, {
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    headers,
    agent,
  });
  if (note.status >= 300) throw new Error(`notifications/initialized: HTTP ${note.status}`);
  return session;
}

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => {
        resolve(port);
      });
    });
  });
}

/**
 * Starts a server under test in its own process and resolves once it prints `READY <port>` on
 * stderr. `file` is a path, or a name in `servers/`. `stdio: true` keeps stdin/stdout as pipes
 * for a stdio server; `wrap` is a command that runs node (`['valgrind', ...its options]`).
 */
export function startServer(
  file,
  { env = {}, nodeArgs = [], stdio = false, timeoutMs = 20_000, wrap = [] } = {},
) {
  const path = isAbsolute(file) ? file : `${BENCH}servers/${file}`;
  const command = wrap.length > 0 ? wrap[0] : process.execPath;
  const wrapped = wrap.length > 0 ? [...wrap.slice(1), process.execPath] : [];
  const child = spawn(command, [...wrapped, ...nodeArgs, path], {
    cwd: BENCH,
    env: { ...process.env, NODE_ENV: 'production', ...env },
    stdio: ['pipe', stdio ? 'pipe' : 'ignore', 'pipe'],
  });
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file} did not start: ${log}`));
    }, timeoutMs);
    const onData = (chunk) => {
      log += chunk.toString();
      const match = /READY (\d+)/.exec(log);
      if (match === null) return;
      clearTimeout(timer);
      child.stderr.off('data', onData);
      child.stderr.resume(); // keep draining: a full stderr pipe would block the server
      resolve({ child, port: Number(match[1]), stop: () => stopChild(child) });
    };
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited (${String(code)}) before it was ready: ${log}`));
    });
  });
}

/**
 * The server of a kind the probes compare, its file (mcpkit's from the checkout at `root`, raw
 * from this one), environment and request era. Over HTTP (mcpkit-http.mjs, raw-http.mjs): raw,
 * raw-modern, modern, stateless or session. Over stdio (`stdio: true`; mcpkit-stdio.mjs,
 * raw-stdio.mjs): raw, raw-modern, legacy or modern; a legacy peer sends `initialize` first.
 */
/**
 * The HTTP kinds in front of the stdio upstream of the peer-gateway rows (issue 40): mcpkit's
 * gateway (2026-07-28, or a legacy session) and the raw node:http proxy to it. Their calls carry
 * ids of their own (a gateway holds a call open while its upstream answers).
 */
const STDIO_GATEWAYS = ['gateway-stdio', 'gateway-stdio-session', 'raw-proxy-stdio'];

export function kindServer(kind, root = ROOT, { stdio = false } = {}) {
  const kinds = stdio
    ? ['raw', 'raw-modern', 'legacy', 'modern']
    : ['raw', 'raw-modern', 'modern', 'stateless', 'session', 'gateway', 'raw-proxy'].concat(
        STDIO_GATEWAYS,
      );
  if (!kinds.includes(kind)) {
    throw new Error(`unknown ${stdio ? 'stdio' : 'HTTP'} kind ${kind} (${kinds.join(', ')})`);
  }
  const transport = stdio ? 'stdio' : 'http';
  if (STDIO_GATEWAYS.includes(kind)) {
    const raw = kind === 'raw-proxy-stdio';
    return {
      file: raw
        ? join(BENCH, 'servers', 'raw-proxy-stdio.mjs')
        : join(root, 'bench', 'servers', 'mcpkit-gateway.mjs'),
      env: { PORT: '0', ...(raw ? {} : { BENCH_GATEWAY_UPSTREAM: 'stdio' }) },
      era: kind === 'gateway-stdio-session' ? 'legacy' : 'modern',
      session: kind === 'gateway-stdio-session',
      uniqueIds: true,
    };
  }
  if (kind === 'raw-proxy') {
    // The gateway row's ceiling (servers/raw-proxy.mjs), in front of the same modern upstream.
    const file = join(BENCH, 'servers', 'raw-proxy.mjs');
    return { file, env: { PORT: '0' }, era: 'modern' };
  }
  return {
    file: kind.startsWith('raw')
      ? join(BENCH, 'servers', `raw-${transport}.mjs`)
      : kind === 'gateway'
        ? join(root, 'bench', 'servers', 'mcpkit-gateway.mjs')
        : join(root, 'bench', 'servers', `mcpkit-${transport}.mjs`),
    env: stdio ? {} : { PORT: '0', BENCH_SESSIONS: kind === 'stateless' ? '0' : '1' },
    era: kind === 'modern' || kind === 'raw-modern' || kind === 'gateway' ? 'modern' : 'legacy',
  };
}

/** A line-oriented JSON-RPC peer over a child's stdin/stdout. */
export function stdioPeer(child) {
  const waiting = new Map();
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    let end;
    while ((end = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      if (line.trim() === '') continue;
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        continue;
      }
      if ('method' in message) {
        // A request from the server (ping, roots/list): answer it.
        if (message.id !== undefined) {
          const result = message.method === 'roots/list' ? { roots: [] } : {};
          child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n`);
        }
        continue;
      }
      const resolve = waiting.get(message.id);
      if (resolve !== undefined) {
        waiting.delete(message.id);
        resolve(message);
      }
    }
  });
  return {
    send(line, id) {
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        child.stdin.write(line);
      });
    },
    notify(object) {
      child.stdin.write(`${JSON.stringify(object)}\n`);
    },
  };
}

/** Opens a legacy stdio session on `peer`: initialize (as request `id`), then initialized. */
export async function openStdioSession(peer, id) {
  const init = initializeRequest(id);
  const answer = await peer.send(`${JSON.stringify(init)}\n`, id);
  if (!('result' in answer)) throw new Error(`initialize failed: ${JSON.stringify(answer)}`);
  peer.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
}

/** Ends a child we started and waits for it to go. */
export function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** The resident set size of a process, in bytes (Linux /proc). */
export function rssOf(pid) {
  const status = readFileSync(`/proc/${String(pid)}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  if (match === null) throw new Error('no VmRSS');
  return Number(match[1]) * 1024;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The q-quantile (0..1) of sorted values, nearest rank. */
export function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The machine's CPU time so far, all cores (Linux /proc/stat, in ticks): `steal` is what the
 * hypervisor gave to other guests while this one wanted to run. Undefined without /proc.
 */
export function machineTicks() {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
    const ticks = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already in user).
    const total = ticks.slice(0, 8).reduce((sum, t) => sum + t, 0);
    return { steal: ticks[7] ?? 0, total };
  } catch {
    return undefined;
  }
}

/** The share of the machine's CPU time stolen by the hypervisor between two readings. */
export function stealShare(before, after) {
  if (before === undefined || after === undefined || after.total <= before.total) return undefined;
  return (after.steal - before.steal) / (after.total - before.total);
}

/**
 * User + system CPU seconds of a process so far (every thread), or undefined without /proc.
 * Under a CPU-bound load, CPU time per request is a steadier figure than requests/s: a machine
 * that also runs others' work slows the server down without adding to its CPU time.
 */
export function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${String(pid)}/stat`, 'utf8')
      .split(') ')[1]
      .split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

/** A lookup of JIT code addresses in node's perf map (start, size, name per line). */
export function perfMap(path) {
  const entries = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [start, size, ...name] = line.split(' ');
      return {
        start: Number.parseInt(start, 16),
        size: Number.parseInt(size, 16),
        name: name.join(' '),
      };
    })
    .sort((a, b) => a.start - b.start);
  return (address) => {
    let low = 0;
    let high = entries.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (entries[mid].start <= address) low = mid + 1;
      else high = mid - 1;
    }
    const entry = entries[high];
    return entry !== undefined && address < entry.start + entry.size ? entry.name : undefined;
  };
}

/**
 * The instructions each function executed itself (callees not counted) in a callgrind dump:
 * callgrind_annotate's list, JIT code addresses named by `names` (a {@link perfMap}), a JS
 * function by its name and file whatever its tier (*, ^, ~) and chunk hash.
 */
export function ownCounts(dump, names) {
  const annotate = spawnSync('callgrind_annotate', ['--inclusive=no', '--threshold=100', dump], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const totals = new Map();
  for (const line of annotate.stdout.split('\n')) {
    const row = /^\s*([\d,]+)\s+\([^)]*\)\s+(.+)$/.exec(line);
    if (row === null || row[2].includes('PROGRAM TOTALS')) continue;
    let name = row[2].replace(/^\?\?\?:/, '').replace(/ \[[^\]]*\]$/, '');
    const address = /^0x([0-9a-f]+)$/.exec(name);
    if (address !== null) name = names(Number.parseInt(address[1], 16)) ?? name;
    name = name
      .replace(/^JS:[*^~+]?/, 'JS ')
      .replace(/\S*\/chunks\/chunk-\w+\.js:\d+:\d+/, 'mcpkit');
    const count = Number(row[1].replaceAll(',', ''));
    totals.set(name, (totals.get(name) ?? 0) + count);
  }
  return totals;
}
