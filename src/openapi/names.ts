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
 * (so two long names that share their start stay apart); a name that looks like one handed out
 * already (the same but for case, separators and a plural `s`, or one edit apart: what models
 * confuse, lint's `name-near-duplicate`) takes the first suffix that tells it apart
 * (`issues_get-label_by_name` beside `issues_set-labels`), else `_2`, `_3`.
 */
export class NameRegistry {
  readonly #taken = new Set<string>();
  readonly #looks = new Map<string, string[]>();

  /** Marks `name` as used (a configured rename, say). */
  reserve(name: string): void {
    this.#add(name);
  }

  /** A unique valid name for `wanted`, telling it apart by `suffixes` when it looks taken. */
  claim(wanted: string, suffixes: readonly string[] = []): string {
    const tries = [
      fit(wanted),
      ...suffixes.map((suffix) => fit(wanted, `_${suffix.replace(/[^a-zA-Z0-9_-]+/g, '_')}`)),
    ];
    let name = tries.find((candidate) => !this.#confusable(candidate));
    for (let n = 2; name === undefined || this.#taken.has(name); n++) {
      name = fit(wanted, `_${String(n)}`);
    }
    this.#add(name);
    return name;
  }

  #add(name: string): void {
    this.#taken.add(name);
    const look = normalize(name);
    const bucket = this.#looks.get(String(look.length)) ?? [];
    bucket.push(look);
    this.#looks.set(String(look.length), bucket);
  }

  /** Taken, or like a taken name. */
  #confusable(name: string): boolean {
    if (this.#taken.has(name)) return true;
    const look = normalize(name);
    for (const length of [look.length - 1, look.length, look.length + 1]) {
      for (const other of this.#looks.get(String(length)) ?? []) {
        if (other === look || (Math.min(look.length, other.length) >= 8 && oneEdit(look, other)))
          return true;
      }
    }
    return false;
  }
}

/** A name lower-cased, without separators and a plural `s` (as lint compares names). */
function normalize(name: string): string {
  return name
    .toLowerCase()
    .replace(/[\s_.-]+/g, '')
    .replace(/s$/, '');
}

/** Whether `a` and `b` are exactly one insertion, deletion or substitution apart. */
function oneEdit(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  const tail = short.length === long.length ? short.slice(i + 1) : short.slice(i);
  return tail === long.slice(i + 1);
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
