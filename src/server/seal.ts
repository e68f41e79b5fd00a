// Sealed state: a string handed to the client that only this server (or one sharing its secret)
// can open. AES-256-GCM through WebCrypto, so it runs on Node, Deno, Bun and Workers alike.
// Used for `requestState` of multi round-trip requests (spec 2026-07-28 basic/patterns/mrtr).

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const IV_BYTES = 12;
const VERSION = 'v1';

/** Why a sealed value could not be opened. */
export type UnsealFailure = 'malformed' | 'tampered' | 'expired';

/** The outcome of {@link Sealer.open}. */
export type Unsealed<T> = { ok: true; value: T } | { ok: false; reason: UnsealFailure };

/**
 * Sealer encrypts and authenticates JSON values with an expiry. Instances are safe to share;
 * the key is derived once, on first use.
 */
export class Sealer {
  readonly #secret: Uint8Array<ArrayBuffer> | undefined;
  #key: Promise<CryptoKey> | undefined;

  /**
   * @param secret at least 32 bytes (or a string of at least 32 characters). Without one, a
   *   random key is made per process: state then only opens on the instance that sealed it.
   */
  constructor(secret?: string | Uint8Array) {
    if (secret !== undefined) {
      const bytes = typeof secret === 'string' ? encoder.encode(secret) : secret;
      if (bytes.byteLength < 32) throw new TypeError('the state secret must be at least 32 bytes');
      this.#secret = new Uint8Array(bytes);
    }
  }

  /** Seals `value` (JSON-serializable) so that it opens until `expiresAt` (ms since epoch). */
  async seal(value: unknown, expiresAt: number): Promise<string> {
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const plain = encoder.encode(JSON.stringify({ x: expiresAt, v: value }));
    const cipher = await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv },
      await this.#getKey(),
      plain,
    );
    return `${VERSION}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(cipher))}`;
  }

  /** Opens a sealed string; never throws. `now` is injectable for tests. */
  async open<T>(sealed: string, now: number = Date.now()): Promise<Unsealed<T>> {
    const parts = sealed.split('.');
    if (parts.length !== 3 || parts[0] !== VERSION) return { ok: false, reason: 'malformed' };
    const iv = fromBase64Url(parts[1] ?? '');
    const cipher = fromBase64Url(parts[2] ?? '');
    if (iv?.byteLength !== IV_BYTES || cipher === undefined)
      return { ok: false, reason: 'malformed' };
    let plain: ArrayBuffer;
    try {
      plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, await this.#getKey(), cipher);
    } catch {
      // Authentication failed: altered, truncated, or sealed with another key.
      return { ok: false, reason: 'tampered' };
    }
    const envelope = JSON.parse(decoder.decode(plain)) as { x: number; v: T };
    if (envelope.x < now) return { ok: false, reason: 'expired' };
    return { ok: true, value: envelope.v };
  }

  #getKey(): Promise<CryptoKey> {
    this.#key ??= deriveKey(this.#secret);
    return this.#key;
  }
}

async function deriveKey(secret: Uint8Array<ArrayBuffer> | undefined): Promise<CryptoKey> {
  if (secret === undefined) {
    return crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
      'encrypt',
      'decrypt',
    ]);
  }
  // A fixed-purpose derivation, so the same secret used elsewhere yields an unrelated key.
  const base = await crypto.subtle.importKey('raw', secret, 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    {
      name: 'HKDF',
      hash: 'SHA-256',
      salt: new Uint8Array(0),
      info: encoder.encode('mcpkit request state v1'),
    },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  let binary: string;
  try {
    binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
