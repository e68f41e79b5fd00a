// The standard request headers of 2026-07-28 (spec 2026-07-28 transports/streamable-http
// #request-metadata; SEP-2243): MCP-Protocol-Version, Mcp-Method and Mcp-Name mirror the body, and
// a server that reads the body must reject any disagreement with HeaderMismatch (-32020).
import type { Request } from '../../../jsonrpc/message.js';
import { nameParamOf } from '../../../protocol/methods.js';
import { decodeHeaderValue } from '../../../protocol/param-headers.js';
import type { HeaderMap } from './exchange.js';
import { joined } from './exchange.js';

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
  const version = joined(headers['mcp-protocol-version']);
  if (version === undefined) {
    if (required) return 'missing MCP-Protocol-Version header';
  } else if (version !== expect.revision) {
    return `MCP-Protocol-Version header ${quote(version)} does not match body protocol version ${quote(expect.revision)}`;
  }
  const method = joined(headers['mcp-method']);
  if (method === undefined) {
    if (required) return 'missing Mcp-Method header';
  } else if (method !== message.method) {
    return `Mcp-Method header ${quote(method)} does not match body method ${quote(message.method)}`;
  }
  const source = nameParamOf(message.method);
  const params = message.params;
  const body =
    source === undefined || params === undefined || Array.isArray(params)
      ? undefined
      : params[source];
  // A body without the field is the server's -32602 to give; the header is checked when it can be.
  if (typeof body !== 'string') return undefined;
  const raw = joined(headers['mcp-name']);
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
