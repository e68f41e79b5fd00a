// Shared by the MCP Apps browser tests of `mcpkit inspect`: where a rendered view's document is,
// a tool called from its form, and the inspector's MCP transcript.
import type { FrameLocator, Page } from 'playwright-core';
import type { Inspector } from '../../src/cli/inspect/server.js';
import { field, selectTool } from './harness.js';

/**
 * The view's document: inside the sandbox proxy's frame, inside the inspector's page. With `uri`,
 * only the view rendered from that `ui://` resource (the frame is titled after it).
 */
export function viewFrame(page: Page, uri?: string): FrameLocator {
  const outer = uri === undefined ? 'iframe[title^="MCP App"]' : `iframe[title="MCP App ${uri}"]`;
  return page.frameLocator(outer).frameLocator('iframe');
}

/** Calls a tool from its form in the Tools tab, with string arguments typed in. */
export async function callTool(
  page: Page,
  name: string,
  args: Record<string, string> = {},
): Promise<void> {
  const form = await selectTool(page, name);
  for (const [key, value] of Object.entries(args)) await field(form, key).fill(value);
  await page.getByRole('button', { name: 'Call', exact: true }).click();
}

/** The MCP transcript of the inspector's connection (the app channel is not in it). */
export async function transcriptOf(inspector: Inspector): Promise<string> {
  const response = await fetch(`${inspector.origin}/api/transcript`, {
    headers: { 'x-mcpkit-token': inspector.token },
  });
  return response.text();
}
