import { describe, expect, it } from 'vitest';
import {
  boundsOf,
  choicesOf,
  htmlPattern,
  initialValue,
  kindOf,
  patternProblem,
  unwrapNullable,
} from './schema';

describe('form fields from JSON Schema', () => {
  it('draws each kind of property', () => {
    expect(kindOf({ type: 'string' })).toBe('string');
    expect(kindOf({ type: 'integer' })).toBe('integer');
    expect(kindOf({ type: ['number', 'null'] })).toBe('number');
    expect(kindOf({ type: 'boolean' })).toBe('boolean');
    expect(kindOf({ type: 'string', enum: ['a', 'b'] })).toBe('choice');
    expect(kindOf({ type: 'array', items: { type: 'string' } })).toBe('array');
    expect(kindOf({ type: 'object', properties: { a: { type: 'string' } } })).toBe('object');
    // What a form cannot draw faithfully is edited as JSON.
    expect(kindOf({ type: 'object' })).toBe('json');
    expect(kindOf({})).toBe('json');
    expect(kindOf({ anyOf: [{ type: 'string' }, { type: 'number' }] })).toBe('json');
  });

  it('titles enum and oneOf/anyOf const choices', () => {
    expect(choicesOf({ enum: ['x', 2] })).toEqual([
      { value: 'x', label: 'x' },
      { value: 2, label: '2' },
    ]);
    expect(choicesOf({ enum: ['a'], enumNames: ['Alpha'] })).toEqual([
      { value: 'a', label: 'Alpha' },
    ]);
    expect(choicesOf({ oneOf: [{ const: 'r', title: 'Red' }, { const: 'g' }] })).toEqual([
      { value: 'r', label: 'Red' },
      { value: 'g', label: 'g' },
    ]);
    expect(choicesOf({ oneOf: [{ type: 'string' }] })).toBeUndefined();
  });

  it('reads an optional property spelled as anyOf [schema, null]', () => {
    expect(
      unwrapNullable({ anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }], title: 'N' }),
    ).toEqual({ type: 'integer', minimum: 1, title: 'N' });
  });

  it('prefills defaults, and required nested objects with theirs', () => {
    expect(
      initialValue({
        type: 'object',
        properties: {
          count: { type: 'integer', default: 3 },
          name: { type: 'string' },
          nested: { type: 'object', properties: { on: { type: 'boolean', default: true } } },
        },
        required: ['nested'],
      }),
    ).toEqual({ count: 3, nested: { on: true } });
  });

  it('gives numbers their bounds, exclusive ones included', () => {
    expect(boundsOf({ minimum: 0, maximum: 300 })).toEqual({ min: 0, max: 300 });
    expect(boundsOf({ exclusiveMinimum: 1 })).toEqual({ min: 1 });
  });
});

describe('htmlPattern', () => {
  const html = (pattern: string, value: string) => {
    const attribute = htmlPattern(pattern);
    if (attribute === undefined) throw new Error(`no attribute for ${pattern}`);
    return new RegExp(`^(?:${attribute})$`, 'v').test(value);
  };

  it('matches like JSON Schema (anywhere) under the whole-value rule of HTML', () => {
    expect(html('^demo://', 'demo://resource/x')).toBe(true);
    expect(html('^demo://', 'file://x')).toBe(false);
    expect(html('abc', 'xxabcxx')).toBe(true);
    expect(html('[a-z]+$', '1abc')).toBe(true);
  });

  it('keeps a pattern anchored at both ends, escaped for the v flag', () => {
    expect(htmlPattern('^(a|b)$')).toBe('^(a|b)$');
    expect(htmlPattern('^[A-Za-z0-9._-]{1,64}$')).toBe('^[A-Za-z0-9._\\-]{1,64}$');
    expect(html('^[A-Za-z0-9._-]{1,64}$', 'notes.txt.gz')).toBe(true);
    expect(html('^[A-Za-z0-9._-]{1,64}$', 'no spaces')).toBe(false);
  });

  it('explains a mismatch the JSON Schema way', () => {
    expect(patternProblem('^demo://', 'demo://x')).toBe('');
    expect(patternProblem('^demo://', 'x')).toMatch(/Must match the pattern \^demo:\/\//);
    expect(patternProblem('(', 'x')).toBe('');
    expect(patternProblem('^a', '')).toBe('');
  });
});
