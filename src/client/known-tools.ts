// What the client knows of the server's tools from the listings it has seen: each tool's output
// schema (results are checked against it, spec 2025-06-18 server/tools#output-schema) and, in
// 2026-07-28, its `x-mcp-header` annotations (a tools/call mirrors them into `Mcp-Param-*`
// headers; a tool whose annotations are invalid is left out of listings, spec 2026-07-28
// server/tools#x-mcp-header). A tool the client has not seen triggers one listing per tool list.
import { isObject } from '../internal/json.js';
import type { ParamHeader } from '../protocol/param-headers.js';
import { scanParamHeaders } from '../protocol/param-headers.js';
import type { RejectedTool } from './types.js';

/** What the client knows of one listed tool. */
export interface KnownTool {
  readonly outputSchema: Readonly<Record<string, unknown>> | undefined;
  /** The tool as listed (what an extension reads of it, e.g. 2025-11-25 `execution`). */
  readonly listing: Readonly<Record<string, unknown>>;
  /** Its `x-mcp-header` annotations (2026-07-28 listings; empty otherwise). */
  readonly headers: readonly ParamHeader[];
}

const NO_HEADERS: readonly ParamHeader[] = [];

/** KnownTools remembers listed tools until the tool list changes. */
export class KnownTools {
  readonly #tools = new Map<string, KnownTool>();
  #fetched = false;

  /**
   * Remembers the listed `tools` and returns those to keep: all of them, except with `annotated`
   * (2026-07-28) the tools whose `x-mcp-header` annotations are invalid, each passed to `reject`.
   */
  keep(
    tools: readonly unknown[],
    options: { annotated: boolean; reject: (tool: RejectedTool) => void },
  ): readonly unknown[] {
    const kept: unknown[] = [];
    for (const tool of tools) {
      if (!isObject(tool) || typeof tool['name'] !== 'string') {
        kept.push(tool);
        continue;
      }
      const name = tool['name'];
      const output = tool['outputSchema'];
      const outputSchema = isObject(output) ? output : undefined;
      if (!options.annotated) {
        this.#tools.set(name, { outputSchema, headers: NO_HEADERS, listing: tool });
        kept.push(tool);
        continue;
      }
      const scan = scanParamHeaders(tool['inputSchema']);
      if (scan.ok) {
        this.#tools.set(name, { outputSchema, headers: scan.headers, listing: tool });
        kept.push(tool);
      } else {
        this.#tools.delete(name);
        options.reject({ name, reason: scan.problem });
      }
    }
    return kept;
  }

  /** Forgets every tool (the tool list changed); the next unknown tool may list them again. */
  forget(): void {
    this.#tools.clear();
    this.#fetched = false;
  }

  /**
   * What is known of tool `name`. A tool not seen in a listing triggers `fetch` (a full listing,
   * which comes back through `keep`) once per tool list; undefined when it is still unknown. At
   * once when nothing needs fetching.
   */
  lookup(
    name: string,
    fetch: () => Promise<void>,
  ): KnownTool | undefined | Promise<KnownTool | undefined> {
    const known = this.#tools.get(name);
    if (known !== undefined || this.#fetched) return known;
    this.#fetched = true;
    return fetch().then(() => this.#tools.get(name));
  }
}
