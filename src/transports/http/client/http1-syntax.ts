// The syntax of an HTTP/1.1 response as node-fetch.ts reads it (RFC 9112, RFC 9110 §5): the status
// line, field lines, chunk size lines and content codings. Each function throws an Error naming
// what is wrong; the caller turns it into a "fetch failed" with that cause.
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

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

/** The status line of a response head: HTTP/1.0 or 1.1, and a status code of 100 or more. */
export interface StatusLine {
  readonly http10: boolean;
  readonly status: number;
  readonly reason: string;
}

/**
 * The field lines after a status line, each preceded by its CRLF: a token, a colon right after
 * it and a value, or an obs-fold (SP or HTAB first); values of HTAB, SP, VCHAR and obs-text.
 */
const FIELD_BLOCK = /^(?:\r\n(?:[!#$%&'*+.^_`|~0-9A-Za-z-]+:|[\t ])[\t\x20-\x7e\x80-\xff]*)*$/;
const STATUS_LINE = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: ([\t\x20-\x7e\x80-\xff]*))?$/;

/**
 * Parses a response head `text` (latin1, up to the blank line, which it does not hold): returns
 * its status line and adds its fields to `fields` (lower-case names; a repeated name's values
 * joined with ", "; values trimmed). An obs-fold continues the value before it, with one space,
 * as RFC 9112 §5.2 asks of a user agent. Throws on a status line that is not `HTTP/1.x DDD[
 * reason]` with a status of 100 or more, and on a line that is not a field line (whitespace
 * before the colon, a bad name, a CR, LF, NUL or other control character in a value). The field
 * lines are checked by one regular expression, then read with `indexOf` (not split, not a
 * regular expression per line).
 */
export function parseHead(text: string, fields: Map<string, string>): StatusLine {
  let end = text.indexOf('\r\n');
  if (end < 0) end = text.length;
  const status = statusLineOf(text.slice(0, end));
  if (end === text.length) return status;
  if (!FIELD_BLOCK.test(text.slice(end))) throw badField(text, end);
  let last: string | undefined;
  for (let at = end + 2; at < text.length + 2; at = end + 2) {
    end = text.indexOf('\r\n', at);
    if (end < 0) end = text.length;
    const first = text.charCodeAt(at);
    if (first === 32 || first === 9) {
      if (last === undefined) throw badField(text, at - 2);
      const more = text.slice(at, end).trim();
      const before = fields.get(last) as string;
      if (more !== '') fields.set(last, before === '' ? more : `${before} ${more}`);
      continue;
    }
    const colon = text.indexOf(':', at);
    const name = text.slice(at, colon).toLowerCase();
    const value = text.slice(colon + 1, end).trim();
    const before = fields.get(name);
    fields.set(name, before === undefined ? value : `${before}, ${value}`);
    last = name;
  }
  return status;
}

function statusLineOf(line: string): StatusLine {
  const match = STATUS_LINE.exec(line);
  if (match === null) {
    throw new Error(`not an HTTP/1.x response: ${JSON.stringify(line.slice(0, 80))}`);
  }
  return { http10: match[1] === '0', status: Number(match[2]), reason: match[3] ?? '' };
}

/** The error of the first field line from `from` (at its CRLF) that is not one. */
function badField(text: string, from: number): Error {
  for (let at = from + 2; ;) {
    const next = text.indexOf('\r\n', at);
    const line = text.slice(at, next < 0 ? text.length : next);
    const first = line.charCodeAt(0);
    const fold = (first === 32 || first === 9) && at > from + 2;
    if (next < 0 || !(fold ? FOLD_LINE : FIELD_LINE).test(line)) {
      return new Error(`an invalid response header line ${JSON.stringify(line.slice(0, 80))}`);
    }
    at = next + 2;
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
