// What the page takes from an MCP App view: a bounded rate (a token bucket) and a bounded size
// of each message. A view past either has its messages dropped, counted, and reported.

/** The largest message taken from a view, as JSON. */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

/** Messages a view may send at once, and per second after that. */
export const BURST = 200;
export const PER_SECOND = 100;

/** Why a message was dropped. */
export type DropReason = 'rate' | 'size' | 'malformed';

/** Checks each message of one view. */
export class MessageGuard {
  #tokens = BURST;
  #last: number;
  readonly #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
    this.#last = now();
  }

  /** Why `data` is dropped, or undefined when it is taken (then it counts against the rate). */
  check(data: unknown): DropReason | undefined {
    const now = this.#now();
    this.#tokens = Math.min(BURST, this.#tokens + ((now - this.#last) / 1000) * PER_SECOND);
    this.#last = now;
    if (this.#tokens < 1) return 'rate';
    this.#tokens -= 1;
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'malformed';
    let size: number;
    try {
      size = JSON.stringify(data).length;
    } catch {
      return 'malformed';
    }
    return size > MAX_MESSAGE_BYTES ? 'size' : undefined;
  }
}
