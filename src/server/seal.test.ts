import { describe, expect, it } from 'vitest';
import { Sealer } from './seal.js';

describe('Sealer', () => {
  it('opens what it sealed, before expiry', async () => {
    const sealer = new Sealer('x'.repeat(32));
    const sealed = await sealer.seal({ answers: { r0: 'yes' } }, Date.now() + 60_000);
    await expect(sealer.open(sealed)).resolves.toEqual({
      ok: true,
      value: { answers: { r0: 'yes' } },
    });
  });

  it('hides the content from the client', async () => {
    const sealed = await new Sealer().seal({ secret: 'hunter2' }, Date.now() + 1000);
    expect(sealed).not.toContain('hunter2');
    expect(atob(sealed.split('.')[2]!.replace(/-/g, '+').replace(/_/g, '/'))).not.toContain(
      'hunter2',
    );
  });

  it('refuses expired, tampered, foreign and malformed state', async () => {
    const sealer = new Sealer('k'.repeat(40));
    const sealed = await sealer.seal(1, 1000);
    await expect(sealer.open(sealed, 2000)).resolves.toEqual({ ok: false, reason: 'expired' });
    const fresh = await sealer.seal(1, Date.now() + 1000);
    // Flip a character in the middle of the ciphertext (the last one may hold only padding bits).
    const at = fresh.length - 8;
    const flipped = fresh.slice(0, at) + (fresh[at] === 'A' ? 'B' : 'A') + fresh.slice(at + 1);
    await expect(sealer.open(flipped)).resolves.toEqual({ ok: false, reason: 'tampered' });
    await expect(new Sealer('o'.repeat(32)).open(fresh)).resolves.toEqual({
      ok: false,
      reason: 'tampered',
    });
    for (const bad of [
      '',
      'v1',
      'v1..',
      'v2.a.b',
      'v1.!!.x',
      'v1.AAAA.A',
      'v1.' + 'A'.repeat(16) + '.%%',
    ]) {
      await expect(sealer.open(bad)).resolves.toMatchObject({ ok: false });
    }
  });

  it('rejects a short secret', () => {
    expect(() => new Sealer('short')).toThrow(/at least 32 bytes/);
  });

  it('rotates: named keys seal with the first, open with any, and refuse a retired one', async () => {
    const old = { id: 'k1', secret: 'o'.repeat(32) };
    const next = { id: 'k2', secret: 'n'.repeat(32) };
    const before = new Sealer([old]);
    const sealedBefore = await before.seal('state', Date.now() + 60_000);
    expect(sealedBefore.startsWith('v2.k1.')).toBe(true);
    const during = new Sealer([next, old]);
    await expect(during.open(sealedBefore)).resolves.toEqual({ ok: true, value: 'state' });
    const sealedDuring = await during.seal('new', Date.now() + 60_000);
    expect(sealedDuring.startsWith('v2.k2.')).toBe(true);
    const after = new Sealer([next]);
    await expect(after.open(sealedDuring)).resolves.toEqual({ ok: true, value: 'new' });
    await expect(after.open(sealedBefore)).resolves.toEqual({ ok: false, reason: 'tampered' });
    // A key id that names another key's value does not open it.
    const forged = sealedDuring.replace('v2.k2.', 'v2.k1.');
    await expect(during.open(forged)).resolves.toEqual({ ok: false, reason: 'tampered' });
  });

  it('refuses bad key ids, duplicates and short secrets', () => {
    expect(() => new Sealer([])).toThrow(TypeError);
    expect(() => new Sealer([{ id: 'a.b', secret: 'x'.repeat(32) }])).toThrow(TypeError);
    expect(
      () =>
        new Sealer([
          { id: 'a', secret: 'x'.repeat(32) },
          { id: 'a', secret: 'y'.repeat(32) },
        ]),
    ).toThrow(TypeError);
    expect(() => new Sealer([{ id: 'a', secret: 'short' }])).toThrow(TypeError);
  });
});
