// The pages of a snapshot's listings, each with its JSON text made once per era (issue #44): a
// tools/list (prompts, resources, templates) answers the text its page made for the first
// request, whatever the number of tools, unless the result was changed on its way out.
import type { ProtocolEra } from '../protocol/version.js';

/**
 * One page of a listing: its items and next cursor (immutable, from one snapshot) and the result
 * text of each era, made the first time a response of that era is written.
 */
export class ListedPage {
  readonly #key: string;
  readonly #items: readonly object[];
  readonly #nextCursor: string | undefined;
  /** The items as the page was made: what an unchanged result still holds. */
  readonly #held: readonly object[];
  readonly #texts: Partial<Record<ProtocolEra, string>> = {};

  constructor(key: string, items: readonly object[], nextCursor: string | undefined) {
    this.#key = key;
    this.#items = items;
    this.#nextCursor = nextCursor;
    this.#held = items.slice();
  }

  /**
   * A new result object of this page (`{ [key]: items, nextCursor? }`), for a feature to resolve
   * with: a middleware may change it; while it does not, its text is this page's.
   */
  result(): Record<string, unknown> {
    const result: Record<string, unknown> = { [this.#key]: this.#items };
    if (this.#nextCursor !== undefined) result['nextCursor'] = this.#nextCursor;
    PAGES.set(result, this);
    return result;
  }

  /**
   * The text of a result of `era` that this page made: `make()` the first time (it must give
   * the text of the result as served in that era), the same string after.
   */
  text(era: ProtocolEra, make: () => string): string {
    return (this.#texts[era] ??= make());
  }

  /** True when `result` still has exactly the fields and items this page gave it. */
  holds(result: object): boolean {
    if (Object.getPrototypeOf(result) !== Object.prototype) return false;
    const fields = result as Record<string, unknown>;
    let count = 0;
    // In the order the page wrote them: the items' key, then nextCursor.
    for (const key in fields) {
      if (key !== (count === 0 ? this.#key : 'nextCursor')) return false;
      count++;
    }
    const expected = this.#nextCursor === undefined ? 1 : 2;
    if (count !== expected || fields['nextCursor'] !== this.#nextCursor) return false;
    const items = fields[this.#key];
    if (items !== this.#items) return false;
    // The items array is the snapshot's own: an element set or removed in place shows here.
    const held = this.#held;
    if (this.#items.length !== held.length) return false;
    for (let i = 0; i < held.length; i++) if (this.#items[i] !== held[i]) return false;
    return true;
  }
}

const PAGES = new WeakMap<object, ListedPage>();

/**
 * The page `result` was made from (ListedPage.result), when it is one and still holds what the
 * page gave it; undefined for any other value, or a page result a middleware changed.
 */
export function listedPageOf(result: unknown): ListedPage | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const page = PAGES.get(result);
  return page !== undefined && page.holds(result) ? page : undefined;
}
