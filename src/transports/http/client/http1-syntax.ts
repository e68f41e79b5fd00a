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

/** Which bytes may be what: a token's (a field name), and a field value's (HTAB, SP, VCHAR, obs-text). */
const TOKEN_BYTE = 1;
const VALUE_BYTE = 2;
const BYTES = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  const token = /[!#$%&'*+.^_`|~0-9A-Za-z-]/.test(String.fromCharCode(c));
  const value = c === 9 || (c >= 0x20 && c !== 0x7f);
  BYTES[c] = (token ? TOKEN_BYTE : 0) | (value ? VALUE_BYTE : 0);
}
const CR = 13;
const LF = 10;
const SP = 32;
const HTAB = 9;
const COLON = 58;

/**
 * Parses a response head `text` (latin1, up to the blank line, which it does not hold): returns
 * its status line and adds its fields to `fields` (lower-case names; a repeated name's values
 * joined with ", "; values without the whitespace around them). An obs-fold continues the value
 * before it, with one space, as RFC 9112 §5.2 asks of a user agent. Throws on a status line
 * that is not `HTTP/1.x DDD[ reason]` with a status of 100 or more, and on a line that is not a
 * field line (whitespace before the colon, a bad name, a CR, LF, NUL or other control character
 * in a value). One pass over the characters: no split, no regular expression per line.
 */
export function parseHead(text: string, fields: Map<string, string>): StatusLine {
  let end = text.indexOf('\r\n');
  if (end < 0) end = text.length;
  const status = statusLineOf(text, end);
  let last: string | undefined;
  for (let at = end + 2; at < text.length; at = end + 2) {
    end = lineEnd(text, at);
    const first = text.charCodeAt(at);
    if (first === SP || first === HTAB) {
      if (last === undefined) throw badLine(text, at);
      const more = trimmedSlice(text, at, end);
      const before = fields.get(last) as string;
      if (more !== '') fields.set(last, before === '' ? more : `${before} ${more}`);
      continue;
    }
    let colon = at;
    let upper = false;
    for (; colon < end; colon++) {
      const c = text.charCodeAt(colon);
      if (((BYTES[c] as number) & TOKEN_BYTE) === 0) break;
      if (c <= 90 && c >= 65) upper = true;
    }
    if (colon === at || colon === end || text.charCodeAt(colon) !== COLON) throw badLine(text, at);
    const raw = text.slice(at, colon);
    const name = upper ? raw.toLowerCase() : raw;
    const value = trimmedSlice(text, colon + 1, end);
    const before = fields.get(name);
    fields.set(name, before === undefined ? value : `${before}, ${value}`);
    last = name;
  }
  return status;
}

/**
 * Where the line that starts at `at` ends: at the CR of its CRLF, or at the end of the text.
 * Throws unless every character before is a field value's (HTAB, SP, VCHAR, obs-text).
 */
function lineEnd(text: string, at: number): number {
  const n = text.length;
  for (let i = at; i < n; i++) {
    const c = text.charCodeAt(i);
    if (((BYTES[c] as number) & VALUE_BYTE) !== 0) continue;
    if (c === CR && text.charCodeAt(i + 1) === LF) return i;
    throw badLine(text, at);
  }
  return n;
}

/** `text` from `from` to `to`, without the whitespace (SP, HTAB: OWS) at either end. */
function trimmedSlice(text: string, from: number, to: number): string {
  let start = from;
  let end = to;
  while (start < end && isWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isWhitespace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

function isWhitespace(c: number): boolean {
  return c === SP || c === HTAB;
}

/** The status line, `text` up to `end`: `HTTP/1.x DDD[ reason]`, reason of HTAB, SP, VCHAR, obs-text. */
function statusLineOf(text: string, end: number): StatusLine {
  const version = text.charCodeAt(7);
  const d1 = text.charCodeAt(9) - 48;
  const d2 = text.charCodeAt(10) - 48;
  const d3 = text.charCodeAt(11) - 48;
  let valid =
    end >= 12 &&
    text.startsWith('HTTP/1.') &&
    (version === 48 || version === 49) &&
    text.charCodeAt(8) === SP &&
    d1 >= 1 &&
    d1 <= 9 &&
    d2 >= 0 &&
    d2 <= 9 &&
    d3 >= 0 &&
    d3 <= 9 &&
    (end === 12 || text.charCodeAt(12) === SP);
  for (let i = 13; valid && i < end; i++) {
    valid = ((BYTES[text.charCodeAt(i)] as number) & VALUE_BYTE) !== 0;
  }
  if (!valid) {
    const line = text.slice(0, end);
    throw new Error(`not an HTTP/1.x response: ${JSON.stringify(line.slice(0, 80))}`);
  }
  return {
    http10: version === 48,
    status: d1 * 100 + d2 * 10 + d3,
    reason: end > 13 ? text.slice(13, end) : '',
  };
}

/** The error of the field line at `at` of `text`. */
function badLine(text: string, at: number): Error {
  const end = text.indexOf('\r\n', at);
  const line = text.slice(at, end < 0 ? text.length : end);
  return new Error(`an invalid response header line ${JSON.stringify(line.slice(0, 80))}`);
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
