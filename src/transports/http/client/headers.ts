// The MCP request headers a client sends over HTTP: their names, and the standard headers of a
// 2026-07-28 request (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) mirrored from its body
// with the Base64 sentinel encoding for values that are not plain ASCII.
// Spec 2026-07-28 basic/transports/streamable-http#request-metadata; SEP-2243.
import { nameParamOf } from '../../../protocol/methods.js';
import type { Message } from '../../../jsonrpc/message.js';
import { encodeHeaderValue } from '../../../protocol/param-headers.js';
import { MetaKey } from '../../../protocol/version.js';

/** The header names the client transports send and read. */
export const HeaderName = {
  SessionId: 'Mcp-Session-Id',
  ProtocolVersion: 'MCP-Protocol-Version',
  Method: 'Mcp-Method',
  Name: 'Mcp-Name',
  LastEventId: 'Last-Event-ID',
} as const;

/**
 * The modern revision a message speaks: `params._meta["io.modelcontextprotocol/protocolVersion"]`
 * of a request, or undefined for anything else (legacy requests, notifications, responses).
 */
export function modernRevisionOf(message: Message): string | undefined {
  if (!('method' in message) || !('id' in message)) return undefined;
  const meta = objectField(message.params, '_meta');
  const revision = meta?.[MetaKey.ProtocolVersion];
  return typeof revision === 'string' ? revision : undefined;
}

/** Header fields of a request as the client transports build them: names in lower case. */
export type HeaderFields = Record<string, string>;

/**
 * The standard headers of a 2026-07-28 request: `MCP-Protocol-Version` (equal to the body's
 * `_meta` revision), `Mcp-Method`, and `Mcp-Name` for `tools/call` and `prompts/get`
 * (`params.name`) and `resources/read` (`params.uri`). Empty for any other message.
 */
export function standardHeaders(message: Message): Record<string, string> {
  const headers: Record<string, string> = {};
  mirror(message, headers, HeaderName);
  return headers;
}

/** The names of the standard headers as {@link HeaderFields} hold them. */
const LOWER = {
  ProtocolVersion: 'mcp-protocol-version',
  Method: 'mcp-method',
  Name: 'mcp-name',
} as const;

/** Writes the standard headers of `message` (if any) into `headers`, under `names`. */
function mirror(
  message: Message,
  headers: Record<string, string>,
  names: { readonly ProtocolVersion: string; readonly Method: string; readonly Name: string },
): void {
  const revision = modernRevisionOf(message);
  if (revision === undefined || !('method' in message)) return;
  headers[names.ProtocolVersion] = revision;
  headers[names.Method] = message.method;
  const source = nameParamOf(message.method);
  const params = message.params;
  if (source !== undefined && isRecord(params)) {
    const value = params[source];
    if (typeof value === 'string') headers[names.Name] = encodeHeaderValue(value);
  }
}

/** The MCP headers of one request; each is left out when undefined. */
export interface McpHeaderFields {
  /** The `Accept` header. */
  accept?: string | undefined;
  /** `Mcp-Session-Id`. */
  sessionId?: string | undefined;
  /** `MCP-Protocol-Version` (a 2026-07-28 message's own revision takes precedence). */
  protocolVersion?: string | undefined;
  /** `Last-Event-ID` (an empty id is not sent). */
  lastEventId?: string | undefined;
  /** The POSTed message: sets `Content-Type`, and the standard headers of a 2026-07-28 request. */
  message?: Message | readonly Message[] | undefined;
}

/**
 * Sets the MCP headers of a request on `headers` (the custom ones, lower-case names), replacing
 * any custom header of the same name: the protocol's own headers must be right. Returns
 * `headers`.
 */
export function setMcpHeaders(headers: HeaderFields, fields: McpHeaderFields): HeaderFields {
  const { accept, sessionId, protocolVersion, lastEventId, message } = fields;
  if (accept !== undefined) headers['accept'] = accept;
  if (message !== undefined) headers['content-type'] = 'application/json';
  if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
  if (protocolVersion !== undefined) headers[LOWER.ProtocolVersion] = protocolVersion;
  if (lastEventId !== undefined && lastEventId !== '') headers['last-event-id'] = lastEventId;
  if (message !== undefined && !Array.isArray(message)) mirror(message as Message, headers, LOWER);
  return headers;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectField(value: unknown, key: string): Record<string, unknown> | undefined {
  if (!isRecord(value)) return undefined;
  const field = value[key];
  return isRecord(field) ? field : undefined;
}
