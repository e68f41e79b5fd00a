// Registered entries: what McpServer.tool/resource/prompt return, to enable, disable, update or
// remove one entry while serving (connected clients are told of each change).
import type { ServerCore } from './core.js';
import type { RegisteredHandle } from './types.js';

/**
 * Puts `definition`, compiled, at `where.key` of `where.map` and tells `where.core` of the change;
 * returns its handle. A handle of a removed entry throws TypeError, remove() aside.
 */
export function registerEntry<TDefinition, TCompiled>(
  where: {
    core: ServerCore;
    map: Map<string, { compiled: TCompiled; enabled: boolean; recompile?: () => void }>;
    key: string;
    kind: 'tools' | 'resources' | 'prompts';
  },
  definition: TDefinition,
  compile: (definition: TDefinition) => TCompiled,
): RegisteredHandle<TDefinition> {
  const { core, map, key, kind } = where;
  let current = definition;
  const entry = {
    compiled: compile(definition),
    enabled: true,
    recompile(): void {
      entry.compiled = compile(current);
    },
  };
  map.set(key, entry);
  core.changed(kind);
  const alive = () => {
    if (map.get(key) !== entry) throw new TypeError(`"${key}" was removed`);
  };
  return {
    get enabled() {
      return entry.enabled;
    },
    enable() {
      alive();
      if (entry.enabled) return;
      entry.enabled = true;
      core.changed(kind);
    },
    disable() {
      alive();
      if (!entry.enabled) return;
      entry.enabled = false;
      core.changed(kind);
    },
    update(changes) {
      alive();
      const next = { ...current, ...changes, ...identity(current) };
      entry.compiled = compile(next);
      current = next;
      core.changed(kind);
    },
    remove() {
      if (map.get(key) !== entry) return;
      map.delete(key);
      core.changed(kind);
    },
  };
}

/** The fields that identify an entry and so survive update(). */
function identity(definition: unknown): Record<string, unknown> {
  const d = definition as Record<string, unknown>;
  const keys = ['name', 'uri', 'uriTemplate'].filter((k) => d[k] !== undefined);
  return Object.fromEntries(keys.map((k) => [k, d[k]]));
}
