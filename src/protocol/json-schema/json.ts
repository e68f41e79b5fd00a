// Plain-JSON helpers: deep equality as JSON Schema defines it (key order does not matter, 1 equals
// 1.0), iterative so hostile nesting cannot overflow the stack.

/** The depth past which a value counts as hostile: validation reports it instead of recursing. */
export const MAX_DEPTH = 512;

/** Thrown past {@link MAX_DEPTH} levels of nesting; validation turns it into an issue. */
export class TooDeepError extends RangeError {
  constructor() {
    super('value nested too deeply');
    this.name = 'TooDeepError';
  }
}

/** Counts own enumerable string keys without allocating a key array. */
export function ownKeyCount(object: Record<string, unknown>): number {
  let count = 0;
  for (const key in object) if (Object.hasOwn(object, key)) count++;
  return count;
}

/**
 * Compares two JSON values by value. Throws TooDeepError past {@link MAX_DEPTH} levels (which also
 * stops cyclic non-JSON values).
 */
export function deepEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) {
    return false;
  }
  const pending: unknown[] = [left, right, 0];
  while (pending.length > 0) {
    const depth = pending.pop() as number;
    const b = pending.pop();
    const a = pending.pop();
    if (a === b) continue;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
    if (depth >= MAX_DEPTH) throw new TooDeepError();
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) pending.push(a[i], b[i], depth + 1);
      continue;
    }
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    if (ownKeyCount(x) !== ownKeyCount(y)) return false;
    for (const key in x) {
      if (!Object.hasOwn(x, key)) continue;
      if (!Object.hasOwn(y, key)) return false;
      pending.push(x[key], y[key], depth + 1);
    }
  }
  return true;
}
