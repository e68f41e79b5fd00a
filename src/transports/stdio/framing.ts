// Newline-delimited JSON framing for the stdio transport: an incremental line splitter with a
// bounded line length, and the frame encoder. Pure: no Node APIs, so it also serves custom
// transports over any byte stream (sockets, WebSocket text frames).
// Spec 2025-11-25 basic/transports#stdio and 2026-07-28 basic/transports/stdio: messages are UTF-8,
// delimited by newlines, and MUST NOT contain embedded newlines.
import { encode } from '../../jsonrpc/codec.js';
import { LocalError, LocalErrorCode } from '../../jsonrpc/errors.js';
import type { Message } from '../../jsonrpc/message.js';

/** The default longest accepted line, in bytes: 64 MiB. */
export const DEFAULT_MAX_LINE_BYTES: number = 64 * 1024 * 1024;

/** Options for {@link createLineSplitter}. Every field is optional. */
export interface LineSplitterOptions {
  /**
   * The longest line kept, in UTF-8 bytes without its terminator. A longer line is discarded
   * as it arrives (memory stays bounded) and framing resumes after its newline.
   * Default {@link DEFAULT_MAX_LINE_BYTES}.
   */
  maxLineBytes?: number;
  /** Called once for each discarded over-long line, with a LocalError('INVALID_MESSAGE'). */
  onError?: (error: LocalError) => void;
}

/**
 * LineSplitter turns a stream of chunks into lines. Bytes are decoded as UTF-8 with a streaming
 * decoder, so a character split across chunks is reassembled; invalid bytes become U+FFFD.
 * A trailing `\r` is dropped (`\r\n` is tolerated) and blank lines are skipped.
 *
 * Lines and over-long-line errors are reported synchronously, in input order, from `push` and
 * `end`. One splitter per stream.
 */
export interface LineSplitter {
  /** Feeds one chunk; each line it completes goes to `onLine`, without its terminator. */
  push(chunk: string | Uint8Array): void;
  /** Ends the input: a final line that lacked a newline goes to `onLine`. Then resets. */
  end(): void;
}

/**
 * Creates a {@link LineSplitter} that hands each line to `onLine`. Throws a TypeError when
 * `maxLineBytes` is not a positive integer.
 */
export function createLineSplitter(
  onLine: (line: string) => void,
  options: LineSplitterOptions = {},
): LineSplitter {
  return new Splitter(onLine, checkMaxLineBytes(options.maxLineBytes), options.onError);
}

/**
 * Returns `maxLineBytes`, or the default when undefined. Throws a TypeError when it is not a
 * positive integer (a configuration mistake, reported where the transport is created).
 */
export function checkMaxLineBytes(maxLineBytes: number | undefined): number {
  const value = maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new TypeError(`maxLineBytes must be a positive integer, got ${String(value)}`);
  }
  return value;
}

/** Encodes one message (or a batch) as one frame: its JSON text and a newline. */
export function encodeFrame(message: Message | readonly Message[]): string {
  // JSON.stringify escapes every control character inside strings, so the only newline is ours.
  return encode(message) + '\n';
}

const NEWLINE_BYTE = 0x0a;

class Splitter implements LineSplitter {
  readonly #onLine: (line: string) => void;
  readonly #maxLineBytes: number;
  readonly #onError: ((error: LocalError) => void) | undefined;
  readonly #decoder = new TextDecoder('utf-8');
  /** Decoded pieces of the current line; their UTF-8 size is #lineBytes. */
  #pieces: string[] = [];
  #lineBytes = 0;
  /** True while skipping the rest of an over-long line. */
  #discarding = false;

  constructor(
    onLine: (line: string) => void,
    maxLineBytes: number,
    onError: ((error: LocalError) => void) | undefined,
  ) {
    this.#onLine = onLine;
    this.#maxLineBytes = maxLineBytes;
    this.#onError = onError;
  }

  push(chunk: string | Uint8Array): void {
    if (typeof chunk === 'string') {
      // Flushing first turns bytes left over from an earlier binary chunk into U+FFFD.
      this.#scan(this.#decoder.decode() + chunk, undefined);
    } else {
      this.#scan(this.#decoder.decode(chunk, { stream: true }), chunk);
    }
  }

  end(): void {
    this.#scan(this.#decoder.decode(), undefined);
    this.#finishLine();
  }

  /**
   * Splits decoded `text` at newlines. When `bytes` (the raw chunk) is given, segment sizes are
   * read from its newline positions: a 0x0A byte never occurs inside a multi-byte UTF-8
   * sequence, so the text and the bytes hold the same newlines in the same order.
   */
  #scan(text: string, bytes: Uint8Array | undefined): void {
    let at = 0;
    let byteAt = 0;
    for (;;) {
      const newline = text.indexOf('\n', at);
      const end = newline === -1 ? text.length : newline;
      let size: number;
      if (bytes === undefined) {
        size = utf8Length(text, at, end);
      } else {
        const byteNewline = newline === -1 ? -1 : bytes.indexOf(NEWLINE_BYTE, byteAt);
        size = (byteNewline === -1 ? bytes.length : byteNewline) - byteAt;
        byteAt = byteNewline + 1;
      }
      this.#append(text.slice(at, end), size);
      if (newline === -1) return;
      this.#finishLine();
      at = newline + 1;
    }
  }

  #append(segment: string, size: number): void {
    if (this.#discarding || segment === '') return;
    if (this.#lineBytes + size > this.#maxLineBytes) {
      this.#pieces = [];
      this.#lineBytes = 0;
      this.#discarding = true;
      this.#onError?.(
        new LocalError(
          LocalErrorCode.InvalidMessage,
          `line longer than ${this.#maxLineBytes} bytes discarded`,
        ),
      );
      return;
    }
    this.#pieces.push(segment);
    this.#lineBytes += size;
  }

  #finishLine(): void {
    if (this.#discarding) {
      this.#discarding = false;
      return;
    }
    if (this.#pieces.length === 0) return;
    let line = this.#pieces.length === 1 ? (this.#pieces[0] ?? '') : this.#pieces.join('');
    this.#pieces = [];
    this.#lineBytes = 0;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.trim() !== '') this.#onLine(line);
  }
}

/** The UTF-8 size of `text[from, to)`; a lone surrogate counts 3 bytes, as U+FFFD. */
function utf8Length(text: string, from: number, to: number): number {
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < to && isLowSurrogate(text, i + 1)) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function isLowSurrogate(text: string, index: number): boolean {
  const unit = text.charCodeAt(index);
  return unit >= 0xdc00 && unit <= 0xdfff;
}
