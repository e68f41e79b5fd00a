// What the page reads of MCP Apps in a tool's listing (io.modelcontextprotocol/ui, 2026-01-26).
import { isRecord } from '../schema';
import type { Tool } from '../types';

/** The `ui://` resource of the tool's view (`_meta.ui.resourceUri`, or the deprecated flat key). */
export function appResourceUri(tool: Tool): string | undefined {
  const meta = tool._meta;
  const ui = isRecord(meta?.['ui']) ? meta['ui'] : undefined;
  const uri = ui?.['resourceUri'] ?? meta?.['ui/resourceUri'];
  return typeof uri === 'string' && uri.startsWith('ui://') ? uri : undefined;
}

/** Who may call the tool: `_meta.ui.visibility`, `["model", "app"]` when absent or malformed. */
export function visibilityOf(tool: Tool): string[] {
  const ui = tool._meta?.['ui'];
  const given = isRecord(ui) ? ui['visibility'] : undefined;
  return Array.isArray(given) && given.every((v) => v === 'model' || v === 'app')
    ? (given as string[])
    : ['model', 'app'];
}

/** Whether a host keeps the tool from the model (its visibility lacks `model`). */
export function isAppOnly(tool: Tool): boolean {
  return !visibilityOf(tool).includes('model');
}
