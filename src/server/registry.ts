// The registry of a server's definitions. Every change makes a new immutable Snapshot; a request
// works on the snapshot current when it started. Listings are built once per snapshot and
// revision, trimmed to what that revision's schema has, and paginated by offset.
import { invalidParams } from '../protocol/errors.js';
import type { DefinitionKind } from '../protocol/fields.js';
import { trimDefinition } from '../protocol/fields.js';
import type { ProtocolRevision } from '../protocol/version.js';
import type { CompiledPrompt } from './prompts.js';
import type { CompiledResource, CompiledTemplate } from './resources.js';
import type { CompiledTool } from './tools.js';

/** The kinds of entries a server lists. */
export type ListKind = 'tools' | 'resources' | 'templates' | 'prompts';

/** An immutable view of everything registered and enabled. */
export interface Snapshot {
  readonly tools: ReadonlyMap<string, CompiledTool>;
  readonly resources: ReadonlyMap<string, CompiledResource>;
  readonly templates: readonly CompiledTemplate[];
  readonly prompts: ReadonlyMap<string, CompiledPrompt>;
  /** The listed definitions of `kind`, trimmed to `revision` (built once, then cached). */
  listing(kind: ListKind, revision: ProtocolRevision): readonly object[];
}

export interface Entry<T> {
  compiled: T;
  enabled: boolean;
}

/** Registry holds the mutable entries and hands out snapshots. */
export class Registry {
  readonly tools: Map<string, Entry<CompiledTool>> = new Map();
  readonly resources: Map<string, Entry<CompiledResource>> = new Map();
  readonly templates: Map<string, Entry<CompiledTemplate>> = new Map();
  readonly prompts: Map<string, Entry<CompiledPrompt>> = new Map();
  #snapshot: Snapshot | undefined;

  /** The current snapshot. */
  snapshot(): Snapshot {
    this.#snapshot ??= buildSnapshot(this);
    return this.#snapshot;
  }

  /** Marks the snapshot stale; the next request builds a new one. */
  changed(): void {
    this.#snapshot = undefined;
  }
}

function enabledValues<T>(map: ReadonlyMap<string, Entry<T>>): Map<string, T> {
  const result = new Map<string, T>();
  for (const [key, entry] of map) if (entry.enabled) result.set(key, entry.compiled);
  return result;
}

const KIND_OF: Record<ListKind, DefinitionKind> = {
  tools: 'Tool',
  resources: 'Resource',
  templates: 'ResourceTemplate',
  prompts: 'Prompt',
};

function buildSnapshot(registry: Registry): Snapshot {
  const tools = enabledValues(registry.tools);
  const resources = enabledValues(registry.resources);
  const templates = [...enabledValues(registry.templates).values()];
  const prompts = enabledValues(registry.prompts);
  const wires: Record<ListKind, readonly object[]> = {
    tools: [...tools.values()].map((t) => t.wire),
    resources: [...resources.values()].map((r) => r.wire),
    templates: templates.map((t) => t.wire),
    prompts: [...prompts.values()].map((p) => p.wire),
  };
  const cache = new Map<string, readonly object[]>();
  return {
    tools,
    resources,
    templates,
    prompts,
    listing(kind, revision) {
      const key = `${kind}@${revision}`;
      let list = cache.get(key);
      if (list === undefined) {
        list = wires[kind].map((wire) => trimDefinition(wire, KIND_OF[kind], revision));
        cache.set(key, list);
      }
      return list;
    },
  };
}

/** One page of a listing and the cursor of the next, if any. */
export interface Page {
  items: readonly object[];
  nextCursor: string | undefined;
}

/** Cuts `items` into the page a cursor asks for. A cursor the server did not make is -32602. */
export function paginate(items: readonly object[], cursor: unknown, pageSize: number): Page {
  let offset = 0;
  if (cursor !== undefined) {
    offset = typeof cursor === 'string' ? decodeCursor(cursor) : -1;
    if (offset < 0 || offset > items.length) throw invalidParams('invalid cursor');
  }
  if (offset === 0 && items.length <= pageSize) return { items, nextCursor: undefined };
  const end = offset + pageSize;
  return {
    items: items.slice(offset, end),
    nextCursor: end < items.length ? encodeCursor(end) : undefined,
  };
}

function encodeCursor(offset: number): string {
  return btoa(`o:${String(offset)}`).replace(/=+$/, '');
}

function decodeCursor(cursor: string): number {
  try {
    const match = /^o:(\d{1,9})$/.exec(atob(cursor));
    return match === null ? -1 : Number(match[1]);
  } catch {
    return -1;
  }
}
