// Bounds what a server can make the client send: every answer to a server's request is a POST of
// its own, so a server that sends thousands of requests at once would get thousands of concurrent
// POSTs. Answers go out at most `concurrency` at a time, at most `queue` more wait, and beyond that
// an answer is refused (its send rejects, which the connection reports) instead of held.
import { LocalError, LocalErrorCode } from '../../../jsonrpc/errors.js';

/** Limits of the answers a client sends; see {@link AnswerLimiter}. */
export interface AnswerLimits {
  /** Most answer POSTs in flight. Default 16. */
  readonly concurrency: number;
  /** Most answers waiting for a slot. Default 1 000. */
  readonly queue: number;
}

/** AnswerLimiter runs sends under {@link AnswerLimits}, first come first served. */
export class AnswerLimiter {
  readonly #limits: AnswerLimits;
  readonly #waiting: (() => void)[] = [];
  #running = 0;

  constructor(limits: AnswerLimits) {
    if (!(limits.concurrency >= 1) || !(limits.queue >= 0)) {
      throw new TypeError('answers.concurrency must be at least 1 and answers.queue at least 0');
    }
    this.#limits = limits;
  }

  /** Runs `send` when a slot is free; rejects at once when the queue is full. */
  async run(send: () => Promise<void>): Promise<void> {
    if (this.#running < this.#limits.concurrency) {
      this.#running++;
    } else if (this.#waiting.length < this.#limits.queue) {
      // The slot is handed over by the send that frees it (no increment here).
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      const max = String(this.#limits.queue);
      throw new LocalError(
        LocalErrorCode.NotConnected,
        `the server sent more requests than the client can answer (${max} answers waiting): answer dropped`,
      );
    }
    try {
      await send();
    } finally {
      const next = this.#waiting.shift();
      if (next === undefined) this.#running--;
      else next();
    }
  }
}
