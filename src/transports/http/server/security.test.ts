import { describe, expect, it } from 'vitest';
import { hostMatcher, originMatcher, splitHost } from './security.js';
import { LOOPBACK_HOSTS } from './options.js';

describe('Host and Origin checks', () => {
  it('splits hosts, IPv6 literals included', () => {
    expect(splitHost('LocalHost:3000')).toEqual({ name: 'localhost', port: '3000' });
    expect(splitHost('[::1]:80')).toEqual({ name: '[::1]', port: '80' });
    expect(splitHost('[::1]')).toEqual({ name: '[::1]', port: '' });
    expect(splitHost('a:b')).toBeUndefined();
    expect(splitHost('[::1')).toBeUndefined();
  });

  it('allows loopback names on any port by default, and nothing else', () => {
    const ok = hostMatcher(LOOPBACK_HOSTS);
    for (const host of ['localhost', 'localhost:1', '127.0.0.1:65535', '[::1]:3000']) {
      expect(ok(host), host).toBe(true);
    }
    for (const host of [undefined, '', 'evil.com', 'localhost.evil.com', '127.0.0.2', '[::2]']) {
      expect(ok(host), String(host)).toBe(false);
    }
    expect(hostMatcher(['api.example.com:443'])('api.example.com:8443')).toBe(false);
    expect(hostMatcher('any')('whatever')).toBe(true);
    // Verdicts are remembered (the last one first): alternating hosts still get their own.
    for (let round = 0; round < 3; round++) {
      expect(ok('localhost:1')).toBe(true);
      expect(ok('evil.com')).toBe(false);
      expect(ok('evil.com')).toBe(false);
      expect(ok('[::1]:3000')).toBe(true);
    }
    expect(() => hostMatcher(['a:b'])).toThrow(TypeError);
  });

  it('allows absent origins, loopback origins by default, and exact origins when listed', () => {
    const loopback = originMatcher('loopback');
    expect(loopback(undefined)).toBe(true);
    expect(loopback('http://localhost:5173')).toBe(true);
    expect(loopback('https://[::1]')).toBe(true);
    expect(loopback('null')).toBe(false);
    expect(loopback('http://evil.com')).toBe(false);
    expect(loopback('chrome-extension://localhost')).toBe(false);
    const listed = originMatcher(['https://app.example.com']);
    expect(listed('https://app.example.com')).toBe(true);
    expect(listed('https://APP.example.com:443')).toBe(true);
    expect(listed('https://app.example.com:444')).toBe(false);
    expect(listed('http://localhost')).toBe(false);
  });
});
