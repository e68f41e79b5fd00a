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
});
