// Tool names from operations: the operationId (else the method and path) in the characters every
// model API takes (`^[a-zA-Z0-9_-]{1,64}$`), unique within one document, stable across runs.

/** What a tool name must match for the model APIs (Anthropic, OpenAI). */
export const TOOL_NAME: RegExp = /^[a-zA-Z0-9_-]{1,64}$/;

const MAX = 64;

/** The name an operation asks for: its operationId, else `method_path` (`get_repos_owner_repo`). */
export function baseName(method: string, path: string, operationId: string | undefined): string {
  const raw =
    operationId !== undefined && operationId.trim() !== ''
      ? operationId
      : `${method}_${path.replace(/[{}]/g, '')}`;
  const clean = raw
    .replace(/[^a-zA-Z0-9_-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[_-]+|[_-]+$/g, '');
  return clean === '' ? method.toLowerCase() : clean;
}

/**
 * Hands out unique names: a name longer than 64 characters is cut with a short hash of the whole
 * (so two long names that share their start stay apart), and a name taken already gets `_2`, `_3`.
 */
export class NameRegistry {
  readonly #taken = new Set<string>();

  /** Marks `name` as used (a configured rename, say). */
  reserve(name: string): void {
    this.#taken.add(name);
  }

  /** A unique valid name for `wanted`. */
  claim(wanted: string): string {
    let name = fit(wanted);
    for (let n = 2; this.#taken.has(name); n++) name = fit(wanted, `_${String(n)}`);
    this.#taken.add(name);
    return name;
  }
}

function fit(name: string, suffix = ''): string {
  if (name.length + suffix.length <= MAX) return `${name}${suffix}`;
  const tag = `_${hash(name)}${suffix}`;
  return `${name.slice(0, MAX - tag.length)}${tag}`;
}

/** FNV-1a, 32 bits, in base 36: a short stable tag. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}
