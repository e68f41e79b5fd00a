// DPoP proofs across processes that serve as one (RFC 9449 section 11.1), with real Redis: two
// handlers, each with its own verifier, sharing one replay store in Redis. A proof taken by one
// is refused by the other; a Redis that cannot answer refuses the proof with 503 rather than
// taking a possible replay. Needs MCPKIT_TEST_REDIS_URL.
import { randomUUID } from 'node:crypto';
import process from 'node:process';
import type { JWK, KeyObject } from 'jose';
import { SignJWT, base64url, calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DpopReplayStore } from '../../src/auth/index.js';
import { createJwtVerifier } from '../../src/auth/index.js';
import type { RedisConnection } from '../../src/stores/redis/index.js';
import { connectRedis, createRedisDpopReplayStore } from '../../src/stores/redis/index.js';
import { McpServer } from '../../src/server/index.js';
import { startServe } from '../helpers/balancer.js';
import type { AuthorizationServer } from '../helpers/oidc.js';
import { CLIENT_ID, startAuthorizationServer } from '../helpers/oidc.js';
import type { StallProxy } from '../helpers/stall-proxy.js';
import { startStallProxy } from '../helpers/stall-proxy.js';
import type { Face } from './http-server-harness.js';
import { initializeBody, modernRequest, startFace } from './http-server-harness.js';

const SHARED_URL = process.env['MCPKIT_TEST_REDIS_URL'];
if (SHARED_URL === undefined) {
  console.log('skipping the shared DPoP replay tests: MCPKIT_TEST_REDIS_URL is not set');
}
const RESOURCE = 'https://mcp.example.com/mcp';

let as: AuthorizationServer;
let key: { privateKey: KeyObject | CryptoKey; jwk: JWK; jkt: string };
beforeAll(async () => {
  as = await startAuthorizationServer(['mcp']);
  const pair = await generateKeyPair('ES256');
  const jwk = await exportJWK(pair.publicKey);
  key = { privateKey: pair.privateKey, jwk, jkt: await calculateJwkThumbprint(jwk) };
});
afterAll(() => as.close());

const faces: Face[] = [];
const clients: RedisConnection[] = [];
const proxies: StallProxy[] = [];
afterEach(async () => {
  for (const proxy of proxies) proxy.resume();
  await Promise.all(faces.splice(0).map((f) => f.close()));
  await Promise.all(clients.splice(0).map((c) => c.quit().catch(() => undefined)));
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

function boundToken(): Promise<string> {
  return new SignJWT({ client_id: CLIENT_ID, scope: 'mcp', cnf: { jkt: key.jkt } })
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: as.kid })
    .setIssuer(as.issuer)
    .setAudience(RESOURCE)
    .setSubject(CLIENT_ID)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(as.privateKey);
}

async function proof(token: string): Promise<string> {
  const ath = base64url.encode(
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token))),
  );
  return new SignJWT({ htm: 'POST', htu: RESOURCE, ath, jti: randomUUID() })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk })
    .setIssuedAt()
    .sign(key.privateKey);
}

/** A process-like handler with its own verifier, remembering proofs in `replayStore`. */
async function processWith(replayStore: DpopReplayStore): Promise<Face> {
  const server = new McpServer({ name: 'dpop', version: '1.0.0' }, { onError: () => {} });
  server.tool({ name: 'whoami' }, (_args, ctx) => ctx.auth?.clientId ?? 'nobody');
  const face = await startFace('node', server, {
    auth: {
      resource: RESOURCE,
      authorizationServers: [as.issuer],
      dpop: {},
      verify: createJwtVerifier({ issuer: as.issuer, audience: RESOURCE, dpop: { replayStore } }),
    },
    onError: () => {},
  });
  faces.push(face);
  return face;
}

function call(face: Face, token: string, dpop: string): Promise<Response> {
  const init = modernRequest('tools/call', { name: 'whoami', arguments: {} });
  return face.request({
    ...init,
    headers: { ...init.headers, authorization: `DPoP ${token}`, dpop },
  });
}

const prefixOf = (name: string): string =>
  `mcpkit-test-dpop:${name}:${String(process.pid)}:${String(Date.now())}`;

describe.skipIf(SHARED_URL === undefined)('a DPoP replay store shared through Redis', () => {
  it('a proof taken by one process is refused by the other', async () => {
    const client = await connectRedis(SHARED_URL ?? '');
    clients.push(client);
    const prefix = prefixOf('shared');
    const one = await processWith(createRedisDpopReplayStore({ client, prefix }));
    const two = await processWith(createRedisDpopReplayStore({ client, prefix }));
    const token = await boundToken();
    const first = await proof(token);
    expect((await call(one, token, first)).status).toBe(200);
    for (const face of [two, one]) {
      const replayed = await call(face, token, first);
      expect(replayed.status).toBe(401);
      expect(replayed.headers.get('www-authenticate')).toContain('error="invalid_dpop_proof"');
    }
    // A fresh proof passes on either.
    expect((await call(two, token, await proof(token))).status).toBe(200);
    // The key expires when the proof can no longer pass: 60 s + 5 s of skew at most.
    const keys = client as unknown as {
      scanIterator(o: { MATCH: string }): AsyncIterable<string[]>;
      pTTL(k: string): Promise<number>;
    };
    const found: string[] = [];
    for await (const batch of keys.scanIterator({ MATCH: `${prefix}:*` })) found.push(...batch);
    expect(found).toHaveLength(2);
    for (const name of found) {
      const ttl = await keys.pTTL(name);
      expect(ttl).toBeGreaterThan(55_000);
      expect(ttl).toBeLessThanOrEqual(66_000);
    }
  });

  it('a Redis that does not answer: the proof is refused with 503, not taken', async () => {
    const proxy = await startStallProxy(SHARED_URL ?? '');
    proxies.push(proxy);
    const client = await connectRedis(proxy.url, { commandTimeoutMs: 300 });
    clients.push(client);
    const one = await processWith(createRedisDpopReplayStore({ client, prefix: prefixOf('down') }));
    const token = await boundToken();
    proxy.stall();
    const refused = await call(one, token, await proof(token));
    expect(refused.status).toBe(503);
    proxy.resume();
    expect((await call(one, token, await proof(token))).status).toBe(200);
  });

  it('mcpkit serve --redis --auth-dpop: a proof taken by one process is refused by the other', async () => {
    const args = [
      'everything',
      '--redis',
      SHARED_URL ?? '',
      '--redis-prefix',
      prefixOf('cli').replace(/[^A-Za-z0-9_.:-]/g, '-'),
      '--auth-issuer',
      as.issuer,
      '--auth-dpop',
      '--public-url',
      RESOURCE,
    ];
    const env = { MCPKIT_STATE_SECRET: 'a-state-secret-of-at-least-32-characters!' };
    const [one, two] = await Promise.all([startServe(args, env), startServe(args, env)]);
    try {
      const token = await boundToken();
      const post = (url: string, dpop: string): Promise<Response> =>
        fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `DPoP ${token}`,
            dpop,
          },
          body: JSON.stringify(initializeBody()),
        });
      const first = await proof(token);
      expect((await post(one.url, first)).status).toBe(200);
      const replayed = await post(two.url, first);
      expect(replayed.status).toBe(401);
      expect(replayed.headers.get('www-authenticate')).toContain('error="invalid_dpop_proof"');
      expect((await post(two.url, await proof(token))).status).toBe(200);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});
