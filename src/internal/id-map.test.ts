import { describe, expect, it } from 'vitest';
import { IdMap } from './id-map.js';

describe('IdMap', () => {
  it('keeps number and string ids apart', () => {
    const map = new IdMap<string>();
    map.set(1, 'number').set('1', 'string');
    expect(map.size).toBe(2);
    expect(map.get(1)).toBe('number');
    expect(map.get('1')).toBe('string');
    expect(map.delete(1)).toBe(true);
    expect(map.has(1)).toBe(false);
    expect(map.get('1')).toBe('string');
    expect(map.size).toBe(1);
  });

  it('counts an entry set twice once, and a delete of what is absent as false', () => {
    const map = new IdMap<number>();
    map.set('a', 1).set('a', 2);
    expect(map.size).toBe(1);
    expect(map.get('a')).toBe(2);
    expect(map.delete('b')).toBe(false);
    expect(map.delete('a')).toBe(true);
    expect(map.delete('a')).toBe(false);
    expect(map.size).toBe(0);
  });

  it('takes any string as an id, prototype names included', () => {
    const map = new IdMap<string>();
    for (const id of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '']) {
      expect(map.get(id)).toBeUndefined();
      map.set(id, `v${id}`);
      expect(map.get(id)).toBe(`v${id}`);
    }
    expect(map.size).toBe(5);
    expect(map.keys().sort()).toEqual([
      '',
      '__proto__',
      'constructor',
      'hasOwnProperty',
      'toString',
    ]);
  });

  it('takes any number as an id: negative, fractional, large', () => {
    const map = new IdMap<string>();
    const ids = [0, -1, 1.5, 2 ** 40, Number.MAX_SAFE_INTEGER, 1e21];
    for (const id of ids) map.set(id, String(id));
    for (const id of ids) expect(map.get(id)).toBe(String(id));
    expect(map.keys().sort((a, b) => Number(a) - Number(b))).toEqual(
      [...ids].sort((a, b) => a - b),
    );
  });

  it('iterates its entries as copies: deleting while iterating is safe', () => {
    const map = new IdMap<string>();
    map.set(2, 'b').set('x', 'c').set(1, 'a');
    const seen: [string | number, string][] = [];
    for (const [id, value] of map) {
      seen.push([id, value]);
      map.delete(id);
    }
    expect(seen).toEqual([
      [1, 'a'],
      [2, 'b'],
      ['x', 'c'],
    ]);
    expect(map.size).toBe(0);
    expect(map.values()).toEqual([]);
  });

  it('holds a churn of many ids with few at once', () => {
    const map = new IdMap<number>();
    for (let id = 1; id <= 100_000; id++) {
      map.set(id, id);
      if (id > 64) expect(map.delete(id - 64)).toBe(true);
    }
    expect(map.size).toBe(64);
    expect(map.get(100_000 - 63)).toBe(100_000 - 63);
    map.clear();
    expect(map.size).toBe(0);
    expect(map.get(100_000)).toBeUndefined();
  });
});

describe('IdMap against a Map', () => {
  it('agrees with a Map over a random churn of colliding, long-lived and odd ids', () => {
    let seed = 42;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pool: (string | number)[] = [];
    for (let i = 0; i < 40; i++) pool.push(i * 16, i * 16 + 1, 2 ** 32 - 1 - i);
    pool.push(-1, 1.5, 2 ** 32, 'a', '1', '__proto__');
    const map = new IdMap<number>();
    const model = new Map<string | number, number>();
    for (let step = 0; step < 20_000; step++) {
      const id = pool[Math.floor(random() * pool.length)] as string | number;
      if (random() < 0.5) {
        map.set(id, step);
        model.set(id, step);
      } else {
        expect(map.delete(id)).toBe(model.delete(id));
      }
      expect(map.get(id)).toBe(model.get(id));
      expect(map.size).toBe(model.size);
    }
    for (const id of pool) expect(map.get(id)).toBe(model.get(id));
    const sorted = (entries: [string | number, number][]): string[] =>
      entries.map(([id, value]) => `${typeof id}:${String(id)}=${String(value)}`).sort();
    expect(sorted(map.entries())).toEqual(sorted([...model.entries()]));
  });

  it('agrees with a Map over the ids of a counter, answered out of order, many at once', () => {
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const map = new IdMap<number>();
    const model = new Map<number, number>();
    const inFlight: number[] = [];
    for (let id = 2 ** 32 - 5000; id < 2 ** 32; id++) {
      map.set(id, id);
      model.set(id, id);
      inFlight.push(id);
      while (inFlight.length > 100 || (inFlight.length > 0 && random() < 0.3)) {
        const [gone] = inFlight.splice(Math.floor(random() * inFlight.length), 1) as [number];
        expect(map.delete(gone)).toBe(model.delete(gone));
      }
      expect(map.size).toBe(model.size);
    }
    for (const id of inFlight) expect(map.get(id)).toBe(id);
    expect(map.keys().sort()).toEqual([...model.keys()].sort());
  });
});
