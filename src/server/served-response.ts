// The server's success responses, which write their own JSON text (codec's JSON_TEXT;
// bench/RESULTS.md, "Fifth round"). On Node 20 serializing the reply was a third of
// mcpkit's time per call: the 2026-07-28 fields (`resultType`, the serverInfo `_meta` with its
// long key) are appended as text made once per server instead of serialized from a decorated
// copy, and the result of a tool that returned a string is written around its one string.
import type { PieceEncoding, SelfEncoding } from '../jsonrpc/codec.js';
import { JSON_PIECES, JSON_TEXT } from '../jsonrpc/codec.js';
import type { RequestId, SuccessResponse } from '../jsonrpc/message.js';
import { escapedUtf8 } from './escaped-utf8.js';
import { listedPageOf } from './listed-page.js';
import { isPlainJsonString } from '../internal/json.js';

/** How a 2026-07-28 response writes its text: the undecorated result and the added fields' text. */
export interface ModernText {
  /** The handler's result: a plain object without `resultType`, `_meta` or `toJSON`. */
  readonly source: object;
  /** The text of the fields added to `source`: `"resultType":"complete","_meta":{…}`. */
  readonly fields: string;
}

/**
 * A success response that writes its own JSON text. Without `modern` its text is made from
 * `result` when encoded. With `modern`, `result` is `modern.source` plus the fields `modern.fields`
 * writes (what consumers that do not encode it read) and its text is made from `modern`, so the
 * result must not be changed once the response is built (nothing in mcpkit does).
 */
export function servedResponse(
  id: RequestId,
  result: object,
  modern?: ModernText,
): SuccessResponse {
  return new ServedResponse(id, result, modern);
}

/**
 * A success response whose result's JSON text is `text` (what `JSON.stringify(result)` gives,
 * made before: a listing's kept page), written as is.
 */
export function listedResponse(id: RequestId, result: object, text: string): SuccessResponse {
  return new ServedResponse(id, result, text);
}

/**
 * The length from which a text result's text or a kept listing's text is given as a piece of its
 * own (JSON_PIECES): written as it is, not copied into the response's one string (issue #44).
 */
const LARGE_TEXT = 65_536;

class ServedResponse implements SuccessResponse, SelfEncoding, PieceEncoding {
  readonly jsonrpc = '2.0';
  readonly id: RequestId;
  readonly result: object;
  readonly #modern: ModernText | undefined;
  readonly #text: string | undefined;

  /** `form`: how the text is made (ModernText), or the result's text itself. */
  constructor(id: RequestId, result: object, form: ModernText | string | undefined) {
    this.id = id;
    this.result = result;
    this.#modern = typeof form === 'object' ? form : undefined;
    this.#text = typeof form === 'string' ? form : undefined;
  }

  [JSON_TEXT](): string {
    return this.#encode(false) as string;
  }

  /**
   * The text in pieces: a large kept text (a listing's page), or a text result's large text (as
   * it is when JSON writes it unescaped), a piece of its own; else the one JSON_TEXT string.
   */
  [JSON_PIECES](bytes: boolean): string | readonly (string | Uint8Array)[] {
    return this.#encode(true, bytes);
  }

  /** The response's text; in pieces when `split` and a large text is in it. */
  #encode(split: boolean, bytes = false): string | readonly (string | Uint8Array)[] {
    if (this.#text !== undefined) return this.#around(this.#text, split);
    const modern = this.#modern;
    const source = modern === undefined ? this.result : modern.source;
    const text = textOf(source);
    if (text !== undefined) {
      if (split && text.length >= LARGE_TEXT) return this.#textPieces(text, modern, bytes);
      const open = isPlainJsonString(text)
        ? `{"content":[{"type":"text","text":"${text}"}]`
        : `{"content":[{"type":"text","text":${JSON.stringify(text)}}]`;
      return this.#wrap(modern === undefined ? `${open}}` : `${open},${modern.fields}}`);
    }
    // A listing's page (unchanged since the feature made it) and this is a legacy response:
    // the text the page kept. A 2026-07-28 one comes with its text (listedResponse).
    const page = modern === undefined ? listedPageOf(source) : undefined;
    if (page !== undefined) {
      return this.#around(
        page.text('legacy', () => JSON.stringify(source)),
        split,
      );
    }
    let result = JSON.stringify(source);
    // Not an object's text after all (a boxed primitive): serialize the response as it is.
    if (result.charCodeAt(result.length - 1) !== 125) {
      return JSON.stringify({ jsonrpc: this.jsonrpc, id: this.id, result: this.result });
    }
    if (modern !== undefined) {
      const open = result.length === 2 ? '{' : `${result.slice(0, -1)},`;
      result = `${open}${modern.fields}}`;
    }
    return this.#wrap(result);
  }

  /** The response around the result's text `result`: its pieces when `split` and it is large. */
  #around(result: string, split: boolean): string | readonly string[] {
    return split && result.length >= LARGE_TEXT ? [this.#head(), result, '}'] : this.#wrap(result);
  }

  /** The pieces of a text result's response, its large text one of them. */
  #textPieces(
    text: string,
    modern: ModernText | undefined,
    bytes: boolean,
  ): readonly (string | Uint8Array)[] {
    const head = `${this.#head()}{"content":[{"type":"text","text":`;
    const tail = modern === undefined ? '}]}}' : `}],${modern.fields}}}`;
    if (!ESCAPED.test(text)) return [`${head}"`, text, `"${tail}`];
    // Escaped a slice at a time: JSON.stringify of the whole would make it in parts, then copy
    // them into one string; each slice's text is small and made once.
    // As bytes when asked, escaped straight into them (escaped-utf8.ts: no escaped string).
    const pieces: (string | Uint8Array)[] = [`${head}"`];
    for (let at = 0; at < text.length;) {
      let end = Math.min(at + LARGE_TEXT, text.length);
      // Never between the halves of a surrogate pair, which JSON would escape apart.
      const code = text.charCodeAt(end - 1);
      if (end < text.length && code >= 0xd800 && code <= 0xdbff) end++;
      const slice = text.slice(at, end);
      pieces.push(bytes ? escapedUtf8(slice) : JSON.stringify(slice).slice(1, -1));
      at = end;
    }
    pieces.push(`"${tail}`);
    return pieces;
  }

  /** The response's text around the result's text `result`. */
  #wrap(result: string): string {
    return `{"jsonrpc":"2.0","id":${idText(this.id)},"result":${result}}`;
  }

  /** The response's text up to its result's. */
  #head(): string {
    return `{"jsonrpc":"2.0","id":${idText(this.id)},"result":`;
  }
}

/** The JSON text of a response's id. */
function idText(id: RequestId): string {
  // A finite number's JSON text is its String(), which costs less than stringify.
  return typeof id === 'number' && Number.isFinite(id) ? String(id) : JSON.stringify(id);
}

/**
 * The text of a result that is exactly `{ content: [{ type: 'text', text }] }`, fields in that
 * order (what a tool that returns a string answers), else undefined.
 */
function textOf(result: object): string | undefined {
  // Each object's fields are read before its prototype is: V8 then knows its shape and answers
  // getPrototypeOf without a call into the runtime.
  const content = (result as { content?: unknown }).content;
  if (Object.getPrototypeOf(result) !== Object.prototype) return undefined;
  for (const key in result) if (key !== 'content') return undefined;
  if (!Array.isArray(content) || content.length !== 1) return undefined;
  if ((content as { toJSON?: unknown }).toJSON !== undefined) return undefined;
  const block: unknown = content[0];
  if (typeof block !== 'object' || block === null) return undefined;
  const { type, text } = block as { type?: unknown; text?: unknown };
  if (Object.getPrototypeOf(block) !== Object.prototype) return undefined;
  let fields = 0;
  for (const key in block) {
    if (key !== (fields === 0 ? 'type' : 'text')) return undefined; // a third is never 'text'
    fields++;
  }
  return fields === 2 && type === 'text' && typeof text === 'string' ? text : undefined;
}

/**
 * Finds what JSON escapes in a text (a control character, `"`, `\\`) or may (a surrogate). Not
 * sticky nor global: `test` keeps no state.
 */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON escapes
const ESCAPED = /[\u0000-\u001f"\\\ud800-\udfff]/;
