// The registry of a server's definitions. Every change makes a new immutable Snapshot; a request
// works on the snapshot current when it started. Listings are built once per snapshot and
// revision, trimmed to what that revision's schema has, and paginated by offset; the pages the
// server's own cursors name are kept with their text (listed-page.ts).
import { invalidParams } from '../protocol/errors.js';
import type { DefinitionKind } from '../protocol/fields.js';
import { trimDefinition } from '../protocol/fields.js';
import type { ProtocolRevision } from '../protocol/version.js';
import { ListedPage } from './listed-page.js';
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
  /**
   * The page of the listing of `kind` in `revision` that `at.cursor` names (-32602 for a cursor
   * the server did not make), its items under LIST_KEY[kind]. A page that starts where the server's own
   * cursors start one is made once per snapshot (its text with it); any other is made anew.
   */
  page(kind: ListKind, revision: ProtocolRevision, at: PageRequest): ListedPage;
}

/** Which page a list request asks for: its cursor (if any) and the server's page size. */
export interface PageRequest {
  readonly cursor: unknown;
  readonly pageSize: number;
}

/** The field of a list result that holds the items of each kind. */
export const LIST_KEY: Readonly<Record<ListKind, string>> = {
  tools: 'tools',
  resources: 'resources',
  templates: 'resourceTemplates',
  prompts: 'prompts',
};

export interface Entry<T> {
  compiled: T;
  enabled: boolean;
  /** Compiles the entry's definition again (an extension with a definition hook was added). */
  recompile?: () => void;
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
  const pages = new Map<string, ListedPage>();
  const listing = (kind: ListKind, revision: ProtocolRevision): readonly object[] => {
    const key = `${kind}@${revision}`;
    let list = cache.get(key);
    if (list === undefined) {
      list = wires[kind].map((wire) => trimDefinition(wire, KIND_OF[kind], revision));
      cache.set(key, list);
    }
    return list;
  };
  return {
    tools,
    resources,
    templates,
    prompts,
    listing,
    page(kind, revision, { cursor, pageSize }) {
      const items = listing(kind, revision);
      const offset = offsetOf(cursor, items.length);
      const make = (): ListedPage => {
        const page = paginateAt(items, offset, pageSize);
        return new ListedPage(LIST_KEY[kind], page.items, page.nextCursor);
      };
      // Only the offsets the server's cursors name are kept: a page per pageSize items at most.
      if (offset % pageSize !== 0) return make();
      const key = `${kind}@${revision}@${String(offset)}`;
      let page = pages.get(key);
      if (page === undefined) {
        page = make();
        pages.set(key, page);
      }
      return page;
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
  return paginateAt(items, offsetOf(cursor, items.length), pageSize);
}

/** The offset `cursor` names in a listing of `length` items; -32602 for one the server did not make. */
function offsetOf(cursor: unknown, length: number): number {
  if (cursor === undefined) return 0;
  const offset = typeof cursor === 'string' ? decodeCursor(cursor) : -1;
  if (offset < 0 || offset > length) throw invalidParams('invalid cursor');
  return offset;
}

function paginateAt(items: readonly object[], offset: number, pageSize: number): Page {
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
