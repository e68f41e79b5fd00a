// DNS rebinding protection and CORS (spec 2025-11-25 basic/transports#security-warning): the
// Host and Origin of every request are checked against allow-lists before anything else runs.
import { emptyReply, joined, refusedReply } from './exchange.js';
import type { HttpMiddleware } from './middleware.js';
import type { CorsOptions, ResolvedOptions } from './options.js';
import { LOOPBACK_HOSTS } from './options.js';
import { remembered } from './remembered.js';

/** Splits a Host header into a lower-case host name and its port (`''` when absent). */
export function splitHost(host: string): { name: string; port: string } | undefined {
  const value = host.trim().toLowerCase();
  if (value === '') return undefined;
  if (value.startsWith('[')) {
    const close = value.indexOf(']');
    if (close === -1) return undefined;
    const rest = value.slice(close + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return undefined;
    return { name: value.slice(0, close + 1), port: rest.slice(1) };
  }
  const colon = value.indexOf(':');
  if (colon === -1) return { name: value, port: '' };
  const port = value.slice(colon + 1);
  if (!/^\d{1,5}$/.test(port)) return undefined;
  return { name: value.slice(0, colon), port };
}

/** Compiles a host allow-list into a test of a Host header: `name` accepts any port, `name:port` one. */
export function hostMatcher(
  allowed: readonly string[] | 'any',
): (host: string | undefined) => boolean {
  if (allowed === 'any') return () => true;
  const rules = allowed.map((entry) => {
    const rule = splitHost(entry);
    if (rule === undefined) throw new TypeError(`invalid allowed host ${JSON.stringify(entry)}`);
    return rule;
  });
  const allows = remembered((host) => {
    const parsed = splitHost(host);
    return (
      parsed !== undefined &&
      rules.some((r) => r.name === parsed.name && (r.port === '' || r.port === parsed.port))
    );
  });
  return (host) => host !== undefined && allows(host);
}

function originOf(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined; // "null", garbage: not an origin we can allow
  }
}

/**
 * Compiles an origin allow-list into a test of an Origin header. An absent Origin passes (the
 * request is not from a browser page); `loopback` accepts any http(s) origin on a loopback name.
 */
export function originMatcher(
  allowed: readonly string[] | 'any' | 'loopback',
): (origin: string | undefined) => boolean {
  if (allowed === 'any') return () => true;
  const origins =
    allowed === 'loopback'
      ? undefined
      : new Set(
          allowed.map((entry) => {
            const url = originOf(entry);
            if (url === undefined)
              throw new TypeError(`invalid allowed origin ${JSON.stringify(entry)}`);
            return url.origin;
          }),
        );
  return (origin) => {
    if (origin === undefined) return true;
    const url = originOf(origin);
    if (url === undefined) return false;
    return origins === undefined ? LOOPBACK_HOSTS.includes(url.hostname) : origins.has(url.origin);
  };
}

/** Compiles the Host and Origin checks: the result says why a request is refused, or undefined. */
export function createGuard(
  options: ResolvedOptions,
): (host: string | undefined, origin: string | undefined) => string | undefined {
  const hostOk = hostMatcher(options.allowedHosts);
  const originOk = originMatcher(options.allowedOrigins);
  return (host, origin) => {
    if (!hostOk(host)) return `host ${JSON.stringify(host ?? '')} is not allowed`;
    if (!originOk(origin)) return `origin ${JSON.stringify(origin)} is not allowed`;
    return undefined;
  };
}

/** The Host/Origin check as middleware: 403 with the reason for a refused request. */
export function hostOriginGuard(
  guard: (host: string | undefined, origin: string | undefined) => string | undefined,
): HttpMiddleware {
  return (exchange, answer, next) => {
    const { headers } = exchange;
    const refused = guard(joined(headers['host']), joined(headers['origin']));
    if (refused === undefined) next(exchange, answer);
    else answer(refusedReply(403, `forbidden: ${refused}`));
  };
}

/**
 * CORS as middleware, for requests that carry an Origin (the guard has allowed it): a preflight
 * is answered 204; every other reply gets the CORS headers.
 */
export function corsMiddleware(cors: Required<CorsOptions>): HttpMiddleware {
  return (exchange, answer, next) => {
    const origin = joined(exchange.headers['origin']);
    if (origin === undefined) {
      next(exchange, answer);
      return;
    }
    if (exchange.method === 'OPTIONS') {
      const requested = joined(exchange.headers['access-control-request-headers']);
      answer(emptyReply(204, preflightHeaders(cors, origin, requested)));
      return;
    }
    const added = corsHeaders(cors, origin);
    next(exchange, (reply) => {
      const headers = Object.assign({}, reply.headers, added);
      answer({ status: reply.status, headers, body: reply.body });
    });
  };
}

const EXPOSED = 'Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID';
const ALLOWED_REQUEST_HEADERS = `Content-Type, Accept, Authorization, ${EXPOSED}`;

/** The CORS headers of a response to an allowed `origin`. */
export function corsHeaders(cors: Required<CorsOptions>, origin: string): Record<string, string> {
  const headers: Record<string, string> = {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': EXPOSED,
    vary: 'Origin',
  };
  if (cors.credentials) headers['access-control-allow-credentials'] = 'true';
  return headers;
}

/** The CORS headers of a preflight answer; requested headers are echoed (they include `Mcp-Param-*`). */
export function preflightHeaders(
  cors: Required<CorsOptions>,
  origin: string,
  requested: string | undefined,
): Record<string, string> {
  return {
    ...corsHeaders(cors, origin),
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-allow-headers': requested ?? ALLOWED_REQUEST_HEADERS,
    'access-control-max-age': String(cors.maxAgeSeconds),
  };
}
