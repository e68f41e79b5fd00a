// A map by JSON-RPC request id for what churns: the requests a connection awaits answers to, one
// entry in and out per request, for the life of a long-lived owner. A Map there kept every
// request of a busy client alive until a full collection: when V8 rehashes a Map, the old table
// keeps the entries it had and links to the new one; once one table is promoted (the first, made
// while the owner was idle), each table after it survives the scavenges through that link, and
// with it every request it held (bench/RESULTS.md, "Session 21").
//
// Here the usual id, a non-negative integer below 2^32 (what a counter makes), lives in an
// open-addressed table of two arrays (linear probing, deletion by backward shift): no
// allocation per entry, and a new pair of arrays only when the table grows or shrinks, unlinked
// from the old. Ids are scattered over the slots (a multiplicative hash): the ids in flight are
// mostly consecutive, and in consecutive slots they made one long run, which every deletion
// scanned to its end. Any other id (a string, a negative or fractional number) lives in one of two
// objects in dictionary mode (1 and "1" are two ids), which V8 reallocates without links too.

/** A JSON-RPC request id. */
type Id = string | number;

/** The entries of an object in dictionary mode (no prototype). */
type Table<V> = Record<Id, V>;

function table<V>(): Table<V> {
  return Object.create(null) as Table<V>;
}

/** The smallest open-addressed table; it grows past half full and shrinks below an eighth. */
const MIN_SLOTS = 16;

/**
 * The home slot of a slotted id in a table of `mask + 1` slots (a power of two): the id times
 * an odd constant, which maps any `mask + 1` consecutive ids to distinct slots, far apart.
 */
function home(id: number, mask: number): number {
  return Math.imul(id, 0x9e3779b1) & mask;
}

/** True for the ids the open-addressed table holds: integers in [0, 2^32). */
function slotted(id: Id): id is number {
  return typeof id === 'number' && id >>> 0 === id;
}

/** IdMap is a Map-like by request id whose entries churn; iteration order is not kept. */
export class IdMap<V> implements Iterable<[Id, V]> {
  #keys: (number | undefined)[] = new Array<undefined>(MIN_SLOTS).fill(undefined);
  #values: (V | undefined)[] = new Array<undefined>(MIN_SLOTS).fill(undefined);
  #mask = MIN_SLOTS - 1;
  /** How many entries the open-addressed table holds. */
  #slotted = 0;
  #numbers: Table<V> | undefined;
  #strings: Table<V> | undefined;
  #size = 0;

  /** The number of entries. */
  get size(): number {
    return this.#size;
  }

  has(id: Id): boolean {
    return this.get(id) !== undefined;
  }

  get(id: Id): V | undefined {
    if (!slotted(id)) return this.#table(id)?.[id];
    const at = this.#find(id);
    return at < 0 ? undefined : this.#values[at];
  }

  /** Sets the entry of `id`; `value` is never undefined (undefined reads as absent). */
  set(id: Id, value: V): this {
    if (!slotted(id)) {
      const entries =
        typeof id === 'number' ? (this.#numbers ??= table()) : (this.#strings ??= table());
      if (entries[id] === undefined) this.#size++;
      entries[id] = value;
      return this;
    }
    const keys = this.#keys;
    const mask = this.#mask;
    let at = home(id, mask);
    for (let key = keys[at]; key !== undefined; key = keys[at]) {
      if (key === id) {
        this.#values[at] = value;
        return this;
      }
      at = (at + 1) & mask;
    }
    keys[at] = id;
    this.#values[at] = value;
    this.#size++;
    if (++this.#slotted * 2 > keys.length) this.#resize(keys.length * 2);
    return this;
  }

  /** Removes `id`; true when it was there. */
  delete(id: Id): boolean {
    if (!slotted(id)) {
      const entries = this.#table(id);
      if (entries?.[id] === undefined) return false;
      // eslint-disable-next-line @typescript-eslint/no-dynamic-delete
      delete entries[id];
      this.#size--;
      return true;
    }
    const at = this.#find(id);
    if (at < 0) return false;
    this.#vacate(at);
    this.#size--;
    const slots = this.#keys.length;
    if (--this.#slotted * 8 < slots && slots > MIN_SLOTS) this.#resize(slots / 2);
    return true;
  }

  /** Removes every entry. */
  clear(): void {
    this.#keys = new Array<undefined>(MIN_SLOTS).fill(undefined);
    this.#values = new Array<undefined>(MIN_SLOTS).fill(undefined);
    this.#mask = MIN_SLOTS - 1;
    this.#slotted = 0;
    this.#numbers = undefined;
    this.#strings = undefined;
    this.#size = 0;
  }

  /** Every id (a copy: deleting while iterating is safe). */
  keys(): Id[] {
    return this.entries().map(([id]) => id);
  }

  /** Every value (a copy). */
  values(): V[] {
    return this.entries().map(([, value]) => value);
  }

  /** Every entry (a copy), in no particular order. */
  entries(): [Id, V][] {
    const entries: [Id, V][] = [];
    const keys = this.#keys;
    const values = this.#values;
    for (let at = 0; at < keys.length; at++) {
      const key = keys[at];
      if (key !== undefined) entries.push([key, values[at] as V]);
    }
    const numbers = this.#numbers;
    for (const key in numbers) entries.push([Number(key), numbers[key] as V]);
    const strings = this.#strings;
    for (const key in strings) entries.push([key, strings[key] as V]);
    return entries;
  }

  [Symbol.iterator](): Iterator<[Id, V]> {
    return this.entries()[Symbol.iterator]();
  }

  /** The dictionary an id outside the open-addressed table belongs in, once made. */
  #table(id: Id): Table<V> | undefined {
    return typeof id === 'number' ? this.#numbers : this.#strings;
  }

  /** The slot of `id` in the open-addressed table, or -1. */
  #find(id: number): number {
    const keys = this.#keys;
    const mask = this.#mask;
    let at = home(id, mask);
    for (let key = keys[at]; key !== undefined; key = keys[at]) {
      if (key === id) return at;
      at = (at + 1) & mask;
    }
    return -1;
  }

  /**
   * Empties slot `hole`, moving back each entry after it in its run that may sit there: one
   * whose home slot is no further from it than the hole is (linear probing keeps every entry
   * reachable from its home without tombstones).
   */
  #vacate(slot: number): void {
    const keys = this.#keys;
    const values = this.#values;
    const mask = this.#mask;
    let hole = slot;
    for (let at = (hole + 1) & mask, key = keys[at]; key !== undefined; key = keys[at]) {
      if (((at - home(key, mask)) & mask) >= ((at - hole) & mask)) {
        keys[hole] = key;
        values[hole] = values[at];
        hole = at;
      }
      at = (at + 1) & mask;
    }
    keys[hole] = undefined;
    values[hole] = undefined;
  }

  /** Moves the open-addressed entries into a table of `slots` slots. */
  #resize(slots: number): void {
    const keys = this.#keys;
    const values = this.#values;
    this.#keys = new Array<undefined>(slots).fill(undefined);
    this.#values = new Array<undefined>(slots).fill(undefined);
    this.#mask = slots - 1;
    for (let at = 0; at < keys.length; at++) {
      const key = keys[at];
      if (key === undefined) continue;
      const newKeys = this.#keys;
      let to = home(key, this.#mask);
      while (newKeys[to] !== undefined) to = (to + 1) & this.#mask;
      newKeys[to] = key;
      this.#values[to] = values[at];
    }
  }
}
