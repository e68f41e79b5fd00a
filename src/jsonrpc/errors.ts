// The two error classes of the JSON-RPC layer: errors that travel as a JSON-RPC `error` member,
// and local failures that never reach the wire. See docs/design.md, "Error model".

/** The error codes JSON-RPC 2.0 itself defines (https://www.jsonrpc.org/specification#error_object). */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;

/** A JSON-RPC error code: one of {@link ErrorCode} or an application-defined integer. */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The `error` member of a JSON-RPC error response, as it appears on the wire. */
export interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * JsonRpcError is an error that is sent to the peer as a JSON-RPC `error` object, keeping its
 * code and data. A handler that throws one has its code and message passed through unchanged.
 */
export class JsonRpcError extends Error {
  /** The JSON-RPC error code. */
  readonly code: number;
  /** Optional structured data sent as `error.data`. */
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'JsonRpcError';
    this.code = code;
    this.data = data;
  }

  /** The wire form of this error (`data` only when defined). */
  toWire(): WireError {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  /** Rebuilds an error received from the peer. */
  static fromWire(error: WireError): JsonRpcError {
    return new JsonRpcError(error.code, error.message, error.data);
  }
}

/** The reasons a local operation fails without anything being sent to the peer. */
export const LocalErrorCode = {
  ConnectionClosed: 'CONNECTION_CLOSED',
  RequestTimeout: 'REQUEST_TIMEOUT',
  NotConnected: 'NOT_CONNECTED',
  AlreadyStarted: 'ALREADY_STARTED',
  InvalidMessage: 'INVALID_MESSAGE',
  ProtocolViolation: 'PROTOCOL_VIOLATION',
  Unsupported: 'UNSUPPORTED',
} as const;

/** One of {@link LocalErrorCode}. */
export type LocalErrorCodeValue = (typeof LocalErrorCode)[keyof typeof LocalErrorCode];

/**
 * LocalError is a failure on this side of the connection (closed, timed out, not connected…).
 * It is never serialized to the peer.
 */
export class LocalError extends Error {
  /** Why the operation failed. */
  readonly code: LocalErrorCodeValue;

  constructor(code: LocalErrorCodeValue, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LocalError';
    this.code = code;
  }
}

/**
 * Normalizes any thrown value into a JsonRpcError for the wire: a JsonRpcError passes through,
 * anything else becomes -32603 with a generic message (no stack trace or internal text leaks).
 */
export function toJsonRpcError(thrown: unknown): JsonRpcError {
  if (thrown instanceof JsonRpcError) return thrown;
  return new JsonRpcError(ErrorCode.InternalError, 'internal error');
}
