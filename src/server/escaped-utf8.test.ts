import { describe, expect, it } from 'vitest';
import { escapedUtf8 } from './escaped-utf8.js';

const DECODE = new TextDecoder();

/** What escapedUtf8 must give: JSON.stringify's escaped text, as UTF-8. */
function expected(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** A random string over ASCII, quotes, backslashes, controls, BMP letters, pairs and lone halves. */
function randomText(length: number, random: () => number): string {
  const parts = [
    'a',
    'Z',
    ' ',
    '"',
    '\\',
    '\n',
    '\t',
    '\u0000',
    '\u001f',
    '\u007f',
    'é',
    '€',
    '😀',
  ];
  parts.push('\ud800', '\udfff', '\udbff\udc00');
  let text = '';
  while (text.length < length) text += parts[Math.floor(random() * parts.length)] ?? '';
  return text;
}

describe('escapedUtf8', () => {
  it('gives the bytes of JSON.stringify escaping, for every kind of character', () => {
    const samples = [
      '',
      'plain',
      'a"b\\c',
      '\b\f\n\r\t',
      '\u0001\u001e',
      'é€😀',
      '\ud800x',
      'x\udc00',
      '\udbff\udfff',
    ];
    for (const text of samples) expect(DECODE.decode(escapedUtf8(text))).toBe(expected(text));
  });

  it('agrees with JSON.stringify on random text (seeded)', () => {
    let seed = 42;
    const random = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 300; round++) {
      const text = randomText(1 + Math.floor(random() * 400), random);
      const bytes = escapedUtf8(text);
      expect(DECODE.decode(bytes)).toBe(expected(text));
      // The bytes are the UTF-8 of that text exactly (a lone surrogate is escaped, never U+FFFD).
      expect(bytes).toEqual(new TextEncoder().encode(expected(text)));
    }
  });

  it('gives a copy: a later call does not change what an earlier one gave', () => {
    const first = escapedUtf8('first "one"');
    escapedUtf8('second');
    expect(DECODE.decode(first)).toBe('first \\"one\\"');
  });
});
