// mcpkit over node:http (its node face: no Request/Response objects). One shared McpServer.
// BENCH_SESSIONS=0 selects legacy stateless mode; otherwise legacy clients get sessions and
// 2026-07-28 requests are served statelessly, as always.
import process from 'node:process';
import { McpServer } from '../../dist/esm/src/server/index.js';
import { listen } from '../../dist/esm/src/transports/http/node.js';
import {
  ADD_SCHEMA,
  ECHO_SCHEMA,
  PORT,
  WIDE_SCHEMA,
  answer,
  probeMiddleware,
  ready,
  wideToolNames,
} from './common.mjs';

const server = new McpServer({ name: 'bench-mcpkit', version: '1.0.0' });
server.tool({ name: 'echo', inputSchema: ECHO_SCHEMA }, answer.echo);
server.tool({ name: 'add', inputSchema: ADD_SCHEMA }, answer.add);
for (const name of wideToolNames()) server.tool({ name, inputSchema: WIDE_SCHEMA }, answer.wide);
probeMiddleware(server);

const running = await listen(() => server, {
  port: PORT,
  sessions: process.env.BENCH_SESSIONS !== '0',
  // Room for the idle-session measurement (10,000 sessions plus warm-up).
  maxSessions: 50_000,
  ...(await benchAuth()),
  ...(await benchRedis()),
});

/**
 * BENCH_REDIS_URL: sessions and resumable streams kept in Redis (mcpkit/stores/redis), as every process
 * of a scaled-out deployment keeps them (issue #22's bench rows), under a prefix of this run.
 */
async function benchRedis() {
  const url = process.env.BENCH_REDIS_URL;
  if (url === undefined) return {};
  const { connectRedis, createRedisEventStore, createRedisSessionStore } =
    await import('../../dist/esm/src/stores/redis/index.js');
  const client = await connectRedis(url);
  // BENCH_REDIS_PREFIX: processes that share sessions (the balanced rows) share a prefix.
  const prefix = process.env.BENCH_REDIS_PREFIX ?? `mcpkit-bench:${String(process.pid)}`;
  return {
    sessionStore: createRedisSessionStore({ client, prefix: `${prefix}:sessions` }),
    eventStore: createRedisEventStore({ client, prefix: `${prefix}:events` }),
  };
}

/**
 * BENCH_AUTH_JWK (a public JWK, set by run.mjs with the token it sends): the resource-server gate
 * with JWT verification on, its key set cached after the first fetch (issue #19's bench row).
 */
async function benchAuth() {
  const jwk = process.env.BENCH_AUTH_JWK;
  if (jwk === undefined) return {};
  const { createJwtVerifier } = await import('../../dist/esm/src/auth/index.js');
  const keys = JSON.stringify({ keys: [JSON.parse(jwk)] });
  const verify = createJwtVerifier({
    issuer: 'https://issuer.bench.example',
    audience: 'https://mcp.bench.example/mcp',
    jwksUri: 'https://issuer.bench.example/jwks',
    fetch: () =>
      Promise.resolve(new Response(keys, { headers: { 'content-type': 'application/json' } })),
  });
  return {
    auth: {
      resource: 'https://mcp.bench.example/mcp',
      authorizationServers: ['https://issuer.bench.example'],
      verify,
    },
  };
}
// Counted under valgrind on a loaded machine, a pause of some seconds (a full collection) let
// node's 5 s keep-alive timer reset connections whose next request was already sent.
running.server.keepAliveTimeout = 600_000;
ready(running.port);
