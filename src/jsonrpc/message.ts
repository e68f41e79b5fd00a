// JSON-RPC 2.0 message shapes (https://www.jsonrpc.org/specification). Plain data, no behaviour.
import type { WireError } from './errors.js';

/** A request id: a string or a number, never null on a request. */
export type RequestId = string | number;

/** Request or notification parameters: a structured value (object or array). */
export type Params = Record<string, unknown> | unknown[];

/** A request: expects a response with the same id. */
export interface Request {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: Params;
}

/** A notification: a request without an id, answered by nothing. */
export interface Notification {
  jsonrpc: '2.0';
  method: string;
  params?: Params;
}

/** A success response. */
export interface SuccessResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: unknown;
}

/** An error response; `id` is null when the request's id could not be read. */
export interface ErrorResponse {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: WireError;
}

/** A response of either kind. */
export type Response = SuccessResponse | ErrorResponse;

/** Any single JSON-RPC message. */
export type Message = Request | Notification | Response;

/** True for a request (has a method and an id). */
export function isRequest(message: Message): message is Request {
  return 'method' in message && 'id' in message;
}

/** True for a notification (has a method, no id). */
export function isNotification(message: Message): message is Notification {
  return 'method' in message && !('id' in message);
}

/** True for a response of either kind. */
export function isResponse(message: Message): message is Response {
  return !('method' in message);
}

/** True for an error response. */
export function isErrorResponse(message: Message): message is ErrorResponse {
  return 'error' in message && !('method' in message);
}
