// One tool namespace across servers. Both model APIs take tool names matching
// ^[a-zA-Z0-9_-]{1,64}$ (Anthropic's documented pattern; OpenAI's function names, 64 at most),
// while MCP names may be longer and hold dots or slashes, and two servers may name a tool alike.

/** The pattern every model-facing tool name satisfies. */
export const MODEL_TOOL_NAME: RegExp = /^[a-zA-Z0-9_-]{1,64}$/;

/** The longest model-facing name. */
const MAX = 64;

/** A tool of a server, before naming. */
export interface ServerToolRef {
  readonly server: string;
  readonly tool: string;
}

/** A namespaced tool: the name the model sees, and where it goes. */
export interface NamedTool extends ServerToolRef {
  readonly name: string;
}

/**
 * Names every tool. Contracts: each name matches {@link MODEL_TOOL_NAME}; names are unique; the
 * result depends only on the set of (server, tool) pairs, never on their order. A tool keeps its
 * own name when that is valid and no other server has a tool of that name; otherwise it becomes
 * `<server>__<tool>` with invalid characters replaced by `_`; a name still invalid (too long) or
 * still taken is cut and ends with `_` and eight hex digits of a hash of "server/tool".
 */
export function nameTools(refs: readonly ServerToolRef[]): NamedTool[] {
  const sorted = [...refs].sort((a, b) => compare(a.server, b.server) || compare(a.tool, b.tool));
  const counts = new Map<string, number>();
  for (const ref of sorted) counts.set(ref.tool, (counts.get(ref.tool) ?? 0) + 1);
  const taken = new Set<string>();
  const named = new Map<ServerToolRef, string>();
  // Plain names first, so that a prefixed name never takes a plain one's place.
  for (const ref of sorted) {
    if (counts.get(ref.tool) === 1 && MODEL_TOOL_NAME.test(ref.tool)) {
      named.set(ref, ref.tool);
      taken.add(ref.tool);
    }
  }
  for (const ref of sorted) {
    if (named.has(ref)) continue;
    let name = sanitize(`${ref.server}__${ref.tool}`);
    if (name.length > MAX || taken.has(name) || name === '') name = hashed(name, ref);
    while (taken.has(name)) name = hashed(`${name}_`, ref);
    named.set(ref, name);
    taken.add(name);
  }
  return refs.map((ref) => ({ ...ref, name: named.get(ref) ?? '' }));
}

/** Code-unit order (locale-independent, so names do not depend on the machine). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Replaces every character outside [a-zA-Z0-9_-] with `_`. */
export function sanitize(text: string): string {
  return text.replace(/[^a-zA-Z0-9_-]/g, '_');
}

/** `name` cut to fit, ending with `_` and a hash of the reference (and of `name`). */
function hashed(name: string, ref: ServerToolRef): string {
  const suffix = `_${fnv1a(`${ref.server}/${ref.tool}/${name}`)}`;
  return name.slice(0, MAX - suffix.length) + suffix;
}

/** FNV-1a, 32 bits, as eight hex digits. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
