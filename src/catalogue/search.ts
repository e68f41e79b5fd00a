// Progressive discovery: above a token budget (or a model API's tool limit) the model gets a
// `search_tools` meta-tool instead of every definition, and the tools a search finds are loaded
// for the turns that follow. The host (mcpkit chat) and the gateway both offer it.

/** The meta-tool's name. */
export const SEARCH_TOOLS = 'search_tools';

/** The meta-tool's definition (a host's `ModelTool`). */
export const SEARCH_TOOLS_DEFINITION: {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
} = {
  name: SEARCH_TOOLS,
  description:
    'Searches the tools of the connected MCP servers by keywords and makes the matching tools available to call in the next step. Use it first when no listed tool fits the task.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'keywords describing what the tool should do' },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: 20,
        description: 'most tools to load (default 5)',
      },
    },
    required: ['query'],
  },
};

/** A tool a search may find. */
export interface Searchable {
  readonly name: string;
  readonly server: string;
  readonly description: string;
}

/**
 * The tools matching `query`, best first, at most `limit`. A tool scores a point per query word
 * found in its name or server (two) or description (one), case-insensitive; tools scoring zero
 * are left out; ties keep the name order.
 */
export function searchTools<T extends Searchable>(
  tools: readonly T[],
  query: string,
  limit: number,
): T[] {
  const words = query
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1);
  const scored = tools.map((tool) => {
    const name = `${tool.name} ${tool.server}`.toLowerCase();
    const description = tool.description.toLowerCase();
    const score = words.reduce(
      (sum, word) => sum + (name.includes(word) ? 2 : 0) + (description.includes(word) ? 1 : 0),
      0,
    );
    return { tool, score };
  });
  return scored
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || (a.tool.name < b.tool.name ? -1 : 1))
    .slice(0, Math.max(1, limit))
    .map((entry) => entry.tool);
}
