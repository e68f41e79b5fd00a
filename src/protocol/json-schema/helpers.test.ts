// Unit tests for the small helpers: JSON Pointer, path rendering, URI resolution, equality and
// value descriptions.
import { describe, expect, it } from 'vitest';
import { describeValue, quote, showSchemaValue } from './describe.js';
import { deepEqual } from './json.js';
import { evaluatePointer, renderPath, toPointer, unescapeToken } from './pointer.js';
import { codePointLength, isMultipleOf } from './scalars.js';
import { resolveUri, splitFragment } from './uri.js';

describe('pointer', () => {
  it('renders pointers and paths', () => {
    expect(toPointer([])).toBe('');
    expect(toPointer(['a/b', 'c~d', 0])).toBe('/a~1b/c~0d/0');
    expect(renderPath([])).toBe('(root)');
    expect(renderPath(['items', 2, 'name'])).toBe('items[2].name');
    expect(renderPath([0, 'a'])).toBe('[0].a');
    expect(renderPath(['2', 'a-b'])).toBe('["2"]["a-b"]');
  });

  it('unescapes ~1 before ~0', () => {
    expect(unescapeToken('~01')).toBe('~1');
    expect(unescapeToken('a~1b~0')).toBe('a/b~');
  });

  it('evaluates own properties and array indexes only', () => {
    const doc = { a: [10, { b: 'x' }], '': 1 };
    expect(evaluatePointer(doc, '/a/1/b')).toEqual({ found: true, value: 'x' });
    expect(evaluatePointer(doc, '/')).toEqual({ found: true, value: 1 });
    expect(evaluatePointer(doc, '/a/01')).toEqual({ found: false });
    expect(evaluatePointer(doc, '/a/5')).toEqual({ found: false });
    expect(evaluatePointer(doc, '/toString')).toEqual({ found: false });
    expect(evaluatePointer(doc, 'a')).toEqual({ found: false });
  });
});

describe('uri', () => {
  it('resolves references per RFC 3986 section 5.4', () => {
    const base = 'http://a/b/c/d;p?q';
    const cases: [string, string][] = [
      ['g', 'http://a/b/c/g'],
      ['./g', 'http://a/b/c/g'],
      ['g/', 'http://a/b/c/g/'],
      ['/g', 'http://a/g'],
      ['//g', 'http://g'],
      ['?y', 'http://a/b/c/d;p?y'],
      ['#s', 'http://a/b/c/d;p?q#s'],
      ['', 'http://a/b/c/d;p?q'],
      ['..', 'http://a/b/'],
      ['../g', 'http://a/b/g'],
      ['../../g', 'http://a/g'],
      ['../../../g', 'http://a/g'],
      ['g;x=1/../y', 'http://a/b/c/y'],
      ['urn:x:y', 'urn:x:y'],
    ];
    for (const [reference, expected] of cases) expect(resolveUri(base, reference)).toBe(expected);
  });

  it('keeps relative and empty bases relative', () => {
    expect(resolveUri('', '#/a')).toBe('#/a');
    expect(resolveUri('', 'foo.json')).toBe('foo.json');
    expect(resolveUri('dir/a.json', 'b.json#x')).toBe('dir/b.json#x');
    expect(splitFragment('a.json#/x')).toEqual({ uri: 'a.json', fragment: '/x' });
  });
});

describe('values', () => {
  it('compares JSON values deeply', () => {
    expect(deepEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(deepEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(deepEqual([1], { 0: 1 })).toBe(false);
    expect(deepEqual(1, 1.0)).toBe(true);
  });

  it('counts code points and multiples', () => {
    expect(codePointLength('a\u{1F4A9}b')).toBe(3);
    expect(codePointLength('\ud83d')).toBe(1);
    expect(isMultipleOf(0.3, 0.1)).toBe(true);
    expect(isMultipleOf(1e-7, 1e-8)).toBe(true);
    expect(isMultipleOf(0.35, 0.1)).toBe(false);
  });

  it('describes values briefly', () => {
    expect(describeValue('x')).toBe('string "x"');
    expect(describeValue(true)).toBe('boolean true');
    expect(quote('a"b\n')).toBe('"a\\"b\\n"');
    expect(quote(`${'a'.repeat(39)}\u{1F4A9}`, 40)).toBe(`"${'a'.repeat(39)}…"`);
    expect(showSchemaValue({ a: 'x'.repeat(100) })).toMatch(/^\{"a":"x+…$/);
  });
});
