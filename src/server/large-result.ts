// Large results as ranged resources: a tool hands back the head of a big text and a
// `resource_link` to the whole, which clients read in slices (`<uri>?offset=…&length=…`), so the
// text never has to travel in one result. The texts are kept in memory, bounded.
import type { McpServer } from './server.js';
import type { ToolResult } from './types.js';

/** Options of {@link largeResults}. */
export interface LargeResultsOptions {
  /** The URI scheme of the resources. Default `result`. */
  readonly scheme?: string;
  /** The characters of a result's head, sent in the result itself. Default 2,000. */
  readonly headChars?: number;
  /** The most characters kept over all results (the oldest go first). Default 32 MiB. */
  readonly maxChars?: number;
  /** The most characters one read returns. Default 100,000. */
  readonly maxReadChars?: number;
}

/** What {@link largeResults} gives a server's tools. */
export interface LargeResults {
  /**
   * Registers the ranged resource template `<scheme>://{id}{?offset,length}` on `server`. One
   * store serves every server it is attached to (an HTTP server makes one a session).
   */
  attach(server: McpServer): void;
  /**
   * A tool result for `text`: the text whole when it is at most `headChars` long; else its head,
   * a note of the size, and a `resource_link` to `<scheme>://<id>` (`_meta["mcpkit/length"]` the
   * characters), readable whole or by `?offset=&length=`.
   */
  result(
    text: string,
    options?: { readonly name?: string; readonly mimeType?: string },
  ): ToolResult;
}

/**
 * A store of large results, served as ranged resources by the servers it is attached to.
 * Contracts: ids are 1, 2, ... in order; the kept
 * texts are bounded by `maxChars` (the oldest dropped first; a read of a dropped one is a
 * resource-not-found error); a read returns at most `maxReadChars` characters from `offset`
 * (default 0) and says where it stopped in `_meta`.
 */
export function largeResults(options: LargeResultsOptions = {}): LargeResults {
  const scheme = options.scheme ?? 'result';
  const headChars = options.headChars ?? 2000;
  const maxChars = options.maxChars ?? 32 * 1024 * 1024;
  const maxRead = options.maxReadChars ?? 100_000;
  const kept = new Map<string, string>();
  let chars = 0;
  let next = 0;
  return {
    attach(server) {
      server.resourceTemplate(
        {
          uriTemplate: `${scheme}://{id}{?offset,length}`,
          name: 'large-result',
          description: 'A large tool result, read whole or in slices with ?offset=&length=.',
        },
        (uri, variables) => {
          const text = kept.get(String(variables['id']));
          if (text === undefined) return undefined;
          const offset = Math.max(0, Number(variables['offset'] ?? 0) || 0);
          const length = Math.min(
            maxRead,
            Math.max(1, Number(variables['length'] ?? maxRead) || maxRead),
          );
          const slice = text.slice(offset, offset + length);
          return {
            contents: [{ uri, mimeType: 'text/plain', text: slice }],
            _meta: {
              'mcpkit/offset': offset,
              'mcpkit/end': offset + slice.length,
              'mcpkit/length': text.length,
            },
          };
        },
      );
    },
    result(text, details = {}) {
      if (text.length <= headChars) return { content: [{ type: 'text', text }] };
      const id = String(++next);
      kept.set(id, text);
      chars += text.length;
      for (const [key, value] of kept) {
        if (chars <= maxChars || key === id) break;
        chars -= value.length;
        kept.delete(key);
      }
      const uri = `${scheme}://${id}`;
      return {
        content: [
          {
            type: 'text',
            text: `${text.slice(0, headChars)}\n[the result has ${String(text.length)} characters; the first ${String(headChars)} are above, the whole is the resource ${uri} (read slices with ${uri}?offset=${String(headChars)}&length=20000)]`,
          },
          {
            type: 'resource_link',
            uri,
            name: details.name ?? `result ${id}`,
            mimeType: details.mimeType ?? 'text/plain',
            description: `${String(text.length)} characters`,
            _meta: { 'mcpkit/length': text.length },
          },
        ],
      };
    },
  };
}
