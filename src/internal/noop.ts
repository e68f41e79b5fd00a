// The function that does nothing, made once.

/**
 * Does nothing and returns undefined. For callbacks that must exist but have nothing to do: a
 * default listener, a promise's swallowed rejection (`.catch(noop)`), an executor that never
 * settles. Shared, so passing it allocates nothing.
 */
export function noop(): void {
  // nothing to do
}
