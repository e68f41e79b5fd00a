// The inspector's gate: what every request must show before anything else is looked at. Only
// loopback Host names on our port (DNS rebinding, CVE-2025-49596), only our own origin, and the
// access token: as a cookie for the page's files, as a header for the API.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The cookie that carries the token for the page's static files. */
export const TOKEN_COOKIE = 'mcpkit_inspector';

/** The header that carries the token for `/api/*`. */
export const TOKEN_HEADER = 'x-mcpkit-token';

/** A fresh access token: 32 random bytes, base64url. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Whether `given` is `token`, compared in constant time. */
export function tokenMatches(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The Host header values accepted on `port`: loopback names only. */
export function allowedHosts(port: number): Set<string> {
  const p = String(port);
  return new Set([`127.0.0.1:${p}`, `localhost:${p}`, `[::1]:${p}`]);
}

/** Why a request is refused before routing (status and message), or undefined when it may go on. */
export function refusal(
  req: IncomingMessage,
  hosts: ReadonlySet<string>,
): { status: number; error: string } | undefined {
  const host = req.headers.host?.toLowerCase();
  if (host === undefined || !hosts.has(host)) return { status: 403, error: 'host not allowed' };
  const origin = req.headers.origin;
  if (
    origin !== undefined &&
    !(origin.startsWith('http://') && hosts.has(origin.slice(7).toLowerCase()))
  ) {
    return { status: 403, error: 'origin not allowed' };
  }
  // No CORS, ever: a preflight is refused, so no other origin may call the API.
  if (req.method === 'OPTIONS')
    return { status: 403, error: 'cross-origin requests are not allowed' };
  return undefined;
}

/** The value of cookie `name` in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq >= 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The Set-Cookie header value that hands the page its token. */
export function tokenCookie(token: string): string {
  return `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}
