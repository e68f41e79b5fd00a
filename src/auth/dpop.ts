// DPoP on the resource server (RFC 9449 section 7): a token bound to a key (`cnf.jkt`) is
// accepted only with `Authorization: DPoP <token>` and a fresh proof signed by that key, made for
// this request (`htm`, `htu`), this token (`ath`), not replayed (`jti`), recent (`iat`), and, when
// nonces are on, carrying the server's current nonce (`use_dpop_nonce` otherwise).
import type * as JoseModule from 'jose';
import type { TokenRequest } from '../protocol/auth.js';
import { AuthError } from '../protocol/auth.js';
import type { DpopReplayStore } from './dpop-replay.js';
import { createMemoryDpopReplayStore } from './dpop-replay.js';

/** DPoP settings of a verifier. */
export interface DpopOptions {
  /** Accept only DPoP-bound tokens. Default false (bound ones are checked, bearer ones pass). */
  readonly required?: boolean;
  /** Proof algorithms. Default ES256, ES384, RS256, PS256, EdDSA. */
  readonly algorithms?: readonly string[];
  /** How old a proof's `iat` may be, in seconds. Default 60. */
  readonly maxAgeSec?: number;
  /**
   * How far ahead of this server's clock a proof's `iat` may be (the client's clock running
   * fast), in seconds. Default 5.
   */
  readonly clockSkewSec?: number;
  /**
   * Where the proofs taken are remembered (their key and `jti`), each until it can no longer pass
   * (`iat` + `maxAgeSec` + `clockSkewSec`). Default: this process's memory, 100 000 proofs at
   * most. Processes that serve as one share one: `createRedisDpopReplayStore` of
   * mcpkit/stores/redis.
   */
  readonly replayStore?: DpopReplayStore;
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

/**
 * A checker with its nonces and replay store (its own in memory unless one is given). Throws
 * TypeError for a `maxAgeSec` that is not positive or a `clockSkewSec` that is negative.
 */
export function createDpopCheck(options: DpopOptions | undefined): DpopCheck {
  const algorithms = [...(options?.algorithms ?? DEFAULT_ALGORITHMS)];
  const maxAgeSec = options?.maxAgeSec ?? 60;
  const skewSec = options?.clockSkewSec ?? 5;
  if (!(Number.isFinite(maxAgeSec) && maxAgeSec > 0)) {
    throw new TypeError(`dpop.maxAgeSec must be a positive number, got ${String(maxAgeSec)}`);
  }
  if (!(Number.isFinite(skewSec) && skewSec >= 0)) {
    throw new TypeError(`dpop.clockSkewSec must be a number ≥ 0, got ${String(skewSec)}`);
  }
  const replays = options?.replayStore ?? createMemoryDpopReplayStore();
  const checkNonce = nonceCheck((options?.nonceLifetimeSec ?? 300) * 1000);
  const invalid = (why: string) => new AuthError('invalid_dpop_proof', why);
  return async (jose, presented, request) => {
    const { token, boundTo } = presented;
    if (options === undefined || request.scheme === 'Bearer' || boundTo === undefined) {
      checkUnproven(options, boundTo, request.scheme);
      return;
    }
    const header = request.headers['dpop'];
    if (typeof header !== 'string' || header === '') {
      throw invalid('a DPoP request needs exactly one DPoP proof header');
    }
    let proof: Awaited<ReturnType<Jose['jwtVerify']>>;
    try {
      proof = await jose.jwtVerify(header, jose.EmbeddedJWK, {
        typ: 'dpop+jwt',
        algorithms,
        clockTolerance: skewSec,
        requiredClaims: ['jti', 'htm', 'htu', 'iat', 'ath'],
      });
    } catch {
      throw invalid('the DPoP proof is not valid (signature, type, algorithm or claims)');
    }
    const claims = proof.payload;
    const passesUntilMs = checkIssued(claims, maxAgeSec, skewSec);
    if (claims['htm'] !== request.method)
      throw invalid('the DPoP proof is for another method (htm)');
    if (typeof claims['htu'] !== 'string' || stripped(claims['htu']) !== request.htu) {
      throw invalid('the DPoP proof is for another URL (htu)');
    }
    if (claims['ath'] !== (await digest(jose, token))) {
      throw invalid('the DPoP proof is for another access token (ath)');
    }
    const jwk = proof.protectedHeader.jwk;
    if (jwk === undefined || (await jose.calculateJwkThumbprint(jwk, 'sha256')) !== boundTo) {
      throw invalid('the DPoP proof is signed by another key than the token is bound to');
    }
    if (options.nonce === true) checkNonce(claims['nonce']);
    // Remembered until no process whose clock is within the skew of this one would take it.
    const key = await digest(jose, `${boundTo} ${String(claims.jti)}`);
    const ttlMs = Math.max(1, passesUntilMs + skewSec * 1000 - Date.now() + 1);
    if (!(await replays.remember(key, ttlMs))) {
      throw invalid('the DPoP proof was used before (jti)');
    }
  };
}

/**
 * A request without a proof to check: passes (resolves) when the token is not bound and DPoP is
 * not required; throws an AuthError otherwise.
 */
function checkUnproven(
  options: DpopOptions | undefined,
  boundTo: string | undefined,
  scheme: TokenRequest['scheme'],
): void {
  const refuse = (why: string) => new AuthError('invalid_token', why);
  if (options === undefined) {
    if (boundTo !== undefined) {
      throw refuse('the access token is DPoP-bound, which this server does not take');
    }
  } else if (scheme === 'Bearer') {
    if (boundTo !== undefined) {
      throw refuse('the access token is DPoP-bound: send it as "DPoP <token>" with a DPoP proof');
    }
    if (options.required === true) throw refuse('this server takes only DPoP-bound access tokens');
  } else {
    throw refuse('the access token is not DPoP-bound');
  }
}

/**
 * The server's nonces (RFC 9449 section 9), renewed every `lifetimeMs` (the previous one still
 * taken): returns a check that throws a `use_dpop_nonce` AuthError for any other nonce.
 */
function nonceCheck(lifetimeMs: number): (nonce: unknown) => void {
  const nonces = { current: randomNonce(), previous: '', since: Date.now() };
  return (given) => {
    if (Date.now() - nonces.since > lifetimeMs) {
      nonces.previous = nonces.current;
      nonces.current = randomNonce();
      nonces.since = Date.now();
    }
    const nonce = nonces.current;
    if (given !== nonce && (nonces.previous === '' || given !== nonces.previous)) {
      throw new AuthError('use_dpop_nonce', 'the DPoP proof needs the server nonce', { nonce });
    }
  };
}

/**
 * Checks a proof's `jti` and `iat` (at most `maxAgeSec` old, `skewSec` ahead); returns until
 * when, in milliseconds, the proof passes. Throws an AuthError.
 */
function checkIssued(claims: JoseModule.JWTPayload, maxAgeSec: number, skewSec: number): number {
  const invalid = (why: string) => new AuthError('invalid_dpop_proof', why);
  if (typeof claims.jti !== 'string' || claims.jti === '') {
    throw invalid('the DPoP proof has no jti');
  }
  // jose checked that iat is a number.
  const issuedMs = (claims.iat ?? 0) * 1000;
  const now = Date.now();
  if (issuedMs + maxAgeSec * 1000 < now) {
    throw invalid(`the DPoP proof is older than ${String(maxAgeSec)} s (iat)`);
  }
  if (issuedMs > now + skewSec * 1000)
    throw invalid('the DPoP proof is issued in the future (iat)');
  return issuedMs + maxAgeSec * 1000;
}

/** The base64url SHA-256 of `text`. */
async function digest(jose: Jose, text: string): Promise<string> {
  const bytes = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return jose.base64url.encode(new Uint8Array(bytes));
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
