// JSON Pointer (RFC 6901) helpers, plus the two renderings of an instance location that issues
// carry: a pointer (`/items/2/name`) and a JavaScript-like path for people and models
// (`items[2].name`).

/** Escapes one reference token: `~` becomes `~0` and `/` becomes `~1`. */
export function escapeToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Unescapes one reference token (`~1` first, then `~0`, as RFC 6901 section 4 requires). */
export function unescapeToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** Renders an instance path as a JSON Pointer: `[]` is `""`, `['a', 0]` is `/a/0`. */
export function toPointer(path: readonly (string | number)[]): string {
  let pointer = '';
  for (const segment of path) pointer += `/${escapeToken(String(segment))}`;
  return pointer;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Renders an instance path for a message: `(root)`, `a`, `items[2].name`, `tags["a b"]`.
 * Array indexes use brackets; property names that are not identifiers are JSON-quoted, so the
 * property `"2"` (`["2"]`) is never confused with the index 2 (`[2]`).
 */
export function renderPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '(root)';
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

/**
 * Evaluates a JSON Pointer against a document. Returns `{ found: false }` when a token names
 * nothing; only own properties are followed, so `__proto__` is ordinary data.
 */
export function evaluatePointer(
  document: unknown,
  pointer: string,
): { found: true; value: unknown } | { found: false } {
  if (pointer === '') return { found: true, value: document };
  if (!pointer.startsWith('/')) return { found: false };
  let current = document;
  for (const raw of pointer.slice(1).split('/')) {
    const token = unescapeToken(raw);
    if (Array.isArray(current)) {
      if (!ARRAY_INDEX.test(token) || Number(token) >= current.length) return { found: false };
      current = current[Number(token)];
    } else if (typeof current === 'object' && current !== null && Object.hasOwn(current, token)) {
      current = (current as Record<string, unknown>)[token];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: current };
}
