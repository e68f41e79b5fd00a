// The OAuth client's randomness and hashing, on Web Crypto (Node, browsers, Deno, Workers), and
// the `jose` package (an optional peer) for what needs JOSE: DPoP proofs and client assertions.
import type * as JoseModule from 'jose';
import { AuthorizationError } from '../../protocol/auth.js';

/** base64url without padding (RFC 7636 appendix A). */
export function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** `bytes` random bytes, base64url: 32 give the 43 characters of a PKCE verifier or a state. */
export function randomToken(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** base64url(SHA-256(text)): the S256 code challenge (RFC 7636) and the DPoP `ath`. */
export async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return base64url(new Uint8Array(digest));
}

/** A PKCE pair (RFC 7636): the verifier kept, the S256 challenge sent. */
export async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = randomToken(32);
  return { verifier, challenge: await sha256(verifier) };
}

export type Jose = typeof JoseModule;

/** The jose module, or undefined when it is not installed. */
export async function tryJose(): Promise<Jose | undefined> {
  try {
    return await import('jose');
  } catch {
    return undefined;
  }
}

/** The jose module; rejects with a clear error when it is not installed. */
export async function needJose(what: string): Promise<Jose> {
  const jose = await tryJose();
  if (jose === undefined) {
    throw new AuthorizationError(
      'missing_dependency',
      `${what} needs the jose package: npm install jose`,
    );
  }
  return jose;
}
