import { describe, expect, it } from 'vitest';
import { DEFAULT_APP_CSP, allowAttribute, buildCsp, checkCsp, viewCsp } from './csp.js';

describe('the CSP of an MCP App view', () => {
  it("is the spec's restrictive default when ui.csp is omitted", () => {
    expect(buildCsp(checkCsp(undefined).csp)).toBe(DEFAULT_APP_CSP);
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
      expect(DEFAULT_APP_CSP.split('; ')).toContain(directive);
    }
  });

  it('maps each declared list onto its directives, and nothing more', () => {
    const { csp, dropped } = checkCsp({
      connectDomains: ['https://api.example.com', 'wss://rt.example.com:8443'],
      resourceDomains: ['https://*.cdn.example'],
      frameDomains: ['https://www.youtube.com'],
      baseUriDomains: ['https://base.example'],
    });
    expect(dropped).toEqual([]);
    const policy = buildCsp(csp).split('; ');
    expect(policy).toContain('connect-src https://api.example.com wss://rt.example.com:8443');
    expect(policy).toContain("script-src 'self' 'unsafe-inline' https://*.cdn.example");
    expect(policy).toContain("font-src 'self' https://*.cdn.example");
    expect(policy).toContain('frame-src https://www.youtube.com');
    expect(policy).toContain('base-uri https://base.example');
    expect(policy).toContain("object-src 'none'");
  });

  it("keeps connect-src 'none', frame-src 'none' and base-uri 'self' for empty lists", () => {
    const policy = buildCsp(checkCsp({ connectDomains: [], resourceDomains: [] }).csp);
    expect(policy).toContain("connect-src 'none'");
    expect(policy).toContain("frame-src 'none'");
    expect(policy).toContain("base-uri 'self'");
  });

  it('drops what would widen or break the policy', () => {
    const { csp, dropped } = checkCsp({
      connectDomains: [
        '*',
        'https:',
        "'unsafe-eval'",
        'https://ok.example',
        'https://a.example; script-src *',
        'https://a.example/path',
        'data:',
        42,
      ],
      frameDomains: 'https://x.example',
    });
    expect(csp?.connectDomains).toEqual(['https://ok.example']);
    expect(dropped).toHaveLength(8);
    expect(buildCsp(csp).split('; ')).toContain('connect-src https://ok.example');
    expect(buildCsp(csp)).not.toContain('unsafe-eval');
    expect(buildCsp(csp)).not.toContain('frame-src https://x.example');
  });

  it('gives the permissions asked for as an allow attribute', () => {
    expect(allowAttribute(undefined)).toBe('');
    expect(allowAttribute({ camera: {}, clipboardWrite: {}, geolocation: true })).toBe(
      'camera; clipboard-write',
    );
  });
});

describe('viewCsp', () => {
  it("is the spec's restrictive default without a csp (the directives are checked above)", () => {
    expect(viewCsp(undefined)).toBe(DEFAULT_APP_CSP);
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
