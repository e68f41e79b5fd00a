// Values that are there now or later. The request path returns a plain value when every step of
// it was synchronous (a tool whose handler returns a string) and a promise only where something
// waited: each promise costs an allocation and a microtask hop, and under load a dozen of them
// cost about a fifth of the throughput of a raw node:http server (bench/RESULTS.md).

/** A value, or a promise of it. */
export type MaybePromise<T> = T | Promise<T>;

/** True when `value` is a promise (or another thenable) to wait for. */
export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * Applies `next` to `value`: at once when it is at hand, after it settles when it is a promise.
 * A synchronous throw of `next` propagates as a throw; callers that must not throw catch it.
 */
export function andThen<T, U>(
  value: MaybePromise<T>,
  next: (value: T) => MaybePromise<U>,
): MaybePromise<U> {
  return isPromise(value) ? value.then(next) : next(value);
}
