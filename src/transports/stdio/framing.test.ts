import { describe, expect, it, vi } from 'vitest';
import { createLineSplitter, DEFAULT_MAX_LINE_BYTES, encodeFrame } from './framing.js';

const utf8 = new TextEncoder();

function splitAll(chunks: (string | Uint8Array)[], maxLineBytes?: number): string[] {
  const lines: string[] = [];
  const splitter = createLineSplitter(
    (line) => lines.push(line),
    maxLineBytes === undefined ? {} : { maxLineBytes },
  );
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return lines;
}

describe('createLineSplitter', () => {
  it('splits lines across and within chunks, tolerating \\r\\n and skipping blank lines', () => {
    expect(splitAll(['{"a":1}\n{"b"', ':2}\r\n\n', '\r\n  \n{"c":3}\n'])).toEqual([
      '{"a":1}',
      '{"b":2}',
      '{"c":3}',
    ]);
  });

  it('hands over a final line without a newline at end()', () => {
    const lines: string[] = [];
    const splitter = createLineSplitter((line) => lines.push(line));
    splitter.push('one\ntw');
    expect(lines).toEqual(['one']);
    splitter.end();
    expect(lines).toEqual(['one', 'tw']);
    splitter.end();
    expect(lines).toEqual(['one', 'tw']);
  });

  it('reassembles multi-byte characters cut at every possible byte position', () => {
    const text = 'aé€😀z'; // 1-, 2-, 3- and 4-byte UTF-8 sequences
    const bytes = utf8.encode(`${text}\n${text}\n`);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(splitAll([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual([text, text]);
    }
    const oneByOne = Array.from(bytes, (byte) => Uint8Array.of(byte));
    expect(splitAll(oneByOne)).toEqual([text, text]);
  });

  it('turns invalid UTF-8 into U+FFFD without losing the newline', () => {
    expect(splitAll([Uint8Array.of(0x61, 0xe2, 0x82, 0x0a, 0x62, 0x0a)])).toEqual(['a\uFFFD', 'b']);
  });

  it('discards an over-long line, reports it once, and resyncs at the next newline', () => {
    const onError = vi.fn();
    const lines: string[] = [];
    const splitter = createLineSplitter((line) => lines.push(line), { maxLineBytes: 10, onError });
    splitter.push('short\n0123456');
    splitter.push('789abcdef');
    splitter.push(utf8.encode('0123456789'.repeat(100)));
    splitter.push('tail\nok\n');
    expect(lines).toEqual(['short', 'ok']);
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]?.[0]).toMatchObject({
      code: 'INVALID_MESSAGE',
      message: 'line longer than 10 bytes discarded',
    });
  });

  it('reports lines and over-long lines in input order, even within one chunk', () => {
    const events: string[] = [];
    const splitter = createLineSplitter((line) => events.push(line), {
      maxLineBytes: 5,
      onError: () => events.push('<too long>'),
    });
    splitter.push('a\nbb\n' + 'x'.repeat(10) + '\nc\n' + 'y'.repeat(10));
    splitter.end();
    expect(events).toEqual(['a', 'bb', '<too long>', 'c', '<too long>']);
  });

  it('counts the limit in UTF-8 bytes, for strings and for bytes', () => {
    const line = '€€€'; // 9 bytes, 3 UTF-16 units
    expect(splitAll([`${line}\n`], 9)).toEqual([line]);
    expect(splitAll([`${line}\n`], 8)).toEqual([]);
    expect(splitAll([utf8.encode(`${line}\n`)], 9)).toEqual([line]);
    expect(splitAll([utf8.encode(`${line}\n`)], 8)).toEqual([]);
    expect(splitAll(['😀\n'], 4)).toEqual(['😀']);
    expect(splitAll(['😀\n'], 3)).toEqual([]);
  });

  it('refuses a nonsensical limit', () => {
    const ignore = (): void => undefined;
    expect(() => createLineSplitter(ignore, { maxLineBytes: 0 })).toThrow(TypeError);
    expect(() => createLineSplitter(ignore, { maxLineBytes: 1.5 })).toThrow(TypeError);
    expect(DEFAULT_MAX_LINE_BYTES).toBe(64 * 1024 * 1024);
  });

  it('handles a 10 MB line arriving in 64 KiB chunks', () => {
    const big = JSON.stringify({ data: 'x€'.repeat(5 * 1024 * 1024) });
    const bytes = utf8.encode(`${big}\n`);
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < bytes.length; at += 65_536) chunks.push(bytes.subarray(at, at + 65_536));
    expect(splitAll(chunks)).toEqual([big]);
  });
});

describe('encodeFrame', () => {
  it('writes one line ending in exactly one newline, even for strings holding newlines', () => {
    const frame = encodeFrame({ jsonrpc: '2.0', method: 'm', params: { text: 'a\nb\r\nc\u2028' } });
    expect(frame.endsWith('\n')).toBe(true);
    expect(frame.indexOf('\n')).toBe(frame.length - 1);
    expect(frame).not.toContain('\r');
  });
});
