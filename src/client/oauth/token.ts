// The token endpoint (RFC 6749 section 3.2): one form POST per grant, the client authenticated
// as the server supports (client_secret_basic, client_secret_post, private_key_jwt per RFC 7523,
// or none), a DPoP proof when tokens are bound (with one retry on `use_dpop_nonce`), and the
// response checked before anything is stored.
import { AuthorizationError } from '../../protocol/auth.js';
import { needJose, randomToken } from './crypto.js';
import type { DpopKey, DpopNonces } from './dpop.js';
import type { OAuthHttp } from './http.js';
import { oauthFailure, request } from './http.js';
import type {
  AuthorizationServerMetadata,
  OAuthClientInformation,
  OAuthTokens,
  TokenEndpointAuthMethod,
} from './types.js';

/** One token request: the grant's parameters, who asks, and the DPoP key if tokens are bound. */
export interface TokenRequest {
  readonly server: AuthorizationServerMetadata;
  readonly client: OAuthClientInformation | undefined;
  readonly params: Readonly<Record<string, string | undefined>>;
  readonly dpop: { readonly key: DpopKey; readonly nonces: DpopNonces } | undefined;
}

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** Sends a token request; resolves with the tokens or rejects with an AuthorizationError. */
export async function requestToken(http: OAuthHttp, token: TokenRequest): Promise<OAuthTokens> {
  const { server, dpop } = token;
  const url = server.token_endpoint;
  for (let attempt = 0; ; attempt++) {
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(token.params)) {
      if (value !== undefined) body.set(name, value);
    }
    await authenticate(token, headers, body);
    if (dpop !== undefined) {
      const nonce = dpop.nonces.get(url);
      headers['dpop'] = await dpop.key.proof({
        method: 'POST',
        url,
        ...(nonce === undefined ? {} : { nonce }),
      });
    }
    const answer = await request(http, url, { method: 'POST', headers, body: body.toString() });
    const fresh = dpop?.nonces.set(url, answer.response.headers.get('dpop-nonce')) ?? false;
    if (!answer.response.ok) {
      // RFC 9449 section 8: the server wants its nonce in the proof; send it once.
      if (answer.body?.['error'] === 'use_dpop_nonce' && fresh && attempt === 0) continue;
      throw oauthFailure(`the token endpoint of ${server.issuer}`, answer);
    }
    return tokensOf(answer.body, token);
  }
}

function tokensOf(
  body: Readonly<Record<string, unknown>> | undefined,
  token: TokenRequest,
): OAuthTokens {
  const { server, dpop } = token;
  const access = body?.['access_token'];
  const type = body?.['token_type'];
  if (typeof access !== 'string' || access === '' || typeof type !== 'string') {
    throw new AuthorizationError(
      'invalid_token_response',
      `the token endpoint of ${server.issuer} answered without an access_token and token_type`,
    );
  }
  const bound = type.toLowerCase() === 'dpop';
  if (bound && dpop === undefined) {
    throw new AuthorizationError(
      'invalid_token_response',
      `${server.issuer} issued a DPoP token without a proof`,
    );
  }
  const expiresIn = body?.['expires_in'];
  const refresh = body?.['refresh_token'];
  const scope = body?.['scope'] ?? token.params['scope'];
  return {
    access_token: access,
    token_type: bound ? 'DPoP' : 'Bearer',
    issuer: server.issuer,
    ...(typeof refresh === 'string' ? { refresh_token: refresh } : {}),
    ...(typeof expiresIn === 'number' && expiresIn > 0
      ? { expires_at: Date.now() + expiresIn * 1000 }
      : {}),
    ...(typeof scope === 'string' && scope !== '' ? { scope } : {}),
    // A server may accept the proof and still issue a bearer token: then no key is kept.
    ...(bound && dpop !== undefined ? { dpop_key: dpop.key.jwk } : {}),
  };
}

/** The method the client authenticates with at `server`. */
export function authMethod(
  server: AuthorizationServerMetadata,
  client: OAuthClientInformation,
): TokenEndpointAuthMethod {
  if (client.token_endpoint_auth_method !== undefined) return client.token_endpoint_auth_method;
  // RFC 8414 section 2: without the list, client_secret_basic is the default.
  const supported = server.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  if (client.private_key !== undefined && supported.includes('private_key_jwt'))
    return 'private_key_jwt';
  if (client.client_secret !== undefined) {
    if (supported.includes('client_secret_basic')) return 'client_secret_basic';
    if (supported.includes('client_secret_post')) return 'client_secret_post';
  }
  return 'none';
}

async function authenticate(
  token: TokenRequest,
  headers: Record<string, string>,
  body: URLSearchParams,
): Promise<void> {
  const { client, server } = token;
  if (client === undefined) return;
  const method = authMethod(server, client);
  const secret = client.client_secret ?? '';
  switch (method) {
    case 'client_secret_basic': {
      // RFC 6749 section 2.3.1: each part form-urlencoded before base64.
      const pair = `${formEncode(client.client_id)}:${formEncode(secret)}`;
      headers['authorization'] =
        `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(pair)))}`;
      return;
    }
    case 'client_secret_post':
      body.set('client_id', client.client_id);
      body.set('client_secret', secret);
      return;
    case 'private_key_jwt':
      body.set('client_id', client.client_id);
      body.set('client_assertion_type', ASSERTION_TYPE);
      body.set('client_assertion', await clientAssertion(client, server.issuer));
      return;
    case 'none':
      body.set('client_id', client.client_id);
      return;
  }
}

function formEncode(text: string): string {
  return encodeURIComponent(text).replace(/%20/g, '+');
}

/** RFC 7523 section 3: a short-lived JWT signed with the client's key, for the server's issuer. */
async function clientAssertion(client: OAuthClientInformation, issuer: string): Promise<string> {
  const jose = await needJose('private_key_jwt');
  const alg = client.signing_algorithm ?? 'ES256';
  const key =
    typeof client.private_key === 'string'
      ? await jose.importPKCS8(client.private_key, alg)
      : await jose.importJWK(client.private_key as Parameters<typeof jose.importJWK>[0], alg);
  return new jose.SignJWT({})
    .setProtectedHeader({ alg })
    .setIssuer(client.client_id)
    .setSubject(client.client_id)
    .setAudience(issuer)
    .setJti(randomToken(16))
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(key);
}
