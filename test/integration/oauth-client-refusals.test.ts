// Where mcpkit's OAuth client must stop (spec basic/authorization, security considerations):
// resource metadata for another server, authorization server metadata for another issuer, an
// authorization response with a wrong `iss` or `state`, a server without PKCE S256, and a server
// that refuses every token. Each stops with an AuthorizationError naming the reason, and no
// code or token goes where it must not (the mock authorization server records every request).
// The MCP server is mcpkit's own resource server; the authorization server is a small mock on
// 127.0.0.1 with one thing wrong per case.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { OAuthProvider } from '../../src/client/index.js';
import { Client, createOAuthClient } from '../../src/client/index.js';
import { AuthError } from '../../src/protocol/index.js';
import { McpServer } from '../../src/server/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/index.js';
import { listen } from '../../src/transports/http/server/node.js';
import { closedPort } from '../cli/run-cli.js';

/** What the mock authorization server gets wrong. */
interface Flaw {
  issuer?: 'other';
  pkce?: 'none';
  iss?: 'wrong' | 'omit';
  state?: 'wrong';
}

interface Mock {
  readonly issuer: string;
  /** Every request, as `METHOD /path`. */
  readonly hits: string[];
  close(): Promise<void>;
}

async function mockAuthorizationServer(flaw: Flaw): Promise<Mock> {
  const hits: string[] = [];
  const http = createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    hits.push(`${req.method ?? ''} ${url.pathname}`);
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    switch (url.pathname) {
      case '/.well-known/oauth-authorization-server':
        json(200, {
          issuer: flaw.issuer === 'other' ? 'https://attacker.example.com' : issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          registration_endpoint: `${issuer}/register`,
          response_types_supported: ['code'],
          ...(flaw.pkce === 'none' ? {} : { code_challenge_methods_supported: ['S256'] }),
          token_endpoint_auth_methods_supported: ['none'],
          authorization_response_iss_parameter_supported: true,
        });
        return;
      case '/register':
        json(201, { client_id: 'registered-client' });
        return;
      case '/authorize': {
        const back = new URL(url.searchParams.get('redirect_uri') ?? '');
        back.searchParams.set('code', 'the-code');
        back.searchParams.set(
          'state',
          flaw.state === 'wrong' ? 'forged' : (url.searchParams.get('state') ?? ''),
        );
        if (flaw.iss !== 'omit') {
          back.searchParams.set('iss', flaw.iss === 'wrong' ? 'https://evil.example.com' : issuer);
        }
        res.writeHead(302, { location: back.href }).end();
        return;
      }
      case '/token':
        json(200, { access_token: 'the-token', token_type: 'Bearer', expires_in: 3600 });
        return;
      default:
        json(404, { error: 'not_found' });
    }
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${String((http.address() as AddressInfo).port)}`;
  return {
    issuer,
    hits,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => {
          resolve();
        });
      }),
  };
}

const headless: OAuthProvider = {
  redirectUri: () => 'http://127.0.0.1:9/callback',
  authorize: async (url) => {
    const response = await fetch(url, { redirect: 'manual' });
    return response.headers.get('location') ?? '';
  },
};

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/** Connects through the OAuth client; resolves with how it failed. */
async function attempt(
  flaw: Flaw,
  rs: { resource?: 'other'; refuseAll?: boolean } = {},
  provider: OAuthProvider = headless,
) {
  const as = await mockAuthorizationServer(flaw);
  closing.push(() => as.close());
  // A known port, so that the resource server's metadata can name its own URL (or another).
  const port = await closedPort();
  const url = `http://127.0.0.1:${String(port)}/mcp`;
  const resource = rs.resource === 'other' ? 'https://evil.example.com/mcp' : url;
  const server = new McpServer({ name: 'guarded', version: '1.0.0' }, { onError: () => {} });
  server.tool({ name: 'ping-me', description: 'Answers pong.' }, () => 'pong');
  const running = await listen(() => server, {
    port,
    auth: {
      resource,
      authorizationServers: [as.issuer],
      verify: (token) => {
        if (token !== 'the-token' || rs.refuseAll === true) {
          throw new AuthError('invalid_token', 'the token is not accepted');
        }
        return { subject: 'user', clientId: 'c', scopes: [], expiresAt: undefined, claims: {} };
      },
    },
  });
  closing.push(() => running.close());
  const auth = createOAuthClient({ serverUrl: url, provider });
  const client = new Client({ name: 'refusals', version: '1.0.0' });
  const error: unknown = await client
    .connect(createStreamableHttpClientTransport(url, { auth }))
    .then(() => client.callTool('ping-me', {}))
    .then(
      () => undefined,
      (failure: unknown) => failure,
    );
  await client.close();
  return {
    error: error as { name?: string; code?: string; message?: string },
    hits: as.hits,
    auth,
  };
}

describe('the OAuth client stops where the spec says, and sends nothing on', () => {
  it('resource metadata for another server: no authorization server is even asked', async () => {
    const { error, hits } = await attempt({}, { resource: 'other' });
    expect(error).toMatchObject({ name: 'AuthorizationError', code: 'resource_mismatch' });
    expect(error.message).toContain('https://evil.example.com/mcp');
    expect(hits).toEqual([]);
  });

  it('metadata whose issuer is not the one asked for: its endpoints are never used', async () => {
    const { error, hits } = await attempt({ issuer: 'other' });
    expect(error).toMatchObject({ name: 'AuthorizationError', code: 'issuer_mismatch' });
    expect(hits).toEqual(['GET /.well-known/oauth-authorization-server']);
  });

  it('an authorization server without PKCE S256: no authorization request', async () => {
    const { error, hits } = await attempt({ pkce: 'none' });
    expect(error).toMatchObject({ name: 'AuthorizationError', code: 'pkce_unsupported' });
    expect(hits.filter((hit) => hit.endsWith('/authorize') || hit.endsWith('/token'))).toEqual([]);
  });

  it('an authorization response with the wrong iss: the code is not exchanged', async () => {
    const { error, hits } = await attempt({ iss: 'wrong' });
    expect(error).toMatchObject({ name: 'AuthorizationError', code: 'invalid_issuer' });
    expect(hits).toContain('GET /authorize');
    expect(hits).not.toContain('POST /token');
  });

  it('an authorization response without the iss the server promised: not exchanged', async () => {
    const { error, hits } = await attempt({ iss: 'omit' });
    expect(error).toMatchObject({ code: 'invalid_issuer' });
    expect(hits).not.toContain('POST /token');
  });

  it('an authorization response with a state the client did not send: not exchanged', async () => {
    const { error, hits } = await attempt({ state: 'wrong' });
    expect(error).toMatchObject({ name: 'AuthorizationError', code: 'invalid_state' });
    expect(hits).not.toContain('POST /token');
  });

  it('a sign-in the user never finishes: an authorization error saying so, no token asked', async () => {
    const walkedAway: OAuthProvider = {
      redirectUri: () => 'http://127.0.0.1:9/callback',
      authorize: () => Promise.reject(new Error('no sign-in arrived in time')),
    };
    const { error, hits } = await attempt({}, {}, walkedAway);
    expect(error).toMatchObject({ name: 'AuthorizationError', code: 'sign_in_incomplete' });
    expect(error.message).toContain('no sign-in arrived in time');
    expect(hits).not.toContain('POST /token');
  });

  it('a server that refuses every token: three authorizations, then a clear error', async () => {
    const { error, hits, auth } = await attempt({}, { refuseAll: true });
    expect(error).toMatchObject({ name: 'AuthorizationError', code: 'retry_limit' });
    expect(error.message).not.toContain('the-token');
    expect(hits.filter((hit) => hit === 'GET /authorize')).toHaveLength(3);
    expect((await auth.tokens())?.access_token).toBe('the-token');
  });
});
