// The response to a 2026-07-28 request whose result got only the standard fields (`resultType`
// and the serverInfo `_meta`): it encodes itself as the handler's result's JSON text with those
// fields' text, made once per server, appended. Serializing the long `_meta` key and a copy of
// the result on every call was a third of the reply's cost (bench/RESULTS.md, "Fifth round").
import type { SelfEncoding } from '../jsonrpc/codec.js';
import { JSON_TEXT } from '../jsonrpc/codec.js';
import type { RequestId, SuccessResponse } from '../jsonrpc/message.js';

/** How a {@link ModernResponse} writes its text: the undecorated result and the fields' text. */
export interface ModernText {
  /** The handler's result: a plain object without `resultType`, `_meta` or `toJSON`. */
  readonly source: object;
  /** `,"resultType":"complete","_meta":{…}}`: what closes `source`'s text instead of its `}`. */
  readonly tail: string;
}

/**
 * A success response whose `result` is `text.source` plus the standard fields (what consumers
 * that do not encode it read). Its JSON text is made from `text`, so the result must not be
 * changed once the response is built (nothing in mcpkit does).
 */
export function modernResponse(id: RequestId, result: unknown, text: ModernText): SuccessResponse {
  return new ModernResponse(id, result, text);
}

class ModernResponse implements SuccessResponse, SelfEncoding {
  readonly jsonrpc = '2.0';
  readonly id: RequestId;
  readonly result: unknown;
  readonly #text: ModernText;

  constructor(id: RequestId, result: unknown, text: ModernText) {
    this.id = id;
    this.result = result;
    this.#text = text;
  }

  [JSON_TEXT](): string {
    const { source, tail } = this.#text;
    const own = JSON.stringify(source);
    // Not an object's text after all (a boxed primitive): serialize the response as it is.
    if (own.charCodeAt(own.length - 1) !== 125) {
      return JSON.stringify({ jsonrpc: this.jsonrpc, id: this.id, result: this.result });
    }
    const result = own.length === 2 ? `{${tail.slice(1)}` : own.slice(0, -1) + tail;
    return `{"jsonrpc":"2.0","id":${JSON.stringify(this.id)},"result":${result}}`;
  }
}
