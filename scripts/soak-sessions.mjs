// Soak check for legacy sessions (not a test: it takes a minute and reads memory). Creates N
// sessions and abandons each in one of three ways, then waits out the idle expiry and checks
// that the session count and the heap are back to their baseline:
//   idle      initialize + initialized, then nothing
//   elicit    a tool call that asks the client something; the client hangs up on the question
//   stream    a GET stream opened and hung up on
//
// Usage: npm run build && node --expose-gc scripts/soak-sessions.mjs [--sessions N] [--idle-ms MS]
// Exits non-zero when a count or the heap does not come back (heap: within 10 MiB of baseline).
import { Agent, request } from 'node:http';
import { parseArgs } from 'node:util';
import { McpServer } from '../dist/esm/src/server/index.js';
import { createStreamableHttpHandler } from '../dist/esm/src/transports/http/index.js';
import { listen } from '../dist/esm/src/transports/http/node.js';

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '10000' },
    'idle-ms': { type: 'string', default: '3000' },
    concurrency: { type: 'string', default: '64' },
  },
});
const sessions = Number(values.sessions);
const idleMs = Number(values['idle-ms']);
const concurrency = Number(values.concurrency);
if (typeof globalThis.gc !== 'function') {
  console.error('run with node --expose-gc');
  process.exit(2);
}

const server = new McpServer({ name: 'soak', version: '1.0.0' });
server.tool(
  { name: 'ask', description: 'Asks the user.', inputSchema: { type: 'object' } },
  async (_args, ctx) => {
    await ctx.elicit({ message: 'name?', requestedSchema: { type: 'object', properties: {} } });
    return 'answered';
  },
);
const handler = createStreamableHttpHandler(() => server, {
  maxSessions: sessions * 3 + 10,
  sessionIdleMs: idleMs,
});
const running = await listen(handler, { port: 0 });
const host = `127.0.0.1:${String(running.port)}`;
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });

/** POSTs `body`; resolves with status, session id and the body text, or hangs up once `until` holds. */
function post(body, { session, until, method = 'POST' } = {}) {
  return new Promise((resolve, reject) => {
    const headers = { host, accept: 'application/json, text/event-stream' };
    if (method === 'POST') headers['content-type'] = 'application/json';
    if (session !== undefined) {
      headers['mcp-session-id'] = session;
      headers['mcp-protocol-version'] = '2025-11-25';
    }
    if (method === 'GET') headers['accept'] = 'text/event-stream';
    // Hang-ups use a connection of their own (destroyed), answered requests the pool.
    const req = request(
      {
        host: '127.0.0.1',
        port: running.port,
        path: '/mcp',
        method,
        headers,
        agent: until === undefined ? agent : false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
          if (until?.(text) === true) {
            req.destroy();
            resolve({ status: res.statusCode, text });
          }
        });
        res.on('end', () =>
          resolve({ status: res.statusCode, session: res.headers['mcp-session-id'], text }),
        );
        res.on('error', () => resolve({ status: res.statusCode, text }));
      },
    );
    req.on('error', (error) =>
      until === undefined ? reject(error) : resolve({ status: 0, text: '' }),
    );
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function openSession() {
  const init = await post({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: { elicitation: {} },
      clientInfo: { name: 'soak', version: '1.0.0' },
    },
  });
  if (init.status !== 200 || init.session === undefined)
    throw new Error(`initialize: ${String(init.status)} ${init.text}`);
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { session: init.session });
  return init.session;
}

const ways = {
  idle: async () => {
    await openSession();
  },
  elicit: async () => {
    const session = await openSession();
    await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask', arguments: {} } },
      { session, until: (text) => text.includes('elicitation/create') },
    );
  },
  stream: async () => {
    const session = await openSession();
    await post(undefined, { session, method: 'GET', until: (text) => text.includes('\n\n') });
  },
};

async function pool(count, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next++;
        await work();
      }
    }),
  );
}

const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
function heap() {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
}

// Warm up (JIT, the pool's sockets), then take the baseline.
await pool(200, ways.idle);
await new Promise((resolve) => setTimeout(resolve, idleMs + 1500));
await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, {}); // any request runs the sweep
const baseline = { sessions: handler.sessionCount, heap: heap() };
console.log(`baseline: ${String(baseline.sessions)} sessions, heap ${mib(baseline.heap)}`);

let failed = false;
for (const [name, way] of Object.entries(ways)) {
  const started = Date.now();
  await pool(sessions, way);
  const peak = { sessions: handler.sessionCount, heap: heap() };
  console.log(
    `${name}: ${String(sessions)} sessions abandoned in ${String(Date.now() - started)} ms; ` +
      `${String(peak.sessions)} live, heap ${mib(peak.heap)}`,
  );
  await new Promise((resolve) => setTimeout(resolve, idleMs + 1500));
  await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, {});
  await new Promise((resolve) => setTimeout(resolve, 200)); // closes run after the sweep
  const after = { sessions: handler.sessionCount, heap: heap() };
  const ok = after.sessions <= baseline.sessions && after.heap - baseline.heap < 10 * 1024 * 1024;
  failed ||= !ok;
  console.log(
    `${name}: after the expiry ${String(after.sessions)} live, heap ${mib(after.heap)} ` +
      `(${after.heap >= baseline.heap ? '+' : ''}${mib(after.heap - baseline.heap)}) ${ok ? 'ok' : 'NOT BACK TO BASELINE'}`,
  );
}
agent.destroy();
await running.close();
process.exit(failed ? 1 : 0);
