import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { allowedHosts, cookieValue, newToken, refusal, tokenMatches } from './security.js';

const req = (headers: Record<string, string>, method = 'GET') =>
  ({ headers, method }) as unknown as IncomingMessage;

describe('the gate', () => {
  const hosts = allowedHosts(8123);

  it('takes loopback hosts on its port only', () => {
    expect(refusal(req({ host: '127.0.0.1:8123' }), hosts)).toBeUndefined();
    expect(refusal(req({ host: 'LOCALHOST:8123' }), hosts)).toBeUndefined();
    expect(refusal(req({ host: '[::1]:8123' }), hosts)).toBeUndefined();
    expect(refusal(req({ host: '127.0.0.1:8124' }), hosts)?.error).toBe('host not allowed');
    expect(refusal(req({ host: 'attacker.example:8123' }), hosts)?.status).toBe(403);
    expect(refusal(req({}), hosts)?.status).toBe(403);
  });

  it('takes only its own http origins, and no OPTIONS', () => {
    const host = { host: '127.0.0.1:8123' };
    expect(refusal(req({ ...host, origin: 'http://localhost:8123' }), hosts)).toBeUndefined();
    expect(refusal(req({ ...host, origin: 'http://evil.example' }), hosts)?.error).toBe(
      'origin not allowed',
    );
    expect(refusal(req({ ...host, origin: 'null' }), hosts)?.error).toBe('origin not allowed');
    expect(refusal(req({ ...host, origin: 'https://127.0.0.1:8123' }), hosts)?.status).toBe(403);
    expect(refusal(req(host, 'OPTIONS'), hosts)?.status).toBe(403);
  });

  it('compares tokens exactly', () => {
    const token = newToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tokenMatches(token, token)).toBe(true);
    expect(tokenMatches(`${token}x`, token)).toBe(false);
    expect(tokenMatches(undefined, token)).toBe(false);
    expect(tokenMatches('', token)).toBe(false);
  });

  it('reads a cookie among others', () => {
    expect(cookieValue('a=1; mcpkit_inspector=abc; b=2', 'mcpkit_inspector')).toBe('abc');
    expect(cookieValue('mcpkit_inspector_x=abc', 'mcpkit_inspector')).toBeUndefined();
    expect(cookieValue(undefined, 'mcpkit_inspector')).toBeUndefined();
  });
});
