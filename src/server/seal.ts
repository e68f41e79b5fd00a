// Sealed state: a string handed to the client that only this server (or one sharing its secret)
// can open. AES-256-GCM through WebCrypto, so it runs on Node, Deno, Bun and Workers alike.
// Used for `requestState` of multi round-trip requests (spec 2026-07-28 basic/patterns/mrtr).

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const IV_BYTES = 12;
/** A value sealed with the one secret (no key id): `v1.<iv>.<cipher>`. */
const VERSION = 'v1';
/** A value sealed with a named key: `v2.<key id>.<iv>.<cipher>`. */
const KEYED = 'v2';

/** One secret of a rotation, named so that sealed values say which key opens them. */
export interface StateKey {
  /** A short name: letters, digits, `_` and `-`. */
  readonly id: string;
  /** At least 32 bytes (or a string of at least 32 characters). */
  readonly secret: string | Uint8Array;
}

/**
 * The secret(s) a Sealer uses: one secret, or keys (the first seals, every one opens), so that a
 * deployment can rotate: add the new key first, keep the old ones until what they sealed expired.
 */
export type StateSecret = string | Uint8Array | readonly StateKey[];

/** Why a sealed value could not be opened. */
export type UnsealFailure = 'malformed' | 'tampered' | 'expired';

/** The outcome of {@link Sealer.open}. */
export type Unsealed<T> = { ok: true; value: T } | { ok: false; reason: UnsealFailure };

/**
 * Sealer encrypts and authenticates JSON values with an expiry. Instances are safe to share;
 * the key is derived once, on first use.
 */
export class Sealer {
  /** The keys by id (`''` for the one unnamed secret, or the random per-process key). */
  readonly #secrets = new Map<string, Uint8Array<ArrayBuffer> | undefined>();
  readonly #keys = new Map<string, Promise<CryptoKey>>();
  /** The id of the key that seals. */
  readonly #current: string;

  /**
   * @param secret at least 32 bytes (or a string of at least 32 characters), or named keys to
   *   rotate (the first seals). Without one, a random key is made per process: state then only
   *   opens on the instance that sealed it. Throws TypeError for a short secret or a bad id.
   */
  constructor(secret?: StateSecret) {
    if (secret === undefined || typeof secret === 'string' || secret instanceof Uint8Array) {
      this.#current = '';
      this.#secrets.set('', secret === undefined ? undefined : secretBytes(secret));
      return;
    }
    if (secret.length === 0) throw new TypeError('give at least one state key');
    for (const key of secret) {
      if (!/^[A-Za-z0-9_-]{1,32}$/.test(key.id)) {
        throw new TypeError(`state key id "${key.id}": use 1-32 letters, digits, _ or -`);
      }
      if (this.#secrets.has(key.id)) throw new TypeError(`state key id "${key.id}" is given twice`);
      this.#secrets.set(key.id, secretBytes(key.secret));
    }
    this.#current = secret[0]?.id ?? '';
  }

  /** Seals `value` (JSON-serializable) so that it opens until `expiresAt` (ms since epoch). */
  async seal(value: unknown, expiresAt: number): Promise<string> {
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const plain = encoder.encode(JSON.stringify({ x: expiresAt, v: value }));
    const key = await this.#getKey(this.#current);
    const cipher = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, plain);
    const body = `${toBase64Url(iv)}.${toBase64Url(new Uint8Array(cipher))}`;
    return this.#current === '' ? `${VERSION}.${body}` : `${KEYED}.${this.#current}.${body}`;
  }

  /** Opens a sealed string; never throws. `now` is injectable for tests. */
  async open<T>(sealed: string, now: number = Date.now()): Promise<Unsealed<T>> {
    const parts = sealed.split('.');
    const keyed = parts[0] === KEYED && parts.length === 4;
    if (!keyed && (parts.length !== 3 || parts[0] !== VERSION)) {
      return { ok: false, reason: 'malformed' };
    }
    const id = keyed ? (parts[1] ?? '') : '';
    // A key this server does not hold (retired, or another deployment's) cannot open it.
    if (!this.#secrets.has(id)) return { ok: false, reason: 'tampered' };
    const iv = fromBase64Url(parts.at(-2) ?? '');
    const cipher = fromBase64Url(parts.at(-1) ?? '');
    if (iv?.byteLength !== IV_BYTES || cipher === undefined)
      return { ok: false, reason: 'malformed' };
    let plain: ArrayBuffer;
    try {
      plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, await this.#getKey(id), cipher);
    } catch {
      // Authentication failed: altered, truncated, or sealed with another key.
      return { ok: false, reason: 'tampered' };
    }
    const envelope = JSON.parse(decoder.decode(plain)) as { x: number; v: T };
    if (envelope.x < now) return { ok: false, reason: 'expired' };
    return { ok: true, value: envelope.v };
  }

  #getKey(id: string): Promise<CryptoKey> {
    let key = this.#keys.get(id);
    if (key === undefined) {
      key = deriveKey(this.#secrets.get(id));
      this.#keys.set(id, key);
    }
    return key;
  }
}

function secretBytes(secret: string | Uint8Array): Uint8Array<ArrayBuffer> {
  const bytes = typeof secret === 'string' ? encoder.encode(secret) : secret;
  if (bytes.byteLength < 32) throw new TypeError('the state secret must be at least 32 bytes');
  return new Uint8Array(bytes);
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
