// A map for keys that are mostly one at a time: the in-flight requests of a connection or a
// session. One entry lives in two fields; a Map is made only while a second key is present, and
// dropped again once one or none is left. One request at a time makes no Map (a Map made and
// dropped per request was measurable under load; bench/RESULTS.md), and the SlotMap itself is
// small enough for its owner to make it on first use and drop it when empty. The second key on
// makes an IdMap, not a Map: its entries churn (see id-map.ts).
import { IdMap } from './id-map.js';

/** SlotMap is a Map-like for few concurrent keys; insertion order is not kept. */
export class SlotMap<K extends string | number, V> {
  #key: K | undefined;
  #value: V | undefined;
  #full = false;
  #more: IdMap<V> | undefined;

  /** The number of entries. */
  get size(): number {
    return (this.#full ? 1 : 0) + (this.#more?.size ?? 0);
  }

  has(key: K): boolean {
    return (this.#full && this.#key === key) || this.#more?.has(key) === true;
  }

  get(key: K): V | undefined {
    if (this.#full && this.#key === key) return this.#value;
    return this.#more?.get(key);
  }

  set(key: K, value: V): this {
    if (this.#full && this.#key === key) {
      this.#value = value;
    } else if (this.#more?.has(key) === true || this.#full) {
      (this.#more ??= new IdMap()).set(key, value);
    } else {
      this.#key = key;
      this.#value = value;
      this.#full = true;
    }
    return this;
  }

  /** Removes `key`; true when it was there. */
  delete(key: K): boolean {
    if (this.#full && this.#key === key) {
      this.#full = false;
      this.#key = undefined;
      this.#value = undefined;
      this.#settle();
      return true;
    }
    const removed = this.#more?.delete(key) === true;
    if (removed) this.#settle();
    return removed;
  }

  /** Every value, in no particular order (a copy: deleting while iterating is safe). */
  values(): V[] {
    const values = this.#more === undefined ? [] : this.#more.values();
    if (this.#full) values.push(this.#value as V);
    return values;
  }

  /** Every key, as {@link values}. */
  keys(): K[] {
    const keys = this.#more === undefined ? [] : (this.#more.keys() as K[]);
    if (this.#full) keys.push(this.#key as K);
    return keys;
  }

  /** Moves a lone Map entry into the slot and drops the Map once it holds one entry or none. */
  #settle(): void {
    const more = this.#more;
    if (more === undefined || more.size > 1) return;
    if (more.size === 1 && !this.#full) {
      const [key, value] = more.entries()[0] as [K, V];
      this.#key = key;
      this.#value = value;
      this.#full = true;
      this.#more = undefined;
      return;
    }
    if (more.size === 0) this.#more = undefined;
  }
}
