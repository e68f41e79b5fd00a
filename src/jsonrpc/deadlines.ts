// The timeouts of a connection's outgoing calls, on one timer: each call notes its deadline on
// `performance.now()`'s clock, and a sweep, armed for the earliest deadline, times out every call
// past its own and arms itself again for the next. A call that ends costs nothing here: a timer
// per call (a Timeout made, listed and unlisted) was ~4,000 instructions of a forwarded call
// (bench/RESULTS.md, issue 40 point 8). The clock is performance.now(), monotonic, which fake
// timers that replace `setTimeout` should replace too (vitest's default does).

/** What a {@link Deadlines} times: its deadline, undefined while it has none. */
export interface Timed {
  deadline: number | undefined;
}

/** The deadlines of the entries of a map, swept by one timer. */
export class Deadlines<K, V extends Timed> {
  readonly #entries: () => Iterable<readonly [K, V]> | undefined;
  readonly #expire: (key: K, entry: V) => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The deadline the timer is armed for. */
  #at = Number.POSITIVE_INFINITY;
  /** How many entries have a deadline. */
  #timed = 0;

  /**
   * `entries` gives the map whose entries are timed (undefined for none); `expire` is called for
   * each entry past its deadline, which it removes (through {@link clear}) before it returns.
   */
  constructor(
    entries: () => Iterable<readonly [K, V]> | undefined,
    expire: (key: K, entry: V) => void,
  ) {
    this.#entries = entries;
    this.#expire = expire;
  }

  /** Gives `entry` (in the map) a deadline `ms` from now, or a new one. */
  arm(entry: V, ms: number): void {
    if (entry.deadline === undefined) this.#timed++;
    const deadline = performance.now() + ms;
    entry.deadline = deadline;
    if (deadline < this.#at) this.#schedule(deadline, ms);
  }

  /** Takes the deadline of `entry` away (it was removed from the map, or no longer times out). */
  clear(entry: V): void {
    if (entry.deadline === undefined) return;
    entry.deadline = undefined;
    // None left: no timer to keep the process up.
    if (--this.#timed === 0) this.#schedule(Number.POSITIVE_INFINITY, 0);
  }

  #schedule(at: number, ms: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#at = at;
    this.#timer = at === Number.POSITIVE_INFINITY ? undefined : setTimeout(this.#sweep, ms);
  }

  readonly #sweep = (): void => {
    this.#timer = undefined;
    this.#at = Number.POSITIVE_INFINITY;
    const now = performance.now();
    const expired: [K, V][] = [];
    let next = Number.POSITIVE_INFINITY;
    for (const [key, entry] of this.#entries() ?? []) {
      const { deadline } = entry;
      if (deadline === undefined) continue;
      if (deadline <= now) expired.push([key, entry]);
      else if (deadline < next) next = deadline;
    }
    for (const [key, entry] of expired) this.#expire(key, entry);
    // The timer may fire before the clock reaches a deadline (libuv's loop time lags): again then.
    if (next < this.#at) this.#schedule(next, Math.max(1, Math.ceil(next - now)));
  };
}
