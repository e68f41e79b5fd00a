// Authorization as MCP defines it (spec 2025-11-25 and 2026-07-28 basic/authorization): an MCP
// server over HTTP is an OAuth 2.1 resource server. This file holds what every layer shares and
// does no I/O: the principal handlers see, the error a verifier throws, the scope check, the
// protected resource metadata document (RFC 9728) and the WWW-Authenticate challenge (RFC 6750).
import { McpErrorCode } from './errors.js';

/** The principal of a request whose access token was verified; `ctx.auth` in handlers. */
export interface AuthInfo {
  /** `sub`: who the token speaks for. */
  readonly subject: string | undefined;
  /** `client_id` (or `azp`): the client the token was issued to. */
  readonly clientId: string | undefined;
  /** The scopes the token grants. */
  readonly scopes: readonly string[];
  /** When the token expires, in seconds since the epoch (`exp`). */
  readonly expiresAt: number | undefined;
  /** Every claim of the token (or of its introspection), as verified. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** What a token verifier is given besides the token. */
export interface TokenRequest {
  readonly method: string;
  /** The request's URL as received (path and query). */
  readonly url: string;
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** How the token came: `Authorization: Bearer` or `Authorization: DPoP` (RFC 9449). */
  readonly scheme: 'Bearer' | 'DPoP';
  /**
   * The URL the request was made to as the client saw it, without query or fragment: the
   * resource's origin and the request's path (a DPoP proof's `htu`).
   */
  readonly htu: string;
}

/**
 * Verifies an access token: returns (or resolves with) the principal, or throws (rejects) an
 * AuthError (`invalid_token`: 401). Any other failure is the verifier's own (an unreachable key
 * set): 503, reported to `onError`. Returning synchronously (a token verified before) keeps the
 * request on the handler's synchronous path. `mcpkit/auth` makes JWT and introspection verifiers.
 */
export interface TokenVerifier {
  (token: string, request: TokenRequest): AuthInfo | Promise<AuthInfo>;
  /**
   * Optional: whether the verifier can check tokens now. Resolves when it can; rejects with the
   * reason when it cannot (its authorization server does not answer), promptly. The handler's
   * health endpoint reports it as `auth` (`ok`, or `unreachable` with a 503).
   */
  readonly health?: () => Promise<void>;
}

/** The OAuth error codes of a refusal (RFC 6750 section 3.1). */
export type AuthErrorCode =
  | 'invalid_request'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'invalid_dpop_proof'
  | 'use_dpop_nonce';

/**
 * AuthError is a refusal a verifier or a scope check throws: 401 for `invalid_request` and
 * `invalid_token`, 403 for `insufficient_scope`. Its message is sent to the client as the
 * `error_description`, so it must say what is wrong without quoting the token or internals.
 */
export class AuthError extends Error {
  readonly code: AuthErrorCode;
  /** The scopes that would have been enough (`insufficient_scope`). */
  readonly scopes: readonly string[];
  /** The nonce the client must put in its next DPoP proof (`use_dpop_nonce`). */
  readonly nonce: string | undefined;

  constructor(
    code: AuthErrorCode,
    message: string,
    details: { readonly scopes?: readonly string[]; readonly nonce?: string } = {},
  ) {
    super(message);
    this.name = 'AuthError';
    this.code = code;
    this.scopes = details.scopes ?? [];
    this.nonce = details.nonce;
  }
}

/**
 * The JSON-RPC code of a request refused for a missing scope (mcpkit's, in the server range):
 * {@link McpErrorCode}.InsufficientScope. The HTTP transport answers it 403 with the
 * `insufficient_scope` challenge, as the spec's step-up flow needs. `data.requiredScopes` names
 * the scopes to ask for.
 */
export const INSUFFICIENT_SCOPE: number = McpErrorCode.InsufficientScope;

/** The `data` of an {@link INSUFFICIENT_SCOPE} error. */
export interface InsufficientScopeData {
  readonly requiredScopes: readonly string[];
}

/** `scopes` of a definition, checked (strings without spaces); throws TypeError naming `where`. */
export function checkScopes(scopes: unknown, where: string): readonly string[] {
  if (scopes === undefined) return [];
  if (
    !Array.isArray(scopes) ||
    !scopes.every((s) => typeof s === 'string' && /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s))
  ) {
    throw new TypeError(
      `${where}: scopes must be a list of scope tokens (RFC 6749: no spaces or quotes)`,
    );
  }
  return scopes as readonly string[];
}

/** The scopes of `needed` that `auth` lacks (none when every one is granted). */
export function missingScopes(auth: AuthInfo, needed: readonly string[]): string[] {
  return needed.filter((scope) => !auth.scopes.includes(scope));
}

/**
 * Who a principal is, as a key: issuer, subject and client. A legacy session is bound to the key
 * of the principal that opened it. Undefined for anything that is not an {@link AuthInfo}.
 */
export function principalKey(value: unknown): string | undefined {
  if (!isAuthInfo(value)) return undefined;
  return JSON.stringify([
    value.claims['iss'] ?? null,
    value.subject ?? null,
    value.clientId ?? null,
  ]);
}

/** Whether `value` is an {@link AuthInfo} (what the HTTP transport attaches after verifying). */
export function isAuthInfo(value: unknown): value is AuthInfo {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as { scopes?: unknown }).scopes) &&
    typeof (value as { claims?: unknown }).claims === 'object'
  );
}

/** The Protected Resource Metadata document (RFC 9728 section 2), as this server serves it. */
export interface ProtectedResourceMetadata {
  readonly resource: string;
  readonly authorization_servers: readonly string[];
  readonly scopes_supported?: readonly string[];
  readonly bearer_methods_supported: readonly string[];
  readonly resource_name?: string;
  readonly resource_documentation?: string;
  readonly dpop_signing_alg_values_supported?: readonly string[];
  readonly dpop_bound_access_tokens_required?: boolean;
}

/**
 * The URL of the metadata of `resource` (RFC 9728 section 3.1): the well-known path inserted
 * between the host and the resource's path, `https://h/.well-known/oauth-protected-resource/mcp`.
 */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return `${url.origin}/.well-known/oauth-protected-resource${path}`;
}

/** Quotes a value for an auth-param (RFC 9110 quoted-string: `"` and `\` escaped). */
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * A text as RFC 6750 section 3 allows in `error_description` (printable ASCII but `"` and `\`):
 * other characters become `?`, quotes `'`, so a verifier's message can never break the header.
 */
export function challengeText(text: string): string {
  return text.replace(/["\\]/g, "'").replace(/[^\x20-\x7e]/gu, '?');
}

/**
 * The `WWW-Authenticate` challenge of a refusal (RFC 6750 section 3, RFC 9728 section 5.1):
 * the metadata URL always, the error when a token was given, the scopes when known.
 */
export function bearerChallenge(options: {
  readonly scheme?: 'Bearer' | 'DPoP';
  readonly metadataUrl: string;
  readonly error?: AuthError;
  readonly scopes?: readonly string[];
  /** DPoP: the algorithms the server accepts for proofs. */
  readonly algs?: readonly string[];
}): string {
  const params: string[] = [];
  const { error } = options;
  if (error !== undefined) {
    params.push(
      `error=${quoted(error.code)}`,
      `error_description=${quoted(challengeText(error.message))}`,
    );
  }
  const scopes = error !== undefined && error.scopes.length > 0 ? error.scopes : options.scopes;
  if (scopes !== undefined && scopes.length > 0) params.push(`scope=${quoted(scopes.join(' '))}`);
  if (options.algs !== undefined) params.push(`algs=${quoted(options.algs.join(' '))}`);
  params.push(`resource_metadata=${quoted(options.metadataUrl)}`);
  return `${options.scheme ?? 'Bearer'} ${params.join(', ')}`;
}

/** One challenge of a `WWW-Authenticate` header: its scheme and its auth-params. */
export interface Challenge {
  /** The scheme as sent (`Bearer`, `DPoP`, …); compare it case-insensitively. */
  readonly scheme: string;
  /** The auth-params by lower-case name, unquoted. */
  readonly params: Readonly<Record<string, string>>;
  /** A token68 instead of params (`Basic` and others), if any. */
  readonly token68?: string;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;
const TOKEN68 = /^([A-Za-z0-9\-._~+/]+=*)[ \t]*(?:,|$)/;
const QUOTED = /^"((?:[^"\\]|\\.)*)"/;

/**
 * The challenges of a `WWW-Authenticate` value (RFC 9110 section 11.6.1): several may share one
 * header (`Bearer …, DPoP algs="ES256"`), params are quoted (with `\` escapes) or tokens, and a
 * scheme may carry a token68 instead. Parsing stops at what does not parse; never throws.
 */
export function parseChallenges(header: string): Challenge[] {
  const challenges: Challenge[] = [];
  let params: Record<string, string> | undefined;
  let rest = header;
  for (;;) {
    rest = rest.replace(/^[\s,]+/, '');
    const name = TOKEN.exec(rest)?.[0];
    if (name === undefined) break;
    rest = rest.slice(name.length).replace(/^[ \t]+/, '');
    if (rest.startsWith('=') && params !== undefined) {
      // name=value, an auth-param of the challenge being read.
      rest = rest.slice(1).replace(/^[ \t]+/, '');
      const quoted = QUOTED.exec(rest);
      const value =
        quoted === null ? TOKEN.exec(rest)?.[0] : (quoted[1] ?? '').replace(/\\(.)/g, '$1');
      if (value === undefined) break;
      params[name.toLowerCase()] = value;
      rest = rest.slice(quoted === null ? value.length : quoted[0].length);
      continue;
    }
    // A new challenge: its scheme, then a token68 or its params.
    params = {};
    const token68 = TOKEN68.exec(rest);
    if (token68?.[1] !== undefined && !/^[^=,\s]+[ \t]*=[ \t]*[^=\s]/.test(rest)) {
      challenges.push({ scheme: name, params, token68: token68[1] });
      rest = rest.slice(token68[0].length);
    } else {
      challenges.push({ scheme: name, params });
    }
  }
  return challenges;
}

/**
 * Where a client looks for the protected resource metadata of the MCP server at `serverUrl`
 * (spec basic/authorization, RFC 9728 section 3.1): the URL a challenge named first, then the
 * path-suffixed well-known URL, then the root one.
 */
export function resourceMetadataUrls(serverUrl: string, fromChallenge?: string): string[] {
  const url = new URL(serverUrl);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  const urls = [
    ...(fromChallenge === undefined ? [] : [fromChallenge]),
    `${url.origin}/.well-known/oauth-protected-resource${path}`,
    `${url.origin}/.well-known/oauth-protected-resource`,
  ];
  return [...new Set(urls)];
}

/**
 * The metadata URLs of an authorization server's `issuer`, in the order the spec says to try
 * them (2025-11-25 basic/authorization#authorization-server-metadata-discovery): RFC 8414 with
 * the well-known path inserted, OpenID Connect Discovery inserted, then appended. An issuer
 * without a path has two (the root documents); one with a path is never looked up at the root.
 */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  const urls = [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
  return [...new Set(urls)];
}

/** One request an {@link HttpAuthorizer} authorizes or is told was refused. */
export interface AuthorizedRequest {
  /** The URL requested, as sent. */
  readonly url: string;
  /** `POST`, `GET` or `DELETE`. */
  readonly method: string;
}

/** A request the server refused with 401 or 403, with what the refusal said. */
export interface RefusedRequest extends AuthorizedRequest {
  readonly status: number;
  /** How many times this request was already sent again after a refusal (0 at the first). */
  readonly attempt: number;
  /** The response's `WWW-Authenticate` header, if any. */
  readonly wwwAuthenticate: string | undefined;
  /** The response's `DPoP-Nonce` header, if any (RFC 9449 section 9). */
  readonly dpopNonce: string | undefined;
}

/**
 * What an HTTP client transport asks of the party that authorizes its requests (the OAuth
 * client of `mcpkit/client`, or a custom one). The transport calls `headers` before every
 * request; on a 401 or 403 it calls `refused` and, when that resolves true, sends the request
 * again with fresh headers, at most a few times. Errors either method throws (the flow failed:
 * a metadata mismatch, a refused consent) reject the request as they are; they must never
 * quote a token or secret.
 */
export interface HttpAuthorizer {
  /** The headers that authorize `request` (`Authorization`, `DPoP`); none when not yet known. */
  headers(request: AuthorizedRequest): Promise<Readonly<Record<string, string>>>;
  /** Handles a refusal; true when the request should be sent again, false to give up. */
  refused(request: RefusedRequest): Promise<boolean>;
}

/**
 * AuthorizationError is a failure to obtain authorization for an MCP server: the flow met
 * something the spec says to stop at (a resource or issuer that does not match, a wrong
 * `state` or `iss`, no PKCE S256), an authorization server that refused, or the retry limit.
 * `code` names the reason; the message says what to check and never quotes a credential.
 */
export class AuthorizationError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AuthorizationError';
    this.code = code;
  }
}
