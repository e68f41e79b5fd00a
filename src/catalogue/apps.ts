// What a program that gathers many servers' tools must know of MCP Apps (the extension
// `io.modelcontextprotocol/ui`, SEP-1865, 2026-01-26): which tools a model may be offered (a
// tool's `_meta.ui.visibility`), and which `ui://` view a tool links to (`_meta.ui.resourceUri`,
// or the deprecated flat `_meta["ui/resourceUri"]`). The host and the gateway read tools
// through these functions only. What a tool's `_meta` says comes from its server: a malformed
// field is read as absent, never thrown on.
import { isObject } from '../internal/json.js';

/** The extension's identifier, under `capabilities.extensions`. */
export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';

/** The MIME type of an MCP App view (a `ui://` resource holding an HTML5 document). */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** The extension settings a client declares to say it renders views. */
export const APPS_CLIENT_SETTINGS: { readonly mimeTypes: readonly string[] } = {
  mimeTypes: [APP_MIME_TYPE],
};

/** The deprecated flat key of a tool's view URI, still read (the spec asks hosts to). */
export const FLAT_RESOURCE_URI_KEY = 'ui/resourceUri';

/** Who may call a tool: the model (the agent), the app (the tool's views), or both. */
export type ToolAudience = 'model' | 'app';

/** What is read of a tool: its `_meta` only. */
interface WithMeta {
  readonly _meta?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The audiences of a tool: its `_meta.ui.visibility` (the known entries of a list), or
 * `["model", "app"]` when it has none or it is not a list.
 */
export function toolVisibility(tool: WithMeta): ToolAudience[] {
  const ui = tool._meta?.['ui'];
  const visibility = isObject(ui) ? ui['visibility'] : undefined;
  if (!Array.isArray(visibility)) return ['model', 'app'];
  return (['model', 'app'] as const).filter((audience) => visibility.includes(audience));
}

/**
 * Whether a model may be offered the tool: its visibility names `model`. An app-only tool
 * (`["app"]`) is served to the views of its server, never put in a model's tool list, its
 * `search_tools` catalogue or its token budget.
 */
export function isModelVisible(tool: WithMeta): boolean {
  return toolVisibility(tool).includes('model');
}

/** Whether a view may call the tool: its visibility names `app`. */
export function isAppVisible(tool: WithMeta): boolean {
  return toolVisibility(tool).includes('app');
}

/**
 * The `ui://` URI of the tool's view: `_meta.ui.resourceUri`, else the deprecated flat
 * `_meta["ui/resourceUri"]`; undefined when neither is a `ui://` URI.
 */
export function uiResourceUri(tool: WithMeta): string | undefined {
  const ui = tool._meta?.['ui'];
  const nested = isObject(ui) ? ui['resourceUri'] : undefined;
  if (isUiUri(nested)) return nested;
  const flat = tool._meta?.[FLAT_RESOURCE_URI_KEY];
  return isUiUri(flat) ? flat : undefined;
}

/** Whether `value` is a `ui://` URI. */
export function isUiUri(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith('ui://');
}

/** Whether `capabilities` (a client's) declare the extension with the App MIME type. */
export function declaresApps(capabilities: unknown): boolean {
  const extensions = isObject(capabilities) ? capabilities['extensions'] : undefined;
  const settings = isObject(extensions) ? extensions[APPS_EXTENSION] : undefined;
  const types = isObject(settings) ? settings['mimeTypes'] : undefined;
  return Array.isArray(types) && types.includes(APP_MIME_TYPE);
}
