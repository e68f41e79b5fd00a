// Parameter serialization against the style examples of the OpenAPI specification (3.1.1,
// section 4.8.12.4, "Style Examples"): `color` as a string "blue", an array
// ["blue", "black", "brown"] and an object { R: 100, G: 200, B: 150 }, in every style and explode.
import { describe, expect, it } from 'vitest';
import { cookiePairs, headerValue, pathValue, queryPairs } from './serialize.js';
import type { ParameterLocation, PlannedParameter } from './types.js';

const STRING = 'blue';
const ARRAY = ['blue', 'black', 'brown'];
const OBJECT = { R: 100, G: 200, B: 150 };

function param(where: ParameterLocation, style: string, explode: boolean): PlannedParameter {
  return {
    key: 'color',
    name: 'color',
    in: where,
    style,
    explode,
    allowReserved: false,
    json: false,
  };
}

describe('path parameters', () => {
  it.each([
    ['matrix', false, ';color=blue', ';color=blue,black,brown', ';color=R,100,G,200,B,150'],
    ['matrix', true, ';color=blue', ';color=blue;color=black;color=brown', ';R=100;G=200;B=150'],
    ['label', false, '.blue', '.blue,black,brown', '.R,100,G,200,B,150'],
    ['label', true, '.blue', '.blue.black.brown', '.R=100.G=200.B=150'],
    ['simple', false, 'blue', 'blue,black,brown', 'R,100,G,200,B,150'],
    ['simple', true, 'blue', 'blue,black,brown', 'R=100,G=200,B=150'],
  ] as const)('%s explode=%s', (style, explode, string, array, object) => {
    const p = param('path', style, explode);
    expect([pathValue(p, STRING), pathValue(p, ARRAY), pathValue(p, OBJECT)]).toEqual([
      string,
      array,
      object,
    ]);
  });
});

describe('query parameters', () => {
  const join = (pairs: string[]) => pairs.join('&');
  it.each([
    ['form', false, 'color=blue', 'color=blue,black,brown', 'color=R,100,G,200,B,150'],
    ['form', true, 'color=blue', 'color=blue&color=black&color=brown', 'R=100&G=200&B=150'],
    [
      'spaceDelimited',
      false,
      'color=blue',
      'color=blue%20black%20brown',
      'color=R%20100%20G%20200%20B%20150',
    ],
    ['pipeDelimited', false, 'color=blue', 'color=blue|black|brown', 'color=R|100|G|200|B|150'],
    // exploded delimited arrays are sent as form's are
    [
      'spaceDelimited',
      true,
      'color=blue',
      'color=blue&color=black&color=brown',
      'R=100&G=200&B=150',
    ],
    [
      'pipeDelimited',
      true,
      'color=blue',
      'color=blue&color=black&color=brown',
      'R=100&G=200&B=150',
    ],
  ] as const)('%s explode=%s', (style, explode, string, array, object) => {
    const p = param('query', style, explode);
    expect([
      join(queryPairs(p, STRING)),
      join(queryPairs(p, ARRAY)),
      join(queryPairs(p, OBJECT)),
    ]).toEqual([string, array, object]);
  });

  it('deepObject, and reserved characters encoded unless allowed', () => {
    expect(queryPairs(param('query', 'deepObject', true), OBJECT).join('&')).toBe(
      'color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150',
    );
    expect(queryPairs(param('query', 'form', true), 'a/b?c&d')).toEqual(['color=a%2Fb%3Fc%26d']);
    expect(queryPairs({ ...param('query', 'form', true), allowReserved: true }, 'a/b?c&d')).toEqual(
      ['color=a/b?c%26d'],
    );
    expect(queryPairs({ ...param('query', 'form', true), json: true }, { a: 1 })).toEqual([
      'color=%7B%22a%22%3A1%7D',
    ]);
  });
});

describe('header and cookie parameters', () => {
  it('headers are simple', () => {
    expect(headerValue(param('header', 'simple', false), ARRAY)).toBe('blue,black,brown');
    expect(headerValue(param('header', 'simple', false), OBJECT)).toBe('R,100,G,200,B,150');
    expect(headerValue(param('header', 'simple', true), OBJECT)).toBe('R=100,G=200,B=150');
  });

  it('cookies are form: one per item exploded, else joined by commas, values encoded', () => {
    expect(cookiePairs(param('cookie', 'form', true), 'a b;c')).toEqual(['color=a%20b%3Bc']);
    expect(cookiePairs(param('cookie', 'form', false), ARRAY)).toEqual(['color=blue,black,brown']);
    expect(cookiePairs(param('cookie', 'form', true), ARRAY)).toEqual([
      'color=blue',
      'color=black',
      'color=brown',
    ]);
    expect(cookiePairs(param('cookie', 'form', true), OBJECT)).toEqual(['R=100', 'G=200', 'B=150']);
    expect(cookiePairs(param('cookie', 'form', false), OBJECT)).toEqual([
      'color=R,100,G,200,B,150',
    ]);
  });
});
