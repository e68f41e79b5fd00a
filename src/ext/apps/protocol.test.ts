import { describe, expect, it } from 'vitest';
import { APP_MIME_TYPE, declaresApps, modelVisible, toolUi } from './protocol.js';

describe('toolUi', () => {
  it('reads ui.resourceUri and visibility, the deprecated flat key, and the default', () => {
    expect(toolUi({ _meta: { ui: { resourceUri: 'ui://a/b', visibility: ['app'] } } })).toEqual({
      resourceUri: 'ui://a/b',
      visibility: ['app'],
    });
    expect(toolUi({ _meta: { 'ui/resourceUri': 'ui://old' } })).toEqual({
      resourceUri: 'ui://old',
      visibility: ['model', 'app'],
    });
    expect(toolUi({})).toEqual({ resourceUri: undefined, visibility: ['model', 'app'] });
  });

  it('ignores what is not a ui:// URI or a known visibility', () => {
    const odd = { _meta: { ui: { resourceUri: 'https://x', visibility: ['robot', 7] } } };
    // A list that names neither audience: neither the model nor a view may call the tool.
    expect(toolUi(odd)).toEqual({ resourceUri: undefined, visibility: [] });
    expect(modelVisible({ _meta: { ui: { visibility: ['app'] } } })).toBe(false);
    expect(modelVisible({ _meta: { ui: { visibility: ['app', 'model'] } } })).toBe(true);
  });
});

describe('declaresApps', () => {
  it('needs the HTML view type among mimeTypes', () => {
    const ext = (settings: unknown) => ({
      extensions: { 'io.modelcontextprotocol/ui': settings },
    });
    expect(declaresApps(ext({ mimeTypes: [APP_MIME_TYPE] }))).toBe(true);
    expect(declaresApps(ext({ mimeTypes: ['text/html'] }))).toBe(false);
    expect(declaresApps(ext({}))).toBe(false);
    expect(declaresApps({})).toBe(false);
    expect(declaresApps(undefined)).toBe(false);
  });
});
