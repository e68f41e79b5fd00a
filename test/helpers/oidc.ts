// A real authorization server for the auth tests: oidc-provider (a certified OpenID provider) on
// 127.0.0.1, issuing JWT access tokens (RFC 9068) for the resource a client names (RFC 8707
// resource indicators) through the client credentials grant. Its signing key is made here, so
// tests can also forge tokens the provider would never issue (expired, wrong audience, ...).
import type { IncomingMessage, ServerResponse } from 'node:http';
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
  /** The same, through the client credentials of one of `ServerOptions.clients`. */
  tokenFor(clientId: string, resource: string, scope: string): Promise<string>;
  /** Revokes a token (RFC 7009). */
  revoke(token: string): Promise<void>;
  close(): Promise<void>;
}

export const CLIENT_ID = 'mcp-test-client';
export const CLIENT_SECRET = 'a-test-secret-that-is-long-enough';

function basicAuth(): string {
  return `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
}

/**
 * What else the provider does, for the client-side tests. (It always issues DPoP-bound tokens to
 * clients that send proofs, RFC 9449, and says so in its metadata: oidc-provider's default.)
 */
export interface ServerOptions {
  /**
   * The authorization code grant for clients that register themselves (RFC 7591), with a
   * scripted user: the login and consent interactions complete at once (consent to every scope
   * asked), or are declined with `access_denied` when `deny` is set. Refresh tokens are issued.
   */
  readonly interactive?: boolean | { readonly deny?: boolean };
  /**
   * More client-credentials clients (the secret is `<id>-secret-that-is-long-enough`), each
   * allowed only its own scopes: what two principals of different rights are made of.
   */
  readonly clients?: readonly { readonly id: string; readonly scopes: readonly string[] }[];
}

/** The secret of a client of `ServerOptions.clients`. */
export function secretOf(clientId: string): string {
  return `${clientId}-secret-that-is-long-enough`;
}

/** Starts the provider; `scopes` are what it may grant. */
export async function startAuthorizationServer(
  scopes: readonly string[],
  options: ServerOptions = {},
): Promise<AuthorizationServer> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = 'test-key-1';
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'ES256', use: 'sig' };
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${String((http.address() as AddressInfo).port)}`;
  // Built loosely and then typed: @types/oidc-provider's feature unions reject a computed flag.
  const configuration = {
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
      ...(options.clients ?? []).map((client) => ({
        client_id: client.id,
        client_secret: secretOf(client.id),
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        id_token_signed_response_alg: 'ES256',
        scope: client.scopes.join(' '),
      })),
    ],
    jwks: { keys: [privateJwk] },
    clientDefaults: { id_token_signed_response_alg: 'ES256' },
    scopes: [...scopes],
    enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
    ...(options.interactive === undefined || options.interactive === false
      ? {}
      : {
          interactions: {
            url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
          },
          issueRefreshToken: () => Promise.resolve(true),
        }),
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      registration:
        options.interactive === undefined || options.interactive === false
          ? { enabled: false }
          : { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) =>
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
  };
  const provider = new Provider(issuer, configuration as ConstructorParameters<typeof Provider>[1]);
  const callback = provider.callback();
  const deny = typeof options.interactive === 'object' && options.interactive.deny === true;
  http.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/') === true) {
      void interact(provider, { req, res, deny }).catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
      return;
    }
    void callback(req, res);
  });
  return {
    issuer,
    privateKey,
    publicJwk,
    kid,
    token: (resource, scope) =>
      requestToken({ issuer, authorization: basicAuth() }, resource, scope),
    tokenFor: (clientId, resource, scope) =>
      requestToken(
        {
          issuer,
          authorization: `Basic ${Buffer.from(`${clientId}:${secretOf(clientId)}`).toString('base64')}`,
        },
        resource,
        scope,
      ),
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

/** A client credentials token from `issuer`'s token endpoint. */
async function requestToken(
  client: { issuer: string; authorization: string },
  resource: string,
  scope: string,
): Promise<string> {
  const response = await fetch(`${client.issuer}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: client.authorization,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }),
  });
  const body = (await response.json()) as { access_token?: string; error?: string };
  if (body.access_token === undefined) {
    throw new Error(`token endpoint: ${String(response.status)} ${JSON.stringify(body)}`);
  }
  return body.access_token;
}

/**
 * The scripted user: logs in as `test-user` and consents to every scope and resource the
 * client asked for (or declines), as a person would on the provider's pages.
 */
async function interact(
  provider: Provider,
  exchange: { req: IncomingMessage; res: ServerResponse; deny: boolean },
): Promise<void> {
  const { req, res, deny } = exchange;
  const details = await provider.interactionDetails(req, res);
  const { prompt, params, session } = details;
  if (deny) {
    await provider.interactionFinished(req, res, {
      error: 'access_denied',
      error_description: 'the user declined',
    });
    return;
  }
  if (prompt.name === 'login') {
    await provider.interactionFinished(req, res, { login: { accountId: 'test-user' } });
    return;
  }
  const grant =
    details.grantId === undefined
      ? new provider.Grant({
          accountId: session?.accountId ?? 'test-user',
          clientId: String(params['client_id']),
        })
      : await provider.Grant.find(details.grantId);
  if (grant === undefined) throw new Error('no grant to add consent to');
  const missing = prompt.details as {
    missingOIDCScope?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope !== undefined)
    grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  for (const [resource, wanted] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(resource, wanted.join(' '));
  }
  const grantId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { consent: { grantId } },
    { mergeWithLastSubmission: true },
  );
}

/**
 * A headless browser for the scripted user: follows redirects (keeping cookies) from the
 * authorization URL until one goes to `redirectUri`, and returns that URL.
 */
export async function followSignIn(url: URL, redirectUri: string): Promise<URL> {
  const cookies = new Map<string, string>();
  let next = url.href;
  for (let hop = 0; hop < 20; hop++) {
    if (next.startsWith(redirectUri)) return new URL(next);
    const response = await fetch(next, {
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const eq = pair.indexOf('=');
      cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const location = response.headers.get('location');
    if (location === null) {
      throw new Error(
        `the sign-in stopped at ${next}: ${String(response.status)} ${await response.text()}`,
      );
    }
    next = new URL(location, next).href;
  }
  throw new Error('too many redirects in the sign-in');
}
