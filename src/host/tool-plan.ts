// Which tools a model turn carries: every definition (eager), every definition deferred behind
// the API's own tool search (native deferred loading), or mcpkit's `search_tools` and what it
// loaded (the fallback for APIs without a tool search). The host asks before every turn.
import { SEARCH_TOOLS_DEFINITION } from '../catalogue/index.js';
import type { DeferLoadingOptions, HostTool } from './host-types.js';
import { adaptInputSchema } from './schema.js';
import type { ModelAdapter, ModelTool, ToolSearchKind } from './types.js';

export type { DeferLoadingOptions } from './host-types.js';

/** The default threshold of deferred loading, in tokens of tool definitions. */
export const DEFAULT_DEFER_THRESHOLD = 10_000;

/** How a turn offers the tools. */
export type ToolMode = 'eager' | 'deferred' | 'search_tools';

/** What one model turn carries. */
export interface ToolPlan {
  readonly mode: ToolMode;
  readonly tools: ModelTool[];
  /** Set in `deferred` mode: the API's tool-search tool to add. */
  readonly toolSearch?: ToolSearchKind;
}

/** What {@link planTools} decides from. */
export interface PlanInput {
  /** The catalog, in its (stable) order. */
  readonly catalog: readonly HostTool[];
  /** Tools `search_tools` loaded so far. */
  readonly loaded: ReadonlySet<string>;
  readonly adapter: Pick<ModelAdapter, 'maxTools' | 'toolSearch'>;
  /** The tokens of the catalog's definitions (asked only when a limit needs them). */
  readonly tokens: () => Promise<number>;
  /** The host's `toolBudget`: above it, always mcpkit's `search_tools`. */
  readonly toolBudget: number | undefined;
  /** The host's `deferLoading`; false: never deferred (only `toolBudget` and the API's limit switch). */
  readonly defer: DeferLoadingOptions | boolean | undefined;
}

/**
 * Decides a turn's tools. Contracts: under every limit, every tool (`eager`); above the API's
 * tool count or the threshold of deferred loading, with an API that searches itself, every tool
 * with `defer` set but the always-loaded ones (`deferred`): the list depends only on the catalog,
 * so it is the same, byte for byte, turn after turn; above `toolBudget`, or above the threshold
 * with an API that cannot search, `search_tools` then the always-loaded tools then the loaded
 * ones, within the API's tool count (`search_tools`).
 */
export async function planTools(input: PlanInput): Promise<ToolPlan> {
  const { catalog, adapter } = input;
  const settings = typeof input.defer === 'object' ? input.defer : {};
  const deferOn = input.defer !== false;
  const always = alwaysLoaded(settings.alwaysLoaded ?? []);
  const overLimit = catalog.length > adapter.maxTools;
  const tokens = overLimit ? 0 : await input.tokens();
  const overBudget = input.toolBudget !== undefined && tokens > input.toolBudget;
  const overThreshold = deferOn && tokens > (settings.threshold ?? DEFAULT_DEFER_THRESHOLD);
  if (!overLimit && !overBudget && !overThreshold) {
    return { mode: 'eager', tools: catalog.map((entry) => modelTool(entry)) };
  }
  if (deferOn && adapter.toolSearch === true && !overBudget) {
    return {
      mode: 'deferred',
      tools: catalog.map((entry) => modelTool(entry, !always(entry))),
      toolSearch: settings.search ?? 'bm25',
    };
  }
  const pinned = catalog.filter((entry) => always(entry));
  const found = catalog.filter((entry) => !always(entry) && input.loaded.has(entry.name));
  const room = Math.max(0, adapter.maxTools - 1);
  return {
    mode: 'search_tools',
    tools: [
      SEARCH_TOOLS_DEFINITION,
      ...[...pinned, ...found].slice(0, room).map((e) => modelTool(e)),
    ],
  };
}

/** A tool as the model sees it. */
export function modelTool(entry: HostTool, defer = false): ModelTool {
  return {
    name: entry.name,
    description: entry.tool.description ?? entry.tool.title ?? entry.tool.name,
    inputSchema: adaptInputSchema(entry.tool.inputSchema),
    ...(defer ? { defer: true } : {}),
  };
}

/** Whether a tool is always loaded, by the rules' names (`name`, `server/tool`, `server/*`). */
function alwaysLoaded(rules: readonly string[]): (entry: HostTool) => boolean {
  const set = new Set(rules);
  return (entry) =>
    set.has(entry.name) ||
    set.has(`${entry.server}/${entry.tool.name}`) ||
    set.has(`${entry.server}/*`);
}
