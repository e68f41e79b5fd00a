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
 * result depends only on the set of (server, tool) pairs, never on their order; a name that
 * starts with `<server>__` (the server's name with invalid characters replaced by `_`; the
 * longest such prefix when server names nest) is given only to a tool of that server, so no
 * server can take, or push aside, another server's qualified names. A tool keeps its own name
 * when that is valid, no other server has a tool of that name and it claims no other server's
 * prefix; otherwise it becomes `<server>__<tool>` with invalid characters replaced by `_`; a
 * name still invalid (too long), taken or claimed by another server is cut and ends with `_`
 * and eight hex digits of a hash of "server/tool" (without `__` when even that is claimed).
 */
export function nameTools(refs: readonly ServerToolRef[]): NamedTool[] {
  const sorted = [...refs].sort((a, b) => compare(a.server, b.server) || compare(a.tool, b.tool));
  const counts = new Map<string, number>();
  for (const ref of sorted) counts.set(ref.tool, (counts.get(ref.tool) ?? 0) + 1);
  const owner = ownerOf(sorted);
  const taken = new Set<string>();
  const named = new Map<ServerToolRef, string>();
  const free = (name: string, ref: ServerToolRef) => {
    if (taken.has(name)) return false;
    const owners = owner(name);
    return owners === undefined || owners.has(sanitize(ref.server));
  };
  // Plain names first, so that a prefixed name never takes a plain one's place.
  for (const ref of sorted) {
    if (counts.get(ref.tool) === 1 && MODEL_TOOL_NAME.test(ref.tool) && free(ref.tool, ref)) {
      named.set(ref, ref.tool);
      taken.add(ref.tool);
    }
  }
  for (const ref of sorted) {
    if (named.has(ref)) continue;
    const name = qualified(ref, (candidate) => free(candidate, ref));
    named.set(ref, name);
    taken.add(name);
  }
  return refs.map((ref) => ({ ...ref, name: named.get(ref) ?? '' }));
}

/** The first free name of `<server>__<tool>`, its hashed forms, then hashed forms without `__`. */
function qualified(ref: ServerToolRef, free: (name: string) => boolean): string {
  const full = sanitize(`${ref.server}__${ref.tool}`);
  if (full.length <= MAX && free(full)) return full;
  let name = hashed(full, ref);
  for (let tries = 0; tries < 4 && !free(name); tries++) name = hashed(`${name}_`, ref);
  // No run of `_` longer than one: no server's `<server>__` prefix can claim the name.
  const flat = full
    .replace(/_{2,}/g, '_')
    .slice(0, MAX - 9)
    .replace(/_+$/, '');
  while (!free(name)) name = hashed(`${name}_`, ref, flat);
  return name;
}

/**
 * The sanitized names of the servers whose `<server>__` is the longest prefix of a name
 * (undefined: none).
 */
function ownerOf(refs: readonly ServerToolRef[]): (name: string) => Set<string> | undefined {
  const prefixes = [...new Set(refs.map((ref) => sanitize(ref.server)))]
    .map((server) => ({ server, prefix: `${server}__` }))
    .sort((a, b) => b.prefix.length - a.prefix.length);
  return (name) => {
    if (!name.includes('__')) return undefined;
    let owners: Set<string> | undefined;
    let longest = 0;
    for (const { server, prefix } of prefixes) {
      if (prefix.length < longest) break;
      if (!name.startsWith(prefix)) continue;
      (owners ??= new Set()).add(server);
      longest = prefix.length;
    }
    return owners;
  };
}

/** Code-unit order (locale-independent, so names do not depend on the machine). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Replaces every character outside [a-zA-Z0-9_-] with `_`. */
export function sanitize(text: string): string {
  return text.replace(/[^a-zA-Z0-9_-]/g, '_');
}

/** `body` (default `name`) cut to fit, ending with `_` and a hash of the reference and `name`. */
function hashed(name: string, ref: ServerToolRef, body: string = name): string {
  const suffix = `_${fnv1a(`${ref.server}/${ref.tool}/${name}`)}`;
  return body.slice(0, MAX - suffix.length) + suffix;
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
