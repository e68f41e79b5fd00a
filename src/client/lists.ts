// Listings: async iterators that follow `nextCursor` (with a cap on pages), collected lists,
// and the 2026-07-28 cache that honours `ttlMs` until the list changes. Spec 2025-11-25
// server/utilities/pagination; 2026-07-28 `CacheableResult`.
import { LocalError, LocalErrorCode } from '../jsonrpc/errors.js';
import type { ListKind, ListOptions } from './types.js';

/** What can be listed, by the key the client uses for it. */
export type ListName = 'tools' | 'resources' | 'resourceTemplates' | 'prompts';

/** Method, result key and change kind of each listing. */
const LISTINGS: Readonly<Record<ListName, { method: string; kind: ListKind }>> = {
  tools: { method: 'tools/list', kind: 'tools' },
  resources: { method: 'resources/list', kind: 'resources' },
  resourceTemplates: { method: 'resources/templates/list', kind: 'resources' },
  prompts: { method: 'prompts/list', kind: 'prompts' },
};

type Page = Record<string, unknown>;

/** What Lists needs from its client. */
export interface ListsSettings {
  /** Fetches one page. */
  page(method: string, params: Page, options: ListOptions): Promise<Page>;
  /** The default cap on pages. */
  maxPages: number;
  /**
   * Sees every item of every page fetched (the client remembers tool definitions) and returns
   * the items to keep.
   */
  seen(name: ListName, items: readonly unknown[]): readonly unknown[];
}

interface Cached {
  items: unknown[];
  expires: number;
}

/** Lists serves the listings of one client connection. */
export class Lists {
  readonly #settings: ListsSettings;
  readonly #cache = new Map<ListName, Cached>();
  /** Bumped by every change, so a listing that raced one is not cached. */
  readonly #generation = new Map<ListName, number>();

  constructor(settings: ListsSettings) {
    this.#settings = settings;
  }

  /** Iterates every item of a listing, page by page. */
  async *iterate(
    name: ListName,
    options: ListOptions = {},
  ): AsyncGenerator<unknown, void, undefined> {
    for await (const page of this.#pages(name, options)) yield* page.items;
  }

  /**
   * Collects a whole listing. Within the smallest `ttlMs` its pages carried, the same list is
   * returned again without a request (a copy); a change of that list ends this early.
   */
  async collect(name: ListName, options: ListOptions = {}): Promise<unknown[]> {
    const cached = this.#cache.get(name);
    if (cached !== undefined && Date.now() < cached.expires) return [...cached.items];
    this.#cache.delete(name);
    const generation = this.#generation.get(name) ?? 0;
    const items: unknown[] = [];
    let ttlMs = Number.POSITIVE_INFINITY;
    for await (const page of this.#pages(name, options)) {
      items.push(...page.items);
      ttlMs = Math.min(ttlMs, page.ttlMs);
    }
    const unchanged = (this.#generation.get(name) ?? 0) === generation;
    if (unchanged && ttlMs > 0 && Number.isFinite(ttlMs)) {
      this.#cache.set(name, { items: [...items], expires: Date.now() + ttlMs });
    }
    return items;
  }

  /** Forgets the cached listings a change of `kind` makes stale. */
  changed(kind: ListKind): void {
    for (const [name, listing] of Object.entries(LISTINGS) as [ListName, { kind: ListKind }][]) {
      if (listing.kind !== kind) continue;
      this.#cache.delete(name);
      this.#generation.set(name, (this.#generation.get(name) ?? 0) + 1);
    }
  }

  /** Forgets every cached listing. */
  clear(): void {
    for (const kind of ['tools', 'resources', 'prompts'] as const) this.changed(kind);
  }

  async *#pages(
    name: ListName,
    options: ListOptions,
  ): AsyncGenerator<{ items: readonly unknown[]; ttlMs: number }, void, undefined> {
    const { method } = LISTINGS[name];
    const maxPages = options.maxPages ?? this.#settings.maxPages;
    let cursor: string | undefined;
    for (let pages = 1; ; pages++) {
      const params: Page = cursor === undefined ? {} : { cursor };
      const page = await this.#settings.page(method, params, options);
      const items = page[name];
      if (!Array.isArray(items)) {
        throw new LocalError(
          LocalErrorCode.ProtocolViolation,
          `${method} result has no "${name}" array`,
        );
      }
      const kept = this.#settings.seen(name, items as unknown[]);
      yield { items: kept, ttlMs: typeof page['ttlMs'] === 'number' ? page['ttlMs'] : 0 };
      const next = page['nextCursor'];
      if (typeof next !== 'string') return;
      if (pages >= maxPages) {
        throw new LocalError(
          LocalErrorCode.ProtocolViolation,
          `${method} returned more than ${maxPages} pages`,
        );
      }
      cursor = next;
    }
  }
}
