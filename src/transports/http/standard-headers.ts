// The standard request headers of 2026-07-28 (spec 2026-07-28 transports/streamable-http
// #request-metadata; SEP-2243): MCP-Protocol-Version, Mcp-Method and Mcp-Name mirror the body, and
// a server that reads the body must reject any disagreement with HeaderMismatch (-32020).
import type { Request } from '../../jsonrpc/message.js';
import type { HeaderMap } from './exchange.js';
import { header } from './exchange.js';

/** The body field each method's `Mcp-Name` mirrors. */
const NAME_SOURCE: Readonly<Record<string, 'name' | 'uri' | undefined>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Visible ASCII, space and tab: what a plain header value may hold (RFC 9110 §5.5). */
const PLAIN = /^[\t\x20-\x7e]*$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes a header value that may use the Base64 sentinel (`=?base64?…?=`, case-sensitive).
 * Undefined when the value holds characters a header may not, or the Base64 or its UTF-8 is
 * malformed.
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (!PLAIN.test(value)) return undefined;
  if (!value.startsWith(SENTINEL_PREFIX) || !value.endsWith(SENTINEL_SUFFIX)) return value;
  if (value.length < SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length) return value;
  const encoded = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
  if (!BASE64.test(encoded)) return undefined;
  const binary = atob(encoded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined; // not UTF-8: cannot equal any body string
  }
}

/**
 * Checks the standard headers of a 2026-07-28 message against its body; returns the
 * HeaderMismatch message, or undefined when they agree. `revision` is the body's `_meta`
 * protocol version. For a request the headers are required; for a notification (the spec
 * defines no header requirements for those) only the headers present are compared.
 */
export function headerMismatch(
  headers: HeaderMap,
  message: Pick<Request, 'method' | 'params'>,
  expect: { revision: string; required: boolean },
): string | undefined {
  const { required } = expect;
  const version = header(headers, 'mcp-protocol-version');
  if (version === undefined) {
    if (required) return 'missing MCP-Protocol-Version header';
  } else if (version !== expect.revision) {
    return `MCP-Protocol-Version header ${quote(version)} does not match body protocol version ${quote(expect.revision)}`;
  }
  const method = header(headers, 'mcp-method');
  if (method === undefined) {
    if (required) return 'missing Mcp-Method header';
  } else if (method !== message.method) {
    return `Mcp-Method header ${quote(method)} does not match body method ${quote(message.method)}`;
  }
  const source = NAME_SOURCE[message.method];
  const params = message.params;
  const body =
    source === undefined || params === undefined || Array.isArray(params)
      ? undefined
      : params[source];
  // A body without the field is the server's -32602 to give; the header is checked when it can be.
  if (typeof body !== 'string') return undefined;
  const raw = header(headers, 'mcp-name');
  if (raw === undefined) return required ? 'missing Mcp-Name header' : undefined;
  const name = decodeHeaderValue(raw);
  if (name === undefined) return 'malformed Mcp-Name header';
  if (name !== body) {
    return `Mcp-Name header ${quote(name)} does not match body params.${String(source)} ${quote(body)}`;
  }
  return undefined;
}

function quote(value: string): string {
  return JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}…` : value);
}
