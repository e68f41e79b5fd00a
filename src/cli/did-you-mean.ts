// Suggestions for a mistyped name: the closest known one by edit distance. Small on purpose:
// main.ts loads it on every start to answer an unknown command.

/** Levenshtein distance (insertions, deletions, substitutions). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(
        Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The known name closest to `typed`, when it is near enough to be a slip: at most two edits
 * away, or a third of its length for longer names (a swap of two letters is two edits);
 * undefined otherwise.
 */
export function closest(typed: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(typed.toLowerCase(), name.toLowerCase());
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  if (best === undefined) return undefined;
  const limit = Math.max(2, Math.ceil(typed.length / 3));
  return best.distance <= limit ? best.name : undefined;
}
