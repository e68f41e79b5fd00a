// Discovery (spec basic/authorization, 2025-03-26 through 2026-07-28): the protected resource
// metadata of the MCP server (RFC 9728), the authorization server it names and that server's
// metadata (RFC 8414, OpenID Connect Discovery), with the checks that keep a token from going
// where it must not: the metadata's `resource` covers the server, its `issuer` is the one asked.
// A server without resource metadata is a 2025-03-26 server: its origin is the authorization
// server, with default endpoints when it publishes no metadata either.
import { AuthorizationError, metadataUrls, resourceMetadataUrls } from '../../protocol/auth.js';
import type { OAuthHttp } from './http.js';
import { checkEndpoint, getDocument, jsonDocument } from './http.js';
import type { AuthorizationServerMetadata } from './types.js';

/** What discovery found for one MCP server. */
export interface Discovered {
  /** The `resource` to request tokens for (RFC 8707); undefined for a 2025-03-26 server. */
  readonly resource: string | undefined;
  /** The resource metadata's `scopes_supported`. */
  readonly scopesSupported: readonly string[] | undefined;
  /** Whether the resource metadata says the server takes DPoP-bound tokens (RFC 9728). */
  readonly dpop: boolean;
  readonly server: AuthorizationServerMetadata;
}

/**
 * Discovers the authorization server of the MCP server at `serverUrl`; `metadataUrl` is the
 * `resource_metadata` of its challenge, if any. Throws an AuthorizationError on a resource
 * that does not cover the server, an issuer that does not match, or no usable metadata.
 */
export async function discover(
  http: OAuthHttp,
  serverUrl: URL,
  metadataUrl: string | undefined,
): Promise<Discovered> {
  for (const url of resourceMetadataUrls(serverUrl.href, metadataUrl)) {
    const document = await getDocument(http, url);
    if (document === undefined || typeof document['resource'] !== 'string') continue;
    const resource = checkResource(document['resource'], serverUrl);
    const issuer = firstIssuer(document['authorization_servers'], url);
    return {
      resource,
      scopesSupported: strings(document['scopes_supported']),
      dpop:
        (strings(document['dpop_signing_alg_values_supported'])?.length ?? 0) > 0 ||
        document['dpop_bound_access_tokens_required'] === true,
      server: await serverMetadata(http, issuer),
    };
  }
  return {
    resource: undefined,
    scopesSupported: undefined,
    dpop: false,
    server: await legacyServer(http, serverUrl),
  };
}

/**
 * The resource metadata's `resource` must be the MCP server or a URL above it on the same
 * origin (a root document serves every path); anything else would send the token elsewhere.
 */
function checkResource(resource: string, serverUrl: URL): string {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    throw new AuthorizationError(
      'resource_mismatch',
      `the resource metadata names "${resource}", not a URL`,
    );
  }
  const base = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  const path = serverUrl.pathname.endsWith('/') ? serverUrl.pathname : `${serverUrl.pathname}/`;
  if (url.origin !== serverUrl.origin || !path.startsWith(base) || url.hash !== '') {
    throw new AuthorizationError(
      'resource_mismatch',
      `the resource metadata is for ${resource}, not for ${serverUrl.href}; no authorization was requested`,
    );
  }
  return resource;
}

function firstIssuer(value: unknown, from: string): string {
  const issuer = strings(value)?.[0];
  if (issuer === undefined) {
    throw new AuthorizationError(
      'invalid_metadata',
      `the resource metadata at ${from} names no authorization server`,
    );
  }
  return issuer;
}

/** The metadata of `issuer`, from the first of its well-known URLs that has it. */
async function serverMetadata(
  http: OAuthHttp,
  issuer: string,
): Promise<AuthorizationServerMetadata> {
  for (const url of metadataUrls(issuer)) {
    const document = await getDocument(http, url);
    if (document === undefined) continue;
    // RFC 8414 section 3.3: the metadata is used only if it is the issuer's own.
    if (document['issuer'] !== issuer) {
      throw new AuthorizationError(
        'issuer_mismatch',
        `the metadata at ${url} is for issuer "${String(document['issuer'])}", not "${issuer}"; it was not used`,
      );
    }
    return metadataOf(document, issuer);
  }
  throw new AuthorizationError(
    'no_metadata',
    `no authorization server metadata found for ${issuer}`,
  );
}

/**
 * A 2025-03-26 server: metadata at its origin, else the default endpoints there. That revision
 * derives no issuer identifier to compare with, so the document is taken when its `issuer` is
 * on the server's own origin (the one it was fetched from), and that issuer is the one recorded.
 */
async function legacyServer(http: OAuthHttp, serverUrl: URL): Promise<AuthorizationServerMetadata> {
  const origin = serverUrl.origin;
  const url = `${origin}/.well-known/oauth-authorization-server`;
  const document = await serverDocument(http, url, serverUrl);
  if (document !== undefined) {
    const issuer = document['issuer'];
    if (typeof issuer !== 'string' || originOf(issuer) !== origin) {
      throw new AuthorizationError(
        'issuer_mismatch',
        `the metadata at ${url} is for issuer "${String(issuer)}", not one on ${origin}; it was not used`,
      );
    }
    return metadataOf(document, issuer);
  }
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    registration_endpoint: `${origin}/register`,
    code_challenge_methods_supported: ['S256'],
  };
}

/**
 * {@link getDocument} of a URL on the MCP server's own origin, where the server not answering
 * at all means the server is down (or the URL wrong), not that it has no such document: that
 * is said, instead of falling back to default endpoints that cannot answer either.
 */
async function serverDocument(
  http: OAuthHttp,
  url: string,
  serverUrl: URL,
): Promise<Readonly<Record<string, unknown>> | undefined> {
  try {
    return await jsonDocument(http, url);
  } catch (error) {
    if (!(error instanceof AuthorizationError) || error.code !== 'unreachable') throw error;
    const why = /^cannot reach \S+: (.*)$/s.exec(error.message)?.[1] ?? error.message;
    throw new AuthorizationError(
      'server_unreachable',
      `the MCP server at ${serverUrl.href} cannot be reached: ${why}`,
      { cause: error },
    );
  }
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

function metadataOf(
  document: Readonly<Record<string, unknown>>,
  issuer: string,
): AuthorizationServerMetadata {
  const optionalEndpoint = (name: string): string | undefined =>
    document[name] === undefined ? undefined : checkEndpoint(document[name], name, issuer);
  const authorization = optionalEndpoint('authorization_endpoint');
  const registration = optionalEndpoint('registration_endpoint');
  const lists = [
    'scopes_supported',
    'grant_types_supported',
    'code_challenge_methods_supported',
    'token_endpoint_auth_methods_supported',
    'dpop_signing_alg_values_supported',
  ] as const;
  const metadata: Record<string, unknown> = {
    issuer,
    token_endpoint: checkEndpoint(document['token_endpoint'], 'token_endpoint', issuer),
    ...(authorization === undefined ? {} : { authorization_endpoint: authorization }),
    ...(registration === undefined ? {} : { registration_endpoint: registration }),
    client_id_metadata_document_supported:
      document['client_id_metadata_document_supported'] === true,
    authorization_response_iss_parameter_supported:
      document['authorization_response_iss_parameter_supported'] === true,
  };
  for (const name of lists) {
    const list = strings(document[name]);
    if (list !== undefined) metadata[name] = list;
  }
  return metadata as unknown as AuthorizationServerMetadata;
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
}
