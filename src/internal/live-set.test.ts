import { describe, expect, it } from 'vitest';
import { LiveSet } from './live-set.js';

describe('LiveSet', () => {
  it('keeps values in the order they were added, each add its own entry', () => {
    const set = new LiveSet<string>();
    const a = set.add('a');
    set.add('b');
    const again = set.add('a');
    expect(set.size).toBe(3);
    expect(set.values()).toEqual(['a', 'b', 'a']);
    set.delete(a);
    expect(set.values()).toEqual(['b', 'a']);
    set.delete(again);
    expect(set.values()).toEqual(['b']);
    expect(set.last()).toBe('b');
  });

  it('removes an entry once, from the middle, the head or the tail, and clears its links', () => {
    const set = new LiveSet<number>();
    const entries = [1, 2, 3, 4].map((n) => set.add(n));
    set.delete(entries[1]!);
    set.delete(entries[1]!); // a second delete does nothing
    expect(set.size).toBe(3);
    expect(set.values()).toEqual([1, 3, 4]);
    expect(entries[1]!.value).toBeUndefined();
    set.delete(entries[0]!);
    set.delete(entries[3]!);
    expect(set.values()).toEqual([3]);
    expect(set.last()).toBe(3);
    set.delete(entries[2]!);
    expect(set.size).toBe(0);
    expect(set.last()).toBeUndefined();
    expect(set.values()).toEqual([]);
    set.add(5);
    expect(set.values()).toEqual([5]);
  });

  it('answers has() and clear() (which returns what it removed)', () => {
    const set = new LiveSet<object>();
    const [x, y] = [{}, {}];
    const entry = set.add(x);
    set.add(y);
    expect(set.has(x)).toBe(true);
    set.delete(entry);
    expect(set.has(x)).toBe(false);
    expect(set.has(y)).toBe(true);
    expect(set.clear()).toEqual([y]);
    expect(set.size).toBe(0);
    expect(set.has(y)).toBe(false);
  });
});
