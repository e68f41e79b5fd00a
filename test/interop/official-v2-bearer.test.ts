// mcpkit's OAuth client against the official SDK v2 server's own resource-server pieces
// (@modelcontextprotocol/server: requireBearerAuth, oauthMetadataResponse, createMcpHandler) in
// front of a real authorization server (oidc-provider, scripted sign-in): the client follows the
// SDK's 401 challenge to its metadata, signs in with PKCE and calls a tool with the token.
import { createServer } from 'node:http';
import type { NodeIncomingMessageLike } from '@modelcontextprotocol/node';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { AuthInfo, OAuthMetadata } from '@modelcontextprotocol/server';
import {
  McpServer,
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
  oauthMetadataResponse,
  requireBearerAuth,
} from '@modelcontextprotocol/server';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createOAuthClient } from '../../src/client/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/index.js';
import { closedPort } from '../cli/run-cli.js';
import type { AuthorizationServer } from '../helpers/oidc.js';
import { followSignIn, startAuthorizationServer } from '../helpers/oidc.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

let as: AuthorizationServer;
let url = '';
let close: () => Promise<void>;

beforeAll(async () => {
  as = await startAuthorizationServer(['mcp'], { interactive: true });
  const metadata = (await (
    await fetch(`${as.issuer}/.well-known/openid-configuration`)
  ).json()) as OAuthMetadata & { jwks_uri: string };
  const port = await closedPort();
  url = `http://127.0.0.1:${String(port)}/mcp`;
  const keys = createRemoteJWKSet(new URL(metadata.jwks_uri));
  const gate = requireBearerAuth({
    requiredScopes: ['mcp'],
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(url)),
    verifier: {
      async verifyAccessToken(token): Promise<AuthInfo> {
        const { payload } = await jwtVerify(token, keys, { issuer: as.issuer, audience: url });
        return {
          token,
          clientId: String(payload['client_id']),
          scopes: typeof payload['scope'] === 'string' ? payload['scope'].split(' ') : [],
          ...(payload.exp === undefined ? {} : { expiresAt: payload.exp }),
        };
      },
    },
  });
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: 'official-v2-guarded', version: '2.0.0' });
    server.registerTool('whoami', { description: 'The caller.' }, (ctx) => ({
      content: [{ type: 'text', text: `client ${ctx.http?.authInfo?.clientId ?? '?'}` }],
    }));
    return server;
  });
  const node = toNodeHandler({
    fetch: async (request, options) => {
      const document = oauthMetadataResponse(request, {
        oauthMetadata: metadata,
        resourceServerUrl: new URL(url),
        scopesSupported: ['mcp'],
        dangerouslyAllowInsecureIssuerUrl: true,
      });
      if (document !== undefined) return document;
      const auth = await gate(request);
      if (auth instanceof Response) return auth;
      return handler.fetch(request, { ...options, authInfo: auth });
    },
  });
  const http = createServer((req, res) => {
    void node(req as NodeIncomingMessageLike, res);
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  close = async () => {
    await handler.close();
    http.closeAllConnections();
    await new Promise<void>((resolve) => {
      http.close(() => {
        resolve();
      });
    });
  };
});

afterAll(async () => {
  await close();
  await as.close();
});

describe('mcpkit OAuth client → official SDK v2 server with requireBearerAuth', () => {
  it('follows the challenge, signs in and calls the tool with the token', async () => {
    const signIns: URL[] = [];
    const auth = createOAuthClient({
      serverUrl: url,
      provider: {
        redirectUri: () => REDIRECT,
        authorize: (authorization) => {
          signIns.push(authorization);
          return followSignIn(authorization, REDIRECT);
        },
      },
    });
    const client = new Client({ name: 'mcpkit', version: '1.0.0' });
    await client.connect(createStreamableHttpClientTransport(url, { auth }));
    const result = await client.callTool('whoami', {});
    await client.close();
    expect(result.content[0]).toMatchObject({
      type: 'text',
      text: expect.stringMatching(/^client /),
    });
    expect(signIns).toHaveLength(1);
    expect(signIns[0]?.searchParams.get('resource')).toBe(url);
    expect(signIns[0]?.searchParams.get('scope')).toBe('mcp');
    expect((await auth.tokens())?.token_type).toBe('Bearer');
  });
});
