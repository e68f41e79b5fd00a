// The `x-mcp-header` annotations of the server's tools, as the client needs them in 2026-07-28:
// a tool whose annotations are invalid is left out of listings (with a warning), and a
// tools/call carries the `Mcp-Param-*` headers its arguments ask for. Spec 2026-07-28
// server/tools#x-mcp-header; basic/transports/streamable-http#custom-headers-from-tool-parameters.
import type { ParamHeader } from '../protocol/param-headers.js';
import { paramHeaderValues, scanParamHeaders } from '../protocol/param-headers.js';
import type { RejectedTool } from './types.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** ToolHeaders remembers listed tools' annotations and turns arguments into headers. */
export class ToolHeaders {
  readonly #annotations = new Map<string, readonly ParamHeader[]>();
  #fetched = false;

  /**
   * Remembers the annotations of listed tools and returns the tools to keep: every tool but those
   * whose annotations are invalid, each passed to `reject` with the reason.
   */
  keep(tools: readonly unknown[], reject: (tool: RejectedTool) => void): unknown[] {
    const kept: unknown[] = [];
    for (const tool of tools) {
      if (!isObject(tool) || typeof tool['name'] !== 'string') {
        kept.push(tool);
        continue;
      }
      const scan = scanParamHeaders(tool['inputSchema']);
      if (scan.ok) {
        this.#annotations.set(tool['name'], scan.headers);
        kept.push(tool);
        continue;
      }
      this.#annotations.delete(tool['name']);
      reject({ name: tool['name'], reason: scan.problem });
    }
    return kept;
  }

  /** Forgets every tool (the tool list changed); the next unknown tool may fetch the list again. */
  forget(): void {
    this.#annotations.clear();
    this.#fetched = false;
  }

  /**
   * The `Mcp-Param-*` headers of a call of tool `name` with `args`; undefined when there are none.
   * A tool not seen in a listing triggers `fetch` (a full listing) once per tool list.
   */
  async headersFor(
    name: string,
    args: Record<string, unknown>,
    fetch: () => Promise<void>,
  ): Promise<Record<string, string> | undefined> {
    if (!this.#annotations.has(name) && !this.#fetched) {
      this.#fetched = true;
      await fetch();
    }
    const annotations = this.#annotations.get(name);
    if (annotations === undefined || annotations.length === 0) return undefined;
    return paramHeaderValues(annotations, args);
  }
}
