// The resource-server gate of the Streamable HTTP handler (spec basic/authorization, RFC 6750,
// RFC 9728): serves the protected resource metadata, and admits a request only with a verified
// access token, attaching its principal to the exchange (handlers see `ctx.auth`). A refusal is
// 401 or 403 with the challenge a client follows to its authorization server; the body says why
// in words that quote neither the token nor the verifier's internals.
import { messageOf } from '../../../internal/message-of.js';
import type { MaybePromise } from '../../../internal/maybe.js';
import { isPromise } from '../../../internal/maybe.js';
import { ErrorCode } from '../../../jsonrpc/errors.js';
import type { Response } from '../../../jsonrpc/message.js';
import type {
  AuthInfo,
  InsufficientScopeData,
  ProtectedResourceMetadata,
} from '../../../protocol/auth.js';
import {
  AuthError,
  INSUFFICIENT_SCOPE,
  bearerChallenge,
  missingScopes,
  protectedResourceMetadataUrl,
} from '../../../protocol/auth.js';
import type { HttpExchange, HttpReply } from './exchange.js';
import { errorReply, joined, jsonReply, pathOf } from './exchange.js';
import type { Challenge } from './reply.js';
import type { TokenVerifier } from '../../../protocol/auth.js';

/** Options of `StreamableHttpOptions.auth`. */
export interface HttpAuthOptions {
  /**
   * The canonical URL of this MCP server as clients reach it (`https://mcp.example.com/mcp`):
   * the RFC 8707 resource, the audience tokens must be minted for, and the base of the metadata
   * URL. Behind a proxy, the public URL.
   */
  readonly resource: string;
  /** Issuer URLs of the authorization servers that mint tokens for it. */
  readonly authorizationServers: readonly string[];
  readonly verify: TokenVerifier;
  /** Scopes every request needs; a token without them gets 403 `insufficient_scope`. */
  readonly requiredScopes?: readonly string[];
  /** `scopes_supported` of the metadata. Default: `requiredScopes`. */
  readonly scopesSupported?: readonly string[];
  /** `resource_name` of the metadata. */
  readonly resourceName?: string;
  /** `resource_documentation` of the metadata. */
  readonly resourceDocumentation?: string;
  /**
   * DPoP (RFC 9449): accept `Authorization: DPoP <token>`, advertise it in the metadata, and
   * challenge with the DPoP scheme. The verifier checks the proofs (createJwtVerifier's `dpop`).
   * `required`: only DPoP-bound tokens (default false).
   */
  readonly dpop?: { readonly required?: boolean; readonly algorithms?: readonly string[] };
}

/** The gate's settings, resolved once. */
export interface ResolvedAuth {
  readonly verify: TokenVerifier;
  readonly requiredScopes: readonly string[];
  /** The metadata URL named in every challenge. */
  readonly metadataUrl: string;
  /** The paths the metadata is served at. */
  readonly metadataPaths: ReadonlySet<string>;
  /** The metadata reply, built once. */
  readonly metadata: HttpReply;
  /** The 403 step-up a response stands for (INSUFFICIENT_SCOPE), if it is one. */
  readonly challenge: (response: Response) => Challenge | undefined;
  /** The resource's origin, which a request's path completes into a DPoP `htu`. */
  readonly origin: string;
  /** DPoP settings, when on. */
  readonly dpop: { readonly required: boolean; readonly algorithms: readonly string[] } | undefined;
}

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** The DPoP proof algorithms accepted by default (asymmetric, as RFC 9449 requires). */
const DPOP_ALGORITHMS: readonly string[] = ['ES256', 'ES384', 'RS256', 'PS256', 'EdDSA'];

/** Resolves {@link HttpAuthOptions}; throws TypeError on a resource that is not an absolute URL. */
export function resolveAuth(
  options: HttpAuthOptions | undefined,
  endpointPath: string,
): ResolvedAuth | undefined {
  if (options === undefined) return undefined;
  let resource: URL;
  try {
    resource = new URL(options.resource);
  } catch {
    throw new TypeError(
      `auth.resource must be an absolute URL, not ${JSON.stringify(options.resource)}`,
    );
  }
  if (resource.hash !== '')
    throw new TypeError('auth.resource must not have a fragment (RFC 8707)');
  if (options.authorizationServers.length === 0) {
    throw new TypeError('auth.authorizationServers must name at least one issuer');
  }
  if (typeof options.verify !== 'function') throw new TypeError('auth.verify must be a function');
  const requiredScopes = options.requiredScopes ?? [];
  const scopes = scopesOf(options);
  const document: ProtectedResourceMetadata = {
    resource: options.resource,
    authorization_servers: options.authorizationServers,
    bearer_methods_supported: ['header'],
    ...(scopes === undefined ? {} : { scopes_supported: scopes }),
    ...(options.resourceName === undefined ? {} : { resource_name: options.resourceName }),
    ...(options.resourceDocumentation === undefined
      ? {}
      : { resource_documentation: options.resourceDocumentation }),
    ...(options.dpop === undefined
      ? {}
      : {
          dpop_signing_alg_values_supported: options.dpop.algorithms ?? DPOP_ALGORITHMS,
          dpop_bound_access_tokens_required: options.dpop.required ?? false,
        }),
  };
  const resourcePath = resource.pathname === '/' ? '' : resource.pathname.replace(/\/$/, '');
  const metadataUrl = protectedResourceMetadataUrl(options.resource);
  return {
    verify: options.verify,
    requiredScopes,
    metadataUrl,
    origin: resource.origin,
    dpop:
      options.dpop === undefined
        ? undefined
        : {
            required: options.dpop.required ?? false,
            algorithms: options.dpop.algorithms ?? DPOP_ALGORITHMS,
          },
    challenge: stepUp(metadataUrl, requiredScopes),
    metadataPaths: new Set([
      WELL_KNOWN,
      `${WELL_KNOWN}${resourcePath}`,
      `${WELL_KNOWN}${endpointPath}`,
    ]),
    // Public and the same for everyone: any origin may read it (browser clients discover it).
    metadata: jsonReply(200, document, {
      'access-control-allow-origin': '*',
      'cache-control': 'max-age=300',
    }),
  };
}

/**
 * The health check `check` (none: always up) with the verifier's state added: `auth: 'ok'`, or a
 * failure with `auth: 'unreachable'` (503) while the verifier cannot reach its authorization
 * server. `check` runs first; its failure is the answer.
 */
export function withAuth(
  check: (() => unknown) | undefined,
  verifier: TokenVerifier,
): () => Promise<unknown> {
  return async () => {
    const details: unknown = await check?.();
    try {
      await verifier.health?.();
    } catch (error) {
      const why = messageOf(error);
      throw Object.assign(new Error(`auth: ${why}`), { details: { auth: 'unreachable' } });
    }
    return { ...(typeof details === 'object' && details !== null ? details : {}), auth: 'ok' };
  };
}

function scopesOf(options: HttpAuthOptions): readonly string[] | undefined {
  const scopes = options.scopesSupported ?? options.requiredScopes;
  return scopes === undefined || scopes.length === 0 ? undefined : scopes;
}

/** The reply to a request for the metadata (GET or HEAD; a CORS preflight too). */
export function metadataReply(auth: ResolvedAuth, method: string): HttpReply {
  if (method === 'GET' || method === 'HEAD') return auth.metadata;
  if (method === 'OPTIONS') {
    return {
      status: 204,
      headers: {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET',
        'access-control-max-age': '600',
      },
      body: undefined,
    };
  }
  return { status: 405, headers: { allow: 'GET' }, body: undefined };
}

/** The refusal of a request by the gate: 401 or 403 with the challenge. */
export function refusal(
  auth: ResolvedAuth,
  error: AuthError | undefined,
  scheme: 'Bearer' | 'DPoP' = 'Bearer',
): HttpReply {
  const status = error?.code === 'insufficient_scope' ? 403 : 401;
  // RFC 9449 section 7.1: DPoP errors, a DPoP request's refusal, and a server that takes only
  // DPoP-bound tokens challenge with the DPoP scheme and the algorithms it accepts.
  const dpop = auth.dpop;
  const asDpop =
    dpop !== undefined &&
    (scheme === 'DPoP' ||
      dpop.required ||
      error?.code === 'invalid_dpop_proof' ||
      error?.code === 'use_dpop_nonce');
  const challenge = bearerChallenge({
    scheme: asDpop ? 'DPoP' : 'Bearer',
    metadataUrl: auth.metadataUrl,
    ...(error === undefined ? {} : { error }),
    scopes: auth.requiredScopes,
    ...(asDpop ? { algs: dpop.algorithms } : {}),
  });
  const message =
    error === undefined
      ? 'unauthorized: this server needs an access token'
      : `${status === 403 ? 'forbidden' : 'unauthorized'}: ${error.message}`;
  const headers: Record<string, string> = {
    'www-authenticate': challenge,
    'access-control-expose-headers':
      error?.nonce === undefined ? 'WWW-Authenticate' : 'WWW-Authenticate, DPoP-Nonce',
  };
  if (error?.nonce !== undefined) headers['dpop-nonce'] = error.nonce;
  return errorReply(status, { code: ErrorCode.InvalidRequest, message }, headers);
}

/**
 * Admits `exchange` (undefined; its `auth` is then the principal) or answers its refusal. A
 * verifier that fails for a reason of its own is reported and answered 503.
 */
export function authenticate(
  auth: ResolvedAuth,
  exchange: HttpExchange,
  report: (error: unknown, where: string) => void,
): MaybePromise<HttpReply | undefined> {
  if (/[?&]access_token=/.test(exchange.url)) {
    return refusal(
      auth,
      new AuthError(
        'invalid_request',
        'access tokens are not accepted in the query string; send them in the Authorization header',
      ),
    );
  }
  const header = joined(exchange.headers['authorization']);
  if (header === undefined || header === '') return refusal(auth, undefined);
  const match = /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  const scheme = match?.[1]?.toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer';
  if (match?.[2] === undefined || (scheme === 'DPoP' && auth.dpop === undefined)) {
    const expected =
      auth.dpop === undefined ? '"Bearer <token>"' : '"Bearer <token>" or "DPoP <token>"';
    return refusal(
      auth,
      new AuthError('invalid_request', `the Authorization header must be ${expected}`),
    );
  }
  const request = {
    method: exchange.method,
    url: exchange.url,
    headers: exchange.headers,
    scheme,
    htu: auth.origin + pathOf(exchange.url),
  } as const;
  let verified: AuthInfo | Promise<AuthInfo>;
  try {
    verified = auth.verify(match[2], request);
  } catch (error) {
    return refused(auth, error, { report, scheme });
  }
  if (!isPromise(verified)) return admit(auth, exchange, verified);
  return verified.then(
    (info) => admit(auth, exchange, info),
    (error: unknown) => refused(auth, error, { report, scheme }),
  );
}

/** Admits a verified principal that has every required scope (undefined), else the 403. */
function admit(auth: ResolvedAuth, exchange: HttpExchange, info: AuthInfo): HttpReply | undefined {
  const missing = missingScopes(info, auth.requiredScopes);
  if (missing.length > 0) {
    const why = `the token lacks the scope ${missing.join(', ')}`;
    return refusal(auth, new AuthError('insufficient_scope', why, { scopes: auth.requiredScopes }));
  }
  exchange.auth = info;
  return undefined;
}

/** The refusal for a verifier's failure: 401 for an AuthError, else 503 (reported). */
function refused(
  auth: ResolvedAuth,
  error: unknown,
  context: { report: (error: unknown, where: string) => void; scheme: 'Bearer' | 'DPoP' },
): HttpReply {
  const { report, scheme } = context;
  if (error instanceof AuthError) return refusal(auth, error, scheme);
  report(error, 'token verification');
  return errorReply(
    503,
    {
      code: ErrorCode.InternalError,
      message: 'the access token could not be verified now; try again later',
    },
    { 'retry-after': '5' },
  );
}

/** The 403 step-up for responses that are an INSUFFICIENT_SCOPE error (the server's per-tool check). */
function stepUp(
  metadataUrl: string,
  requiredScopes: readonly string[],
): (response: Response) => Challenge | undefined {
  return (response) => {
    if (!('error' in response) || response.error.code !== INSUFFICIENT_SCOPE) return undefined;
    const data = response.error.data as Partial<InsufficientScopeData> | undefined;
    const given: unknown = data?.requiredScopes;
    const needed = Array.isArray(given)
      ? given.filter((scope): scope is string => typeof scope === 'string')
      : [];
    // Step-up asks for everything the request needs: the endpoint's scopes and the tool's.
    const scopes = [...new Set([...requiredScopes, ...needed])];
    const error = new AuthError(
      'insufficient_scope',
      `the token lacks the scope ${needed.join(' ')}`,
      { scopes },
    );
    return {
      status: 403,
      headers: {
        'www-authenticate': bearerChallenge({ metadataUrl, error }),
        'access-control-expose-headers': 'WWW-Authenticate',
      },
    };
  };
}
