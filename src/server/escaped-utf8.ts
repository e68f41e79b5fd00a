// A JSON string's escaped text as UTF-8 bytes, made without the escaped string JSON.stringify
// would make first: a large text result is written a slice at a time (served-response.ts), and
// each slice's escaped copy would be young-generation garbage (issue #44 point 2). One pass over
// the UTF-16 units, no allocation but the result.

/** Reused between calls: at most 6 bytes per UTF-16 unit (`\uXXXX`), which bounds UTF-8 too. */
let scratch = new Uint8Array(0);
const HEX = '0123456789abcdef';
/** The short escapes JSON uses, by code unit (backspace, tab, newline, form feed, return). */
const SHORT: readonly number[] = Object.assign([], { 8: 98, 9: 116, 10: 110, 12: 102, 13: 114 });

/**
 * The UTF-8 bytes of `JSON.stringify(slice).slice(1, -1)`: `slice` escaped as JSON does (short
 * escapes, `\u00xx` for other control characters, `\udxxx` for a lone surrogate, lowercase hex).
 * A surrogate pair must not be split between two calls.
 */
export function escapedUtf8(slice: string): Uint8Array {
  const most = slice.length * 6;
  if (scratch.length < most) scratch = new Uint8Array(most);
  const out = scratch;
  let w = 0;
  for (let i = 0; i < slice.length; i++) {
    const code = slice.charCodeAt(i);
    if (code >= 0x20 && code < 0x80) {
      if (code === 0x22 || code === 0x5c) out[w++] = 0x5c;
      out[w++] = code;
    } else if (code < 0x20) {
      w = escapeControl(out, w, code);
    } else if (code < 0x800) {
      out[w++] = 0xc0 | (code >> 6);
      out[w++] = 0x80 | (code & 0x3f);
    } else if (code < 0xd800 || code > 0xdfff) {
      w = threeBytes(out, w, code);
    } else {
      const next = code <= 0xdbff ? slice.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        w = fourBytes(out, w, 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00));
        i++;
      } else {
        w = unicodeEscape(out, w, code);
      }
    }
  }
  return out.slice(0, w);
}

function escapeControl(out: Uint8Array, at: number, code: number): number {
  const short = SHORT[code];
  if (short === undefined) return unicodeEscape(out, at, code);
  out[at] = 0x5c;
  out[at + 1] = short;
  return at + 2;
}

/** `\uXXXX`, lowercase hex. */
function unicodeEscape(out: Uint8Array, at: number, code: number): number {
  out[at] = 0x5c;
  out[at + 1] = 0x75;
  for (let k = 0; k < 4; k++) out[at + 2 + k] = HEX.charCodeAt((code >> (12 - 4 * k)) & 0xf);
  return at + 6;
}

function threeBytes(out: Uint8Array, at: number, code: number): number {
  out[at] = 0xe0 | (code >> 12);
  out[at + 1] = 0x80 | ((code >> 6) & 0x3f);
  out[at + 2] = 0x80 | (code & 0x3f);
  return at + 3;
}

function fourBytes(out: Uint8Array, at: number, point: number): number {
  out[at] = 0xf0 | (point >> 18);
  out[at + 1] = 0x80 | ((point >> 12) & 0x3f);
  out[at + 2] = 0x80 | ((point >> 6) & 0x3f);
  out[at + 3] = 0x80 | (point & 0x3f);
  return at + 4;
}
