// The DPoP proof checker on its own (RFC 9449 section 11.1): the `iat` window is what
// docs/auth.md says (60 s old at most, a few seconds ahead for clock skew), and a proof's `jti` is
// remembered for as long as the proof itself would pass, so that no replay is ever taken; the
// in-memory replay store is bounded and forgets what can no longer pass.
import type { JWK, KeyObject } from 'jose';
import * as jose from 'jose';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TokenRequest } from '../protocol/auth.js';
import { AuthError } from '../protocol/auth.js';
import { createDpopCheck } from './dpop.js';
import { createMemoryDpopReplayStore } from './dpop-replay.js';

const HTU = 'https://mcp.example.com/mcp';
const TOKEN = 'an-access-token';

let key: { privateKey: KeyObject | CryptoKey; jwk: JWK; jkt: string };
beforeAll(async () => {
  const pair = await jose.generateKeyPair('ES256');
  const jwk = await jose.exportJWK(pair.publicKey);
  key = { privateKey: pair.privateKey, jwk, jkt: await jose.calculateJwkThumbprint(jwk) };
});
afterEach(() => {
  vi.useRealTimers();
});

const nowSec = (): number => Math.floor(Date.now() / 1000);

async function proof(init: { iat: number; jti?: string }): Promise<string> {
  const ath = jose.base64url.encode(
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(TOKEN))),
  );
  return new jose.SignJWT({ htm: 'POST', htu: HTU, ath, jti: init.jti ?? crypto.randomUUID() })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk })
    .setIssuedAt(init.iat)
    .sign(key.privateKey);
}

function request(dpop: string): TokenRequest {
  return { method: 'POST', url: '/mcp', headers: { dpop }, scheme: 'DPoP', htu: HTU };
}

type Check = ReturnType<typeof createDpopCheck>;

/** Resolves with undefined when `check` takes the proof, else with the refusal. */
async function outcome(check: Check, dpop: string): Promise<unknown> {
  try {
    await check(jose, { token: TOKEN, boundTo: key.jkt }, request(dpop));
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('the DPoP iat window', () => {
  it('takes a proof up to 60 s old and a few seconds ahead; refuses one older or further ahead', async () => {
    const check = createDpopCheck({});
    expect(await outcome(check, await proof({ iat: nowSec() - 55 }))).toBeUndefined();
    expect(await outcome(check, await proof({ iat: nowSec() + 3 }))).toBeUndefined();
    for (const iat of [nowSec() - 70, nowSec() - 110, nowSec() + 30, nowSec() + 60]) {
      const refused = await outcome(check, await proof({ iat }));
      expect(refused).toBeInstanceOf(AuthError);
      expect((refused as AuthError).code).toBe('invalid_dpop_proof');
      expect((refused as AuthError).message).toMatch(/iat/);
    }
  });

  it('refuses a bad window or cache size at creation', () => {
    expect(() => createDpopCheck({ maxAgeSec: 0 })).toThrow(TypeError);
    expect(() => createDpopCheck({ clockSkewSec: -1 })).toThrow(TypeError);
    expect(() => createMemoryDpopReplayStore({ maxEntries: 0 })).toThrow(TypeError);
  });

  it('follows maxAgeSec and clockSkewSec', async () => {
    const check = createDpopCheck({ maxAgeSec: 10, clockSkewSec: 0 });
    expect(await outcome(check, await proof({ iat: nowSec() - 8 }))).toBeUndefined();
    expect(await outcome(check, await proof({ iat: nowSec() - 12 }))).toBeInstanceOf(AuthError);
    expect(await outcome(check, await proof({ iat: nowSec() + 2 }))).toBeInstanceOf(AuthError);
  });
});

describe('the DPoP replay cache', () => {
  it('refuses a replay at every moment the proof would still pass', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.UTC(2026, 10, 26, 12, 0, 0);
    for (const ahead of [0, 4, 5]) {
      vi.setSystemTime(start);
      const check = createDpopCheck({});
      const dpop = await proof({ iat: start / 1000 + ahead });
      expect(await outcome(check, dpop)).toBeUndefined();
      for (let t = 0; t <= 200; t += 1) {
        vi.setSystemTime(start + t * 1000 + 999);
        const label = `${String(t)} s after, iat ${String(ahead)} s ahead`;
        expect(await outcome(check, dpop), label).toBeInstanceOf(AuthError);
      }
    }
  });

  it('forgets a proof once it can no longer pass, and stays bounded', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.UTC(2026, 10, 26, 12, 0, 0);
    vi.setSystemTime(start);
    const store = createMemoryDpopReplayStore({ maxEntries: 3 });
    expect(await store.remember('a', 1000)).toBe(true);
    expect(await store.remember('a', 1000)).toBe(false);
    vi.setSystemTime(start + 999);
    expect(await store.remember('a', 1000)).toBe(false);
    vi.setSystemTime(start + 1000);
    expect(await store.remember('a', 1000)).toBe(true);
    expect(await store.remember('b', 5000)).toBe(true);
    expect(await store.remember('c', 5000)).toBe(true);
    // Full of proofs that could still pass: a new one is refused (503), none is forgotten.
    await expect(store.remember('d', 5000)).rejects.toThrow(/replay cache is full/);
    expect(await store.remember('b', 5000)).toBe(false);
    // Once the oldest can no longer pass, there is room again.
    vi.setSystemTime(start + 2000);
    expect(await store.remember('d', 5000)).toBe(true);
    expect(store.size).toBe(3);
  });

  it('remembers in the store it is given, keyed by the proof key and jti', async () => {
    const seen: { key: string; ttlMs: number }[] = [];
    const check = createDpopCheck({
      replayStore: {
        remember: (k: string, ttlMs: number) => {
          const fresh = !seen.some((entry) => entry.key === k);
          seen.push({ key: k, ttlMs });
          return Promise.resolve(fresh);
        },
      },
    });
    const dpop = await proof({ iat: nowSec(), jti: 'the-jti' });
    expect(await outcome(check, dpop)).toBeUndefined();
    expect(await outcome(check, dpop)).toMatchObject({ code: 'invalid_dpop_proof' });
    expect(seen[0]?.key).toMatch(/^[A-Za-z0-9_-]{43}$/); // a digest: bounded, whatever the jti
    expect(seen[0]?.ttlMs).toBeGreaterThan(60_000);
    expect(seen[0]?.ttlMs).toBeLessThanOrEqual(66_000);
  });
});
