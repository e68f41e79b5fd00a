// A verifier of JWT access tokens (RFC 9068 `at+jwt`, and plain JWTs) for the Streamable HTTP
// handler's `auth` option. Keys come from the issuer's JWKS, found through its metadata (RFC
// 8414, then OpenID discovery), cached and refreshed on an unknown `kid` at a bounded rate.
// Right by default: asymmetric algorithms only, `iss` and `aud` (the server's resource URL, RFC
// 8707: a token minted for another resource is refused), `exp` and `nbf` with a small skew. The
// JOSE work is the `jose` package's (an optional peer of mcpkit/auth), loaded on first use.
import type { AuthInfo, TokenRequest, TokenVerifier } from '../protocol/auth.js';
import { AuthError } from '../protocol/auth.js';
import { discoverJwksUri } from './discovery.js';
import type { AuthHttp } from './fetch.js';
import { Reachability, authHttp, cappedFetch } from './fetch.js';
import type { DpopOptions } from './dpop.js';
import { createDpopCheck } from './dpop.js';
// Types only: the module itself is loaded on first use (an optional peer).
import type * as JoseModule from 'jose';

/** The asymmetric JWS algorithms accepted by default (never `none`, never HS*). */
export const DEFAULT_ALGORITHMS: readonly string[] = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];

/** Options of {@link createJwtVerifier}. */
export interface JwtVerifierOptions {
  /** The issuer (`iss`), an https URL (http on loopback, for tests). */
  readonly issuer: string;
  /** The audience tokens must name (`aud`): this server's canonical resource URL. */
  readonly audience: string;
  /** The JWKS URL; default: `jwks_uri` of the issuer's metadata. */
  readonly jwksUri?: string;
  /** Accepted algorithms, a subset of {@link DEFAULT_ALGORITHMS}. */
  readonly algorithms?: readonly string[];
  /** Allowed clock skew for `exp`/`nbf`/`iat`, in seconds. Default 30. */
  readonly clockToleranceSec?: number;
  /** Least time between two JWKS fetches for an unknown `kid`, in ms. Default 30 000. */
  readonly jwksCooldownMs?: number;
  /** The fetch to use (tests). Default: globalThis.fetch. */
  readonly fetch?: typeof fetch;
  /**
   * How long discovery (all its URLs) and each JWKS fetch may take, in ms; then the request is
   * answered 503. Answers larger than 1 MiB are refused unread. Default 5000.
   */
  readonly timeoutMs?: number;
  /**
   * Most verified tokens remembered, so that a client's next request with the same token skips
   * the signature check (until the token's `exp`). Default 10 000; 0 turns it off.
   */
  readonly maxCached?: number;
  /**
   * DPoP (RFC 9449): check the proofs of DPoP-bound tokens (`cnf.jkt`). Without it a bound
   * token is refused, since its binding could not be checked. Pair it with the handler's
   * `auth.dpop`.
   */
  readonly dpop?: DpopOptions;
}

type Jose = typeof JoseModule;

async function loadJose(): Promise<Jose> {
  try {
    return await import('jose');
  } catch (error) {
    throw new Error('mcpkit/auth needs the jose package: npm install jose', { cause: error });
  }
}

/** Creates a {@link TokenVerifier} of JWT access tokens. Throws TypeError on bad options. */
export function createJwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  const algorithms = [...(options.algorithms ?? DEFAULT_ALGORITHMS)];
  const refused = algorithms.filter((alg) => !DEFAULT_ALGORITHMS.includes(alg));
  if (refused.length > 0) {
    throw new TypeError(`createJwtVerifier: ${refused.join(', ')} is not an accepted algorithm`);
  }
  checkUrl(options.issuer, 'issuer');
  checkUrl(options.audience, 'audience');
  const load = keySource(options, authHttp(options, 'createJwtVerifier'));
  const maxCached = options.maxCached ?? 10_000;
  const verifiedTokens = new Map<string, AuthInfo>();
  const skewMs = (options.clockToleranceSec ?? 30) * 1000;
  // Keys fetched at start-up (health) and as jose refreshes them; the state /healthz reports.
  const reachability = new Reachability(() => load().then(({ jwks }) => jwks.reload()));
  const verifyAnew = async (token: string): Promise<AuthInfo> => {
    let jose: Jose | undefined;
    let verified: Awaited<ReturnType<Jose['jwtVerify']>>;
    try {
      const loaded = await load();
      jose = loaded.jose;
      verified = await jose.jwtVerify(token, loaded.jwks, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms,
        clockTolerance: options.clockToleranceSec ?? 30,
        requiredClaims: ['exp'],
      });
    } catch (error) {
      const refused = jose === undefined ? error : refusal(jose, error);
      if (!(refused instanceof AuthError)) reachability.failed(refused);
      throw refused;
    }
    reachability.ok();
    const typ = verified.protectedHeader.typ?.toLowerCase();
    if (typ !== undefined && typ !== 'jwt' && typ !== 'at+jwt' && typ !== 'application/at+jwt') {
      throw new AuthError('invalid_token', 'the token is not an access token');
    }
    const info = principalOf(verified.payload);
    if (maxCached > 0) {
      if (verifiedTokens.size >= maxCached) {
        verifiedTokens.delete(verifiedTokens.keys().next().value ?? '');
      }
      verifiedTokens.set(token, info);
    }
    return info;
  };
  const dpopCheck = createDpopCheck(options.dpop);
  /** The DPoP side, checked on every request (a proof is made for one request). */
  const bound = (info: AuthInfo, token: string, request: TokenRequest): MaybeInfo => {
    const jkt = jktOf(info.claims);
    if (options.dpop === undefined && jkt === undefined) return info;
    return load().then(async ({ jose }) => {
      await dpopCheck(jose, { token, boundTo: jkt }, request);
      return info;
    });
  };
  const verify = (token: string, request: TokenRequest): MaybeInfo => {
    const known = verifiedTokens.get(token);
    if (known !== undefined) {
      // `exp` is required, so every cached principal has one; past it (with skew), verify anew.
      if ((known.expiresAt ?? 0) * 1000 + skewMs > Date.now()) return bound(known, token, request);
      verifiedTokens.delete(token);
    }
    return verifyAnew(token).then((info) => bound(info, token, request));
  };
  return Object.assign(verify, { health: reachability.health });
}

type MaybeInfo = AuthInfo | Promise<AuthInfo>;

interface Keys {
  readonly jose: Jose;
  readonly jwks: ReturnType<Jose['createRemoteJWKSet']>;
}

/**
 * The issuer's keys: `jose` and its remote key set, found through discovery on first use (and
 * again after a failure), fetched within `http`'s limits.
 */
function keySource(options: JwtVerifierOptions, http: AuthHttp): () => Promise<Keys> {
  let keys: Promise<Keys> | undefined;
  return () =>
    (keys ??= (async () => {
      const jose = await loadJose();
      const uri =
        options.jwksUri ?? (await discoverJwksUri(options.issuer, http.fetch, http.timeoutMs));
      const jwks = jose.createRemoteJWKSet(new URL(uri), {
        cooldownDuration: options.jwksCooldownMs ?? 30_000,
        cacheMaxAge: 10 * 60_000,
        timeoutDuration: http.timeoutMs,
        [jose.customFetch]: cappedFetch(http),
      });
      return { jose, jwks };
    })().catch((error: unknown) => {
      keys = undefined; // try discovery again on the next token
      throw error;
    }));
}

/** The key thumbprint a token is bound to (`cnf.jkt`, RFC 9449 section 6.1). */
function jktOf(claims: Readonly<Record<string, unknown>>): string | undefined {
  const cnf = claims['cnf'];
  const jkt = typeof cnf === 'object' && cnf !== null ? (cnf as { jkt?: unknown }).jkt : undefined;
  return typeof jkt === 'string' ? jkt : undefined;
}

function checkUrl(value: string, name: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`createJwtVerifier: ${name} must be a URL`);
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new TypeError(`createJwtVerifier: ${name} must be an https URL (http only on loopback)`);
  }
}

/** What a jose failure means for the client; a failure to reach the keys is rethrown (503). */
function refusal(jose: Jose, error: unknown): unknown {
  const { errors } = jose;
  if (error instanceof errors.JWTExpired)
    return new AuthError('invalid_token', 'the access token expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    const claim = error.claim;
    const why =
      claim === 'aud'
        ? 'the access token was issued for another resource'
        : claim === 'iss'
          ? 'the access token comes from another issuer'
          : claim === 'nbf'
            ? 'the access token is not valid yet'
            : `the access token's "${claim}" claim is not acceptable`;
    return new AuthError('invalid_token', why);
  }
  if (error instanceof errors.JWKSNoMatchingKey) {
    return new AuthError('invalid_token', 'the access token is signed with an unknown key');
  }
  if (
    error instanceof errors.JOSEAlgNotAllowed ||
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JOSENotSupported
  ) {
    return new AuthError('invalid_token', 'the access token is not valid');
  }
  return error;
}

/** The principal of verified claims (RFC 9068 section 2.2). */
export function principalOf(claims: Readonly<Record<string, unknown>>): AuthInfo {
  const scope = claims['scope'];
  const scp = claims['scp'];
  const scopes =
    typeof scope === 'string'
      ? scope.split(' ').filter(Boolean)
      : Array.isArray(scp)
        ? scp.filter((s): s is string => typeof s === 'string')
        : [];
  const text = (key: string) => (typeof claims[key] === 'string' ? claims[key] : undefined);
  return {
    subject: text('sub'),
    clientId: text('client_id') ?? text('azp'),
    scopes,
    expiresAt: typeof claims['exp'] === 'number' ? claims['exp'] : undefined,
    claims,
  };
}
