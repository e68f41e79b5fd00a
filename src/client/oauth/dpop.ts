// DPoP on the client (RFC 9449): a key pair per token set, a fresh proof for every request it
// authorizes (`htm`, `htu` without query or fragment, `iat`, `jti`, `ath` at the resource
// server) and the nonces servers hand out (section 8 at the token endpoint, 9 at the resource).
import type { Jose } from './crypto.js';
import { randomToken, sha256 } from './crypto.js';

/** The proof algorithm mcpkit signs with. */
export const DPOP_ALG = 'ES256';

/** A DPoP key: its private JWK (stored with the tokens) and what signs with it. */
export interface DpopKey {
  readonly jwk: Readonly<Record<string, unknown>>;
  proof(request: {
    method: string;
    url: string;
    accessToken?: string;
    nonce?: string;
  }): Promise<string>;
}

/** A new key pair. */
export async function newDpopKey(jose: Jose): Promise<DpopKey> {
  const { privateKey } = await jose.generateKeyPair(DPOP_ALG, { extractable: true });
  const jwk: Record<string, unknown> = { ...(await jose.exportJWK(privateKey)) };
  return dpopKey(jose, jwk);
}

/** The key of a stored private JWK. */
export function dpopKey(jose: Jose, jwk: Readonly<Record<string, unknown>>): DpopKey {
  const publicJwk = Object.fromEntries(Object.entries(jwk).filter(([name]) => name !== 'd'));
  let key: Promise<CryptoKey | Uint8Array> | undefined;
  return {
    jwk,
    async proof({ method, url, accessToken, nonce }) {
      key ??= jose.importJWK(jwk, DPOP_ALG);
      const target = new URL(url);
      const claims: Record<string, unknown> = {
        htm: method,
        htu: `${target.origin}${target.pathname}`,
        jti: randomToken(16),
        iat: Math.floor(Date.now() / 1000),
      };
      if (accessToken !== undefined) claims['ath'] = await sha256(accessToken);
      if (nonce !== undefined) claims['nonce'] = nonce;
      return new jose.SignJWT(claims)
        .setProtectedHeader({ alg: DPOP_ALG, typ: 'dpop+jwt', jwk: publicJwk })
        .sign(await key);
    },
  };
}

/** The latest nonce each server origin handed out. */
export class DpopNonces {
  readonly #nonces = new Map<string, string>();

  get(url: string): string | undefined {
    return this.#nonces.get(new URL(url).origin);
  }

  /** Remembers `nonce` for the origin of `url`; true when it is new. */
  set(url: string, nonce: string | null | undefined): boolean {
    if (nonce === null || nonce === undefined || nonce === '') return false;
    const origin = new URL(url).origin;
    if (this.#nonces.get(origin) === nonce) return false;
    this.#nonces.set(origin, nonce);
    return true;
  }
}
