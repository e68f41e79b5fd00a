// What the inspector reads of MCP Apps (io.modelcontextprotocol/ui, 2026-01-26) in a tool's
// listing, and what it declares as a host of them.
import type { Tool } from '../../client/index.js';
import { asObject } from './api-error.js';

/** The extension's identifier, its view MIME type, and what the inspector declares under it. */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
export const UI_EXTENSION_SETTINGS: { mimeTypes: string[] } = { mimeTypes: [APP_MIME_TYPE] };

/** Who may call a tool: `_meta.ui.visibility`, `["model", "app"]` when absent or malformed. */
export function visibilityOf(tool: Pick<Tool, '_meta'>): ('model' | 'app')[] {
  const ui = asObject(asObject(tool._meta)?.['ui']);
  const given = ui?.['visibility'];
  if (!Array.isArray(given) || !given.every((v) => v === 'model' || v === 'app')) {
    return ['model', 'app'];
  }
  return given as ('model' | 'app')[];
}
