import { describe, expect, it } from 'vitest';
import {
  declaresApps,
  isAppVisible,
  isModelVisible,
  toolVisibility,
  uiResourceUri,
} from './apps.js';

describe('MCP Apps readers of the catalogue', () => {
  it('reads visibility, defaulting to model and app, a malformed field as absent', () => {
    expect(toolVisibility({})).toEqual(['model', 'app']);
    expect(toolVisibility({ _meta: { ui: { visibility: ['app'] } } })).toEqual(['app']);
    expect(toolVisibility({ _meta: { ui: { visibility: 'app' } } })).toEqual(['model', 'app']);
    expect(toolVisibility({ _meta: { ui: { visibility: ['other', 'model'] } } })).toEqual([
      'model',
    ]);
    expect(isModelVisible({ _meta: { ui: { visibility: ['app'] } } })).toBe(false);
    expect(isModelVisible({ _meta: { ui: { visibility: [] } } })).toBe(false);
    expect(isAppVisible({ _meta: { ui: { visibility: ['model'] } } })).toBe(false);
    expect(isModelVisible({ _meta: { ui: null } })).toBe(true);
  });

  it('reads the view link, nested first, then the deprecated flat key, ui:// only', () => {
    expect(uiResourceUri({ _meta: { ui: { resourceUri: 'ui://a' } } })).toBe('ui://a');
    expect(uiResourceUri({ _meta: { 'ui/resourceUri': 'ui://b' } })).toBe('ui://b');
    expect(
      uiResourceUri({ _meta: { ui: { resourceUri: 'ui://a' }, 'ui/resourceUri': 'ui://b' } }),
    ).toBe('ui://a');
    expect(uiResourceUri({ _meta: { ui: { resourceUri: 'https://x' } } })).toBeUndefined();
    expect(uiResourceUri({})).toBeUndefined();
  });

  it('tells whether client capabilities declare the extension with the App MIME type', () => {
    const ui = (settings: unknown) => ({ extensions: { 'io.modelcontextprotocol/ui': settings } });
    expect(declaresApps(ui({ mimeTypes: ['text/html;profile=mcp-app'] }))).toBe(true);
    expect(declaresApps(ui({ mimeTypes: ['text/html'] }))).toBe(false);
    expect(declaresApps(ui({}))).toBe(false);
    expect(declaresApps({})).toBe(false);
    expect(declaresApps(undefined)).toBe(false);
  });
});
