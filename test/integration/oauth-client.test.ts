// mcpkit's OAuth client (createOAuthClient) end to end against a real authorization server
// (oidc-provider on 127.0.0.1, test/helpers/oidc.ts, with a scripted user who signs in and
// consents) and mcpkit's own resource server (listen with `auth`): the authorization code grant
// with PKCE after dynamic registration, refresh, step-up to a scope a tool needs, DPoP-bound
// tokens, the client credentials grant, and a declined consent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJwtVerifier } from '../../src/auth/index.js';
import type { OAuthClientOptions, OAuthTokens } from '../../src/client/index.js';
import { Client, createOAuthClient, memoryStore } from '../../src/client/index.js';
import { McpServer } from '../../src/server/index.js';
import type { Listening } from '../../src/transports/http/server/node.js';
import { listen } from '../../src/transports/http/server/node.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/index.js';
import type { AuthorizationServer } from '../helpers/oidc.js';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  followSignIn,
  startAuthorizationServer,
} from '../helpers/oidc.js';
import { closedPort } from '../cli/run-cli.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

function guardedServer(): McpServer {
  const server = new McpServer({ name: 'guarded', version: '1.0.0' }, { onError: () => {} });
  server.tool({ name: 'whoami', description: 'Who the token speaks for.' }, (_args, ctx) =>
    JSON.stringify({ subject: ctx.auth?.subject, scopes: ctx.auth?.scopes }),
  );
  server.tool(
    { name: 'write', description: 'Needs files:write.', scopes: ['files:write'] },
    () => 'written',
  );
  return server;
}

/** mcpkit's resource server for `as`, on a known port so its resource URL is its own. */
async function resourceServer(
  as: AuthorizationServer,
  options: { dpop?: boolean } = {},
): Promise<{ url: string; running: Listening }> {
  const port = await closedPort();
  const url = `http://127.0.0.1:${String(port)}/mcp`;
  const verify = createJwtVerifier({
    issuer: as.issuer,
    audience: url,
    ...(options.dpop === true ? { dpop: {} } : {}),
  });
  const running = await listen(() => guardedServer(), {
    port,
    auth: {
      resource: url,
      authorizationServers: [as.issuer],
      requiredScopes: ['mcp'],
      scopesSupported: ['mcp', 'files:write'],
      verify,
      ...(options.dpop === true ? { dpop: {} } : {}),
    },
  });
  return { url, running };
}

/** The headless user of the scripted provider, counting sign-ins. */
function user() {
  const seen: URL[] = [];
  return {
    seen,
    provider: {
      redirectUri: () => REDIRECT,
      authorize: async (url: URL) => {
        seen.push(url);
        return followSignIn(url, REDIRECT);
      },
    },
  };
}

async function connect(url: string, options: Omit<OAuthClientOptions, 'serverUrl'>) {
  const auth = createOAuthClient({ serverUrl: url, ...options });
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(createStreamableHttpClientTransport(url, { auth }));
  return { client, auth };
}

describe('the authorization code grant against oidc-provider', () => {
  let as: AuthorizationServer;
  let server: { url: string; running: Listening };
  beforeAll(async () => {
    as = await startAuthorizationServer(['mcp', 'files:write'], { interactive: true });
    server = await resourceServer(as);
  });
  afterAll(async () => {
    await server.running.close();
    await as.close();
  });

  it('registers, signs in once with PKCE and calls with the token; a second connection reuses it', async () => {
    const store = memoryStore();
    const { seen, provider } = user();
    const { client } = await connect(server.url, { provider, store });
    const result = await client.callTool('whoami', {});
    expect(
      JSON.parse(result.content[0]?.type === 'text' ? result.content[0].text : ''),
    ).toMatchObject({ subject: 'test-user', scopes: ['mcp'] });
    await client.close();
    expect(seen).toHaveLength(1);
    const request = seen[0]!.searchParams;
    expect(request.get('code_challenge_method')).toBe('S256');
    expect(request.get('resource')).toBe(server.url);
    // The challenge's scope (the server's required "mcp"); not offline_access, which this
    // provider does not list in scopes_supported (SEP-2207: never ask for it then).
    expect(request.get('scope')).toBe('mcp');
    const tokens = (await store.get(`tokens ${server.url}`)) as OAuthTokens;
    expect(tokens).toMatchObject({ token_type: 'Bearer', issuer: as.issuer });
    expect(tokens.refresh_token).toEqual(expect.any(String));

    const again = await connect(server.url, { provider, store });
    await again.client.callTool('whoami', {});
    await again.client.close();
    expect(seen).toHaveLength(1);
  });

  it('refreshes an expired token without asking the user', async () => {
    const store = memoryStore();
    const { seen, provider } = user();
    const { client, auth } = await connect(server.url, { provider, store });
    const first = await auth.tokens();
    await store.set(`tokens ${server.url}`, { ...first, expires_at: Date.now() - 1000 });
    await client.callTool('whoami', {});
    await client.close();
    const refreshed = await auth.tokens();
    expect(refreshed?.access_token).not.toBe(first?.access_token);
    expect(refreshed?.expires_at).toBeGreaterThan(Date.now());
    expect(seen).toHaveLength(1);
  });

  it('steps up: a token for "mcp" is refused for write (403), the user consents to files:write, the call passes', async () => {
    const { seen, provider } = user();
    const { client, auth } = await connect(server.url, { provider });
    expect((await auth.tokens())?.scope?.split(' ')).not.toContain('files:write');
    const result = await client.callTool('write', {});
    expect(result.isError).not.toBe(true);
    await client.close();
    expect(seen).toHaveLength(2);
    const second = seen[1]!.searchParams.get('scope')?.split(' ');
    expect(second).toEqual(expect.arrayContaining(['mcp', 'files:write']));
  });

  it('stops with a clear error when the user declines, and sends no token', async () => {
    const denying = await startAuthorizationServer(['mcp'], { interactive: { deny: true } });
    const guarded = await resourceServer(denying);
    try {
      const { provider } = user();
      const auth = createOAuthClient({ serverUrl: guarded.url, provider });
      const client = new Client({ name: 'oauth-test', version: '1.0.0' });
      await expect(
        client.connect(createStreamableHttpClientTransport(guarded.url, { auth })),
      ).rejects.toMatchObject({ name: 'AuthorizationError', code: 'access_denied' });
      expect(await auth.tokens()).toBeUndefined();
    } finally {
      await guarded.running.close();
      await denying.close();
    }
  });
});

describe('grants without a user, and DPoP, against oidc-provider', () => {
  let as: AuthorizationServer;
  beforeAll(async () => {
    as = await startAuthorizationServer(['mcp', 'files:write'], { interactive: true });
  });
  afterAll(() => as.close());

  it('client credentials: the pre-registered client gets a token with no browser', async () => {
    const bearer = await startAuthorizationServer(['mcp', 'files:write']);
    const server = await resourceServer(bearer);
    try {
      const { client, auth } = await connect(server.url, {
        grant: { type: 'client_credentials' },
        client: { client_id: CLIENT_ID, client_secret: CLIENT_SECRET },
        scope: 'mcp',
      });
      const result = await client.callTool('whoami', {});
      expect(result.isError).not.toBe(true);
      await client.close();
      expect(await auth.tokens()).toMatchObject({ token_type: 'Bearer', issuer: bearer.issuer });
    } finally {
      await server.running.close();
      await bearer.close();
    }
  });

  it('binds tokens to a DPoP key where the server supports it, and presents them with proofs', async () => {
    const server = await resourceServer(as, { dpop: true });
    try {
      const { provider } = user();
      const store = memoryStore();
      const { client, auth } = await connect(server.url, { provider, store });
      const result = await client.callTool('whoami', {});
      expect(result.isError).not.toBe(true);
      const tokens = await auth.tokens();
      expect(tokens?.token_type).toBe('DPoP');
      expect(tokens?.dpop_key).toMatchObject({ kty: 'EC', crv: 'P-256', d: expect.any(String) });
      // Expired: the refresh carries a proof of the same key, and the next call passes.
      await store.set(`tokens ${server.url}`, { ...tokens, expires_at: Date.now() - 1000 });
      expect((await client.callTool('whoami', {})).isError).not.toBe(true);
      const refreshed = await auth.tokens();
      expect(refreshed?.access_token).not.toBe(tokens?.access_token);
      expect(refreshed).toMatchObject({ token_type: 'DPoP', dpop_key: tokens?.dpop_key });
      await client.close();
    } finally {
      await server.running.close();
    }
  });
});
