// The syntax of an HTTP/1.1 response as node-fetch.ts reads it (RFC 9112, RFC 9110 §5): the status
// line, field lines, chunk size lines and content codings. Each function throws an Error naming
// what is wrong; the caller turns it into a "fetch failed" with that cause.
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/** The status line: version, status code, reason phrase (HTAB, SP, VCHAR, obs-text). */
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: ([\t\x20-\x7e\x80-\xff]*))?$/;
/** A field line: a token, a colon right after it, a value of HTAB, SP, VCHAR and obs-text. */
const FIELD_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+:[\t\x20-\x7e\x80-\xff]*$/;
/** An obs-fold continuation line (RFC 9112 §5.2). */
const FOLD_LINE = /^[\t ][\t\x20-\x7e\x80-\xff]*$/;
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED =
  '"(?:[\\t \\x21\\x23-\\x5b\\x5d-\\x7e\\x80-\\xff]|\\\\[\\t\\x20-\\x7e\\x80-\\xff])*"';
/** chunk-size [ chunk-ext ] (RFC 9112 §7.1.1): extensions with optional whitespace around `;`/`=`. */
const CHUNK_LINE = new RegExp(
  `^([0-9a-fA-F]+)(?:[\\t ]*;[\\t ]*${TOKEN}(?:[\\t ]*=[\\t ]*(?:${TOKEN}|${QUOTED}))?)*$`,
);
/** The longest chunk size line accepted, extensions included. */
export const MAX_CHUNK_LINE = 1024;

/** The parsed status line of `line`: HTTP/1.0 or 1.1, a status code of 100 or more. */
export function statusLine(line: string): { http10: boolean; status: number; reason: string } {
  const match = STATUS_LINE.exec(line);
  const status = Number(match?.[2]);
  if (match === null || status < 100) {
    throw new Error(`not an HTTP/1.x response: ${JSON.stringify(line.slice(0, 80))}`);
  }
  return { http10: match[1] === '0', status, reason: match[3] ?? '' };
}

/**
 * Adds the field lines `lines[1..]` to `fields` (lower-case names; a repeated name's values joined
 * with ", "). An obs-fold continues the value before it, with one space, as RFC 9112 §5.2 asks of
 * a user agent. Throws on a line that is not a field line (whitespace before the colon, a bad
 * name, a CR, LF, NUL or other control character in a value).
 */
export function fieldLines(lines: readonly string[], fields: Map<string, string>): void {
  let last: string | undefined;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (!FIELD_LINE.test(line)) {
      if (last === undefined || !FOLD_LINE.test(line)) {
        throw new Error(`an invalid response header line ${JSON.stringify(line.slice(0, 80))}`);
      }
      const more = line.trim();
      const before = fields.get(last) as string;
      if (more !== '') fields.set(last, before === '' ? more : `${before} ${more}`);
      continue;
    }
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    const before = fields.get(name);
    fields.set(name, before === undefined ? value : `${before}, ${value}`);
    last = name;
  }
}

/** Whether `line` is a trailer field line, or the continuation (obs-fold) of one. */
export function isTrailerLine(line: string): boolean {
  return FIELD_LINE.test(line) || FOLD_LINE.test(line);
}

/** The size a chunk size line gives. Throws unless it is `1*HEXDIG [ chunk-ext ]` of a safe size. */
export function chunkSize(line: string): number {
  const hex = CHUNK_LINE.exec(line)?.[1];
  const size = hex === undefined ? Number.NaN : Number.parseInt(hex, 16);
  if (!Number.isSafeInteger(size)) {
    throw new Error(`an invalid chunk size ${JSON.stringify(line.slice(0, 80))}`);
  }
  return size;
}

/** The decoders of the content codings a buffered body may come in. */
const DECODERS = new Map<string, (bytes: Buffer, options: { maxOutputLength: number }) => Buffer>([
  ['gzip', gunzipSync],
  ['x-gzip', gunzipSync],
  ['deflate', inflateSync],
  ['br', brotliDecompressSync],
]);

/** `bytes` decoded from the content codings of `encoding`; throws past `maxBytes` decoded. */
export function decoded(bytes: Buffer, encoding: string | undefined, maxBytes: number): Buffer {
  if (encoding === undefined || bytes.length === 0) return bytes;
  let out = bytes;
  for (const coding of encoding.toLowerCase().split(',').reverse()) {
    const decode = DECODERS.get(coding.trim());
    if (decode === undefined) {
      if (coding.trim() === 'identity' || coding.trim() === '') continue;
      throw new Error(`an unsupported content-encoding ${JSON.stringify(encoding)}`);
    }
    try {
      out = decode(out, { maxOutputLength: maxBytes });
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ERR_BUFFER_TOO_LARGE') throw error;
      throw new Error(`the decoded response body is larger than ${String(maxBytes)} bytes`, {
        cause: error,
      });
    }
  }
  return out;
}
