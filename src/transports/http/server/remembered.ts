// What is worked out from a header value, remembered: clients send the same few values (Accept,
// Host) again and again.

/**
 * `compute`, remembered for the last value and up to 16 recent ones. The last value is compared
 * first: a header string is new on every request, and comparing it costs less than hashing it
 * for the map (bench/RESULTS.md, "Seventh round").
 */
export function remembered<T extends object | boolean>(
  compute: (value: string) => T,
): (value: string) => T {
  const recent = new Map<string, T>();
  let last: { readonly value: string; readonly result: T } | undefined;
  return (value) => {
    if (value === last?.value) return last.result;
    let result = recent.get(value);
    if (result === undefined) {
      result = compute(value);
      if (recent.size >= 16) recent.clear();
      recent.set(value, result);
    }
    last = { value, result };
    return result;
  };
}
