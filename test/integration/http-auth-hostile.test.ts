// The resource server against a hostile or hung authorization server (issue #36, points 4 and
// 5): with an issuer that accepts and never answers, every authenticated request is answered
// 503 within the verifier's time limit (they used to hang for good) and /healthz says the
// verifier cannot reach its authorization server, then 200 again once it answers; metadata, a
// JWKS or an introspection answer of 64 MiB is refused at 1 MiB, the rest never read.
import type { ServerResponse } from 'node:http';
import type { JWK, KeyObject } from 'jose';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createIntrospectionVerifier, createJwtVerifier } from '../../src/auth/index.js';
import type { TokenVerifier } from '../../src/protocol/index.js';
import { McpServer } from '../../src/server/index.js';
import { listen } from '../../src/transports/http/server/node.js';
import type { Flood, Peer } from '../helpers/hostile-http.js';
import { floodBody, startHttpPeer, startSilentServer } from '../helpers/hostile-http.js';
import { modernRequest } from './http-server-harness.js';

const RESOURCE = 'https://mcp.example.com/mcp';
const HUGE = 64 * 1024 * 1024;

let privateKey: KeyObject | CryptoKey;
let publicJwk: JWK;
beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  privateKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
});

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

function tokenFor(issuer: string): Promise<string> {
  return new SignJWT({ scope: 'mcp', client_id: 'c' })
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: 'k1' })
    .setIssuer(issuer)
    .setAudience(RESOURCE)
    .setSubject('alice')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(privateKey);
}

/** What the issuer does: answer, hang (headers never sent), or flood one document. */
type Mode = 'ok' | 'hang' | 'huge-metadata' | 'huge-jwks' | 'huge-introspection';

/** A switchable authorization server: metadata, JWKS and introspection as `mode` says. */
async function issuer(initial: Mode, floods: Flood[] = []) {
  let mode = initial;
  const answer = (res: ServerResponse, body: unknown) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const peer: Peer = await startHttpPeer((path, res) => {
    if (mode === 'hang') return; // accepted, read, never answered
    if (path === '/.well-known/oauth-authorization-server') {
      if (mode === 'huge-metadata') floods.push(floodBody(res, HUGE));
      else {
        answer(res, {
          issuer: peer.url,
          jwks_uri: `${peer.url}/jwks`,
          introspection_endpoint: `${peer.url}/introspect`,
        });
      }
    } else if (path === '/jwks') {
      if (mode === 'huge-jwks') floods.push(floodBody(res, HUGE));
      else answer(res, { keys: [publicJwk] });
    } else if (path === '/introspect') {
      if (mode === 'huge-introspection') floods.push(floodBody(res, HUGE));
      else answer(res, { active: true, aud: RESOURCE, sub: 'alice', scope: 'mcp' });
    } else res.writeHead(404).end();
  });
  closing.push(() => peer.close());
  return {
    url: peer.url,
    set: (next: Mode) => {
      mode = next;
    },
  };
}

/** The guarded endpoint with `verify` and the health endpoint on; its base URL. */
async function guarded(verify: TokenVerifier, issuerUrl: string): Promise<string> {
  const server = new McpServer({ name: 'guarded', version: '1.0.0' }, { onError: () => {} });
  server.tool({ name: 'whoami' }, (_args, ctx) => ctx.auth?.subject ?? 'nobody');
  const running = await listen(() => server, {
    host: '127.0.0.1',
    port: 0,
    health: true,
    onError: () => {},
    auth: { resource: RESOURCE, authorizationServers: [issuerUrl], verify },
  });
  closing.push(() => running.close());
  return running.url.replace(/\/mcp$/, '');
}

/** A tools/call with `token`; never waits more than 5 s (the test then fails on the status). */
async function call(base: string, token: string): Promise<number> {
  const init = modernRequest('tools/call', { name: 'whoami', arguments: {} });
  const response = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      ...(init.headers as Record<string, string>),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify(init.body),
    signal: AbortSignal.timeout(5000),
  }).catch(() => undefined);
  await response?.text();
  return response?.status ?? 0;
}

async function health(base: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(5000) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('a JWT verifier whose issuer hangs', () => {
  it('answers every request 503 within its time limit, and /healthz says why', async () => {
    const silent = await startSilentServer();
    closing.push(() => silent.close());
    const verify = createJwtVerifier({ issuer: silent.url, audience: RESOURCE, timeoutMs: 300 });
    const base = await guarded(verify, silent.url);
    const token = await tokenFor(silent.url);
    const started = Date.now();
    const statuses = await Promise.all(Array.from({ length: 20 }, () => call(base, token)));
    expect(statuses).toEqual(Array(20).fill(503));
    expect(Date.now() - started).toBeLessThan(2500);
    const probe = await health(base);
    expect(probe.status).toBe(503);
    expect(probe.body).toMatchObject({ status: 'unavailable', auth: 'unreachable' });
    expect(probe.body['error']).toContain('did not answer within 300 ms');
  });

  it('recovers when the issuer answers again: /healthz back to 200, tokens admitted', async () => {
    const as = await issuer('hang');
    const verify = createJwtVerifier({ issuer: as.url, audience: RESOURCE, timeoutMs: 300 });
    const base = await guarded(verify, as.url);
    const token = await tokenFor(as.url);
    expect(await call(base, token)).toBe(503);
    expect((await health(base)).status).toBe(503);
    as.set('ok');
    // A probe of a failing verifier reports the last failure and tries again behind it.
    let probe = await health(base);
    for (let i = 0; i < 20 && probe.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      probe = await health(base);
    }
    expect(probe).toEqual({ status: 200, body: { status: 'ok', auth: 'ok' } });
    expect(await call(base, token)).toBe(200);
  });

  it.each<Mode>(['huge-metadata', 'huge-jwks'])(
    '%s of 64 MiB: 503, the rest never read',
    async (mode) => {
      const floods: Flood[] = [];
      const as = await issuer(mode, floods);
      const verify = createJwtVerifier({ issuer: as.url, audience: RESOURCE, timeoutMs: 5000 });
      const base = await guarded(verify, as.url);
      expect(await call(base, await tokenFor(as.url))).toBe(503);
      expect(floods).toHaveLength(1);
      expect(await floods[0]!.finished).toBe(false);
      expect(floods[0]!.written()).toBeLessThan(16 * 1024 * 1024);
      expect((await health(base)).body['error']).toContain('larger than 1 MiB');
    },
    20_000,
  );
});

describe('an introspection verifier whose authorization server hangs or floods', () => {
  const introspecting = (url: string) =>
    createIntrospectionVerifier({
      issuer: url,
      clientId: 'rs',
      clientSecret: 'secret',
      audience: RESOURCE,
      cacheMs: 0,
      timeoutMs: 300,
    });

  it('answers 503 within its time limit, /healthz says why, and recovers', async () => {
    const as = await issuer('hang');
    const base = await guarded(introspecting(as.url), as.url);
    const started = Date.now();
    const statuses = await Promise.all(Array.from({ length: 10 }, () => call(base, 'opaque')));
    expect(statuses).toEqual(Array(10).fill(503));
    expect(Date.now() - started).toBeLessThan(2500);
    const probe = await health(base);
    expect(probe.status).toBe(503);
    expect(probe.body).toMatchObject({ auth: 'unreachable' });
    as.set('ok');
    let recovered = await health(base);
    for (let i = 0; i < 20 && recovered.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      recovered = await health(base);
    }
    expect(recovered.status).toBe(200);
    expect(await call(base, 'opaque')).toBe(200);
  });

  it('an introspection answer of 64 MiB: 503, the rest never read', async () => {
    const floods: Flood[] = [];
    const as = await issuer('huge-introspection', floods);
    const base = await guarded(introspecting(as.url), as.url);
    expect(await call(base, 'opaque')).toBe(503);
    expect(floods).toHaveLength(1);
    expect(await floods[0]!.finished).toBe(false);
    expect(floods[0]!.written()).toBeLessThan(16 * 1024 * 1024);
  }, 20_000);
});
