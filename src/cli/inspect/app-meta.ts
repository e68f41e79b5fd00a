// What the inspector reads of MCP Apps (io.modelcontextprotocol/ui, 2026-01-26) in a tool's
// listing. It declares the extension with mcpkit/apps' appsClient() (session.ts).
import type { Tool } from '../../client/index.js';
import { asObject } from './api-error.js';

/** The view MIME type (`text/html;profile=mcp-app`). */
export { APP_MIME_TYPE } from '../../ext/apps/index.js';

/** Who may call a tool: `_meta.ui.visibility`, `["model", "app"]` when absent or malformed. */
export function visibilityOf(tool: Pick<Tool, '_meta'>): ('model' | 'app')[] {
  const ui = asObject(asObject(tool._meta)?.['ui']);
  const given = ui?.['visibility'];
  if (!Array.isArray(given) || !given.every((v) => v === 'model' || v === 'app')) {
    return ['model', 'app'];
  }
  return given as ('model' | 'app')[];
}
