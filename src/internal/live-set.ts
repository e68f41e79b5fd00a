// A set for what is in flight and churns (the pending requests of a server, the forwarded calls of
// a gateway): one entry added and removed per request, for the lifetime of a long-lived owner.
// A Set there kept garbage alive: each time V8 rehashes a Set its old table stays linked to the
// new one and keeps its entries, so once one old table is promoted, every request since is
// carried through the scavenges and promoted in turn, until a full collection (bench/RESULTS.md,
// "Issue 40: forwarded call, downstream side"). Here an entry is a list node whose links are
// cleared when it is removed: nothing removed holds anything.

/** The entry of a value in a {@link LiveSet}: what removes it. Its links are the set's own. */
export class LiveEntry<T> {
  /** The value; undefined once removed. */
  value: T | undefined;
  prev: LiveEntry<T> | undefined = undefined;
  next: LiveEntry<T> | undefined = undefined;

  constructor(value: T) {
    this.value = value;
  }
}

/** LiveSet holds values in the order they were added; each add is its own entry. */
export class LiveSet<T> {
  #head: LiveEntry<T> | undefined;
  #tail: LiveEntry<T> | undefined;
  #size = 0;

  /** The number of entries. */
  get size(): number {
    return this.#size;
  }

  /** Adds `value` (last); returns the entry that removes it. */
  add(value: T): LiveEntry<T> {
    const node = new LiveEntry(value);
    const tail = this.#tail;
    if (tail === undefined) this.#head = node;
    else {
      tail.next = node;
      node.prev = tail;
    }
    this.#tail = node;
    this.#size++;
    return node;
  }

  /** Removes `node` (an entry of this set); a second call does nothing. */
  delete(node: LiveEntry<T>): void {
    if (node.value === undefined) return;
    const { prev, next } = node;
    if (prev === undefined) this.#head = next;
    else prev.next = next;
    if (next === undefined) this.#tail = prev;
    else next.prev = prev;
    node.prev = undefined;
    node.next = undefined;
    node.value = undefined;
    this.#size--;
  }

  /** True when `value` is in the set (a scan: for rare questions, not per request). */
  has(value: T): boolean {
    for (let node = this.#tail; node !== undefined; node = node.prev) {
      if (node.value === value) return true;
    }
    return false;
  }

  /** The value added last of those still in the set. */
  last(): T | undefined {
    return this.#tail?.value;
  }

  /** Every value, oldest first (a copy: removing while iterating is safe). */
  values(): T[] {
    const values: T[] = [];
    for (let node = this.#head; node !== undefined; node = node.next) {
      values.push(node.value as T);
    }
    return values;
  }

  /** Removes every entry; returns their values, oldest first. */
  clear(): T[] {
    const values = this.values();
    while (this.#head !== undefined) this.delete(this.#head);
    return values;
  }
}
