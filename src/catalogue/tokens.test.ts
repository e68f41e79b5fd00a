// The token counter under hostile text: linear in the text, bounded per call, exact where a
// text has no piece longer than a chunk (issue #36, point 1).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { CHUNK_CHARS, MAX_COUNTED_CHARS, chunks, loadTokenizer } from './tokens.js';

const tokenizer = await loadTokenizer();
const options = { disallowedSpecial: new Set<string>() };
const whole = (text: string): number => encode(text, options).length;

/** Milliseconds `run` takes. */
function timed(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

describe('chunks', () => {
  it('covers the text in order, each slice at most CHUNK_CHARS, no surrogate pair split', () => {
    for (const text of ['', 'a', 'B'.repeat(5000), '😀'.repeat(3000), 'word '.repeat(2000)]) {
      const slices = [...chunks(text)];
      expect(slices.join('')).toBe(text);
      for (const slice of slices) {
        expect(slice.length).toBeLessThanOrEqual(CHUNK_CHARS);
        expect(slice.length).toBeGreaterThan(0);
        expect(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(slice)).toBe(false);
      }
    }
  });

  it("ends chunks where gpt-tokenizer's own pre-tokenizer ends a piece", async () => {
    const constants = await import('gpt-tokenizer/encodingParams/constants');
    const sample = 'It\'s 12345 "JSON":{"a":1}\n\n  indented\tTabs 漢字 😀 ÉCOLE école.\r\n';
    const text = sample.repeat(60);
    const pieces = text.matchAll(new RegExp(constants.O200K_TOKEN_SPLIT_REGEX.source, 'gu'));
    const ends = new Set([...pieces].map((match) => match.index + match[0].length));
    let at = 0;
    for (const slice of chunks(text)) expect(ends.has((at += slice.length))).toBe(true);
  });
});

describe('count', () => {
  it('counts spaces before a word at a chunk boundary as the whole text does', () => {
    // Alone, a chunk ending in spaces makes them one piece; in place the last one is the word's.
    for (let k = 0; k < 4; k++) {
      const prefix = 'ab '.repeat(CHUNK_CHARS).slice(0, CHUNK_CHARS - 15 - k);
      const text = `${prefix}${' '.repeat(15)}1653 GET /repos`;
      expect(tokenizer.count(text)).toBe(whole(text));
    }
  });

  it('counts texts without long pieces exactly (the docs, tool definitions, random text)', () => {
    const docs = fileURLToPath(new URL('../../docs/', import.meta.url));
    for (const file of readdirSync(docs).filter((name) => name.endsWith('.md'))) {
      const text = readFileSync(join(docs, file), 'utf8').slice(0, MAX_COUNTED_CHARS);
      expect(tokenizer.count(text), file).toBe(whole(text));
    }
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { maxLength: 80 }),
        (words) => {
          const text = words.join(' ');
          expect(tokenizer.count(text)).toBe(whole(text));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('counts a long run without breaks in linear time (was 26 s for 100,000 characters)', () => {
    for (const text of ['B'.repeat(100_000), '漢'.repeat(50_000), ' '.repeat(50_000)]) {
      let tokens = 0;
      const ms = timed(() => (tokens = tokenizer.count(text)));
      expect(ms, `${text[0]} × ${text.length}`).toBeLessThan(200);
      expect(tokens).toBeGreaterThan(0);
      expect(tokens).toBeLessThanOrEqual(text.length);
    }
  });

  it('extrapolates past MAX_COUNTED_CHARS without encoding the rest', () => {
    const text = 'lorem ipsum dolor sit amet, '.repeat(Math.ceil((MAX_COUNTED_CHARS * 30) / 28));
    let tokens = 0;
    const ms = timed(() => (tokens = tokenizer.count(text)));
    expect(ms).toBeLessThan(1000);
    const exact = whole(text.slice(0, 28 * 1000)) * (text.length / (28 * 1000));
    expect(Math.abs(tokens - exact) / exact).toBeLessThan(0.01);
  });
});

describe('cut', () => {
  it('cuts exactly as a whole encoding does on ordinary text', () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(200);
    for (const tokens of [0, 1, 7, 100, 1999, 2000, 5000]) {
      const cut = tokenizer.cut(text, tokens);
      expect(text.startsWith(cut)).toBe(true);
      expect(whole(cut)).toBe(Math.min(tokens, whole(text)));
    }
  });
});
