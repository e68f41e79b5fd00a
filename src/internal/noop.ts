// The function that does nothing, shared (one object rather than one per call site).

/** Does nothing: what an unsubscribe returns when there was nothing to stop. */
export function noop(): void {
  // nothing to do
}
