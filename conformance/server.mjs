// Serves the conformance fixture over mcpkit's Streamable HTTP on 127.0.0.1 and prints the
// endpoint URL as its first line of output. Two faces of the same handler:
//   node conformance/server.mjs [--face node|fetch] [--port N] [--redis URL --state-secret S]
// `node` (default) uses mcpkit's node:http face (`listen`); `fetch` serves `createFetchHandler`
// through the small node:http → Request adapter below, as a Workers/Bun/Deno host would.
// With --redis (and the --state-secret every process shares; --redis-prefix for the keys), like
// `mcpkit serve`, any number of these processes behind a round-robin balancer act as one
// server: sessions, event streams and tasks in Redis, requestState sealed with one secret.
/* eslint-disable no-console */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { createFetchHandler } from 'mcpkit/transports/http';
import { listen } from 'mcpkit/transports/http/node';
import { createConformanceServer } from './fixture.mjs';

const { values } = parseArgs({
  options: {
    face: { type: 'string', default: 'node' },
    port: { type: 'string', default: '0' },
    redis: { type: 'string' },
    'redis-prefix': { type: 'string', default: 'mcpkit-conformance' },
    'state-secret': { type: 'string' },
  },
});
const port = Number(values.port);
const shared = await sharedState(values);
const server = await createConformanceServer(shared.server, shared.fixture);
const onError = (error, where) => console.error(`transport error (${where}):`, error);

let running;
if (values.face === 'node') {
  running = await listen(() => server, { port, onError, ...shared.http });
} else if (values.face === 'fetch') {
  running = await listenFetch(
    createFetchHandler(() => server, { onError, ...shared.http }),
    port,
  );
} else {
  console.error(`unknown face ${String(values.face)}: use node or fetch`);
  process.exit(2);
}
console.log(running.url);

const stop = () => {
  running.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

/**
 * The McpServer's and the handler's options for --redis / --state-secret (as `mcpkit serve`
 * takes them); none without. --redis without a secret is refused: sealed state must be shared.
 */
async function sharedState(flags) {
  const secret = flags['state-secret'] ?? process.env.MCPKIT_STATE_SECRET;
  const url = flags.redis ?? process.env.MCPKIT_REDIS_URL;
  if (url === undefined || url === '') {
    return { server: secret ? { stateSecret: secret } : {}, http: {}, fixture: {} };
  }
  if (!secret) {
    console.error('--redis needs --state-secret: every process must seal requestState alike');
    process.exit(2);
  }
  const { createClient } = await import('redis');
  const redis = await import('mcpkit/stores/redis');
  const client = createClient({ url });
  client.on('error', (error) => console.error('redis:', error.message));
  await client.connect();
  const prefix = flags['redis-prefix'];
  return {
    server: {
      stateSecret: secret,
      // List changes and resource updates made on one process reach the clients of all.
      ...(redis.createRedisChangeBus === undefined
        ? {}
        : { changeBus: redis.createRedisChangeBus({ client, prefix }) }),
    },
    http: {
      sessionStore: redis.createRedisSessionStore({ client, prefix: `${prefix}:sessions` }),
      eventStore: redis.createRedisEventStore({ client, prefix: `${prefix}:events` }),
      health: { check: async () => ({ redis: String(await client.ping()) }) },
    },
    fixture: {
      shareToggles: await togglesThrough(client, `${prefix}:fixture-toggles`),
      taskStore: redis.createRedisTaskStore({ client, prefix: `${prefix}:tasks` }),
    },
  };
}

/**
 * The fixture's toggled tool and prompt set on every process: a toggle here is published on
 * `channel`, and each other process sets the same state, so that all list the same items.
 */
async function togglesThrough(client, channel) {
  const origin = randomUUID();
  const subscriber = client.duplicate();
  subscriber.on('error', () => undefined);
  await subscriber.connect();
  let setHere = () => undefined;
  await subscriber.subscribe(channel, (text) => {
    const { o, which, enabled } = JSON.parse(text);
    if (o !== origin) setHere(which, enabled);
  });
  return (set) => {
    setHere = set;
    return (which, enabled) => {
      set(which, enabled);
      client.publish(channel, JSON.stringify({ o: origin, which, enabled })).catch(() => undefined);
    };
  };
}

/** Serves a fetch handler on node:http at 127.0.0.1 (the adapter a fetch-runtime host provides). */
async function listenFetch(handle, wanted) {
  const http = createServer((req, res) => {
    serveFetch(handle, req, res).catch((error) => {
      console.error('fetch adapter:', error);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise((resolve) => http.listen(wanted, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${String(http.address().port)}/mcp`,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

async function serveFetch(handle, req, res) {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const withBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(new URL(req.url ?? '/', 'http://127.0.0.1'), {
    method: req.method,
    headers,
    signal: controller.signal,
    ...(withBody ? { body: Readable.toWeb(req), duplex: 'half' } : {}),
  });
  const response = await handle(request);
  res.writeHead(response.status, [...response.headers].flat());
  if (response.body === null) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  res.on('close', () => {
    reader.cancel().catch(() => undefined);
  });
  for (;;) {
    const { done, value } = await reader.read();
    if (done || res.destroyed) break;
    if (!res.write(value)) await new Promise((resolve) => res.once('drain', resolve));
  }
  res.end();
}
