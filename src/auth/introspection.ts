// A verifier of opaque access tokens through the authorization server's introspection endpoint
// (RFC 7662), for the Streamable HTTP handler's `auth` option. An active answer is cached for a
// short while (never past the token's expiry); the audience must name this resource (RFC 8707).
import type { AuthInfo, TokenVerifier } from '../protocol/auth.js';
import { AuthError } from '../protocol/auth.js';
import { discover } from './discovery.js';
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
}

/** Creates a {@link TokenVerifier} that introspects each token (cached briefly). */
export function createIntrospectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  const doFetch = options.fetch ?? globalThis.fetch;
  const cacheMs = options.cacheMs ?? 30_000;
  const maxCached = options.maxCached ?? 10_000;
  const cache = new Map<string, { info: AuthInfo; until: number }>();
  let endpoint: Promise<string> | undefined;
  const endpointOf = () =>
    (endpoint ??= (async () => {
      if (options.endpoint !== undefined) return options.endpoint;
      const uri = (await discover(options.issuer, doFetch))['introspection_endpoint'];
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
  const introspect = async (token: string, now: number): Promise<AuthInfo> => {
    const response = await doFetch(await endpointOf(), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        authorization: `Basic ${basic}`,
      },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
    });
    if (!response.ok) throw new Error(`introspection answered ${String(response.status)}`);
    const claims = (await response.json()) as Record<string, unknown>;
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
  return (token) => {
    const now = Date.now();
    const cached = cache.get(token);
    if (cached !== undefined && cached.until > now) return cached.info;
    cache.delete(token);
    return introspect(token, now);
  };
}
