// npm run bench: mcpkit against raw node:http, the official SDK (v1 and v2), tmcp and fastmcp,
// in one sitting, on 127.0.0.1. See bench/README.md for what each section measures.
//
//   node bench/run.mjs [--quick] [--rounds N] [--duration S] [--loadgen wrk|autocannon]
//                      [--only SECTION,...] [--servers NAME,...] [--out FILE]
//                      [--steal-retries N]
//
// Sections: http, scaling, inprocess, sessions, stdio, fresh, import, size.
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import {
  BENCH,
  ROOT,
  freePort,
  median,
  oneSocketAgent,
  openSession,
  openStdioSession,
  post,
  quantile,
  responseOf,
  rpc,
  rssOf,
  sleep,
  startServer,
  stdioPeer,
  stopChild,
  toolCall,
  headersFor,
  cpuSeconds,
  machineTicks,
  stealShare,
} from './lib.mjs';
import { Agent } from 'node:http';
import { findNginx, startBalancer } from '../scripts/balancer.mjs';

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    rounds: { type: 'string' },
    duration: { type: 'string' },
    loadgen: { type: 'string' },
    only: { type: 'string' },
    servers: { type: 'string' },
    out: { type: 'string' },
    'steal-retries': { type: 'string' },
  },
});
const QUICK = flags.quick;
const ROUNDS = Number(flags.rounds ?? (QUICK ? 1 : 3));
// wrk takes whole seconds.
const DURATION = Math.max(1, Math.round(Number(flags.duration ?? (QUICK ? 1 : 2))));
const WARMUP = 1;
const CONNECTIONS = [1, 16, 64];
const SECTIONS = new Set(
  (flags.only ?? 'http,scaling,inprocess,sessions,stdio,fresh,import,size').split(','),
);
const OUT = flags.out ?? join(BENCH, 'results.json');

/** The Redis of the Redis rows (MCPKIT_BENCH_REDIS_URL, else the tests' MCPKIT_TEST_REDIS_URL). */
const REDIS_URL = process.env.MCPKIT_BENCH_REDIS_URL ?? process.env.MCPKIT_TEST_REDIS_URL;

/** The nginx of the rows with several processes (scripts/balancer.mjs); those rows need it. */
const NGINX = findNginx();

/** The HTTP servers under test. `era` picks the requests, `session` opens one first. */
const HTTP_SERVERS = [
  { id: 'raw', label: 'raw node:http', file: 'raw-http.mjs', era: 'legacy', noTools: true },
  // The same ceiling given the 2026-07-28 exchange (bigger body, result with resultType and
  // serverInfo): an extra row, to tell the revision's own cost from mcpkit's.
  {
    id: 'raw-modern',
    label: 'raw node:http 2026-07-28',
    file: 'raw-http.mjs',
    era: 'modern',
    noTools: true,
  },
  { id: 'mcpkit-modern', label: 'mcpkit 2026-07-28', file: 'mcpkit-http.mjs', era: 'modern' },
  // The same server behind the auth gate, every request carrying a JWT it verifies (ES256, key
  // set cached): the cost of authorization (issue #19: >= 0.85x mcpkit 2026-07-28).
  {
    id: 'mcpkit-modern-auth',
    label: 'mcpkit 2026-07-28 + JWT auth',
    file: 'mcpkit-http.mjs',
    era: 'modern',
    auth: true,
  },
  {
    id: 'mcpkit-stateless',
    label: 'mcpkit legacy stateless',
    file: 'mcpkit-http.mjs',
    era: 'legacy',
    env: { BENCH_SESSIONS: '0' },
  },
  {
    id: 'mcpkit-session',
    label: 'mcpkit legacy session',
    file: 'mcpkit-http.mjs',
    era: 'legacy',
    session: true,
  },
  // The same servers with sessions and streams in Redis (issue #22): a legacy session's requests
  // read and refresh its record; 2026-07-28 requests should not touch Redis at all.
  {
    id: 'mcpkit-session-redis',
    label: 'mcpkit legacy session + Redis',
    file: 'mcpkit-http.mjs',
    era: 'legacy',
    session: true,
    redis: true,
  },
  {
    id: 'mcpkit-modern-redis',
    label: 'mcpkit 2026-07-28 + Redis',
    file: 'mcpkit-http.mjs',
    era: 'modern',
    redis: true,
  },
  // mcpkit gateway (issue #24) in front of the "mcpkit 2026-07-28" server: two hops of work
  // (target, issue 40: >= 0.6x of the raw-proxy row below, in the same run).
  {
    id: 'mcpkit-gateway',
    label: 'mcpkit gateway -> mcpkit 2026-07-28',
    file: 'mcpkit-gateway.mjs',
    era: 'modern',
  },
  // The same gateway with policies (four rules), every rate limit (in memory, none refusing) and
  // the audit log to a file (issue 40: their cost, as a ratio to the plain gateway row).
  {
    id: 'mcpkit-gateway-team',
    label: 'mcpkit gateway + policies, limits, audit',
    file: 'mcpkit-gateway.mjs',
    era: 'modern',
    env: {
      MCPKIT_BENCH_GATEWAY_POLICY: '1',
      MCPKIT_BENCH_GATEWAY_LIMITS: '1',
      MCPKIT_BENCH_GATEWAY_AUDIT: '1',
    },
  },
  // Its ceiling: node:http forwarding the bytes over createNodeFetch, no MCP (raw-proxy.mjs).
  {
    id: 'raw-proxy',
    label: 'raw node:http proxy -> mcpkit 2026-07-28',
    file: 'raw-proxy.mjs',
    era: 'modern',
  },
  // Issue 40: the peer gateways, each in front of the same stdio upstream (mcpkit-stdio.mjs,
  // servers/common.mjs stdioUpstream()), the only upstream transport the peers take, and
  // mcpkit's gateway given that upstream too. Every request of these rows carries an id of its
  // own (`uniqueIds`): a proxy holds a call open while its upstream answers, and a legacy
  // session may not reuse an id in flight (the peers then answer the wrong caller, or none).
  {
    id: 'mcpkit-gateway-stdio',
    label: 'mcpkit gateway -> stdio',
    file: 'mcpkit-gateway.mjs',
    era: 'modern',
    env: { BENCH_GATEWAY_UPSTREAM: 'stdio' },
    uniqueIds: true,
  },
  {
    id: 'mcpkit-gateway-stdio-session',
    label: 'mcpkit gateway -> stdio, legacy session',
    file: 'mcpkit-gateway.mjs',
    era: 'legacy',
    session: true,
    env: { BENCH_GATEWAY_UPSTREAM: 'stdio' },
    uniqueIds: true,
  },
  // Their ceiling: node:http writing each body to the stdio upstream as a line, no MCP.
  {
    id: 'raw-proxy-stdio',
    label: 'raw node:http proxy -> stdio',
    file: 'raw-proxy-stdio.mjs',
    era: 'modern',
    uniqueIds: true,
  },
  {
    id: 'mcp-proxy',
    label: 'mcp-proxy -> stdio',
    file: 'mcp-proxy.mjs',
    era: 'modern',
    uniqueIds: true,
  },
  {
    id: 'mcp-proxy-session',
    label: 'mcp-proxy -> stdio, legacy session',
    file: 'mcp-proxy.mjs',
    era: 'legacy',
    session: true,
    uniqueIds: true,
  },
  // supergateway serves a 2026-07-28 request, and any request without --stateful, by spawning
  // a new upstream per request: its row is the stateful mode, one session (one child).
  {
    id: 'supergateway',
    label: 'supergateway --stateful -> stdio, session',
    file: 'supergateway.mjs',
    era: 'legacy',
    session: true,
    uniqueIds: true,
  },
  {
    id: 'sdk1-proxy',
    label: 'SDK v1 proxy -> stdio, session',
    file: 'sdk1-proxy.mjs',
    era: 'legacy',
    session: true,
    uniqueIds: true,
  },
  {
    id: 'sdk1-proxy-stateless',
    label: 'SDK v1 proxy -> stdio, stateless',
    file: 'sdk1-proxy.mjs',
    era: 'legacy',
    env: { BENCH_SDK1_PROXY_STATELESS: '1' },
    uniqueIds: true,
  },
  // Three such processes behind a private round-robin nginx (no stickiness), one Redis: on a
  // 2-core machine this shows what the balancer and Redis cost, not scaling.
  {
    id: 'mcpkit-session-balanced',
    label: 'mcpkit legacy session, 3 processes + nginx',
    file: 'mcpkit-http.mjs',
    era: 'legacy',
    session: true,
    redis: true,
    processes: 3,
  },
  {
    id: 'mcpkit-modern-balanced',
    label: 'mcpkit 2026-07-28, 3 processes + nginx',
    file: 'mcpkit-http.mjs',
    era: 'modern',
    redis: true,
    processes: 3,
  },
  { id: 'sdk2-modern', label: 'SDK v2 2026-07-28', file: 'sdk2-http.mjs', era: 'modern' },
  { id: 'sdk2-legacy', label: 'SDK v2 legacy stateless', file: 'sdk2-http.mjs', era: 'legacy' },
  { id: 'sdk1-stateless', label: 'SDK v1 stateless', file: 'sdk1-stateless.mjs', era: 'legacy' },
  {
    id: 'sdk1-stateful',
    label: 'SDK v1 session',
    file: 'sdk1-stateful.mjs',
    era: 'legacy',
    session: true,
  },
  { id: 'tmcp', label: 'tmcp session', file: 'tmcp-http.mjs', era: 'legacy', session: true },
  {
    id: 'fastmcp',
    label: 'fastmcp session',
    file: 'fastmcp-http.mjs',
    era: 'legacy',
    session: true,
  },
].filter(
  (s) =>
    (flags.servers === undefined || flags.servers.split(',').includes(s.id)) &&
    (s.redis !== true || REDIS_URL !== undefined) &&
    (s.processes === undefined || NGINX !== undefined),
);

/** Rows measured against the same server without their one addition (`vsOpen`). */
const BASE_ROWS = {
  'mcpkit-modern-auth': 'mcpkit-modern',
  'mcpkit-session-redis': 'mcpkit-session',
  'mcpkit-modern-redis': 'mcpkit-modern',
  'mcpkit-session-balanced': 'mcpkit-session',
  'mcpkit-modern-balanced': 'mcpkit-modern',
  'mcpkit-gateway': 'mcpkit-modern',
  'mcpkit-gateway-team': 'mcpkit-gateway',
  'raw-proxy': 'mcpkit-modern',
};

/** A key pair and a long-lived ES256 access token for the auth row (made once). */
let credentials;
function benchCredentials() {
  credentials ??= (async () => {
    const { SignJWT, exportJWK, generateKeyPair } = await import('jose');
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg: 'ES256' };
    const token = await new SignJWT({ scope: 'mcp', client_id: 'bench' })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: 'bench' })
      .setIssuer('https://issuer.bench.example')
      .setAudience('https://mcp.bench.example/mcp')
      .setSubject('bench')
      .setIssuedAt()
      .setExpirationTime('2h')
      .sign(privateKey);
    return { jwk: JSON.stringify(jwk), token };
  })();
  return credentials;
}

/** The SDK v2 row each row's "× SDK v2" compares with: the same era. */
const sdk2Of = (era) => (era === 'modern' ? 'sdk2-modern' : 'sdk2-legacy');

const results = {
  meta: {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    loadavgStart: loadavg(),
    quick: QUICK,
    rounds: ROUNDS,
    durationSeconds: DURATION,
    warmupSeconds: WARMUP,
    /** In-process runs made again because the host stole too much CPU during them. */
    inprocessRepeats: 0,
  },
  http: [],
  inprocess: [],
  sessions: [],
  stdio: [],
  fresh: [],
  import: [],
  size: [],
  targets: [],
  problems: [],
};

function log(line) {
  process.stderr.write(`${line}\n`);
}

// ---------------------------------------------------------------------------------------------
// Setup: the build and bench/'s own dependencies.

function ensureSetup() {
  if (!existsSync(join(ROOT, 'dist/esm/src/server/index.js'))) {
    log('== dist/ is missing: npm run build');
    run('npm', ['run', 'build'], ROOT);
  }
  if (!existsSync(join(BENCH, 'node_modules'))) {
    log('== bench/node_modules is missing: npm install --prefix bench');
    run('npm', ['install', '--prefix', BENCH, '--no-audit', '--no-fund'], ROOT);
  }
}

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed`);
}

// ---------------------------------------------------------------------------------------------
// Load generation: wrk when installed (much lighter on a 2-core machine), else autocannon.

function pickLoadgen() {
  if (flags.loadgen !== undefined) return flags.loadgen;
  const found = spawnSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() !== '' ? 'wrk' : 'autocannon';
}
const LOADGEN = pickLoadgen();
results.meta.loadgen = LOADGEN;
const scratch = mkdtempSync(join(tmpdir(), 'mcpkit-bench-'));

function collect(child) {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve(out);
      else
        reject(new Error(`load generator failed (${String(code)}): ${(err + out).slice(0, 500)}`));
    });
  });
}

/** One load run: POST `request` to `url` over `connections` for `seconds`. */
async function load(url, request, { connections, seconds }) {
  if (LOADGEN === 'wrk') {
    const script = join(scratch, 'request.lua');
    const lines = ['wrk.method = "POST"', `wrk.body = [==[${request.body}]==]`];
    for (const [name, value] of Object.entries(request.headers)) {
      lines.push(`wrk.headers["${name}"] = "${value}"`);
    }
    if (request.uniqueIds === true) lines.push(...uniqueIdsLua(request.body));
    writeFileSync(script, `${lines.join('\n')}\n`);
    const threads = String(Math.min(2, connections));
    const args = ['-t', threads, '-c', String(connections), '-d', `${String(seconds)}s`];
    args.push('--latency', '--timeout', '10s', '-s', script, url);
    const text = await collect(spawn('wrk', args));
    return parseWrk(text);
  }
  const job = { url, ...request, connections, duration: seconds };
  const text = await collect(
    spawn(process.execPath, [join(BENCH, 'loadgen.mjs'), JSON.stringify(job)], { cwd: BENCH }),
  );
  return JSON.parse(text.trim());
}

/**
 * wrk script lines that give every request an id of its own (the body's `"id":1` replaced by
 * a count, from a different billion in each wrk thread): for a proxy, whose calls stay open
 * while its upstream answers, and a session, which may not reuse an id in flight.
 */
function uniqueIdsLua(body) {
  const [head, tail] = splitAtId(body);
  return [
    `local head = [==[${head}]==]`,
    `local tail = [==[${tail}]==]`,
    'local threads = 0',
    'function setup(thread) threads = threads + 1; thread:set("base", threads * 1000000000) end',
    'local n = 0',
    'function request() n = n + 1; return wrk.format(nil, nil, nil, head .. string.format("%d", base + n) .. tail) end',
  ];
}

/** The body before and after the value of its `"id":1` (what toolCall writes). */
function splitAtId(body) {
  const at = body.indexOf('"id":1,');
  if (at === -1) throw new Error(`no "id":1 in ${body}`);
  return [body.slice(0, at + 5), body.slice(at + 6)];
}

function wrkTime(value, unit) {
  const n = Number(value);
  if (unit === 'us') return n / 1000;
  if (unit === 's') return n * 1000;
  if (unit === 'm') return n * 60_000;
  return n; // ms
}

function parseWrk(text) {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(text);
  const total = /(\d+) requests in/.exec(text);
  const p50 = /\s50%\s+([\d.]+)(us|ms|s|m)/.exec(text);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s|m)/.exec(text);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(text);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  if (rps === null || total === null) throw new Error(`unreadable wrk output: ${text}`);
  return {
    rps: Number(rps[1]),
    total: Number(total[1]),
    p50: p50 === null ? NaN : wrkTime(p50[1], p50[2]),
    p99: p99 === null ? NaN : wrkTime(p99[1], p99[2]),
    non2xx: non2xx === null ? 0 : Number(non2xx[1]),
    errors: socket === null ? 0 : Number(socket[1]) + Number(socket[2]) + Number(socket[3]),
    timeouts: socket === null ? 0 : Number(socket[4]),
  };
}

// ---------------------------------------------------------------------------------------------
// HTTP tools/call under load.

/** Starts `server` with `tools` extra tools, checks one call, and returns how to load it. */
async function prepare(server, extraTools, nodeArgs = []) {
  const port = await freePort();
  const credentials = server.auth === true ? await benchCredentials() : undefined;
  const env = {
    PORT: String(port),
    BENCH_TOOLS: String(extraTools),
    ...server.env,
    ...(credentials === undefined ? {} : { BENCH_AUTH_JWK: credentials.jwk }),
    ...(server.redis === true ? { BENCH_REDIS_URL: REDIS_URL } : {}),
  };
  const started =
    server.processes === undefined
      ? await startServer(server.file, { env, nodeArgs })
      : await startBalanced(server, env, nodeArgs);
  try {
    const url = `http://127.0.0.1:${String(started.port)}/mcp`;
    const agent = oneSocketAgent();
    const session = server.session ? await openSession(url, agent) : undefined;
    const tool = extraTools > 0 && !server.noTools ? 'wide_00' : 'echo';
    const call = toolCall(server.era, { tool, session, id: 1 });
    const signed =
      credentials === undefined
        ? call
        : { ...call, headers: { ...call.headers, authorization: `Bearer ${credentials.token}` } };
    const request = server.uniqueIds === true ? { ...signed, uniqueIds: true } : signed;
    const reply = await post(url, { ...request, agent });
    const text = JSON.stringify(responseOf(reply, 1));
    if (!text.includes(tool === 'echo' ? 'hello world' : 'ok x1')) {
      throw new Error(`${server.id}: unexpected result ${text}`);
    }
    agent.destroy();
    return { ...started, url, request };
  } catch (error) {
    await started.stop();
    throw error;
  }
}

/**
 * `server.processes` copies of a bench server sharing one Redis prefix, behind a private nginx:
 * started like one server (`port` is nginx's; `pids` the servers', for their CPU time).
 */
async function startBalanced(server, env, nodeArgs) {
  const prefix = `mcpkit-bench-balanced:${String(process.pid)}:${server.id}`;
  const copies = [];
  try {
    for (let i = 0; i < server.processes; i++) {
      const port = await freePort();
      copies.push(
        await startServer(server.file, {
          env: { ...env, PORT: String(port), BENCH_REDIS_PREFIX: prefix },
          nodeArgs,
        }),
      );
    }
    const balancer = await startBalancer(
      copies.map((copy) => `127.0.0.1:${String(copy.port)}`),
      NGINX,
    );
    return {
      child: copies[0].child,
      pids: copies.map((copy) => copy.child.pid),
      port: balancer.port,
      stop: async () => {
        await balancer.close();
        await Promise.all(copies.map((copy) => copy.stop()));
      },
    };
  } catch (error) {
    await Promise.all(copies.map((copy) => copy.stop()));
    throw error;
  }
}

async function httpSection({ extraTools, connections, label }) {
  const servers = HTTP_SERVERS.filter((s) => extraTools === 0 || !s.noTools);
  const runs = new Map(servers.map((s) => [s.id, new Map(connections.map((c) => [c, []]))]));
  // Every server is up for the whole section, each in its own process and idle while another
  // is loaded, so that a round visits them all at one connection count within seconds: a ratio
  // taken within a round compares runs made close together, whatever the machine does between.
  const running = new Map();
  try {
    for (const server of servers) {
      try {
        const started = await prepare(server, extraTools);
        running.set(server.id, started);
        await load(started.url, started.request, { connections: 64, seconds: WARMUP });
      } catch (error) {
        results.problems.push(`${label} ${server.id}: ${error.message}`);
        log(`  ${server.id}: ${error.message}`);
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate: each round starts from a different server, and goes the other way every
      // other round.
      const shift = (round * 3) % servers.length;
      const rotated = [...servers.slice(shift), ...servers.slice(0, shift)];
      const order = round % 2 === 0 ? rotated : rotated.reverse();
      for (const c of connections) {
        for (const server of order) {
          const started = running.get(server.id);
          if (started === undefined) continue;
          try {
            const figures = await measure(started, c);
            runs
              .get(server.id)
              .get(c)
              .push({ ...figures, round });
            const bad = figures.non2xx + figures.errors + figures.timeouts;
            if (bad > 0) {
              results.problems.push(
                `${label} ${server.id} c=${String(c)} round ${String(round + 1)}: ${String(figures.non2xx)} non-2xx, ${String(figures.errors)} errors, ${String(figures.timeouts)} timeouts`,
              );
            }
            log(
              `  ${label} r${String(round + 1)} ${server.id.padEnd(16)} c=${String(c).padEnd(3)} ${figures.rps.toFixed(0).padStart(7)} req/s  p50 ${figures.p50.toFixed(2)} ms  p99 ${figures.p99.toFixed(2)} ms  steal ${fmt.pct(figures.steal)}${figures.attempts > 1 ? ` (attempt ${String(figures.attempts)})` : ''}`,
            );
          } catch (error) {
            results.problems.push(`${label} ${server.id}: ${error.message}`);
            log(`  ${server.id}: ${error.message}`);
            running.delete(server.id);
            await started.stop();
          }
        }
      }
    }
  } finally {
    await Promise.all([...running.values()].map((started) => started.stop()));
  }
  const rows = [];
  for (const server of servers) {
    for (const c of connections) {
      const list = runs.get(server.id).get(c);
      if (list.length === 0) continue;
      rows.push({
        section: label,
        server: server.id,
        label: server.label,
        era: server.era,
        tools: 2 + extraTools,
        connections: c,
        rps: median(list.map((f) => f.rps)),
        p50: median(list.map((f) => f.p50)),
        p99: median(list.map((f) => f.p99)),
        cpuUs: list.every((f) => f.cpuUs !== undefined)
          ? median(list.map((f) => f.cpuUs))
          : undefined,
        rounds: list,
      });
    }
  }
  for (const row of rows) {
    const raw = results.http
      .concat(rows)
      .find((r) => r.server === 'raw' && r.connections === row.connections && r.tools === 2);
    const sdk2 = rows.find(
      (r) => r.server === sdk2Of(row.era) && r.connections === row.connections,
    );
    row.vsRaw = rpsRatio(row, raw);
    row.vsSdk2 = rpsRatio(row, sdk2);
    const base = BASE_ROWS[row.server];
    if (base !== undefined) {
      const open = rows.find((r) => r.server === base && r.connections === row.connections);
      row.vsOpen = rpsRatio(row, open);
    }
  }
  results.http.push(...rows);
}

/** One load run of a started server at `c` connections, with its CPU time per request. */
async function measure(started, c) {
  const { value: figures, steal, attempts } = await withLittleSteal(() => measureOnce(started, c));
  figures.steal = steal;
  figures.attempts = attempts;
  return figures;
}

/** How many times a run is made again when more than STEAL_LIMIT of the CPU was stolen. */
const STEAL_RETRIES = Number(flags['steal-retries'] ?? (QUICK ? 0 : 3));

/**
 * Runs `once` again (after a pause, STEAL_RETRIES times at most) while the hypervisor gave more
 * than STEAL_LIMIT of the CPU to other guests during it; resolves with the last run's value, its
 * steal and how many runs were made.
 */
async function withLittleSteal(once) {
  for (let attempts = 1; ; attempts++) {
    const ticks = machineTicks();
    const value = await once();
    const steal = stealShare(ticks, machineTicks());
    if (steal === undefined || steal <= STEAL_LIMIT || attempts > STEAL_RETRIES) {
      return { value, steal, attempts };
    }
    await sleep(2000);
  }
}

async function measureOnce(started, c) {
  // The headline (64 connections) runs DURATION seconds; 1 and 16, one second.
  const seconds = c === 64 || QUICK ? DURATION : 1;
  const pids = started.pids ?? [started.child.pid];
  const before = cpuOf(pids);
  const figures = await load(started.url, started.request, { connections: c, seconds });
  const after = cpuOf(pids);
  // The server's CPU time per request (µs): steadier than req/s on a shared machine.
  figures.cpuUs =
    before === undefined || after === undefined || figures.total === 0
      ? undefined
      : ((after - before) * 1e6) / figures.total;
  return figures;
}

/** The CPU seconds of the processes `pids` together; undefined if one cannot be read. */
function cpuOf(pids) {
  const each = pids.map(cpuSeconds);
  return each.includes(undefined) ? undefined : each.reduce((a, b) => a + b, 0);
}

/**
 * `row`'s req/s over `other`'s: the median of the ratios of the rounds both ran in (runs of one
 * round of a section were made close together), else the ratio of their medians.
 */
function rpsRatio(row, other) {
  if (other === undefined || other.rps === 0) return undefined;
  const ratios = roundRatios(row, other);
  return ratios.length > 0 ? median(ratios) : row.rps / other.rps;
}

/** `row`'s req/s over `other`'s, round by round, when both ran in the same section's rounds. */
function roundRatios(row, other) {
  if (other === undefined || other.section !== row.section) return [];
  const ratios = [];
  for (const mine of row.rounds) {
    const theirs = other.rounds.find((r) => r.round === mine.round);
    if (theirs !== undefined && theirs.rps > 0 && mine.round !== undefined) {
      ratios.push(mine.rps / theirs.rps);
    }
  }
  return ratios;
}

// ---------------------------------------------------------------------------------------------
// In-process cost (a child process of its own, so that nothing else shares its heap).

async function inprocessSection() {
  const script = join(BENCH, 'inprocess.mjs');
  const listed = await collect(spawn(process.execPath, [script, '--list'], { cwd: BENCH }));
  const names = JSON.parse(listed.trim());
  const byName = new Map(names.map((name) => [name, []]));
  // Each case in a fresh process: no case runs on code the JIT shaped for another. One round
  // visits every case, in the other order every other round, so that drift of the machine hits
  // every case alike (the 52-tool cases are compared with the 2-tool ones).
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      const args = [script, '--json', '--rounds', '1', '--case', name];
      if (QUICK) args.push('--quick');
      const { value: text, attempts } = await withLittleSteal(() =>
        collect(spawn(process.execPath, args, { cwd: BENCH })),
      );
      results.meta.inprocessRepeats += attempts - 1;
      byName.get(name).push(...JSON.parse(text.trim().split('\n').pop()));
    }
  }
  const rows = names.map((name) => {
    const runs = byName.get(name);
    return {
      ...runs[0],
      us: median(runs.map((r) => r.us)),
      cpuUs: median(runs.map((r) => r.cpuUs)),
      rounds: runs.flatMap((r) => r.rounds),
    };
  });
  for (const row of rows) {
    const sdk2 = rows.find((r) => r.peer === 'sdk2' && r.era === row.era && r.tools === row.tools);
    const raw = rows.find((r) => r.peer === 'raw' && r.face === row.face);
    row.vsSdk2 = sdk2 === undefined ? undefined : sdk2.us / row.us;
    row.vsRaw = raw === undefined ? undefined : raw.us / row.us;
    log(
      `  ${row.name.padEnd(32)} ${row.us.toFixed(1).padStart(8)} µs/call (CPU ${row.cpuUs.toFixed(1)})`,
    );
  }
  results.inprocess = rows;
}

// ---------------------------------------------------------------------------------------------
// RSS per idle legacy session.

const SESSION_SERVERS = [
  { id: 'mcpkit-session', label: 'mcpkit', file: 'mcpkit-http.mjs' },
  { id: 'sdk1-stateful', label: 'SDK v1', file: 'sdk1-stateful.mjs' },
  { id: 'tmcp', label: 'tmcp', file: 'tmcp-http.mjs' },
  { id: 'fastmcp', label: 'fastmcp', file: 'fastmcp-http.mjs' },
].filter((s) => flags.servers === undefined || flags.servers.split(',').includes(s.id));

/** Opens `count` sessions, `concurrency` at a time, until `deadline`; resolves with how many. */
async function openSessions(url, count, deadline) {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  let opened = 0;
  let next = 0;
  const worker = async () => {
    while (next < count && performance.now() < deadline) {
      next++;
      await openSession(url, agent, next);
      opened++;
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  agent.destroy();
  return opened;
}

async function settledRss(child) {
  for (let i = 0; i < 3; i++) {
    child.kill('SIGUSR2');
    await sleep(300);
  }
  return rssOf(child.pid);
}

async function sessionsSection() {
  const count = QUICK ? 1000 : 10_000;
  for (const server of SESSION_SERVERS) {
    let started;
    try {
      const port = await freePort();
      started = await startServer(server.file, {
        env: { PORT: String(port) },
        nodeArgs: ['--expose-gc'],
      });
      const url = `http://127.0.0.1:${String(started.port)}/mcp`;
      await openSessions(url, 200, performance.now() + 5000); // warm-up
      const before = await settledRss(started.child);
      const t0 = performance.now();
      const opened = await openSessions(url, count, t0 + (QUICK ? 10_000 : 20_000));
      const seconds = (performance.now() - t0) / 1000;
      const after = await settledRss(started.child);
      const perSession = (after - before) / opened;
      results.sessions.push({
        server: server.id,
        label: server.label,
        sessions: opened,
        rssBefore: before,
        rssAfter: after,
        bytesPerSession: perSession,
        openPerSecond: opened / seconds,
      });
      log(
        `  ${server.id.padEnd(16)} ${String(opened)} sessions: ${(perSession / 1024).toFixed(2)} KiB each (${(opened / seconds).toFixed(0)} opened/s)`,
      );
    } catch (error) {
      results.problems.push(`sessions ${server.id}: ${error.message}`);
      log(`  ${server.id}: ${error.message}`);
    } finally {
      await started?.stop();
    }
  }
}

// ---------------------------------------------------------------------------------------------
// stdio: sequential round trips and a pipelined run through a child process.

const STDIO_SERVERS = [
  { id: 'raw-stdio', label: 'raw stdio', file: 'raw-stdio.mjs', era: 'legacy' },
  { id: 'mcpkit-stdio', label: 'mcpkit legacy', file: 'mcpkit-stdio.mjs', era: 'legacy' },
  {
    id: 'mcpkit-stdio-modern',
    label: 'mcpkit 2026-07-28',
    file: 'mcpkit-stdio.mjs',
    era: 'modern',
  },
  { id: 'sdk2-stdio', label: 'SDK v2 legacy', file: 'sdk2-stdio.mjs', era: 'legacy' },
  { id: 'sdk2-stdio-modern', label: 'SDK v2 2026-07-28', file: 'sdk2-stdio.mjs', era: 'modern' },
  { id: 'sdk1-stdio', label: 'SDK v1', file: 'sdk1-stdio.mjs', era: 'legacy' },
  { id: 'tmcp-stdio', label: 'tmcp', file: 'tmcp-stdio.mjs', era: 'legacy' },
  { id: 'fastmcp-stdio', label: 'fastmcp', file: 'fastmcp-stdio.mjs', era: 'legacy' },
].filter((s) => flags.servers === undefined || flags.servers.split(',').includes(s.id));

function callLine(era, id) {
  return `${toolCall(era, { id }).body}\n`;
}

async function stdioOnce(server, calls) {
  const started = await startServer(server.file, { stdio: true });
  try {
    const peer = stdioPeer(started.child);
    let id = 0;
    if (server.era === 'legacy') await openStdioSession(peer, ++id);
    const lines = Array.from({ length: calls + 500 }, (_, i) => callLine(server.era, id + 1 + i));
    const check = await peer.send(lines[0], id + 1);
    if (!JSON.stringify(check).includes('hello world')) {
      throw new Error(`unexpected answer ${JSON.stringify(check)}`);
    }
    // Warm-up, then sequential round trips.
    let next = 1;
    for (; next < 500; next++) await peer.send(lines[next], id + 1 + next);
    const times = new Float64Array(calls);
    const t0 = performance.now();
    // At most 5 seconds: fastmcp answers about 600 calls a second.
    let done = 0;
    for (; done < calls && (done % 500 !== 0 || performance.now() - t0 < 5000); done++, next++) {
      const start = performance.now();
      await peer.send(lines[next], id + 1 + next);
      times[done] = performance.now() - start;
    }
    const sequentialSeconds = (performance.now() - t0) / 1000;
    // Pipelined: 32 calls in flight.
    const base = id + 1 + lines.length;
    const pipelined = Array.from({ length: calls }, (_, i) => callLine(server.era, base + i));
    let sent = 0;
    const t1 = performance.now();
    const lane = async () => {
      while (sent < calls) {
        const i = sent++;
        await peer.send(pipelined[i], base + i);
      }
    };
    await Promise.all(Array.from({ length: 32 }, lane));
    const pipelinedSeconds = (performance.now() - t1) / 1000;
    const measured = times.subarray(0, done).sort();
    return {
      sequential: done / sequentialSeconds,
      calls: done,
      p50: quantile(measured, 0.5),
      p99: quantile(measured, 0.99),
      pipelined: calls / pipelinedSeconds,
    };
  } finally {
    await stopChild(started.child);
  }
}

async function stdioSection() {
  const calls = QUICK ? 1000 : 10_000;
  const runs = new Map(STDIO_SERVERS.map((s) => [s.id, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const server of STDIO_SERVERS) {
      try {
        const figures = await stdioOnce(server, calls);
        runs.get(server.id).push(figures);
        log(
          `  r${String(round + 1)} ${server.id.padEnd(20)} ${figures.sequential.toFixed(0).padStart(6)} calls/s sequential (p50 ${(figures.p50 * 1000).toFixed(0)} µs)  ${figures.pipelined.toFixed(0).padStart(6)} calls/s pipelined`,
        );
      } catch (error) {
        results.problems.push(`stdio ${server.id}: ${error.message}`);
        log(`  ${server.id}: ${error.message}`);
      }
    }
  }
  const rows = [];
  for (const server of STDIO_SERVERS) {
    const list = runs.get(server.id);
    if (list.length === 0) continue;
    rows.push({
      server: server.id,
      label: server.label,
      era: server.era,
      calls: Math.min(...list.map((f) => f.calls)),
      sequential: median(list.map((f) => f.sequential)),
      p50: median(list.map((f) => f.p50)),
      p99: median(list.map((f) => f.p99)),
      pipelined: median(list.map((f) => f.pipelined)),
      rounds: list,
    });
  }
  const raw = rows.find((r) => r.server === 'raw-stdio');
  for (const row of rows) {
    const sdk2 = rows.find(
      (r) => r.server === (row.era === 'modern' ? 'sdk2-stdio-modern' : 'sdk2-stdio'),
    );
    row.vsRaw = raw && row.sequential / raw.sequential;
    row.vsRawPipelined = raw && row.pipelined / raw.pipelined;
    row.vsSdk2 = sdk2 && row.sequential / sdk2.sequential;
  }
  results.stdio = rows;
}

// ---------------------------------------------------------------------------------------------
// A fresh session: initialize + notifications/initialized + tools/list + tools/call.

const FRESH_SERVERS = [
  { id: 'raw', label: 'raw node:http', file: 'raw-http.mjs' },
  { id: 'mcpkit-session', label: 'mcpkit legacy session', file: 'mcpkit-http.mjs' },
  {
    id: 'mcpkit-stateless',
    label: 'mcpkit legacy stateless',
    file: 'mcpkit-http.mjs',
    env: { BENCH_SESSIONS: '0' },
  },
  { id: 'sdk2-legacy', label: 'SDK v2 legacy stateless', file: 'sdk2-http.mjs' },
  { id: 'sdk1-stateful', label: 'SDK v1 session', file: 'sdk1-stateful.mjs' },
  { id: 'tmcp', label: 'tmcp session', file: 'tmcp-http.mjs' },
  { id: 'fastmcp', label: 'fastmcp session', file: 'fastmcp-http.mjs' },
].filter((s) => flags.servers === undefined || flags.servers.split(',').includes(s.id));

async function freshOnce(url) {
  const agent = oneSocketAgent();
  try {
    const start = performance.now();
    const session = await openSession(url, agent, 1);
    const headers = headersFor('legacy', { session });
    const list = await post(url, {
      body: JSON.stringify(rpc('legacy', { id: 2, method: 'tools/list' })),
      headers,
      agent,
    });
    responseOf(list, 2);
    const call = await post(url, { ...toolCall('legacy', { session, id: 3 }), agent });
    responseOf(call, 3);
    return performance.now() - start;
  } finally {
    agent.destroy();
  }
}

async function freshSection() {
  const count = QUICK ? 50 : 300;
  const runs = new Map(FRESH_SERVERS.map((s) => [s.id, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const server of FRESH_SERVERS) {
      let started;
      try {
        const port = await freePort();
        started = await startServer(server.file, { env: { PORT: String(port), ...server.env } });
        const url = `http://127.0.0.1:${String(started.port)}/mcp`;
        // Warm-up, then `count` sessions; both stop early for a slow server (fastmcp takes about
        // a second per initialize).
        const warmUntil = performance.now() + 2000;
        for (let i = 0; i < 30 && performance.now() < warmUntil; i++) await freshOnce(url);
        const times = [];
        const until = performance.now() + (QUICK ? 3000 : 5000);
        for (let i = 0; i < count && performance.now() < until; i++)
          times.push(await freshOnce(url));
        times.sort((a, b) => a - b);
        runs.get(server.id).push({
          p50: quantile(times, 0.5),
          p99: quantile(times, 0.99),
          sessions: times.length,
        });
        log(
          `  r${String(round + 1)} ${server.id.padEnd(16)} p50 ${quantile(times, 0.5).toFixed(2)} ms`,
        );
      } catch (error) {
        results.problems.push(`fresh ${server.id}: ${error.message}`);
        log(`  ${server.id}: ${error.message}`);
      } finally {
        await started?.stop();
      }
    }
  }
  const rows = [];
  for (const server of FRESH_SERVERS) {
    const list = runs.get(server.id);
    if (list.length === 0) continue;
    rows.push({
      server: server.id,
      label: server.label,
      sessions: list.reduce((n, f) => n + f.sessions, 0),
      p50: median(list.map((f) => f.p50)),
      p99: median(list.map((f) => f.p99)),
      rounds: list,
    });
  }
  const raw = rows.find((r) => r.server === 'raw');
  const sdk2 = rows.find((r) => r.server === 'sdk2-legacy');
  for (const row of rows) {
    row.vsRaw = raw && raw.p50 / row.p50;
    row.vsSdk2 = sdk2 && sdk2.p50 / row.p50;
  }
  results.fresh = rows;
}

// ---------------------------------------------------------------------------------------------
// Cold import of each package's server entry, against a bare `node -e ''`.

const IMPORTS = [
  { id: 'bare', label: "bare node -e ''", code: '' },
  {
    id: 'mcpkit',
    label: 'mcpkit/server',
    code: `await import(${JSON.stringify(new URL('../dist/esm/src/server/index.js', import.meta.url).href)})`,
  },
  {
    id: 'mcpkit-http',
    label: 'mcpkit/server + transports/http/node',
    code: `await import(${JSON.stringify(new URL('../dist/esm/src/server/index.js', import.meta.url).href)}); await import(${JSON.stringify(new URL('../dist/esm/src/transports/http/node.js', import.meta.url).href)})`,
  },
  {
    id: 'sdk2',
    label: '@modelcontextprotocol/server',
    code: 'await import("@modelcontextprotocol/server")',
  },
  {
    id: 'sdk1',
    label: '@modelcontextprotocol/sdk/server/mcp.js',
    code: 'await import("@modelcontextprotocol/sdk/server/mcp.js")',
  },
  { id: 'tmcp', label: 'tmcp', code: 'await import("tmcp")' },
  { id: 'fastmcp', label: 'fastmcp', code: 'await import("fastmcp")' },
];

function importSection() {
  const runs = QUICK ? 5 : 15;
  const times = new Map(IMPORTS.map((i) => [i.id, []]));
  for (const entry of IMPORTS) spawnSync(process.execPath, ['-e', entry.code], { cwd: BENCH }); // disk cache
  for (let r = 0; r < runs; r++) {
    for (const entry of IMPORTS) {
      const start = performance.now();
      const result = spawnSync(process.execPath, ['-e', entry.code], { cwd: BENCH });
      const ms = performance.now() - start;
      if (result.status !== 0) {
        results.problems.push(`import ${entry.id}: ${result.stderr.toString().slice(0, 300)}`);
        continue;
      }
      times.get(entry.id).push(ms);
    }
  }
  const bare = median(times.get('bare'));
  for (const entry of IMPORTS) {
    const list = times.get(entry.id);
    if (list.length === 0) continue;
    const ms = median(list);
    results.import.push({
      id: entry.id,
      label: entry.label,
      ms,
      addedMs: ms - bare,
      runs: list.length,
    });
    log(`  ${entry.label.padEnd(40)} ${ms.toFixed(1)} ms (+${(ms - bare).toFixed(1)} ms)`);
  }
}

// ---------------------------------------------------------------------------------------------
// Installed size and runtime dependencies.

function dirSize(dir) {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = dirSize(path);
      bytes += inner.bytes;
      files += inner.files;
    } else if (entry.isFile()) {
      bytes += statSync(path).size;
      files++;
    }
  }
  return { bytes, files };
}

function packageDir(name, from) {
  for (let dir = from; ; dir = join(dir, '..')) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === '/' || dir === join(dir, '..')) return undefined;
  }
}

/** The packages `roots` install (themselves included), as installed under bench/node_modules. */
function closure(roots) {
  const seen = new Map();
  const visit = (name, from) => {
    const dir = packageDir(name, from);
    if (dir === undefined || seen.has(dir)) return;
    seen.set(dir, name);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const optional = pkg.peerDependenciesMeta ?? {};
    const peers = Object.keys(pkg.peerDependencies ?? {}).filter(
      (p) => optional[p]?.optional !== true,
    );
    for (const dep of [...Object.keys(pkg.dependencies ?? {}), ...peers]) visit(dep, dir);
  };
  for (const root of roots) visit(root, BENCH);
  return seen;
}

function sizeSection() {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const optional = pkg.peerDependenciesMeta ?? {};
  const requiredPeers = Object.keys(pkg.peerDependencies ?? {}).filter(
    (p) => optional[p]?.optional !== true,
  );
  const runtime = [...Object.keys(pkg.dependencies ?? {}), ...requiredPeers];
  const packed = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  let unpacked = NaN;
  let files = NaN;
  try {
    const info = JSON.parse(packed.stdout)[0];
    unpacked = info.unpackedSize;
    files = info.entryCount;
  } catch {
    results.problems.push(`size: npm pack --dry-run failed: ${packed.stderr.slice(0, 300)}`);
  }
  results.size.push({
    id: 'mcpkit',
    label: 'mcpkit (whole package)',
    dependencies: runtime.length,
    names: runtime,
    optionalPeers: Object.keys(optional),
    bytes: unpacked,
    files,
  });
  const peers = [
    {
      id: 'sdk2',
      label: 'SDK v2 server + node',
      roots: ['@modelcontextprotocol/server', '@modelcontextprotocol/node'],
    },
    { id: 'sdk1', label: 'SDK v1', roots: ['@modelcontextprotocol/sdk'] },
    { id: 'tmcp', label: 'tmcp + transport-http', roots: ['tmcp', '@tmcp/transport-http'] },
    { id: 'fastmcp', label: 'fastmcp', roots: ['fastmcp'] },
  ];
  for (const peer of peers) {
    const dirs = closure(peer.roots);
    let bytes = 0;
    let count = 0;
    for (const dir of dirs.keys()) {
      const size = dirSize(dir);
      bytes += size.bytes;
      count += size.files;
    }
    results.size.push({
      id: peer.id,
      label: peer.label,
      dependencies: dirs.size - peer.roots.length,
      bytes,
      files: count,
    });
  }
  for (const row of results.size) {
    log(
      `  ${row.label.padEnd(28)} ${String(row.dependencies).padStart(4)} runtime deps, ${(row.bytes / 1024).toFixed(0)} KiB installed`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// The table and the targets.

const fmt = {
  n: (v) => (v === undefined || Number.isNaN(v) ? '-' : Math.round(v).toLocaleString('en-US')),
  ms: (v) =>
    v === undefined || Number.isNaN(v) ? '-' : `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms`,
  x: (v) => (v === undefined || Number.isNaN(v) ? '-' : `${v < 10 ? v.toFixed(2) : v.toFixed(1)}x`),
  pct: (v) => (v === undefined || Number.isNaN(v) ? '-' : `${(v * 100).toFixed(1)}%`),
};

function table() {
  const rows = [['section', 'case', 'figure', 'p50', 'p99', 'vs raw', 'vs SDK v2']];
  for (const r of results.http) {
    rows.push([
      `HTTP tools/call, ${String(r.tools)} tools, c=${String(r.connections)}`,
      r.label,
      r.connections === 64 && r.cpuUs !== undefined
        ? `${fmt.n(r.rps)} req/s, ${r.cpuUs.toFixed(1)} µs CPU`
        : `${fmt.n(r.rps)} req/s`,
      fmt.ms(r.p50),
      fmt.ms(r.p99),
      fmt.x(r.vsRaw),
      fmt.x(r.vsSdk2),
    ]);
  }
  for (const r of results.inprocess) {
    rows.push([
      `in-process, ${r.face} face, ${String(r.tools)} tools`,
      r.peer === 'raw'
        ? `raw ${r.face} (ceiling)`
        : `${r.peer === 'sdk2' ? 'SDK v2' : 'mcpkit'} ${r.era}`,
      `${r.us.toFixed(1)} µs/call`,
      `CPU ${r.cpuUs.toFixed(1)} µs`,
      '',
      fmt.x(r.vsRaw),
      fmt.x(r.vsSdk2),
    ]);
  }
  for (const r of results.sessions) {
    rows.push([
      `idle legacy session RSS (${fmt.n(r.sessions)})`,
      r.label,
      `${(r.bytesPerSession / 1024).toFixed(2)} KiB/session`,
      '',
      '',
      '',
      '',
    ]);
  }
  for (const r of results.stdio) {
    rows.push([
      `stdio, ${fmt.n(r.calls)} sequential calls`,
      r.label,
      `${fmt.n(r.sequential)} calls/s`,
      fmt.ms(r.p50),
      fmt.ms(r.p99),
      fmt.x(r.vsRaw),
      fmt.x(r.vsSdk2),
    ]);
  }
  for (const r of results.stdio) {
    rows.push([
      'stdio, 32 in flight',
      r.label,
      `${fmt.n(r.pipelined)} calls/s`,
      '',
      '',
      fmt.x(r.vsRawPipelined),
      '',
    ]);
  }
  for (const r of results.fresh) {
    rows.push([
      `fresh session: init + list + call (${fmt.n(r.sessions)})`,
      r.label,
      fmt.ms(r.p50),
      fmt.ms(r.p50),
      fmt.ms(r.p99),
      fmt.x(r.vsRaw),
      fmt.x(r.vsSdk2),
    ]);
  }
  for (const r of results.import) {
    rows.push(['cold import', r.label, fmt.ms(r.ms), `+${r.addedMs.toFixed(1)} ms`, '', '', '']);
  }
  for (const r of results.size) {
    rows.push([
      'installed size',
      r.label,
      `${(r.bytes / 1024).toFixed(0)} KiB, ${fmt.n(r.files)} files`,
      `${String(r.dependencies)} deps`,
      '',
      '',
      '',
    ]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r) => `| ${r.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  return [
    line(rows[0]),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.slice(1).map(line),
  ].join('\n');
}

/**
 * What the hypervisor took, section by section: on a shared virtual machine, CPU time stolen
 * while the bench ran slows every server by a different share, so a run with much of it is no
 * fair reading of the ratios.
 */
function stealLine() {
  const entries = Object.entries(results.meta.steal).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return 'CPU stolen by the host: unknown (no /proc/stat)';
  const list = entries.map(([key, v]) => `${key} ${fmt.pct(v)}`).join(', ');
  // HTTP runs that lost too much were made again: what counts there is the runs kept.
  const runs = results.http.flatMap((row) => row.rounds);
  const repeated = runs.filter((f) => f.attempts > 1).length;
  const kept = runs.filter((f) => f.steal !== undefined && f.steal > STEAL_LIMIT).length;
  const others = entries.filter(([key, v]) => !HTTP_SECTIONS.has(key) && v > STEAL_LIMIT);
  const lines = [`CPU stolen by the host, by section: ${list}`];
  if (runs.length > 0) {
    lines.push(
      `HTTP load runs: ${String(runs.length)} kept; ${String(repeated)} made again after a run with more than ${fmt.pct(STEAL_LIMIT)} stolen; ${String(kept)} kept with more`,
    );
  }
  if (SECTIONS.has('inprocess')) {
    lines.push(`In-process runs made again for steal: ${String(results.meta.inprocessRepeats)}`);
  }
  if (kept > 0 || others.length > 0) {
    lines.push('Other guests had part of this machine: the figures are not a fair reading.');
  }
  return lines.join('\n');
}

const HTTP_SECTIONS = new Set(['http', 'scaling']);

/** The share of stolen CPU time above which a run is said to be unfit to record. */
const STEAL_LIMIT = 0.05;

/** How a target reads: met, missed, or not measured in this run (its figure is missing). */
function verdictOf(t) {
  if (t.value === undefined || Number.isNaN(t.value)) return 'n/a   ';
  return t.met ? 'met   ' : 'MISSED';
}

function target(name, { value, met, detail }) {
  results.targets.push({ name, value, met, detail });
}

/**
 * Issue 40: mcpkit's gateway against the peer gateways in front of the same stdio upstream, and
 * against the raw proxy to it, by req/s (the median of the rounds' ratios) and by the gateway
 * process's CPU time per request (the peer's over mcpkit's). Reported, not judged: each pair
 * speaks the same era (2026-07-28 without a session, or a legacy session).
 */
function peerGatewayTargets(http64) {
  const pairs = [
    ['mcpkit-gateway-stdio', 'raw-proxy-stdio'],
    ['mcpkit-gateway-stdio', 'mcp-proxy'],
    ['mcpkit-gateway-stdio-session', 'mcp-proxy-session'],
    ['mcpkit-gateway-stdio-session', 'supergateway'],
    ['mcpkit-gateway-stdio-session', 'sdk1-proxy'],
    ['mcpkit-gateway-stdio-session', 'sdk1-proxy-stateless'],
  ];
  for (const [mine, theirs] of pairs) {
    const row = http64(mine);
    const peer = http64(theirs);
    if (row === undefined || peer === undefined) continue;
    const value = rpsRatio(row, peer);
    const cpu =
      row.cpuUs !== undefined && peer.cpuUs !== undefined
        ? `; by CPU time per request: ${fmt.x(peer.cpuUs / row.cpuUs)}`
        : '';
    target(`(report) HTTP c=64 ${row.label} vs ${peer.label}`, {
      value,
      met: true,
      detail: `${fmt.x(value)}${cpu}`,
    });
  }
}

function evaluateTargets() {
  const http64 = (id) =>
    results.http.find((r) => r.server === id && r.connections === 64 && r.tools === 2);
  const ratio = (value, floor) => ({ value, met: value >= floor, detail: fmt.x(value) });
  // The same comparison by CPU time per request (raw's over this one's), said beside it: what
  // the req/s ratio would be on a machine that ran nothing else.
  const raw = http64('raw');
  // And the ratios of the rounds, whose median the ratio is: how far one run can be trusted.
  const withCpu = (judged, row) => {
    const rounds = roundRatios(row, raw).map((value) => value.toFixed(2));
    const notes = rounds.length > 1 ? [`rounds ${rounds.join(' ')}`] : [];
    if (raw?.cpuUs !== undefined && row.cpuUs !== undefined) {
      notes.push(`by CPU time per request: ${fmt.x(raw.cpuUs / row.cpuUs)}`);
    }
    return notes.length === 0
      ? judged
      : { ...judged, detail: `${judged.detail} (${notes.join('; ')})` };
  };
  for (const id of ['mcpkit-modern', 'mcpkit-stateless']) {
    const row = http64(id);
    if (row === undefined) continue;
    target(`HTTP c=64 ${row.label} >= 75% of raw`, withCpu(ratio(row.vsRaw, 0.75), row));
    target(`HTTP c=64 ${row.label} >= 8x SDK v2`, ratio(row.vsSdk2, 8));
  }
  const guarded = http64('mcpkit-modern-auth');
  if (guarded?.vsOpen !== undefined) {
    target(
      'HTTP c=64 mcpkit 2026-07-28 with JWT auth >= 85% of without',
      ratio(guarded.vsOpen, 0.85),
    );
  }
  for (const [id, what, floor] of [
    ['mcpkit-session-redis', 'legacy session with sessions in Redis', 0.7],
    ['mcpkit-modern-redis', '2026-07-28 with Redis configured', 0.95],
  ]) {
    const row = http64(id);
    if (row?.vsOpen !== undefined) {
      target(
        `HTTP c=64 mcpkit ${what} >= ${String(floor * 100)}% of in memory`,
        ratio(row.vsOpen, floor),
      );
    }
  }
  const gateway = http64('mcpkit-gateway');
  const proxy = http64('raw-proxy');
  // Issue 40: judged against what a forwarder with no MCP work reaches in the same run (the
  // earlier target, 0.45x of the upstream called directly, sat at that ceiling).
  const vsProxy = gateway === undefined ? undefined : rpsRatio(gateway, proxy);
  if (vsProxy !== undefined) {
    target('HTTP c=64 mcpkit gateway >= 60% of the raw node:http proxy', ratio(vsProxy, 0.6));
  }
  if (gateway?.vsOpen !== undefined) {
    target('(report) HTTP c=64 mcpkit gateway vs its upstream called directly', {
      value: gateway.vsOpen,
      met: true,
      detail: fmt.x(gateway.vsOpen),
    });
  }
  const team = http64('mcpkit-gateway-team');
  if (team?.vsOpen !== undefined) {
    // Reported, not judged (issue 40: the cost of policies, limits and audit, stated).
    target('(report) HTTP c=64 mcpkit gateway with policies, limits and audit vs without', {
      value: team.vsOpen,
      met: true,
      detail: fmt.x(team.vsOpen),
    });
  }
  if (proxy?.vsOpen !== undefined) {
    // Reported, not judged: what any forwarder at all reaches here (the gateway's ceiling).
    target('(report) HTTP c=64 raw node:http proxy vs its upstream called directly', {
      value: proxy.vsOpen,
      met: true,
      detail: `${fmt.x(proxy.vsOpen)} (no MCP work: the ceiling of a forwarder on this machine)`,
    });
  }
  peerGatewayTargets(http64);
  for (const id of ['mcpkit-session-balanced', 'mcpkit-modern-balanced']) {
    const row = http64(id);
    if (row?.vsOpen !== undefined) {
      // Reported, not judged: on 2 cores three processes and nginx share what one had.
      target(`(report) HTTP c=64 ${row.label} vs one process`, {
        value: row.vsOpen,
        met: true,
        detail: `${fmt.x(row.vsOpen)} (2 cores: overhead, not scaling)`,
      });
    }
  }
  const session = http64('mcpkit-session');
  if (session !== undefined) {
    target(
      'HTTP c=64 mcpkit legacy session >= 60% of raw',
      withCpu(ratio(session.vsRaw, 0.6), session),
    );
  }
  const modern = http64('mcpkit-modern');
  const rawModern = http64('raw-modern');
  if (modern !== undefined && rawModern !== undefined && rawModern.rps > 0) {
    // Not a target of issue 8: the same ratio against a raw server given the same exchange.
    const value = rpsRatio(modern, rawModern);
    target(
      '(extra) HTTP c=64 mcpkit 2026-07-28 vs raw serving 2026-07-28 >= 75%',
      ratio(value, 0.75),
    );
  }
  const mine = results.inprocess.filter((r) => r.peer === 'mcpkit');
  for (const r of mine) {
    target(`in-process ${r.face} ${r.era} ${String(r.tools)} tools <= 60 µs`, {
      value: r.us,
      met: r.us <= 60,
      detail: `${r.us.toFixed(1)} µs (CPU ${r.cpuUs.toFixed(1)} µs)`,
    });
  }
  for (const r of mine.filter((m) => m.tools > 2)) {
    const base = mine.find((m) => m.face === r.face && m.era === r.era && m.tools === 2);
    if (base === undefined) continue;
    const growth = r.us / base.us;
    target(`in-process ${r.face} ${r.era}: 52 tools within 10% of 2`, {
      value: growth,
      met: growth <= 1.1,
      detail: `${((growth - 1) * 100).toFixed(1)}%`,
    });
  }
  const idle = results.sessions.find((r) => r.server === 'mcpkit-session');
  if (idle !== undefined) {
    target('idle legacy session <= 4 KiB RSS', {
      value: idle.bytesPerSession,
      met: idle.bytesPerSession <= 4096,
      detail: `${(idle.bytesPerSession / 1024).toFixed(2)} KiB`,
    });
  }
  for (const id of ['mcpkit-stdio', 'mcpkit-stdio-modern']) {
    const row = results.stdio.find((r) => r.server === id);
    if (row === undefined) continue;
    target(`stdio ${row.label} >= 0.9x raw (sequential)`, ratio(row.vsRaw, 0.9));
    target(`(extra) stdio ${row.label} >= 0.9x raw (32 in flight)`, ratio(row.vsRawPipelined, 0.9));
  }
  const fresh = results.fresh.find((r) => r.server === 'mcpkit-session');
  if (fresh !== undefined) {
    target('fresh legacy session p50 <= 2.5 ms', {
      value: fresh.p50,
      met: fresh.p50 <= 2.5,
      detail: fmt.ms(fresh.p50),
    });
  }
  const imported = results.import.find((r) => r.id === 'mcpkit');
  if (imported !== undefined) {
    target('cold import of mcpkit/server adds <= 30 ms', {
      value: imported.addedMs,
      met: imported.addedMs <= 30,
      detail: `+${imported.addedMs.toFixed(1)} ms`,
    });
  }
  const size = results.size.find((r) => r.id === 'mcpkit');
  if (size !== undefined) {
    target('runtime dependencies of the core: 0', {
      value: size.dependencies,
      met: size.dependencies === 0,
      detail: String(size.dependencies),
    });
  }
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const started = performance.now();
  ensureSetup();
  log(
    `== mcpkit bench: ${LOADGEN}, ${String(ROUNDS)} round(s), ${String(DURATION)} s per run${QUICK ? ' (quick)' : ''}`,
  );
  if (LOADGEN === 'autocannon') {
    log(
      '   note: autocannon saturates before raw node:http does on a 2-core machine; install wrk for sharper ratios',
    );
  }
  if (loadavg()[0] > 1.5)
    log(`   warning: load average ${loadavg()[0].toFixed(2)}: other work will skew the figures`);
  const steps = [
    [
      'http',
      'HTTP tools/call',
      () => httpSection({ extraTools: 0, connections: CONNECTIONS, label: 'http' }),
    ],
    [
      'scaling',
      'HTTP tools/call with 50 more tools',
      () => httpSection({ extraTools: 50, connections: [64], label: 'scaling' }),
    ],
    ['inprocess', 'in-process cost per tools/call', inprocessSection],
    ['sessions', 'RSS per idle legacy session', sessionsSection],
    ['stdio', 'stdio', stdioSection],
    ['fresh', 'fresh session', freshSection],
    ['import', 'cold import', importSection],
    ['size', 'installed size', sizeSection],
  ];
  results.meta.steal = {};
  for (const [key, title, step] of steps) {
    if (!SECTIONS.has(key)) continue;
    log(`== ${title}`);
    const t = performance.now();
    const ticks = machineTicks();
    await step();
    const steal = stealShare(ticks, machineTicks());
    results.meta.steal[key] = steal;
    const stolen = steal === undefined ? '' : `, ${fmt.pct(steal)} of the CPU stolen by the host`;
    log(`   (${((performance.now() - t) / 1000).toFixed(0)} s${stolen})`);
  }
  evaluateTargets();
  results.meta.loadavgEnd = loadavg();
  results.meta.seconds = (performance.now() - started) / 1000;
  writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`);
  rmSync(scratch, { recursive: true, force: true });

  console.log(
    `\nmcpkit bench, ${results.meta.date}, node ${process.version}, ${String(cpus().length)} cores, ${LOADGEN}, median of ${String(ROUNDS)} round(s)`,
  );
  console.log(
    "Ratios: the row against raw node:http / the ceiling, and against the official SDK v2 of the same era (for times: the other's time over this one).\n",
  );
  console.log(table());
  console.log(`\n${stealLine()}`);
  if (results.targets.length > 0) {
    console.log('\nTargets');
    for (const t of results.targets) console.log(`  ${verdictOf(t)}  ${t.name}: ${t.detail}`);
  }
  if (results.problems.length > 0) {
    console.log('\nProblems');
    for (const p of results.problems) console.log(`  ${p}`);
  }
  console.log(`\n${OUT} written (${results.meta.seconds.toFixed(0)} s).`);
}

await main();
