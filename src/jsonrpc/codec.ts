// Decoding and encoding of JSON-RPC 2.0 messages. Decoding never throws: malformed input becomes
// an error response to send back (-32700 for invalid JSON, -32600 for an invalid message).
import { isObject, isPlainJsonString } from '../internal/json.js';
import { ErrorCode, JsonRpcError } from './errors.js';
import type { ErrorResponse, Message, Params, Request, RequestId } from './message.js';

/** Options for {@link decode} and {@link decodeValue}. */
export interface DecodeOptions {
  /** Whether a top-level array (a batch) is acceptable. Default false: a batch is -32600. */
  allowBatch?: boolean;
  /** Most messages in one batch; a larger one is -32600 as a whole. Default {@link MAX_BATCH_MESSAGES}. */
  maxBatch?: number;
}

/** How many messages a batch may hold unless a transport is told otherwise. */
export const MAX_BATCH_MESSAGES = 100;

/** One element of a decoded batch: a valid message, or the error response for an invalid one. */
export type BatchItem = { message: Message } | { invalid: ErrorResponse };

/** The outcome of decoding one frame of input. */
export type Decoded =
  | { kind: 'message'; message: Message }
  | { kind: 'batch'; items: BatchItem[] }
  | { kind: 'invalid'; response: ErrorResponse };

/** Builds an error response with `id: null`, for input whose id cannot be trusted. */
export function errorResponse(code: number, message: string, data?: unknown): ErrorResponse {
  const error = new JsonRpcError(code, message, data).toWire();
  return { jsonrpc: '2.0', id: null, error };
}

/** Decodes one frame of text (a JSON document). Never throws. */
export function decode(text: string, options?: DecodeOptions): Decoded {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : 'invalid JSON';
    return {
      kind: 'invalid',
      response: errorResponse(ErrorCode.ParseError, `parse error: ${detail}`),
    };
  }
  return decodeValue(value, options);
}

/** Decodes an already-parsed JSON value. Never throws. */
export function decodeValue(value: unknown, options?: DecodeOptions): Decoded {
  if (Array.isArray(value)) {
    if (options?.allowBatch !== true) {
      return invalid('batches are not supported');
    }
    if (value.length === 0) return invalid('empty batch');
    const max = options.maxBatch ?? MAX_BATCH_MESSAGES;
    if (value.length > max) {
      return invalid(
        `a batch of ${String(value.length)} messages exceeds the limit of ${String(max)}`,
      );
    }
    const items = value.map((element): BatchItem => {
      const checked = validateMessage(element);
      return typeof checked === 'string'
        ? { invalid: errorResponse(ErrorCode.InvalidRequest, `invalid request: ${checked}`) }
        : { message: checked };
    });
    return { kind: 'batch', items };
  }
  const checked = validateMessage(value);
  return typeof checked === 'string' ? invalid(checked) : { kind: 'message', message: checked };
}

/**
 * The key of the method by which a value writes its own JSON text. A value that has it, on its
 * prototype (so that a copy made with spread or `Object.assign` has not), is encoded by calling
 * it; what the method returns must mean what `JSON.stringify` of the value would (the same
 * fields and values). What a builder of messages uses when it knows a cheaper way to the text.
 */
export const JSON_TEXT: unique symbol = Symbol('mcpkit.jsonText');

/** A value that writes its own JSON text (see {@link JSON_TEXT}). */
export interface SelfEncoding {
  [JSON_TEXT](): string;
}

/**
 * Encodes one message or a batch (or any JSON value) as JSON text: the value's own text when it
 * is {@link SelfEncoding}, else `JSON.stringify`'s. Throws what `JSON.stringify` throws.
 */
export function encode(message: unknown): string {
  const own = (message as Partial<SelfEncoding> | null | undefined)?.[JSON_TEXT];
  return typeof own === 'function' ? own.call(message) : JSON.stringify(message);
}

/**
 * The request `{ jsonrpc: '2.0', id, method, params }`. When `params` is {@link SelfEncoding}, so
 * is the request: its text is written around the params' own text (what a client whose params
 * carry constant fields, such as MCP's request `_meta`, gives to have them serialized once).
 */
export function requestMessage(id: RequestId, method: string, params?: Params): Request {
  if (params === undefined) return { jsonrpc: '2.0', id, method };
  const own = (params as Partial<SelfEncoding>)[JSON_TEXT];
  if (typeof own !== 'function') return { jsonrpc: '2.0', id, method, params };
  return new SelfEncodedRequest(id, method, params);
}

/** A request whose params write their own text; its fields are those of the plain request. */
class SelfEncodedRequest implements Request, SelfEncoding {
  readonly jsonrpc = '2.0';
  readonly id: RequestId;
  readonly method: string;
  readonly params: Params;

  constructor(id: RequestId, method: string, params: Params) {
    this.id = id;
    this.method = method;
    this.params = params;
  }

  [JSON_TEXT](): string {
    const params = (this.params as unknown as SelfEncoding)[JSON_TEXT]();
    return `{"jsonrpc":"2.0","id":${jsonText(this.id)},"method":${jsonText(this.method)},"params":${params}}`;
  }
}

/**
 * The JSON text of an id or a method: a finite number's String(), a string without anything to
 * escape in quotes (what JSON.stringify gives, for less than its call costs), else stringify's.
 */
function jsonText(value: RequestId): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  return isPlainJsonString(value) ? `"${value}"` : JSON.stringify(value);
}

/**
 * The key of the method by which a value that is {@link SelfEncoding} may give its JSON text in
 * pieces: strings whose concatenation is exactly its JSON_TEXT, none holding a line break. What a
 * value whose text is large gives, so that a transport writes each piece (a large string as it
 * is) instead of copying them into one string.
 */
export const JSON_PIECES: unique symbol = Symbol('mcpkit.jsonPieces');

/**
 * A value that writes its JSON text in pieces (see {@link JSON_PIECES}): one string, or several;
 * with `bytes`, a piece may be its UTF-8 bytes instead (what a writer of bytes takes).
 */
export interface PieceEncoding {
  [JSON_PIECES](bytes: boolean): string | readonly (string | Uint8Array)[];
}

/**
 * Encodes a message as what {@link encode} gives, or as pieces of it (their concatenation) when
 * the value gives its text in pieces ({@link JSON_PIECES}). Pieces hold no line break.
 */
export function encodePieces(message: unknown): string | readonly string[];
/** The same, a piece maybe given as its UTF-8 bytes: for a transport that writes bytes. */
export function encodePieces(
  message: unknown,
  bytes: true,
): string | readonly (string | Uint8Array)[];
export function encodePieces(
  message: unknown,
  bytes = false,
): string | readonly (string | Uint8Array)[] {
  const own = (message as Partial<PieceEncoding> | null | undefined)?.[JSON_PIECES];
  return typeof own === 'function' ? own.call(message, bytes) : encode(message);
}

function invalid(reason: string): Decoded {
  return {
    kind: 'invalid',
    response: errorResponse(ErrorCode.InvalidRequest, `invalid request: ${reason}`),
  };
}

/**
 * A usable request id: a string, or an integer that survives a JSON round trip (the schema's
 * RequestId is string | integer). A float, or an integer beyond 2^53 that JSON.parse already
 * rounded, could not be echoed exactly, so it is refused.
 */
function isId(value: unknown): value is string | number {
  return typeof value === 'string' || Number.isSafeInteger(value);
}

/** Returns the message when `value` is a structurally valid JSON-RPC 2.0 message, else why not. */
function validateMessage(value: unknown): Message | string {
  if (!isObject(value)) return 'a message must be a JSON object';
  if (value['jsonrpc'] !== '2.0') return 'jsonrpc must be "2.0"';
  if ('method' in value) return validateCall(value);
  return validateResponse(value);
}

function validateCall(value: Record<string, unknown>): Message | string {
  if (typeof value['method'] !== 'string') return 'method must be a string';
  if ('result' in value || 'error' in value) return 'a request cannot carry result or error';
  if ('params' in value) {
    const params = value['params'];
    if (typeof params !== 'object' || params === null)
      return 'params must be an object or an array';
  }
  if ('id' in value && !isId(value['id'])) return 'id must be a string or an integer';
  return value as unknown as Message;
}

function validateResponse(value: Record<string, unknown>): Message | string {
  const hasResult = 'result' in value;
  const hasError = 'error' in value;
  if (hasResult === hasError) {
    return hasResult
      ? 'a response cannot carry both result and error'
      : 'a message needs a method, a result or an error';
  }
  if (!('id' in value)) return 'a response needs an id';
  const id = value['id'];
  if (hasResult) {
    if (!isId(id)) return 'id must be a string or an integer';
    return value as unknown as Message;
  }
  if (id !== null && !isId(id)) return 'id must be a string, an integer or null';
  const error = value['error'];
  if (!isObject(error)) return 'error must be an object';
  if (typeof error['code'] !== 'number' || !Number.isInteger(error['code'])) {
    return 'error.code must be an integer';
  }
  if (typeof error['message'] !== 'string') return 'error.message must be a string';
  return value as unknown as Message;
}
