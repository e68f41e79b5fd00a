// The authorization code grant's browser step (OAuth 2.1 with PKCE S256, RFC 9207): the client
// identified (pre-registered, a metadata document URL, or registered dynamically), the user sent
// to the authorization endpoint through the provider, and the response checked (state, issuer,
// error, code) before its code may be exchanged. A server without S256 is refused.
import { messageOf } from '../../internal/message-of.js';
import { AuthorizationError } from '../../protocol/auth.js';
import { pkce, randomToken } from './crypto.js';
import type { Discovered } from './discovery.js';
import type { OAuthHttp } from './http.js';
import type { Identity } from './registration.js';
import { identify, registeredRedirects } from './registration.js';
import type {
  AuthorizationServerMetadata,
  OAuthClientInformation,
  OAuthClientOptions,
} from './types.js';

/** How long the user has to sign in, by default. */
const DEFAULT_AUTHORIZE_TIMEOUT_MS = 300_000;

/** What the browser step needs of its OAuth client. */
export interface AuthorizationCodeStep {
  readonly discovered: Discovered;
  readonly scope: string | undefined;
  readonly serverUrl: URL;
  readonly options: OAuthClientOptions;
  /** Who the client is: stored registrations, and the configured client or its metadata. */
  readonly identity: Identity;
}

/** The authorization code grant's browser step; resolves with the code exchange parameters. */
export async function authorizationCode(
  http: OAuthHttp,
  step: AuthorizationCodeStep,
): Promise<{ client: OAuthClientInformation; params: Record<string, string> }> {
  const { discovered, scope, serverUrl, options, identity } = step;
  const { server } = discovered;
  const provider = options.provider;
  if (provider === undefined) {
    throw new AuthorizationError(
      'interaction_required',
      `${serverUrl.href} needs a user to sign in, and no OAuth provider was given to reach one`,
    );
  }
  const endpoint = server.authorization_endpoint;
  if (endpoint === undefined) {
    throw new AuthorizationError(
      'invalid_metadata',
      `${server.issuer} has no authorization_endpoint`,
    );
  }
  // Spec: PKCE with S256 is required; a server that does not say it supports S256 is refused.
  if (server.code_challenge_methods_supported?.includes('S256') !== true) {
    throw new AuthorizationError(
      'pkce_unsupported',
      `${server.issuer} does not advertise PKCE S256 (code_challenge_methods_supported); refusing to authorize`,
    );
  }
  const registered =
    identity.client === undefined
      ? await registeredRedirects(identity.store, server.issuer)
      : undefined;
  const redirectUri = await provider.redirectUri(registered);
  const client = await identify(http, server, { ...identity, redirectUri });
  const { verifier, challenge } = await pkce();
  const state = randomToken(32);
  const url = new URL(endpoint);
  const query: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
    scope,
    resource: discovered.resource,
  };
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  const signal = AbortSignal.timeout(options.authorizeTimeoutMs ?? DEFAULT_AUTHORIZE_TIMEOUT_MS);
  const back = new URL(
    await provider.authorize(url, signal).catch((error: unknown) => {
      if (error instanceof AuthorizationError) throw error;
      const reason = messageOf(error);
      throw new AuthorizationError('sign_in_incomplete', `the sign-in did not complete: ${reason}`);
    }),
    redirectUri,
  );
  const code = checkResponse(back.searchParams, { state, server });
  return { client, params: { code, redirect_uri: redirectUri, code_verifier: verifier } };
}

/**
 * Checks the authorization response (RFC 6749 section 4.1.2, RFC 9207): the `state` sent, no
 * `error`, and the `iss` of the server when it sends one or says it will. Returns the code.
 */
function checkResponse(
  params: URLSearchParams,
  expected: { state: string; server: AuthorizationServerMetadata },
): string {
  const { state, server } = expected;
  if (params.get('state') !== state) {
    throw new AuthorizationError(
      'invalid_state',
      'the authorization response carries a wrong or no state; it was ignored',
    );
  }
  const iss = params.get('iss');
  if (iss !== null && iss !== server.issuer) {
    throw new AuthorizationError(
      'invalid_issuer',
      `the authorization response comes from issuer "${iss}", not "${server.issuer}"; it was ignored`,
    );
  }
  if (iss === null && server.authorization_response_iss_parameter_supported === true) {
    throw new AuthorizationError(
      'invalid_issuer',
      `the authorization response lacks the iss that ${server.issuer} promises; it was ignored`,
    );
  }
  const error = params.get('error');
  if (error !== null) {
    const description = params.get('error_description');
    throw new AuthorizationError(
      error,
      `authorization was refused: ${error}${description === null ? '' : `: ${description}`}`,
    );
  }
  const code = params.get('code');
  if (code === null || code === '') {
    throw new AuthorizationError('invalid_response', 'the authorization response carries no code');
  }
  return code;
}
