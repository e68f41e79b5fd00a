// Checks for the `format` values tool schemas use. They are regex-level checks, not full RFC
// parsers: they accept what the RFCs allow in practice and reject what a model most often gets
// wrong. Every check is linear-time (no nested quantifiers) and runs on Workers (no Node APIs).

/** FormatCheck tests one string against a format. */
export type FormatCheck = (text: string) => boolean;

/**
 * Compiles a schema regular expression once: with the `u` flag first (so `\p{L}` works), then
 * without it (so legacy escapes like `[a-z\-]` still work). Undefined when neither compiles.
 */
export function compileRegExp(source: string): RegExp | undefined {
  for (const flags of ['u', '']) {
    try {
      return new RegExp(source, flags);
    } catch {
      // Not valid with these flags: try the next, or report undefined.
    }
  }
  return undefined;
}

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:z|([+-])(\d{2}):(\d{2}))$/i;

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** RFC 3339 full-date, with real month lengths and leap years. */
function isDate(text: string): boolean {
  const match = DATE.exec(text);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  if (month === 2 && day === 29) return isLeapYear(year);
  return day <= (DAYS[month - 1] ?? 0);
}

/** RFC 3339 full-time (offset required); a leap second must fall at 23:59:60 UTC. */
function isTime(text: string): boolean {
  const match = TIME.exec(text);
  if (match === null) return false;
  const [hour, minute, second] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const sign = match[4] === '-' ? -1 : 1;
  const [offsetHour, offsetMinute] = [Number(match[5] ?? 0), Number(match[6] ?? 0)];
  if (hour > 23 || minute > 59 || second > 60 || offsetHour > 23 || offsetMinute > 59) return false;
  if (second < 60) return true;
  const utc = hour * 60 + minute - sign * (offsetHour * 60 + offsetMinute);
  return ((utc % 1440) + 1440) % 1440 === 23 * 60 + 59;
}

/** RFC 3339 date-time: full-date `T` full-time (`t` and `z` accepted, as the RFC allows). */
function isDateTime(text: string): boolean {
  const separator = text.search(/[Tt]/);
  return separator === 10 && isDate(text.slice(0, 10)) && isTime(text.slice(11));
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/;

function isIpv4(text: string): boolean {
  return IPV4.test(text);
}

/** RFC 4291 text forms: eight groups, one `::`, an optional dotted IPv4 tail; no zone id. */
function isIpv6(text: string): boolean {
  let address = text;
  const lastColon = address.lastIndexOf(':');
  if (lastColon < 0 || address.length > 45) return false;
  const tail = address.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (!isIpv4(tail)) return false;
    address = `${address.slice(0, lastColon + 1)}0:0`;
  }
  const gap = address.indexOf('::');
  const groups = (part: string): string[] => (part === '' ? [] : part.split(':'));
  if (gap < 0) {
    const all = address.split(':');
    return all.length === 8 && all.every((group) => HEX_GROUP.test(group));
  }
  if (address.indexOf('::', gap + 1) >= 0) return false;
  const parts = [...groups(address.slice(0, gap)), ...groups(address.slice(gap + 2))];
  return parts.length <= 7 && parts.every((group) => HEX_GROUP.test(group));
}

const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** RFC 1123 host name: dot-separated labels of 1 to 63 characters, 253 in all. */
function isHostname(text: string): boolean {
  const name = text.endsWith('.') ? text.slice(0, -1) : text;
  if (name === '' || name.length > 253) return false;
  return name.split('.').every((label) => LABEL.test(label));
}

const DOT_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const QUOTED = /^"(?:[^"\\\r\n]|\\.)*"$/;

/** RFC 5321 mailbox: dot-atom or quoted local part, `@`, a host name or a bracketed address. */
function isEmail(text: string): boolean {
  const at = text.lastIndexOf('@');
  if (at <= 0) return false;
  const [local, domain] = [text.slice(0, at), text.slice(at + 1)];
  if (local.length > 64 || !(DOT_ATOM.test(local) || QUOTED.test(local))) return false;
  if (domain.startsWith('[') && domain.endsWith(']')) {
    const literal = domain.slice(1, -1);
    return literal.startsWith('IPv6:') ? isIpv6(literal.slice(5)) : isIpv4(literal);
  }
  return isHostname(domain);
}

const URI_CHARS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]*$/;
const BAD_PERCENT = /%(?![0-9A-Fa-f]{2})/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const PORT = /^\d*$/;

/** Checks the authority of `//authority/...`: brackets only around an IP literal, numeric port. */
function hasValidAuthority(rest: string): boolean {
  if (!rest.startsWith('//')) return !/[[\]]/.test(rest.split('#')[0] ?? '');
  const end = rest.slice(2).search(/[/?#]/);
  const authority = end < 0 ? rest.slice(2) : rest.slice(2, end + 2);
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close < 0 || !isIpv6OrFuture(host.slice(1, close))) return false;
    return (
      host.length === close + 1 || (host[close + 1] === ':' && PORT.test(host.slice(close + 2)))
    );
  }
  const colon = host.indexOf(':');
  return !/[[\]]/.test(host) && (colon < 0 || PORT.test(host.slice(colon + 1)));
}

function isIpv6OrFuture(literal: string): boolean {
  return isIpv6(literal) || /^v[0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+$/.test(literal);
}

/** RFC 3986 URI-reference, ASCII only: valid characters, percent escapes, at most one `#`. */
function isUriReference(text: string): boolean {
  if (!URI_CHARS.test(text) || BAD_PERCENT.test(text)) return false;
  const hash = text.indexOf('#');
  if (hash >= 0 && text.includes('#', hash + 1)) return false;
  const scheme = SCHEME.exec(text);
  return hasValidAuthority(scheme === null ? text : text.slice(scheme[0].length));
}

/** RFC 3986 URI: a URI-reference that starts with a scheme. */
function isUri(text: string): boolean {
  return SCHEME.test(text) && isUriReference(text);
}

const UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const JSON_POINTER = /^(?:\/(?:[^~/]|~[01])*)*$/;
const RELATIVE_JSON_POINTER = /^(?:0|[1-9][0-9]*)(?:#|(?:\/(?:[^~/]|~[01])*)*)$/;
const DURATION =
  /^P(?!$)(?:(?:\d+Y)?(?:\d+M)?(?:\d+D)?(?:T(?=\d)(?:\d+H)?(?:\d+M)?(?:\d+S)?)?|\d+W)$/;

/** The formats asserted by default, by name. Any other `format` value is an annotation. */
export const FORMATS: ReadonlyMap<string, FormatCheck> = new Map<string, FormatCheck>([
  ['date-time', isDateTime],
  ['date', isDate],
  ['time', isTime],
  ['email', isEmail],
  ['hostname', isHostname],
  ['ipv4', isIpv4],
  ['ipv6', isIpv6],
  ['uri', isUri],
  ['uri-reference', isUriReference],
  ['uuid', (text) => UUID.test(text)],
  ['regex', (text) => compileRegExp(text) !== undefined],
  ['byte', (text) => BASE64.test(text)],
  ['json-pointer', (text) => JSON_POINTER.test(text)],
  ['relative-json-pointer', (text) => RELATIVE_JSON_POINTER.test(text)],
  ['duration', (text) => DURATION.test(text)],
]);
