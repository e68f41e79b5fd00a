// Property-based tests of the JSON-RPC codec, the stdio framer and the SSE parser: arbitrary input
// never throws, valid messages round-trip, and chunking never changes what is read.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decode, decodeValue, encode } from '../../src/jsonrpc/codec.js';
import type { SseEvent } from '../../src/transports/http/sse.js';
import { SseParser, encodeSseEvent } from '../../src/transports/http/sse.js';
import { createLineSplitter, encodeFrame } from '../../src/transports/stdio/framing.js';
import { FUZZ, FUZZ_TIMEOUT_MS, chunks, jsonValue, message } from './settings.js';

describe('fuzz: JSON-RPC codec', () => {
  it(
    'never throws on arbitrary text; invalid input is a -32700/-32600 error with id null',
    () => {
      fc.assert(
        fc.property(
          fc.oneof(fc.string(), fc.json(), fc.string({ unit: 'binary' })),
          fc.boolean(),
          (text, allowBatch) => {
            const decoded = decode(text, { allowBatch });
            if (decoded.kind === 'invalid') {
              expect(decoded.response.id).toBeNull();
              expect([-32700, -32600]).toContain(decoded.response.error.code);
            }
          },
        ),
        FUZZ,
      );
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'never throws on arbitrary JSON values, batches included',
    () => {
      fc.assert(
        fc.property(fc.oneof(jsonValue, fc.array(jsonValue, { maxLength: 120 })), (value) => {
          const decoded = decodeValue(value, { allowBatch: true });
          if (decoded.kind === 'batch') {
            expect(decoded.items.length).toBeLessThanOrEqual(100);
            for (const item of decoded.items) {
              if ('invalid' in item) expect(item.invalid.error.code).toBe(-32600);
            }
          }
        }),
        FUZZ,
      );
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'round-trips valid messages and batches through encode and decode',
    () => {
      fc.assert(
        fc.property(message, (m) => {
          expect(decode(encode(m))).toEqual({
            kind: 'message',
            message: JSON.parse(JSON.stringify(m)),
          });
        }),
        FUZZ,
      );
      fc.assert(
        fc.property(fc.array(message, { minLength: 1, maxLength: 5 }), (batch) => {
          const decoded = decode(encode(batch), { allowBatch: true });
          expect(decoded.kind).toBe('batch');
        }),
        FUZZ,
      );
    },
    FUZZ_TIMEOUT_MS,
  );
});

describe('fuzz: stdio framing', () => {
  it(
    'reads the same messages however the stream is chunked, garbage lines and CRLF included',
    () => {
      fc.assert(
        fc.property(
          fc.array(
            fc.oneof(
              message.map((m) => encodeFrame(m as never)),
              fc.string().map((s) => `${s.replace(/[\r\n]/g, '')}\r\n`),
            ),
            { maxLength: 8 },
          ),
          fc.array(fc.nat(), { maxLength: 10 }),
          (frames, cuts) => {
            const text = frames.join('');
            const whole: string[] = [];
            const one = createLineSplitter((line) => whole.push(line));
            one.push(text);
            one.end();
            const pieces: string[] = [];
            const many = createLineSplitter((line) => pieces.push(line));
            for (const chunk of chunks(text, cuts)) many.push(chunk);
            many.end();
            expect(pieces).toEqual(whole);
            for (const line of whole)
              expect(() => decode(line, { allowBatch: true })).not.toThrow();
          },
        ),
        FUZZ,
      );
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'never throws on arbitrary bytes, and bounds a line',
    () => {
      fc.assert(
        fc.property(
          fc.uint8Array({ maxLength: 300 }),
          fc.array(fc.nat(), { maxLength: 5 }),
          (bytes, cuts) => {
            const lines: string[] = [];
            const errors: unknown[] = [];
            const splitter = createLineSplitter((line) => lines.push(line), {
              maxLineBytes: 64,
              onError: (error) => errors.push(error),
            });
            let start = 0;
            for (const cut of [...cuts.map((c) => c % (bytes.length + 1))].sort((a, b) => a - b)) {
              splitter.push(bytes.subarray(start, cut));
              start = cut;
            }
            splitter.push(bytes.subarray(start));
            splitter.end();
            for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(64 * 3);
          },
        ),
        FUZZ,
      );
    },
    FUZZ_TIMEOUT_MS,
  );
});

describe('fuzz: SSE parser', () => {
  const event = fc.record(
    {
      id: fc.string().map((s) => s.replace(/[\r\n\0]/g, '')),
      event: fc.string().map((s) => s.replace(/[\r\n]/g, '')),
      data: fc.string(),
    },
    { requiredKeys: ['data'] },
  );

  function parse(pieces: readonly string[]): SseEvent[] {
    const seen: SseEvent[] = [];
    const parser = new SseParser((e) => seen.push(e));
    for (const piece of pieces) parser.push(piece);
    return seen;
  }

  it(
    'parses encoded events the same however the text is chunked and whatever line endings',
    () => {
      fc.assert(
        fc.property(
          fc.array(event, { maxLength: 6 }),
          fc.constantFrom('\n', '\r\n', '\r'),
          fc.array(fc.nat(), { maxLength: 10 }),
          (events, eol, cuts) => {
            const text = events
              .map((e) => encodeSseEvent(e as SseEvent))
              .join('')
              .replace(/\n/g, eol);
            const whole = parse([text]);
            expect(parse(chunks(text, cuts))).toEqual(whole);
            expect(whole.map((e) => e.data)).toEqual(
              events.map((e) => e.data.replace(/\r\n|\r/g, '\n')),
            );
          },
        ),
        FUZZ,
      );
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'never throws on arbitrary text',
    () => {
      fc.assert(
        fc.property(fc.array(fc.string({ unit: 'binary' }), { maxLength: 6 }), (pieces) => {
          expect(() => parse(pieces)).not.toThrow();
        }),
        FUZZ,
      );
    },
    FUZZ_TIMEOUT_MS,
  );
});
