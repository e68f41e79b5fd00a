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
export function linkSignals(sources: readonly SignalSource[]): LinkedSignal {
  const lazy = new LazySignal(() => sources);
  return {
    signal: lazy.signal,
    abort: (reason) => {
      lazy.abort(reason);
    },
    release: () => {
      lazy.release();
    },
  };
}

/**
 * What aborts without being an AbortSignal: `follow` calls the listener once, with the reason,
 * when it aborts (at once when it has), and returns what removes it. A LazySignal is one.
 */
export interface Followable {
  follow(listener: (reason: unknown) => void): () => void;
}

/** What a {@link LazySignal} follows: a signal, or a Followable such as another LazySignal (without making its signal). */
export type SignalSource = AbortSignal | Followable;

/**
 * A linked signal made only when it is first read: most handlers never read their signal, and
 * every AbortSignal costs microseconds to make on Node 20. It follows its sources (read once,
 * when it is first read or followed); a LazySignal source is followed without making its
 * signal, so a chain of them costs one AbortSignal, the one read. `abort` before the first read
 * is remembered; after `release` it no longer follows the sources.
 */
export class LazySignal {
  /**
   * Undefined once read (attached) or released: a LazySignal handed on (a forwarded call's
   * cancellation, which a client may keep past the call) then holds nothing of what made it,
   * such as the request it follows.
   */
  #sources: (() => readonly SignalSource[]) | undefined;
  #controller: AbortController | undefined;
  #aborted: { reason: unknown } | undefined;
  /** What detaches this from its sources, once attached. */
  #detach: (() => void)[] | undefined;
  /** The first listener of {@link follow} (most have one: no Set made for it)… */
  #follower: ((reason: unknown) => void) | undefined;
  /** …and the others. */
  #followers: Set<(reason: unknown) => void> | undefined;

  /** `sources` is called once, on the first read or follow. */
  constructor(sources: () => readonly SignalSource[]) {
    this.#sources = sources;
  }

  /**
   * Whether it has aborted, read without making the signal: by `abort`, or by a source once it
   * follows them (from the first read of `signal` or the first `follow`).
   */
  get aborted(): boolean {
    return this.#aborted !== undefined;
  }

  /** The reason it aborted with; undefined while it has not. */
  get reason(): unknown {
    return this.#aborted?.reason;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = new AbortController();
      this.#controller = controller;
      if (this.#aborted !== undefined) controller.abort(this.#aborted.reason);
      else this.#attach();
    }
    return this.#controller.signal;
  }

  /**
   * Calls `listener` with the reason once this aborts (at once when it has), without making
   * the AbortSignal. Returns what removes the listener.
   */
  follow(listener: (reason: unknown) => void): () => void {
    if (this.#aborted !== undefined) {
      listener(this.#aborted.reason);
      return noop;
    }
    this.#attach();
    // A source that had aborted aborted this while attaching.
    const aborted = this.#aborted as { reason: unknown } | undefined;
    if (aborted !== undefined) {
      listener(aborted.reason);
      return noop;
    }
    if (this.#follower === undefined && this.#followers === undefined) {
      this.#follower = listener;
      return () => {
        if (this.#follower === listener) this.#follower = undefined;
      };
    }
    const followers = (this.#followers ??= new Set());
    followers.add(listener);
    return () => {
      followers.delete(listener);
    };
  }

  /** Aborts (once): the signal, if made, and the followers. */
  abort(reason: unknown): void {
    if (this.#aborted !== undefined) return;
    this.#aborted = { reason };
    this.release();
    this.#controller?.abort(reason);
    const first = this.#follower;
    const followers = this.#followers;
    this.#follower = undefined;
    this.#followers = undefined;
    first?.(reason);
    if (followers !== undefined) for (const listener of followers) listener(reason);
  }

  /** Detaches from the sources. Idempotent. */
  release(): void {
    this.#sources = undefined;
    const detach = this.#detach;
    this.#detach = undefined;
    if (detach !== undefined) for (const off of detach) off();
  }

  /** Starts following the sources, once (not after release). */
  #attach(): void {
    const sources = this.#sources;
    if (sources === undefined) return;
    this.#sources = undefined;
    for (const source of sources()) {
      const off = onAbort(source, (reason) => {
        this.abort(reason);
      });
      // Aborted at once: abort() has released what came before; nothing of this one to keep.
      if (this.#aborted !== undefined) return;
      (this.#detach ??= []).push(off);
    }
  }
}

/**
 * Calls `listener` once with the reason when `source` aborts (at once when it has), and returns
 * what removes it: one way to wait on either kind of {@link SignalSource}.
 */
export function onAbort(source: SignalSource, listener: (reason: unknown) => void): () => void {
  if (isFollowable(source)) return source.follow(listener);
  if (source.aborted) {
    listener(source.reason);
    return noop;
  }
  const abort = (): void => {
    listener(source.reason);
  };
  source.addEventListener('abort', abort, { once: true });
  return () => {
    source.removeEventListener('abort', abort);
  };
}

function isFollowable(source: SignalSource): source is Followable {
  return typeof (source as Partial<Followable>).follow === 'function';
}

function noop(): void {
  // Nothing to remove.
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
