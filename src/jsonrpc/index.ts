// mcpkit/jsonrpc: JSON-RPC 2.0 messages, codec, connection and the Transport interface.
// Nothing here knows about MCP.
export { MAX_BATCH_ANSWER_BYTES, serveBatchElements } from './batch.js';
export type { BatchItem, DecodeOptions, Decoded } from './codec.js';
export { decode, decodeValue, encode, errorResponse } from './codec.js';
export type { AbandonedCall, ConnectionOptions, NotificationHandler } from './connection.js';
export { Connection } from './connection.js';
export { Inbox } from './inbox.js';
export type {
  CallOptions,
  Peer,
  RequestContext,
  RequestHandler,
  RequestHandlers,
} from './serve.js';
export { ServedRequest, serveRequest } from './serve.js';
export type { ErrorCodeValue, LocalErrorCodeValue, WireError } from './errors.js';
export { ErrorCode, JsonRpcError, LocalError, LocalErrorCode, toJsonRpcError } from './errors.js';
export type {
  ErrorResponse,
  Message,
  Notification,
  Params,
  Request,
  RequestId,
  Response,
  SuccessResponse,
} from './message.js';
export { isErrorResponse, isNotification, isRequest, isResponse } from './message.js';
export type { MessageInfo, Receiver, SendOptions, Transport } from './transport.js';
