import { describe, expect, it } from 'vitest';
import { SlotMap } from './slot-map.js';

describe('SlotMap', () => {
  it('behaves as a Map through one, several and no entries', () => {
    const map = new SlotMap<string | number, string>();
    expect(map.size).toBe(0);
    expect(map.get('a')).toBeUndefined();
    map.set('a', 'A');
    expect([map.size, map.get('a'), map.has('a'), map.has('b')]).toEqual([1, 'A', true, false]);
    map.set('a', 'A2');
    expect([map.size, map.get('a')]).toEqual([1, 'A2']);
    map.set(1, 'one').set('c', 'C');
    expect(map.size).toBe(3);
    expect(map.values().sort()).toEqual(['A2', 'C', 'one']);
    expect(map.keys().map(String).sort()).toEqual(['1', 'a', 'c']);
    // Deleting the slotted key leaves the others reachable; a key is never held twice.
    expect(map.delete('a')).toBe(true);
    expect(map.delete('a')).toBe(false);
    map.set(1, 'uno');
    expect([map.size, map.get(1), map.get('c')]).toEqual([2, 'uno', 'C']);
    expect(map.delete('c')).toBe(true);
    map.set('d', 'D');
    expect([map.size, map.get(1), map.get('d')]).toEqual([2, 'uno', 'D']);
    for (const key of map.keys()) map.delete(key);
    expect([map.size, map.values(), map.has(1)]).toEqual([0, [], false]);
    // 1 and '1' are different keys, as in a Map.
    map.set(1, 'n').set('1', 's');
    expect([map.get(1), map.get('1'), map.size]).toEqual(['n', 's', 2]);
  });
});
