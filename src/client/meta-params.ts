// The params of a 2026-07-28 request as the client sends them: the caller's params with the
// request `_meta` (revision, capabilities, client info, log level) added. The `_meta` keys are
// long and the same on every request, and serializing them was a good part of what a forwarded
// call's encoding cost (issue 40 point 8): the params write their own text (codec's JSON_TEXT),
// the caller's fields serialized as ever and the `_meta` text made from pieces kept per client.
import type { SelfEncoding } from '../jsonrpc/codec.js';
import { JSON_TEXT } from '../jsonrpc/codec.js';
import type { RequestId } from '../jsonrpc/message.js';
import type * as Spec from '../protocol/schema/2026-07-28.js';
import { MetaKey } from '../protocol/version.js';

type Params = Record<string, unknown>;

/** The fields of a request's `_meta` as the client writes them, in their order on the wire. */
export interface MetaFields {
  readonly token: RequestId | undefined;
  readonly revision: string;
  readonly capabilities: Spec.ClientCapabilities;
  readonly info: Spec.Implementation;
  readonly level: string | undefined;
  /**
   * True when `capabilities` is the client's own object for `revision`, which never changes:
   * its text may then be kept (a caller's per-call object is serialized each time).
   */
  readonly ownCapabilities: boolean;
}

/**
 * The `_meta` texts of one client's requests: the text of the fields that are the same from one
 * request to the next (the revision's, the client info's) made once and kept while they stay
 * the same (the same revision, the same info object, which the client never changes); and the
 * whole text of a request without progress token or log level, while its capabilities are the
 * client's own object too.
 */
export class MetaTexts {
  #revision: string | undefined;
  /** `{"…/protocolVersion":"<revision>","…/clientCapabilities":` for `#revision`. */
  #head = '';
  #info: Spec.Implementation | undefined;
  /** `,"…/clientInfo":<info>` for `#info`. */
  #infoText = '';
  /** The client's own capabilities that `#plain` was made with. */
  #capabilities: Spec.ClientCapabilities | undefined;
  /** The whole text for the fields above, no token or level; undefined once they change. */
  #plain: string | undefined;

  /** The JSON text of the `_meta` object that {@link metaObject} makes of `fields`. */
  text(fields: MetaFields): string {
    const { token, revision, capabilities, info, level } = fields;
    if (revision !== this.#revision) {
      this.#head = `${JSON.stringify(MetaKey.ProtocolVersion)}:${JSON.stringify(revision)},${JSON.stringify(MetaKey.ClientCapabilities)}:`;
      this.#revision = revision;
      this.#plain = undefined;
    }
    if (info !== this.#info) {
      this.#infoText = `,${JSON.stringify(MetaKey.ClientInfo)}:${JSON.stringify(info)}`;
      this.#info = info;
      this.#plain = undefined;
    }
    const plain = token === undefined && level === undefined && fields.ownCapabilities;
    if (plain && capabilities === this.#capabilities && this.#plain !== undefined) {
      return this.#plain;
    }
    const first = token === undefined ? '{' : `{"progressToken":${JSON.stringify(token)},`;
    const last =
      level === undefined ? '}' : `,${JSON.stringify(MetaKey.LogLevel)}:${JSON.stringify(level)}}`;
    const text = `${first}${this.#head}${JSON.stringify(capabilities)}${this.#infoText}${last}`;
    if (plain) {
      this.#capabilities = capabilities;
      this.#plain = text;
    }
    return text;
  }
}

/** The `_meta` object of `fields`: what {@link MetaTexts.text} writes. */
export function metaObject(fields: MetaFields): Params {
  const meta: Params = {};
  if (fields.token !== undefined) meta[MetaKey.ProgressToken] = fields.token;
  meta[MetaKey.ProtocolVersion] = fields.revision;
  meta[MetaKey.ClientCapabilities] = fields.capabilities;
  meta[MetaKey.ClientInfo] = fields.info;
  if (fields.level !== undefined) meta[MetaKey.LogLevel] = fields.level;
  return meta;
}

/**
 * Params whose own fields are `source`'s, copied as an object spread would, then `_meta`: what
 * `{ ...source, _meta }` is, and its text what JSON.stringify of that gives, `source` serialized
 * when the params are encoded (as the copy's fields would be) and `_meta` as `metaText`. For
 * params nothing changes between their making and their encoding (the client's own request
 * path with no middleware, which could change them): the `_meta` text is not made again. A
 * `source` that is not a plain object, or has a `_meta` or a `toJSON` of its own, is not taken.
 */
export function metaParams(source: Params, meta: Params, metaText: string): Params {
  return new MetaParams(source, meta, metaText) as unknown as Params;
}

/** Whether {@link metaParams} takes `source`. */
export function takesMeta(source: Params): boolean {
  return (
    Object.getPrototypeOf(source) === Object.prototype &&
    !Object.hasOwn(source, '_meta') &&
    !Object.hasOwn(source, 'toJSON')
  );
}

class MetaParams implements SelfEncoding {
  readonly #source: Params;
  readonly #metaText: string;

  constructor(source: Params, meta: Params, metaText: string) {
    this.#source = source;
    this.#metaText = metaText;
    const fields = this as unknown as Params;
    copyFields(fields, source);
    fields['_meta'] = meta;
  }

  [JSON_TEXT](): string {
    const text = JSON.stringify(this.#source);
    return text.length === 2
      ? `{"_meta":${this.#metaText}}`
      : `${text.slice(0, -1)},"_meta":${this.#metaText}}`;
  }
}

/** Copies `source`'s own enumerable fields onto `target`, as a spread would (defined, not set). */
export function copyFields(target: Params, source: Params): void {
  for (const key in source) {
    if (!Object.hasOwn(source, key)) continue;
    // Set, a field named __proto__ would change the prototype: the spread defines it.
    if (key === '__proto__') {
      Object.defineProperty(target, key, {
        value: source[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      target[key] = source[key];
    }
  }
}
