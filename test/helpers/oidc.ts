// A real authorization server for the auth tests: oidc-provider (a certified OpenID provider) on
// 127.0.0.1, issuing JWT access tokens (RFC 9068) for the resource a client names (RFC 8707
// resource indicators) through the client credentials grant. Its signing key is made here, so
// tests can also forge tokens the provider would never issue (expired, wrong audience, ...).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JWK, KeyObject } from 'jose';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

export interface AuthorizationServer {
  readonly issuer: string;
  /** The provider's signing key (its public half is in the JWKS), for forging test tokens. */
  readonly privateKey: KeyObject | CryptoKey;
  readonly publicJwk: JWK;
  readonly kid: string;
  /**
   * An access token for `resource` with `scope`, from the token endpoint: a JWT, or an opaque
   * token (checked by introspection) when the resource's host starts with `opaque.`.
   */
  token(resource: string, scope: string): Promise<string>;
  /** Revokes a token (RFC 7009). */
  revoke(token: string): Promise<void>;
  close(): Promise<void>;
}

export const CLIENT_ID = 'mcp-test-client';
export const CLIENT_SECRET = 'a-test-secret-that-is-long-enough';

function basicAuth(): string {
  return `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
}

/** Starts the provider; `scopes` are what it may grant. */
export async function startAuthorizationServer(
  scopes: readonly string[],
): Promise<AuthorizationServer> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = 'test-key-1';
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'ES256', use: 'sig' };
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${String((http.address() as AddressInfo).port)}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        id_token_signed_response_alg: 'ES256',
        scope: scopes.join(' '),
      },
    ],
    jwks: { keys: [privateJwk] },
    scopes: [...scopes],
    enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) =>
          new URL(resource).hostname.startsWith('opaque.')
            ? {
                scope: scopes.join(' '),
                audience: resource,
                accessTokenTTL: 300,
                accessTokenFormat: 'opaque',
              }
            : {
                scope: scopes.join(' '),
                audience: resource,
                accessTokenTTL: 300,
                accessTokenFormat: 'jwt',
                jwt: { sign: { alg: 'ES256' } },
              },
      },
      introspection: { enabled: true, allowedPolicy: () => true },
      revocation: { enabled: true, allowedPolicy: () => true },
    },
  });
  const callback = provider.callback();
  http.on('request', (req, res) => {
    void callback(req, res);
  });
  return {
    issuer,
    privateKey,
    publicJwk,
    kid,
    async token(resource, scope) {
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basicAuth(),
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }),
      });
      const body = (await response.json()) as { access_token?: string; error?: string };
      if (body.access_token === undefined) {
        throw new Error(`token endpoint: ${String(response.status)} ${JSON.stringify(body)}`);
      }
      return body.access_token;
    },
    async revoke(token) {
      const response = await fetch(`${issuer}/token/revocation`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basicAuth(),
        },
        body: new URLSearchParams({ token }),
      });
      if (!response.ok) throw new Error(`revocation: ${String(response.status)}`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => {
          resolve();
        });
      }),
  };
}
