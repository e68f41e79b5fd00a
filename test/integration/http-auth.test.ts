// The Streamable HTTP handler as an OAuth resource server (option `auth`), on both faces and in
// both eras, with a stand-in verifier (the JWT verifier against a real authorization server is
// tested in test/integration/http-auth-oidc.test.ts): protected resource metadata, the 401 and
// 403 challenges, tokens in the query string, per-tool scopes as a 403 step-up, ctx.auth, and
// legacy sessions bound to the principal that opened them.
import { afterEach, describe, expect, it } from 'vitest';
import { AuthError } from '../../src/protocol/auth.js';
import type { AuthInfo } from '../../src/protocol/auth.js';
import { McpServer } from '../../src/server/index.js';
import type { HttpAuthOptions } from '../../src/transports/http/server/options.js';
import type { Face } from './http-server-harness.js';
import {
  FACES,
  call,
  initializeBody,
  modernRequest,
  sessionRequest,
  startFace,
} from './http-server-harness.js';

const RESOURCE = 'https://mcp.example.com/mcp';
const METADATA = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';

function principal(subject: string, scopes: string[]): AuthInfo {
  return { subject, clientId: 'app', scopes, expiresAt: undefined, claims: { sub: subject } };
}

/** Tokens by value: the stand-in for a JWT or introspection verifier. */
const TOKENS: Record<string, AuthInfo> = {
  'token-a': principal('alice', ['mcp']),
  'token-b': principal('bob', ['mcp']),
  'token-writer': principal('alice', ['mcp', 'files:write']),
  'token-noscope': principal('carol', []),
};

const AUTH: HttpAuthOptions = {
  resource: RESOURCE,
  authorizationServers: ['https://auth.example.com'],
  requiredScopes: ['mcp'],
  verify: (token) => {
    const found = TOKENS[token];
    return found === undefined
      ? Promise.reject(new AuthError('invalid_token', 'the access token is not valid'))
      : Promise.resolve(found);
  },
};

function authServer(): McpServer {
  const server = new McpServer({ name: 'guarded', version: '1.0.0' }, { onError: () => {} });
  server.tool({ name: 'whoami' }, (_args, ctx) => ctx.auth?.subject ?? 'nobody');
  server.tool({ name: 'write', scopes: ['files:write'] }, () => 'written');
  return server;
}

const faces: Face[] = [];
afterEach(async () => {
  await Promise.all(faces.splice(0).map((face) => face.close()));
});

async function start(kind: 'node' | 'fetch'): Promise<Face> {
  const face = await startFace(kind, authServer(), { auth: AUTH });
  faces.push(face);
  return face;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A 2026-07-28 tools/call of `tool` with `token`. */
function callAs(face: Face, tool: string, token: string): Promise<Response> {
  return face.request(
    withHeaders(modernRequest('tools/call', { name: tool, arguments: {} }), bearer(token)),
  );
}

function withHeaders(init: ReturnType<typeof modernRequest>, headers: Record<string, string>) {
  return { ...init, headers: { ...init.headers, ...headers } };
}

for (const kind of FACES) {
  describe(`auth gate (${kind} face)`, () => {
    it('serves the protected resource metadata at both well-known paths, to any origin', async () => {
      const face = await start(kind);
      for (const path of [
        '/.well-known/oauth-protected-resource/mcp',
        '/.well-known/oauth-protected-resource',
      ]) {
        const response = await face.request({
          method: 'GET',
          path,
          headers: { origin: 'https://elsewhere.example' },
        });
        expect(response.status).toBe(200);
        expect(response.headers.get('access-control-allow-origin')).toBe('*');
        expect(await response.json()).toEqual({
          resource: RESOURCE,
          authorization_servers: ['https://auth.example.com'],
          bearer_methods_supported: ['header'],
          scopes_supported: ['mcp'],
        });
      }
    });

    it('answers a request without a token 401 with the metadata URL and the scopes', async () => {
      const face = await start(kind);
      const response = await face.request(
        modernRequest('tools/call', { name: 'whoami', arguments: {} }),
      );
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(
        `Bearer scope="mcp", resource_metadata="${METADATA}"`,
      );
      expect((await response.json()).error.message).toBe(
        'unauthorized: this server needs an access token',
      );
    });

    it('answers an invalid token 401 invalid_token, and a token in the query string 401 invalid_request', async () => {
      const face = await start(kind);
      const bad = await callAs(face, 'whoami', 'forged');
      expect(bad.status).toBe(401);
      expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
      expect(await bad.text()).not.toContain('forged');
      const query = await face.request({
        ...withHeaders(
          modernRequest('tools/call', { name: 'whoami', arguments: {} }),
          bearer('token-a'),
        ),
        path: '/mcp?access_token=token-a',
      });
      expect(query.status).toBe(401);
      expect(query.headers.get('www-authenticate')).toContain('error="invalid_request"');
    });

    it('admits a valid token (ctx.auth), and refuses one without the required scope with 403', async () => {
      const face = await start(kind);
      const ok = await callAs(face, 'whoami', 'token-a');
      expect(ok.status).toBe(200);
      expect((await ok.json()).result.content[0].text).toBe('alice');
      const weak = await callAs(face, 'whoami', 'token-noscope');
      expect(weak.status).toBe(403);
      expect(weak.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
      expect(weak.headers.get('www-authenticate')).toContain('scope="mcp"');
    });

    it('answers a tool that needs a scope the token lacks with the 403 step-up (2026-07-28)', async () => {
      const face = await start(kind);
      const denied = await callAs(face, 'write', 'token-a');
      expect(denied.status).toBe(403);
      expect(denied.headers.get('www-authenticate')).toBe(
        `Bearer error="insufficient_scope", error_description="the token lacks the scope files:write", scope="mcp files:write", resource_metadata="${METADATA}"`,
      );
      expect((await denied.json()).error.code).toBe(-32003);
      const allowed = await callAs(face, 'write', 'token-writer');
      expect(allowed.status).toBe(200);
      const listed = await face.request(
        withHeaders(modernRequest('tools/list'), bearer('token-a')),
      );
      const names = (await listed.json()).result.tools.map((t: { name: string }) => t.name);
      expect(names).toEqual(['whoami', 'write']); // lists show everything; calls are checked
    });

    it('decides the scopes of a 2026-07-28 call in the server, from the body it reads', async () => {
      const face = await start(kind);
      const init = modernRequest('tools/call', { name: 'write', arguments: {} }, { id: 7 });
      // The Mcp-Method/Mcp-Name headers do not decide: a body that is not JSON is a parse error,
      // whatever the token may do.
      for (const token of ['token-a', 'token-writer']) {
        const broken = await face.request({
          ...init,
          headers: { ...init.headers, ...bearer(token) },
          body: '{not json',
        });
        expect(broken.status).toBe(400);
      }
      // The server's refusal is the 403 step-up, and answers the request by its id.
      const denied = await face.request(withHeaders(init, bearer('token-a')));
      expect(denied.status).toBe(403);
      expect(denied.headers.get('www-authenticate')).toContain('scope="mcp files:write"');
      expect(await denied.json()).toMatchObject({
        id: 7,
        error: { code: -32003, data: { requiredScopes: ['files:write'] } },
      });
      // Nothing was written before the refusal: the 403 even to a client that accepts only SSE.
      const sseOnly = await face.request(
        withHeaders(init, { ...bearer('token-a'), accept: 'text/event-stream' }),
      );
      expect(sseOnly.status).toBe(403);
      expect(sseOnly.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    });

    it('refuses a legacy initialize without a token, or with an invalid one, with the same 401s', async () => {
      const face = await start(kind);
      const none = await face.request({ body: initializeBody() });
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toBe(
        `Bearer scope="mcp", resource_metadata="${METADATA}"`,
      );
      expect(none.headers.get('mcp-session-id')).toBeNull();
      const bad = await face.request({ headers: bearer('forged'), body: initializeBody() });
      expect(bad.status).toBe(401);
      expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');
    });

    it("keeps a verifier's message from breaking the header (RFC 6750 error_description)", async () => {
      const face = await startFace(kind, authServer(), {
        auth: {
          ...AUTH,
          verify: () =>
            Promise.reject(new AuthError('invalid_token', 'jeton expiré: “bad” \\ token')),
        },
      });
      faces.push(face);
      const response = await callAs(face, 'whoami', 'x');
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain(
        `error_description="jeton expir?: ?bad? ' token"`,
      );
    });

    it('in a legacy session: the same 403 step-up, and the session is useless with another token', async () => {
      const face = await start(kind);
      const init = await face.request({ headers: bearer('token-a'), body: initializeBody() });
      expect(init.status).toBe(200);
      const session = init.headers.get('mcp-session-id') ?? '';
      await init.text();
      const denied = await face.request(
        sessionRequest(session, call('write', {}, 2), bearer('token-a')),
      );
      expect(denied.status).toBe(403);
      expect(denied.headers.get('www-authenticate')).toContain('scope="mcp files:write"');
      const own = await face.request(
        sessionRequest(session, call('whoami', {}, 3), bearer('token-a')),
      );
      expect(own.status).toBe(200);
      const stolen = await face.request(
        sessionRequest(session, call('whoami', {}, 4), bearer('token-b')),
      );
      expect(stolen.status).toBe(404);
      const upgraded = await face.request(
        sessionRequest(session, call('write', {}, 5), bearer('token-writer')),
      );
      expect(upgraded.status).toBe(200); // the same subject with more scopes keeps its session
    });
  });
}
