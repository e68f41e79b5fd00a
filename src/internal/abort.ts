// Abort helpers.

/** A signal that follows others, with its own abort and the function that detaches it. */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Aborts the linked signal itself (the sources are untouched). */
  readonly abort: (reason: unknown) => void;
  /** Detaches from the sources. Idempotent; call it once the signal is no longer needed. */
  readonly release: () => void;
}

/**
 * Returns a signal that aborts, with that source's reason, as soon as one of `sources` does, or
 * when its own `abort` is called: a cheap stand-in for `AbortSignal.any`, which on Node 20 costs
 * tens of microseconds per call and holds its sources in weak references that the collector is
 * slow to clear (see bench/RESULTS.md). The listeners stay on the sources until `release()`, so
 * that a long-lived source never accumulates them.
 */
export function linkSignals(sources: readonly AbortSignal[]): LinkedSignal {
  const controller = new AbortController();
  const listeners: (() => void)[] = [];
  const release = (): void => {
    sources.forEach((source, i) => {
      const listener = listeners[i];
      if (listener !== undefined) source.removeEventListener('abort', listener);
    });
    listeners.length = 0;
  };
  const abort = (reason: unknown): void => {
    release();
    controller.abort(reason);
  };
  for (const source of sources) {
    if (source.aborted) {
      abort(source.reason);
      break;
    }
    const listener = (): void => {
      abort(source.reason);
    };
    listeners.push(listener);
    source.addEventListener('abort', listener, { once: true });
  }
  return { signal: controller.signal, abort, release };
}

/**
 * A linked signal made only when it is first read: most handlers never read their signal, and
 * every AbortSignal costs microseconds to make on Node 20. `abort` before the first read is
 * remembered; a read after `release` gets a signal that no longer follows the sources.
 */
export class LazySignal {
  readonly #sources: () => readonly AbortSignal[];
  #linked: LinkedSignal | undefined;
  #aborted: { reason: unknown } | undefined;
  #released = false;

  /** `sources` is called once, on the first read. */
  constructor(sources: () => readonly AbortSignal[]) {
    this.#sources = sources;
  }

  get signal(): AbortSignal {
    if (this.#linked === undefined) {
      const linked = linkSignals(this.#sources());
      if (this.#aborted !== undefined) linked.abort(this.#aborted.reason);
      if (this.#released) linked.release();
      this.#linked = linked;
    }
    return this.#linked.signal;
  }

  /** Aborts the linked signal (now, or as it is made). */
  abort(reason: unknown): void {
    if (this.#linked !== undefined) this.#linked.abort(reason);
    else this.#aborted ??= { reason };
  }

  /** Detaches from the sources. Idempotent. */
  release(): void {
    this.#released = true;
    this.#linked?.release();
  }
}

/**
 * Waits `ms`; rejects with the signal's reason when it aborts first (at once when it already
 * has). The abort listener is removed when the wait ends, so a loop that sleeps on one
 * long-lived signal leaves none behind.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
