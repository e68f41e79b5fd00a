// Who the client is at an authorization server, in the order the spec gives (2025-11-25
// basic/authorization#client-registration-approaches): pre-registered credentials, a Client ID
// Metadata Document URL where the server supports them, dynamic registration (RFC 7591) where
// it has a registration endpoint. Registrations are kept per issuer and never shown to another
// authorization server (SEP-2352): a server that moves to a new issuer gets a new registration.
import { AuthorizationError } from '../../protocol/auth.js';
import type { OAuthHttp } from './http.js';
import { isLoopback, oauthFailure, request } from './http.js';
import type {
  AuthorizationServerMetadata,
  OAuthClientInformation,
  OAuthClientMetadata,
  OAuthStore,
  TokenEndpointAuthMethod,
} from './types.js';

/** What the client knows to identify itself. */
export interface Identity {
  readonly client?: OAuthClientInformation;
  readonly clientMetadataUrl?: string;
  readonly clientMetadata?: OAuthClientMetadata;
  readonly store: OAuthStore;
}

interface Registered extends OAuthClientInformation {
  readonly redirect_uris?: readonly string[];
}

/** The store key of the registration at `issuer`. */
export function clientKey(issuer: string): string {
  return `client ${issuer}`;
}

/**
 * The client's identity at `server` for a grant that redirects to `redirectUri` (undefined
 * for grants without a browser). Registers when it must and stores the registration.
 */
export async function identify(
  http: OAuthHttp,
  server: AuthorizationServerMetadata,
  identity: Identity & { readonly redirectUri: string | undefined },
): Promise<OAuthClientInformation> {
  const { redirectUri } = identity;
  if (identity.client !== undefined) return identity.client;
  if (
    identity.clientMetadataUrl !== undefined &&
    server.client_id_metadata_document_supported === true
  ) {
    return { client_id: identity.clientMetadataUrl, token_endpoint_auth_method: 'none' };
  }
  const stored = (await identity.store.get(clientKey(server.issuer))) as Registered | undefined;
  if (
    stored !== undefined &&
    (redirectUri === undefined || stored.redirect_uris?.includes(redirectUri) !== false)
  ) {
    return stored;
  }
  if (server.registration_endpoint === undefined) {
    throw new AuthorizationError(
      'no_client',
      `${server.issuer} has no registration endpoint and no client id was given: register a client there and pass its id (--client-id)`,
    );
  }
  const registered = await register(http, server, identity);
  await identity.store.set(clientKey(server.issuer), registered);
  return registered;
}

/** The redirect URIs of the stored registration at `issuer`, if there is one. */
export async function registeredRedirects(
  store: Identity['store'],
  issuer: string,
): Promise<readonly string[] | undefined> {
  const stored = (await store.get(clientKey(issuer))) as Registered | undefined;
  return stored?.redirect_uris;
}

/** Dynamic client registration (RFC 7591 section 3). */
async function register(
  http: OAuthHttp,
  server: AuthorizationServerMetadata,
  identity: Identity & { readonly redirectUri: string | undefined },
): Promise<Registered> {
  const { redirectUri } = identity;
  const endpoint = server.registration_endpoint ?? '';
  const method = preferredMethod(server);
  const metadata = {
    client_name: 'mcpkit',
    ...identity.clientMetadata,
    redirect_uris: redirectUri === undefined ? [] : [redirectUri],
    grant_types:
      redirectUri === undefined ? ['client_credentials'] : ['authorization_code', 'refresh_token'],
    response_types: redirectUri === undefined ? [] : ['code'],
    token_endpoint_auth_method: method,
    // SEP-837: a loopback redirect is a native application's.
    application_type: redirectUri !== undefined && !isNative(redirectUri) ? 'web' : 'native',
  };
  const answer = await request(http, endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(metadata),
  });
  if (!answer.response.ok) throw oauthFailure(`client registration at ${server.issuer}`, answer);
  const body = answer.body;
  const id = body?.['client_id'];
  if (typeof id !== 'string' || id === '') {
    throw new AuthorizationError(
      'invalid_registration',
      `client registration at ${server.issuer} returned no client_id`,
    );
  }
  const secret = body?.['client_secret'];
  const returned = body?.['token_endpoint_auth_method'];
  return {
    client_id: id,
    ...(typeof secret === 'string' && secret !== '' ? { client_secret: secret } : {}),
    token_endpoint_auth_method: isMethod(returned) ? returned : method,
    redirect_uris: metadata.redirect_uris,
  };
}

/** A public client (PKCE) where the server allows it, else the first secret method it takes. */
function preferredMethod(server: AuthorizationServerMetadata): TokenEndpointAuthMethod {
  const supported = server.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  for (const method of ['none', 'client_secret_basic', 'client_secret_post'] as const) {
    if (supported.includes(method)) return method;
  }
  return 'client_secret_basic';
}

function isMethod(value: unknown): value is TokenEndpointAuthMethod {
  return (
    value === 'none' ||
    value === 'client_secret_basic' ||
    value === 'client_secret_post' ||
    value === 'private_key_jwt'
  );
}

function isNative(redirectUri: string): boolean {
  try {
    const url = new URL(redirectUri);
    return url.protocol !== 'https:' && (url.protocol !== 'http:' || isLoopback(url));
  } catch {
    return true;
  }
}
