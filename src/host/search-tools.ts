// search_tools as the host runs it: the catalog's tools that match the model's query (at most
// `limit`, default 5, never above 20) are loaded, so the later turns and runs offer them; the
// answer lists them, or says that nothing matched.
import { searchTools } from '../catalogue/index.js';
import type { HostTool } from './host-types.js';
import type { ShapedResult } from './shape.js';

/** Runs search_tools over `catalog`, adding what it finds to `loaded`. */
export function runSearchTools(
  args: Record<string, unknown>,
  catalog: ReadonlyMap<string, HostTool>,
  loaded: Set<string>,
): ShapedResult {
  const query = typeof args['query'] === 'string' ? args['query'] : '';
  const limit = typeof args['limit'] === 'number' ? Math.min(20, Math.floor(args['limit'])) : 5;
  const found = searchTools(
    [...catalog.values()].map((entry) => ({
      name: entry.name,
      server: entry.server,
      description: entry.tool.description ?? '',
    })),
    query,
    limit,
  );
  for (const tool of found) loaded.add(tool.name);
  const text =
    found.length === 0
      ? `No tool matches "${query}". Try other keywords.`
      : `These tools are now available to call:\n${found.map((t) => `- ${t.name} (${t.server}): ${t.description}`).join('\n')}`;
  return { content: [{ type: 'text', text }], isError: false };
}
