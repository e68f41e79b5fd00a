import { describe, expect, it } from 'vitest';
import { isObject } from './json.js';

describe('isObject', () => {
  it('accepts JSON objects and rejects null, arrays and primitives', () => {
    expect([{}, { a: 1 }, Object.create(null), JSON.parse('{"x":[]}')].map(isObject)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect([null, undefined, [], [1], 'x', 1, true].map(isObject)).toEqual(Array(7).fill(false));
  });
});
