// Character classes and percent-encoding shared by parsing, expansion and matching.
// RFC 6570 sections 1.5 and 3.2.1; RFC 3986 section 2.

/** Whether `ch` is one hexadecimal digit. */
export function isHex(ch: string): boolean {
  return ch.length === 1 && '0123456789ABCDEFabcdef'.includes(ch);
}

/** Whether a pct-encoded triplet (`%XX`) starts at `i`. */
export function isTriplet(text: string, i: number): boolean {
  return text.charAt(i) === '%' && isHex(text.charAt(i + 1)) && isHex(text.charAt(i + 2));
}

/** The length in code units (1 or 2) of the code point at `i`. */
export function codePointLength(text: string, i: number): number {
  return (text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
}

/** The number of code points in `text`. */
export function codePointCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += codePointLength(text, i)) count++;
  return count;
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const RESERVED = /^[:/?#[\]@!$&'()*+,;=]$/;

/** Pct-encodes everything outside U (unreserved), or outside U+R keeping triplets. */
export function encode(text: string, allowReserved: boolean): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (allowReserved && isTriplet(text, i)) {
      out += text.slice(i, i + 3);
      i += 3;
      continue;
    }
    const ch = text.charAt(i);
    if (UNRESERVED.test(ch) || (allowReserved && RESERVED.test(ch))) {
      out += ch;
    } else {
      out += pctEncode(text.codePointAt(i) ?? 0);
    }
    i += codePointLength(text, i);
  }
  return out;
}

/** UTF-8 pct-encoding of one code point; a lone surrogate becomes U+FFFD. */
function pctEncode(codePoint: number): string {
  const cp = codePoint >= 0xd800 && codePoint <= 0xdfff ? 0xfffd : codePoint;
  const bytes =
    cp < 0x80
      ? [cp]
      : cp < 0x800
        ? [0xc0 | (cp >> 6), 0x80 | (cp & 0x3f)]
        : cp < 0x10000
          ? [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)]
          : [
              0xf0 | (cp >> 18),
              0x80 | ((cp >> 12) & 0x3f),
              0x80 | ((cp >> 6) & 0x3f),
              0x80 | (cp & 0x3f),
            ];
  return bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}
