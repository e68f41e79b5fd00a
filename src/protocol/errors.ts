// MCP's JSON-RPC error codes and constructors for the errors whose `data` the spec shapes.
// Each constructor returns a JsonRpcError, so a handler can throw it and have it sent unchanged
// (docs/design.md, "Error model").
import { JsonRpcError } from '../jsonrpc/errors.js';
import type * as S20251125 from './schema/2025-11-25.js';
import type * as S20260728 from './schema/2026-07-28.js';

/** The JSON-RPC error codes MCP uses: JSON-RPC's own, then the MCP-defined ones. */
export const McpErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Resource not found, up to 2025-11-25; 2026-07-28 uses InvalidParams instead (SEP-2164). */
  ResourceNotFound: -32002,
  /** HTTP headers disagree with the body, or are missing or malformed (2026-07-28). */
  HeaderMismatch: -32020,
  /** The request needs a client capability the request did not declare (2026-07-28). */
  MissingRequiredClientCapability: -32021,
  /** The request's protocol revision is unknown or unsupported (2026-07-28). */
  UnsupportedProtocolVersion: -32022,
  /** The request needs the user to complete a URL elicitation first (2025-11-25). */
  UrlElicitationRequired: -32042,
  /**
   * Not the spec's: a request refused because the verified principal lacks a scope it needs
   * (`data.requiredScopes`). The HTTP transport answers it 403 with the `insufficient_scope`
   * challenge, the step-up of spec 2025-11-25 basic/authorization#scope-challenge-handling.
   * `INSUFFICIENT_SCOPE` of `mcpkit/protocol` is this code.
   */
  InsufficientScope: -32003,
  /**
   * Not the spec's: what a cancelled task's pending requests for input are rejected with, inside
   * the server (LSP's RequestCancelled).
   */
  RequestCancelled: -32800,
} as const;

/** One of the {@link McpErrorCode} values. */
export type McpErrorCodeValue = (typeof McpErrorCode)[keyof typeof McpErrorCode];

/** The `data` of an UnsupportedProtocolVersion (-32022) error. */
export type UnsupportedProtocolVersionData =
  S20260728.UnsupportedProtocolVersionError['error']['data'];

/** The `data` of a MissingRequiredClientCapability (-32021) error. */
export type MissingRequiredClientCapabilityData =
  S20260728.MissingRequiredClientCapabilityError['error']['data'];

/** The `data` of a UrlElicitationRequired (-32042) error. */
export type UrlElicitationRequiredData = S20251125.URLElicitationRequiredError['error']['data'];

/** The `data` of a resource-not-found error: the URI that was asked for. */
export interface ResourceNotFoundData {
  uri: string;
}

/** An InvalidParams (-32602) error: the params are malformed or name something unknown. */
export function invalidParams(message: string, data?: unknown): JsonRpcError {
  return new JsonRpcError(McpErrorCode.InvalidParams, message, data);
}

/** The `data` of an InvalidParams error about a key of the request's `_meta`. */
export interface InvalidMetaData {
  /** The `_meta` key that is missing or malformed (`io.modelcontextprotocol/clientCapabilities`). */
  metaKey: string;
}

/**
 * An InvalidParams (-32602) error about a key of a 2026-07-28 request's `_meta`: missing or
 * malformed. Its data names the key; over HTTP it is answered with status 400 (SEP-2575, see
 * {@link modernHttpStatus}).
 */
export function invalidMeta(metaKey: string, message: string): JsonRpcError {
  const data: InvalidMetaData = { metaKey };
  return new JsonRpcError(McpErrorCode.InvalidParams, message, data);
}

/**
 * The HTTP status of a 2026-07-28 error response sent as JSON (spec 2026-07-28
 * transports/streamable-http#request-metadata): header mismatch, missing capability, unsupported
 * version and an invalid `_meta` key are 400, an unknown method 404; any other error is 200, as
 * results are.
 */
export function modernHttpStatus(error: {
  readonly code: number;
  readonly data?: unknown;
}): number {
  switch (error.code) {
    case McpErrorCode.HeaderMismatch:
    case McpErrorCode.MissingRequiredClientCapability:
    case McpErrorCode.UnsupportedProtocolVersion:
      return 400;
    case McpErrorCode.MethodNotFound:
      return 404;
    case McpErrorCode.InvalidParams: {
      const { data } = error;
      return typeof data === 'object' && data !== null && 'metaKey' in data ? 400 : 200;
    }
    default:
      return 200;
  }
}

/**
 * A resource-not-found error for `uri`. Legacy revisions use -32002; 2026-07-28 uses InvalidParams
 * (-32602), as SEP-2164 standardized. Both carry `{ uri }`.
 */
export function resourceNotFound(uri: string, era: 'legacy' | 'modern'): JsonRpcError {
  const data: ResourceNotFoundData = { uri };
  const code = era === 'legacy' ? McpErrorCode.ResourceNotFound : McpErrorCode.InvalidParams;
  return new JsonRpcError(code, 'resource not found', data);
}

/**
 * A HeaderMismatch (-32020) error. `message` says which header disagrees with the body (for
 * example `Mcp-Method header "a" does not match body method "b"`). Sent with HTTP 400.
 */
export function headerMismatch(message: string): JsonRpcError {
  return new JsonRpcError(McpErrorCode.HeaderMismatch, message);
}

/** A MissingRequiredClientCapability (-32021) error naming the capabilities the request needs. */
export function missingRequiredClientCapability(
  requiredCapabilities: S20260728.ClientCapabilities,
): JsonRpcError {
  const data: MissingRequiredClientCapabilityData = { requiredCapabilities };
  return new JsonRpcError(
    McpErrorCode.MissingRequiredClientCapability,
    'missing required client capability',
    data,
  );
}

/**
 * An UnsupportedProtocolVersion (-32022) error: `requested` is what the client asked for and
 * `supported` every revision the server speaks, so the client can pick one and retry.
 */
export function unsupportedProtocolVersion(
  requested: string,
  supported: readonly string[],
): JsonRpcError {
  const data: UnsupportedProtocolVersionData = { supported: [...supported], requested };
  return new JsonRpcError(
    McpErrorCode.UnsupportedProtocolVersion,
    'unsupported protocol version',
    data,
  );
}

/** A UrlElicitationRequired (-32042) error listing the URL elicitations the user must complete. */
export function urlElicitationRequired(
  elicitations: S20251125.ElicitRequestURLParams[],
  message = 'url elicitation required',
): JsonRpcError {
  const data: UrlElicitationRequiredData = { elicitations };
  return new JsonRpcError(McpErrorCode.UrlElicitationRequired, message, data);
}
