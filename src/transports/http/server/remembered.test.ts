import { describe, expect, it } from 'vitest';
import { remembered } from './remembered.js';

describe('remembered', () => {
  it('works a value out once while it is recent, and right whatever the order', () => {
    const seen: string[] = [];
    const lengthOf = remembered((value) => {
      seen.push(value);
      return { length: value.length };
    });
    for (let round = 0; round < 3; round++) {
      expect(lengthOf('ab')).toEqual({ length: 2 });
      expect(lengthOf('ab')).toEqual({ length: 2 });
      expect(lengthOf('abc')).toEqual({ length: 3 });
    }
    expect(seen).toEqual(['ab', 'abc']);
    // Past 16 values the map starts again: still right, worked out again when needed.
    for (let i = 0; i < 40; i++) expect(lengthOf('x'.repeat(i))).toEqual({ length: i });
    expect(lengthOf('ab')).toEqual({ length: 2 });
    expect(seen.filter((value) => value === 'ab')).toHaveLength(2);
  });
});
