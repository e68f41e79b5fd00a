// DPoP on the resource server (RFC 9449 section 7): a token bound to a key (`cnf.jkt`) is
// accepted only with `Authorization: DPoP <token>` and a fresh proof signed by that key, made for
// this request (`htm`, `htu`), this token (`ath`), not replayed (`jti`), recent (`iat`), and, when
// nonces are on, carrying the server's current nonce (`use_dpop_nonce` otherwise).
import type * as JoseModule from 'jose';
import type { TokenRequest } from '../protocol/auth.js';
import { AuthError } from '../protocol/auth.js';

/** DPoP settings of a verifier. */
export interface DpopOptions {
  /** Accept only DPoP-bound tokens. Default false (bound ones are checked, bearer ones pass). */
  readonly required?: boolean;
  /** Proof algorithms. Default ES256, ES384, RS256, PS256, EdDSA. */
  readonly algorithms?: readonly string[];
  /** How old (or how far in the future) a proof's `iat` may be, in seconds. Default 60. */
  readonly maxAgeSec?: number;
  /** Require the server's nonce in proofs (RFC 9449 section 9). Default false. */
  readonly nonce?: boolean;
  /** How long a nonce is good for, in seconds (the previous one is still accepted). Default 300. */
  readonly nonceLifetimeSec?: number;
}

type Jose = typeof JoseModule;

/** Checks the DPoP side of a request; resolves when it passes, rejects with an AuthError. */
export type DpopCheck = (
  jose: Jose,
  presented: { readonly token: string; readonly boundTo: string | undefined },
  request: TokenRequest,
) => Promise<void>;

const DEFAULT_ALGORITHMS = ['ES256', 'ES384', 'RS256', 'PS256', 'EdDSA'];

function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** A checker with its own replay cache and nonces. */
export function createDpopCheck(options: DpopOptions | undefined): DpopCheck {
  const algorithms = [...(options?.algorithms ?? DEFAULT_ALGORITHMS)];
  const maxAgeSec = options?.maxAgeSec ?? 60;
  const seen = new Map<string, number>(); // jti → when it may be forgotten (ms)
  const nonces = { current: randomNonce(), previous: '', since: Date.now() };
  const nonceLifetimeMs = (options?.nonceLifetimeSec ?? 300) * 1000;
  const currentNonce = () => {
    if (Date.now() - nonces.since > nonceLifetimeMs) {
      nonces.previous = nonces.current;
      nonces.current = randomNonce();
      nonces.since = Date.now();
    }
    return nonces.current;
  };
  const invalid = (why: string) => new AuthError('invalid_dpop_proof', why);
  return async (jose, presented, request) => {
    const { token, boundTo } = presented;
    if (options === undefined) {
      if (boundTo !== undefined) {
        throw new AuthError(
          'invalid_token',
          'the access token is DPoP-bound, which this server does not take',
        );
      }
      return;
    }
    if (request.scheme === 'Bearer') {
      if (boundTo !== undefined) {
        throw new AuthError(
          'invalid_token',
          'the access token is DPoP-bound: send it as "DPoP <token>" with a DPoP proof',
        );
      }
      if (options.required === true) {
        throw new AuthError('invalid_token', 'this server takes only DPoP-bound access tokens');
      }
      return;
    }
    if (boundTo === undefined)
      throw new AuthError('invalid_token', 'the access token is not DPoP-bound');
    const header = request.headers['dpop'];
    if (typeof header !== 'string' || header === '') {
      throw invalid('a DPoP request needs exactly one DPoP proof header');
    }
    let proof: Awaited<ReturnType<Jose['jwtVerify']>>;
    try {
      proof = await jose.jwtVerify(header, jose.EmbeddedJWK, {
        typ: 'dpop+jwt',
        algorithms,
        maxTokenAge: `${String(maxAgeSec)}s`,
        clockTolerance: maxAgeSec,
        requiredClaims: ['jti', 'htm', 'htu', 'iat', 'ath'],
      });
    } catch {
      throw invalid('the DPoP proof is not valid (signature, type, algorithm or age)');
    }
    const claims = proof.payload;
    if (claims['htm'] !== request.method)
      throw invalid('the DPoP proof is for another method (htm)');
    if (typeof claims['htu'] !== 'string' || stripped(claims['htu']) !== request.htu) {
      throw invalid('the DPoP proof is for another URL (htu)');
    }
    const digest = new Uint8Array(
      await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)),
    );
    if (claims['ath'] !== jose.base64url.encode(digest)) {
      throw invalid('the DPoP proof is for another access token (ath)');
    }
    const jwk = proof.protectedHeader.jwk;
    if (jwk === undefined || (await jose.calculateJwkThumbprint(jwk, 'sha256')) !== boundTo) {
      throw invalid('the DPoP proof is signed by another key than the token is bound to');
    }
    if (options.nonce === true) {
      const nonce = currentNonce();
      if (
        claims['nonce'] !== nonce &&
        (nonces.previous === '' || claims['nonce'] !== nonces.previous)
      ) {
        throw new AuthError('use_dpop_nonce', 'the DPoP proof needs the server nonce', { nonce });
      }
    }
    const jti = { id: String(claims['jti']), ttlMs: (maxAgeSec * 2 + 1) * 1000 };
    remember(seen, jti, () => {
      throw invalid('the DPoP proof was used before (jti)');
    });
  };
}

/** A URL without its query and fragment, as `htu` compares (RFC 9449 section 4.3). */
function stripped(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '';
  }
}

/** Records `jti` for `ttlMs`; calls `replayed` when it is already there. Bounded to 100 000. */
function remember(
  seen: Map<string, number>,
  entry: { readonly id: string; readonly ttlMs: number },
  replayed: () => never,
): void {
  const { id: jti, ttlMs } = entry;
  const now = Date.now();
  const until = seen.get(jti);
  if (until !== undefined && until > now) replayed();
  if (seen.size >= 100_000) {
    for (const [key, expiry] of seen) if (expiry <= now) seen.delete(key);
    if (seen.size >= 100_000) seen.delete(seen.keys().next().value ?? '');
  }
  seen.set(jti, now + ttlMs);
}
