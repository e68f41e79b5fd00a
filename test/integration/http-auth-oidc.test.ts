// createJwtVerifier (mcpkit/auth) against a real authorization server (oidc-provider, see
// test/helpers/oidc.ts): tokens it issues for this resource are admitted, and every token it
// would not accept for this resource is refused 401 invalid_token, on both HTTP faces. The keys
// are found through the issuer's metadata, as a deployed server finds them.
import { SignJWT, UnsecuredJWT, exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntrospectionVerifier, createJwtVerifier } from '../../src/auth/index.js';
import { McpServer } from '../../src/server/index.js';
import type { AuthorizationServer } from '../helpers/oidc.js';
import { CLIENT_ID, CLIENT_SECRET, startAuthorizationServer } from '../helpers/oidc.js';
import type { Face } from './http-server-harness.js';
import { FACES, modernRequest, startFace } from './http-server-harness.js';

const RESOURCE = 'https://mcp.example.com/mcp';

let as: AuthorizationServer;
beforeAll(async () => {
  as = await startAuthorizationServer(['mcp', 'files:write']);
});
afterAll(async () => {
  await as.close();
});

function guardedServer(): McpServer {
  const server = new McpServer({ name: 'guarded', version: '1.0.0' }, { onError: () => {} });
  server.tool({ name: 'whoami' }, (_args, ctx) =>
    JSON.stringify({
      subject: ctx.auth?.subject,
      client: ctx.auth?.clientId,
      scopes: ctx.auth?.scopes,
    }),
  );
  server.tool({ name: 'write', scopes: ['files:write'] }, () => 'written');
  return server;
}

/** A token signed with the provider's own key, with claims the provider would never issue. */
function forge(
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ client_id: CLIENT_ID, scope: 'mcp', ...claims })
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: as.kid, ...header })
    .setIssuer(typeof claims['iss'] === 'string' ? claims['iss'] : as.issuer)
    .setAudience(typeof claims['aud'] === 'string' ? claims['aud'] : RESOURCE)
    .setSubject(CLIENT_ID)
    .setIssuedAt(now)
    .setExpirationTime(typeof claims['exp'] === 'number' ? claims['exp'] : now + 300)
    .sign(as.privateKey);
}

for (const kind of FACES) {
  describe(`JWT access tokens from a real authorization server (${kind} face)`, () => {
    let face: Face;
    beforeAll(async () => {
      const verify = createJwtVerifier({
        issuer: as.issuer,
        audience: RESOURCE,
        jwksCooldownMs: 0,
      });
      face = await startFace(kind, guardedServer(), {
        auth: {
          resource: RESOURCE,
          authorizationServers: [as.issuer],
          requiredScopes: ['mcp'],
          verify,
        },
      });
    });
    afterAll(() => face.close());

    const whoami = (token: string) =>
      face.request({
        ...modernRequest('tools/call', { name: 'whoami', arguments: {} }),
        headers: {
          ...modernRequest('tools/call', { name: 'whoami', arguments: {} }).headers,
          authorization: `Bearer ${token}`,
        },
      });

    async function refused(token: string): Promise<string> {
      const response = await whoami(token);
      expect(response.status).toBe(401);
      const challenge = response.headers.get('www-authenticate') ?? '';
      expect(challenge).toContain('error="invalid_token"');
      return /error_description="([^"]*)"/.exec(challenge)?.[1] ?? '';
    }

    it('admits a token the provider issued for this resource, with its principal', async () => {
      const response = await whoami(await as.token(RESOURCE, 'mcp'));
      expect(response.status).toBe(200);
      const text = (await response.json()).result.content[0].text as string;
      expect(JSON.parse(text)).toEqual({ subject: CLIENT_ID, client: CLIENT_ID, scopes: ['mcp'] });
    });

    it('refuses a token the provider issued for another resource (no token passes through)', async () => {
      const other = await as.token('https://other.example.com/mcp', 'mcp');
      expect(await refused(other)).toBe('the access token was issued for another resource');
    });

    it('steps up: a token without the tool scope gets 403 naming it', async () => {
      const headers = modernRequest('tools/call', { name: 'write', arguments: {} });
      const token = await as.token(RESOURCE, 'mcp');
      const response = await face.request({
        ...headers,
        headers: { ...headers.headers, authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(403);
      expect(response.headers.get('www-authenticate')).toContain('scope="mcp files:write"');
      const writer = await as.token(RESOURCE, 'mcp files:write');
      const allowed = await face.request({
        ...headers,
        headers: { ...headers.headers, authorization: `Bearer ${writer}` },
      });
      expect(allowed.status).toBe(200);
    });

    it('refuses expired, not-yet-valid and foreign-issuer tokens', async () => {
      const now = Math.floor(Date.now() / 1000);
      expect(await refused(await forge({ exp: now - 3600 }))).toBe('the access token expired');
      expect(await refused(await forge({ nbf: now + 3600 }))).toBe(
        'the access token is not valid yet',
      );
      expect(await refused(await forge({ iss: 'https://evil.example.com' }))).toBe(
        'the access token comes from another issuer',
      );
    });

    it('refuses alg none, HS256 signed with the public key, and an unknown key', async () => {
      const none = new UnsecuredJWT({ scope: 'mcp' })
        .setIssuer(as.issuer)
        .setAudience(RESOURCE)
        .setExpirationTime('5m')
        .encode();
      expect(await refused(none)).toBe('the access token is not valid');
      const secret = new TextEncoder().encode(JSON.stringify(as.publicJwk));
      const hs = await new SignJWT({ scope: 'mcp' })
        .setProtectedHeader({ alg: 'HS256', kid: as.kid })
        .setIssuer(as.issuer)
        .setAudience(RESOURCE)
        .setExpirationTime('5m')
        .sign(secret);
      expect(await refused(hs)).toBe('the access token is not valid');
      const stranger = await generateKeyPair('ES256');
      const unknown = await new SignJWT({ scope: 'mcp' })
        .setProtectedHeader({ alg: 'ES256', kid: 'not-a-provider-key' })
        .setIssuer(as.issuer)
        .setAudience(RESOURCE)
        .setExpirationTime('5m')
        .sign(stranger.privateKey);
      expect(await refused(unknown)).toBe('the access token is signed with an unknown key');
      expect(await exportJWK(stranger.publicKey)).toBeDefined();
    });

    it('refuses a malformed token and a token for the wrong type', async () => {
      expect(await refused('not.a.jwt')).toBe('the access token is not valid');
      expect(await refused(await forge({}, { typ: 'dpop+jwt' }))).toBe(
        'the token is not an access token',
      );
    });
  });
}

describe('opaque access tokens through introspection (RFC 7662)', () => {
  const OPAQUE = 'https://opaque.example.com/mcp';
  let face: Face;
  beforeAll(async () => {
    const verify = createIntrospectionVerifier({
      issuer: as.issuer,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      audience: OPAQUE,
      cacheMs: 0,
    });
    face = await startFace('node', guardedServer(), {
      auth: { resource: OPAQUE, authorizationServers: [as.issuer], verify },
    });
  });
  afterAll(() => face.close());

  const whoami = (token: string) => {
    const init = modernRequest('tools/call', { name: 'whoami', arguments: {} });
    return face.request({
      ...init,
      headers: { ...init.headers, authorization: `Bearer ${token}` },
    });
  };

  it('admits an active token for this resource, and refuses it once revoked', async () => {
    const token = await as.token(OPAQUE, 'mcp');
    expect(token.split('.')).toHaveLength(1); // opaque, not a JWT
    const admitted = await whoami(token);
    expect(admitted.status).toBe(200);
    expect(JSON.parse((await admitted.json()).result.content[0].text)).toMatchObject({
      client: CLIENT_ID,
      scopes: ['mcp'],
    });
    await as.revoke(token);
    const revoked = await whoami(token);
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toContain(
      'error_description="the access token is not active (expired or revoked)"',
    );
  });

  it('refuses an active token issued for another resource, and an unknown one', async () => {
    const other = await as.token('https://opaque.elsewhere.example/mcp', 'mcp');
    const response = await whoami(other);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('issued for another resource');
    expect((await whoami('made-up-token')).status).toBe(401);
  });
});
