// A verifier of opaque access tokens through the authorization server's introspection endpoint
// (RFC 7662), for the Streamable HTTP handler's `auth` option. An active answer is cached for a
// short while (never past the token's expiry); the audience must name this resource (RFC 8707).
import type { AuthInfo, TokenVerifier } from '../protocol/auth.js';
import { AuthError } from '../protocol/auth.js';
import { discover } from './discovery.js';
import type { AuthHttp } from './fetch.js';
import { Reachability, authHttp, fetchAnswer } from './fetch.js';
import { principalOf } from './jwt.js';

/** Options of {@link createIntrospectionVerifier}. */
export interface IntrospectionVerifierOptions {
  /** The issuer; its metadata names the endpoint unless `endpoint` is given. */
  readonly issuer: string;
  /** The introspection endpoint; default: `introspection_endpoint` of the issuer's metadata. */
  readonly endpoint?: string;
  /** This resource server's client credentials at the authorization server (Basic auth). */
  readonly clientId: string;
  readonly clientSecret: string;
  /** The audience an active token must name: this server's resource URL. */
  readonly audience: string;
  /** How long an active answer is reused, in ms (never past `exp`). Default 30 000; 0: never. */
  readonly cacheMs?: number;
  /** Most cached answers. Default 10 000. */
  readonly maxCached?: number;
  /** The fetch to use (tests). Default: globalThis.fetch. */
  readonly fetch?: typeof fetch;
  /**
   * How long discovery (all its URLs) and each introspection may take, in ms; then the request
   * is answered 503. Answers larger than 1 MiB are refused unread. Default 5000.
   */
  readonly timeoutMs?: number;
}

/** Creates a {@link TokenVerifier} that introspects each token (cached briefly). */
export function createIntrospectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  const http = authHttp(options, 'createIntrospectionVerifier');
  const cacheMs = options.cacheMs ?? 30_000;
  const maxCached = options.maxCached ?? 10_000;
  const cache = new Map<string, { info: AuthInfo; until: number }>();
  const claimsOf = introspector(options, http);
  // A made-up token is a probe that costs the authorization server one lookup.
  const reachability = new Reachability(() => claimsOf(`probe-${crypto.randomUUID()}`));
  const introspect = async (token: string, now: number): Promise<AuthInfo> => {
    let claims: Record<string, unknown>;
    try {
      claims = await claimsOf(token);
    } catch (error) {
      reachability.failed(error);
      throw error;
    }
    reachability.ok();
    if (claims['active'] !== true) {
      throw new AuthError('invalid_token', 'the access token is not active (expired or revoked)');
    }
    const aud = claims['aud'];
    const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
    if (!audiences.includes(options.audience)) {
      throw new AuthError('invalid_token', 'the access token was issued for another resource');
    }
    const info = principalOf(claims);
    const exp = typeof claims['exp'] === 'number' ? claims['exp'] * 1000 : Infinity;
    if (cacheMs > 0) {
      if (cache.size >= maxCached) cache.delete(cache.keys().next().value ?? '');
      cache.set(token, { info, until: Math.min(now + cacheMs, exp) });
    }
    return info;
  };
  const verify = (token: string): AuthInfo | Promise<AuthInfo> => {
    const now = Date.now();
    const cached = cache.get(token);
    if (cached !== undefined && cached.until > now) return cached.info;
    cache.delete(token);
    return introspect(token, now);
  };
  return Object.assign(verify, { health: reachability.health });
}

/** The claims the authorization server gives for a token; rejects when it gives none. */
function introspector(
  options: IntrospectionVerifierOptions,
  http: AuthHttp,
): (token: string) => Promise<Record<string, unknown>> {
  let endpoint: Promise<string> | undefined;
  const endpointOf = () =>
    (endpoint ??= (async () => {
      if (options.endpoint !== undefined) return options.endpoint;
      const metadata = await discover(options.issuer, http.fetch, http.timeoutMs);
      const uri = metadata['introspection_endpoint'];
      if (typeof uri !== 'string') {
        throw new Error(`the metadata of ${options.issuer} has no introspection_endpoint`);
      }
      return uri;
    })().catch((error: unknown) => {
      endpoint = undefined;
      throw error;
    }));
  const basic = btoa(
    `${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`,
  );
  return async (token) => {
    const { response, text } = await fetchAnswer(http, await endpointOf(), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        authorization: `Basic ${basic}`,
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
    });
    if (!response.ok) throw new Error(`introspection answered ${String(response.status)}`);
    const claims: unknown = JSON.parse(text);
    if (typeof claims !== 'object' || claims === null) {
      throw new Error('introspection answered no JSON object');
    }
    return claims as Record<string, unknown>;
  };
}
