// Media types by parsing, never by substring (RFC 9110 §8.3.1 Content-Type, §12.5.1 Accept):
// `application/jsonx` is not JSON, and `text/event-stream;q=0` is a refusal.
import { remembered } from './remembered.js';

/** A parsed media type: lower-case `type/subtype` and its parameters (lower-case names). */
export interface MediaType {
  readonly essence: string;
  readonly params: Readonly<Record<string, string>>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/** Parses one media type (`application/json; charset=utf-8`); undefined when malformed. */
export function parseMediaType(value: string): MediaType | undefined {
  const parts = value.split(';');
  const essence = (parts[0] ?? '').trim().toLowerCase();
  const slash = essence.indexOf('/');
  if (slash <= 0 || slash === essence.length - 1) return undefined;
  if (!TOKEN.test(essence.slice(0, slash)) || !TOKEN.test(essence.slice(slash + 1))) {
    return undefined;
  }
  const params: Record<string, string> = {};
  for (let i = 1; i < parts.length; i++) {
    const param = parts[i] ?? '';
    const eq = param.indexOf('=');
    if (eq === -1) continue;
    const name = param.slice(0, eq).trim().toLowerCase();
    let raw = param.slice(eq + 1).trim();
    if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) raw = raw.slice(1, -1);
    if (name !== '') params[name] = raw;
  }
  return { essence, params };
}

/** Why a request's Content-Type is refused, or undefined when it is JSON in UTF-8. */
export function checkJsonContentType(value: string | undefined): string | undefined {
  if (value === 'application/json') return undefined; // the common case, without parsing
  if (value === undefined) return 'missing Content-Type: expected application/json';
  const media = parseMediaType(value);
  if (media?.essence !== 'application/json') {
    return `unsupported Content-Type ${JSON.stringify(value)}: expected application/json`;
  }
  const charset = media.params['charset'];
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8') {
    return `unsupported charset ${JSON.stringify(charset)}: JSON-RPC messages are UTF-8`;
  }
  return undefined;
}

/** Which reply framings a client accepts. */
export interface Acceptable {
  readonly json: boolean;
  readonly sse: boolean;
}

const BOTH: Acceptable = Object.freeze({ json: true, sse: true });

/**
 * Reads an Accept header: a missing header accepts both framings; `*\/*`, `application/*` and
 * `text/*` count; a range with `q=0` refuses. The most specific matching range decides.
 */
export function parseAccept(value: string | undefined): Acceptable {
  return value === undefined ? BOTH : acceptOf(value);
}

const acceptOf = remembered((value) => (value.trim() === '' ? BOTH : parseAcceptRanges(value)));

function parseAcceptRanges(value: string): Acceptable {
  let json: [number, number] = [-1, 0]; // [specificity, q]
  let sse: [number, number] = [-1, 0];
  for (const range of value.split(',')) {
    const media = parseMediaType(range);
    if (media === undefined) continue;
    const q = quality(media.params['q']);
    const { essence } = media;
    const rank = (exact: string, family: string): number =>
      essence === exact ? 2 : essence === family ? 1 : essence === '*/*' ? 0 : -1;
    const j = rank('application/json', 'application/*');
    if (j > json[0]) json = [j, q];
    const s = rank('text/event-stream', 'text/*');
    if (s > sse[0]) sse = [s, q];
  }
  return Object.freeze({ json: json[1] > 0, sse: sse[1] > 0 });
}

function quality(value: string | undefined): number {
  if (value === undefined) return 1;
  const q = Number(value);
  return Number.isFinite(q) ? q : 1;
}
