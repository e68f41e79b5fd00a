import { describe, expect, it } from 'vitest';
import { asObject, canonicalJson, isObject, stringRecord } from './json.js';

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

describe('canonicalJson', () => {
  it('writes keys sorted at every depth, arrays in order, the same text for reordered keys', () => {
    const a = JSON.parse('{"b":1,"a":{"y":[3,{"q":1,"p":2}],"x":"é"}}');
    const b = JSON.parse('{"a":{"x":"é","y":[3,{"p":2,"q":1}]},"b":1}');
    expect(canonicalJson(a)).toBe('{"a":{"x":"é","y":[3,{"p":2,"q":1}]},"b":1}');
    expect(canonicalJson(b)).toBe(canonicalJson(a));
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
    expect(canonicalJson([null, 'x', 1.5, true])).toBe('[null,"x",1.5,true]');
  });
});

describe('asObject and stringRecord', () => {
  it('give a JSON object back, and undefined for anything else', () => {
    const value = { a: 1 };
    expect(asObject(value)).toBe(value);
    expect([null, [], 'x', 1, undefined].map(asObject)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('take an object of strings, treat absent as empty, and refuse the rest', () => {
    expect(stringRecord({ a: 'x', b: '' })).toEqual({ a: 'x', b: '' });
    expect(stringRecord(undefined)).toEqual({});
    expect(stringRecord({ a: 1 })).toBeUndefined();
    expect(stringRecord(['x'])).toBeUndefined();
    expect(stringRecord(null)).toBeUndefined();
  });
});
