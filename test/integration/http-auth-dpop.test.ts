// DPoP on the resource server (RFC 9449): DPoP-bound access tokens (`cnf.jkt`) issued by the
// authorization server's key (test/helpers/oidc.ts), presented with proofs made here by the
// client's key. Every check refuses on its own: missing proof, wrong method, URL, token or key,
// a replayed or stale proof, a bound token sent as a bearer token; and the nonce flow.
import { randomUUID } from 'node:crypto';
import type { JWK, KeyObject } from 'jose';
import { SignJWT, base64url, calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJwtVerifier } from '../../src/auth/index.js';
import { McpServer } from '../../src/server/index.js';
import type { AuthorizationServer } from '../helpers/oidc.js';
import { CLIENT_ID, startAuthorizationServer } from '../helpers/oidc.js';
import type { Face } from './http-server-harness.js';
import { FACES, modernRequest, startFace } from './http-server-harness.js';

const RESOURCE = 'https://mcp.example.com/mcp';

let as: AuthorizationServer;
let client: { privateKey: KeyObject | CryptoKey; jwk: JWK; jkt: string };
let stranger: { privateKey: KeyObject | CryptoKey; jwk: JWK };

beforeAll(async () => {
  as = await startAuthorizationServer(['mcp']);
  const pair = await generateKeyPair('ES256');
  const jwk = await exportJWK(pair.publicKey);
  client = { privateKey: pair.privateKey, jwk, jkt: await calculateJwkThumbprint(jwk) };
  const other = await generateKeyPair('ES256');
  stranger = { privateKey: other.privateKey, jwk: await exportJWK(other.publicKey) };
});
afterAll(() => as.close());

/** An access token the authorization server's key signed, bound to `jkt` when given. */
function accessToken(jkt: string | undefined): Promise<string> {
  return new SignJWT({
    client_id: CLIENT_ID,
    scope: 'mcp',
    ...(jkt === undefined ? {} : { cnf: { jkt } }),
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: as.kid })
    .setIssuer(as.issuer)
    .setAudience(RESOURCE)
    .setSubject(CLIENT_ID)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(as.privateKey);
}

interface ProofInit {
  token: string;
  htm?: string;
  htu?: string;
  iat?: number;
  jti?: string;
  nonce?: string;
  key?: { privateKey: KeyObject | CryptoKey; jwk: JWK };
}

async function proof(init: ProofInit): Promise<string> {
  const key = init.key ?? client;
  const ath = base64url.encode(
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(init.token))),
  );
  return new SignJWT({
    htm: init.htm ?? 'POST',
    htu: init.htu ?? RESOURCE,
    ath,
    jti: init.jti ?? randomUUID(),
    ...(init.nonce === undefined ? {} : { nonce: init.nonce }),
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk })
    .setIssuedAt(init.iat ?? Math.floor(Date.now() / 1000))
    .sign(key.privateKey);
}

function guardedServer(): McpServer {
  const server = new McpServer({ name: 'dpop', version: '1.0.0' }, { onError: () => {} });
  server.tool({ name: 'whoami' }, (_args, ctx) => ctx.auth?.clientId ?? 'nobody');
  return server;
}

for (const kind of FACES) {
  describe(`DPoP-bound access tokens (${kind} face)`, () => {
    let face: Face;
    let nonced: Face;
    beforeAll(async () => {
      const base = { resource: RESOURCE, authorizationServers: [as.issuer] };
      face = await startFace(kind, guardedServer(), {
        auth: {
          ...base,
          dpop: {},
          verify: createJwtVerifier({ issuer: as.issuer, audience: RESOURCE, dpop: {} }),
        },
      });
      nonced = await startFace(kind, guardedServer(), {
        auth: {
          ...base,
          dpop: { required: true },
          verify: createJwtVerifier({
            issuer: as.issuer,
            audience: RESOURCE,
            dpop: { required: true, nonce: true },
          }),
        },
      });
    });
    afterAll(async () => {
      await face.close();
      await nonced.close();
    });

    const call = (target: Face, headers: Record<string, string>) => {
      const init = modernRequest('tools/call', { name: 'whoami', arguments: {} });
      return target.request({ ...init, headers: { ...init.headers, ...headers } });
    };

    function refusedWith(response: Response, error: string): string {
      expect(response.status).toBe(401);
      const challenge = response.headers.get('www-authenticate') ?? '';
      expect(challenge).toContain(`error="${error}"`);
      return challenge;
    }

    it('admits a bound token with a proof made by its key for this request', async () => {
      const token = await accessToken(client.jkt);
      const response = await call(face, {
        authorization: `DPoP ${token}`,
        dpop: await proof({ token }),
      });
      expect(response.status).toBe(200);
      expect((await response.json()).result.content[0].text).toBe(CLIENT_ID);
    });

    it('advertises DPoP in the metadata', async () => {
      const response = await face.request({
        method: 'GET',
        path: '/.well-known/oauth-protected-resource/mcp',
      });
      expect(await response.json()).toMatchObject({
        dpop_signing_alg_values_supported: expect.arrayContaining(['ES256']),
        dpop_bound_access_tokens_required: false,
      });
    });

    it('refuses a bound token sent as a bearer token, and a proof that is missing', async () => {
      const token = await accessToken(client.jkt);
      refusedWith(await call(face, { authorization: `Bearer ${token}` }), 'invalid_token');
      const challenge = refusedWith(
        await call(face, { authorization: `DPoP ${token}` }),
        'invalid_dpop_proof',
      );
      expect(challenge).toMatch(/^DPoP /);
      expect(challenge).toContain('algs="');
    });

    it('refuses a proof for another method, URL, token or key', async () => {
      const token = await accessToken(client.jkt);
      const other = await accessToken(client.jkt);
      const cases: [ProofInit, string][] = [
        [{ token, htm: 'GET' }, 'another method'],
        [{ token, htu: 'https://mcp.example.com/other' }, 'another URL'],
        [{ token: other }, 'another access token'],
        [{ token, key: stranger }, 'another key'],
      ];
      for (const [init, why] of cases) {
        const challenge = refusedWith(
          await call(face, { authorization: `DPoP ${token}`, dpop: await proof(init) }),
          'invalid_dpop_proof',
        );
        expect(challenge, why).toContain(why);
      }
    });

    it('refuses a replayed proof and a stale one', async () => {
      const token = await accessToken(client.jkt);
      const once = await proof({ token });
      expect((await call(face, { authorization: `DPoP ${token}`, dpop: once })).status).toBe(200);
      const replay = refusedWith(
        await call(face, { authorization: `DPoP ${token}`, dpop: once }),
        'invalid_dpop_proof',
      );
      expect(replay).toContain('used before');
      const stale = await proof({ token, iat: Math.floor(Date.now() / 1000) - 600 });
      refusedWith(
        await call(face, { authorization: `DPoP ${token}`, dpop: stale }),
        'invalid_dpop_proof',
      );
    });

    it('with nonces: answers use_dpop_nonce with a DPoP-Nonce, then admits the proof carrying it', async () => {
      const token = await accessToken(client.jkt);
      const first = await call(nonced, {
        authorization: `DPoP ${token}`,
        dpop: await proof({ token }),
      });
      refusedWith(first, 'use_dpop_nonce');
      const nonce = first.headers.get('dpop-nonce') ?? '';
      expect(nonce).not.toBe('');
      const second = await call(nonced, {
        authorization: `DPoP ${token}`,
        dpop: await proof({ token, nonce }),
      });
      expect(second.status).toBe(200);
    });

    it('when DPoP is required, refuses an unbound bearer token', async () => {
      const token = await accessToken(undefined);
      const challenge = refusedWith(
        await call(nonced, { authorization: `Bearer ${token}` }),
        'invalid_token',
      );
      expect(challenge).toMatch(/^DPoP /);
    });
  });
}
