import { describe, expect, it } from 'vitest';
import { APP_MIME_TYPE, declaresApps, modelVisible, toolUi, viewCsp } from './protocol.js';

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

describe('viewCsp', () => {
  it("is the spec's restrictive default without a csp", () => {
    const policy = viewCsp(undefined);
    for (const directive of [
      "default-src 'none'",
      "script-src 'self' 'unsafe-inline'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "media-src 'self' data:",
      "connect-src 'none'",
      "frame-src 'none'",
      "object-src 'none'",
      "base-uri 'self'",
    ]) {
      expect(policy.split('; ')).toContain(directive);
    }
  });

  it('adds declared origins to their directives only', () => {
    const policy = viewCsp({
      connectDomains: ['https://api.example.com', 'wss://live.example.com'],
      resourceDomains: ['https://*.cdn.example'],
      frameDomains: ['https://www.youtube.com'],
      baseUriDomains: ['https://base.example'],
    }).split('; ');
    expect(policy).toContain('connect-src https://api.example.com wss://live.example.com');
    expect(policy).toContain("script-src 'self' 'unsafe-inline' https://*.cdn.example");
    expect(policy).toContain('frame-src https://www.youtube.com');
    expect(policy).toContain('base-uri https://base.example');
  });

  it('never lets a declaration smuggle in a keyword or a directive', () => {
    const policy = viewCsp({
      connectDomains: ["'unsafe-eval'", 'https://a.example; script-src *', '*', 'data:'],
      resourceDomains: ['javascript:alert(1)'],
    });
    expect(policy).not.toContain('unsafe-eval');
    expect(policy).not.toContain('script-src *');
    expect(policy).not.toContain('javascript:');
    expect(policy.split('; ')).toContain("connect-src 'none'");
  });
});
