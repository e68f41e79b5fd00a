// The options of the Streamable HTTP server transport, their defaults, and their resolved form.
import type { SessionStore } from './session-store.js';
import { noop } from '../../../internal/noop.js';
import type { DecodeOptions } from '../../../jsonrpc/codec.js';
import { MAX_BATCH_MESSAGES } from '../../../jsonrpc/codec.js';
import type { TokenVerifier } from '../../../protocol/auth.js';
import type { HttpAuthOptions, ResolvedAuth } from './auth.js';
import { resolveAuth, withAuth } from './auth.js';
import type { EventStore } from './event-store.js';
import type { HttpMiddleware } from './middleware.js';
import { compose } from './middleware.js';
import type { ResponseMode } from './reply.js';
import { MemoryEventStore } from './event-store.js';

export type { HttpAuthOptions } from './auth.js';
export type { ResponseMode } from './reply.js';

/** CORS settings; see {@link StreamableHttpOptions.cors}. */
export interface CorsOptions {
  /** Preflight cache lifetime (`Access-Control-Max-Age`) in seconds. Default 600. */
  maxAgeSeconds?: number;
  /** Send `Access-Control-Allow-Credentials: true`. Default false. */
  credentials?: boolean;
}

/** Paths of the deprecated HTTP+SSE transport; see {@link StreamableHttpOptions.enableLegacySse}. */
export interface LegacySseOptions {
  /** Where clients open the event stream. Default `/sse`. */
  ssePath?: string;
  /** Where clients post messages (`?sessionId=` is added). Default `/messages`. */
  messagesPath?: string;
}

/** Options of {@link createStreamableHttpHandler}. Every field is optional. */
export interface StreamableHttpOptions {
  /** The MCP endpoint's path. Default `/mcp`; other paths get 404. */
  path?: string;
  /**
   * Legacy sessions: `true` (default) mints `Mcp-Session-Id` on `initialize` and keeps a session
   * per client (needed for server-to-client requests, GET streams and resumption); `false` is
   * legacy stateless mode, where every POST reaches a fresh connection. 2026-07-28 requests never
   * use sessions.
   */
  sessions?: boolean;
  /** The most live legacy sessions. When full, the least recently used idle session is closed; when none is idle, `initialize` gets 503. Default 10 000. */
  maxSessions?: number;
  /** A session with no request, stream or activity for this long is closed. Default 30 minutes. */
  sessionIdleMs?: number;
  /** The largest accepted request body, in bytes; larger ones get 413. Default 4 MiB. */
  maxBodyBytes?: number;
  /** How long reading a request body may take; slower ones get 408. Default 30 s. */
  bodyTimeoutMs?: number;
  /**
   * Most messages in one batch (2025-03-26 only); a larger batch gets 400 with -32600. Default
   * 100. A batch's answer is capped at 16 MiB: responses past it become -32603 errors.
   */
  maxBatchMessages?: number;
  /**
   * Accepted `Host` values (DNS rebinding protection): `name` accepts any port, `name:port` one.
   * Default: `localhost`, `127.0.0.1` and `[::1]` on any port. `'any'` disables the check
   * (only behind a proxy that checks it). Other hosts get 403.
   */
  allowedHosts?: readonly string[] | 'any';
  /**
   * Accepted `Origin` values, as origins (`https://app.example.com`). A request without `Origin`
   * is not browser-originated and passes. Default: any origin on a loopback host. `'any'`
   * disables the check. Others get 403.
   */
  allowedOrigins?: readonly string[] | 'any';
  /**
   * CORS for browser clients: off by default. When on, allowed origins are echoed in
   * `Access-Control-Allow-Origin`, preflights are answered, and `Mcp-Session-Id`,
   * `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and `Last-Event-ID` are exposed.
   */
  cors?: boolean | CorsOptions;
  /**
   * `auto` (default): JSON, switching to SSE as soon as the server sends anything before the
   * response. `json`: always JSON when acceptable (notifications are dropped). `sse`: always SSE
   * when acceptable.
   */
  responseMode?: ResponseMode;
  /**
   * Where SSE events of legacy sessions are kept for resumption (Last-Event-ID). Default: a
   * {@link MemoryEventStore} (10 000 events, 1 000 per stream, 5 minutes). `null` turns
   * resumption off.
   */
  eventStore?: EventStore | null;
  /** The SSE `retry` hint sent with every priming event, in milliseconds. Default 1000. */
  retryMs?: number;
  /** Interval of SSE comment keep-alives on quiet streams, in milliseconds; 0 turns them off. Default 15 s. */
  keepAliveMs?: number;
  /**
   * Also serve the deprecated HTTP+SSE transport of 2024-11-05 (`GET /sse`, `POST /messages`).
   * Default false.
   */
  enableLegacySse?: boolean | LegacySseOptions;
  /** Receives failures that never reach the wire (factory errors, store errors). Default: silent. */
  onError?: (error: unknown, where: string) => void;
  /**
   * A health endpoint for load balancers and orchestrators: `GET <path>` (no MCP, no Host or
   * Origin check, so a probe by IP works) answers 200 `{"status":"ok"}` plus what `check`
   * returns, or 503 `{"status":"unavailable","error":…}` when `check` throws (a store that
   * cannot be reached). `true` serves `/healthz` with no check. With `auth`, a verifier that
   * reports its health (mcpkit/auth's do) adds `auth: 'ok'`, or 503 with `auth: 'unreachable'`
   * while it cannot reach its authorization server. Default: none.
   */
  health?: boolean | HealthOptions;
  /**
   * Where legacy sessions are kept for other processes (`createRedisSessionStore` of
   * `mcpkit/stores/redis`): a request naming a session this process does not hold resumes it from
   * there. Default: none (a session lives in the process that opened it).
   */
  sessionStore?: SessionStore;
  /**
   * Makes the endpoint an OAuth 2.1 resource server (spec basic/authorization): every request
   * needs a valid access token, the protected resource metadata is served, and refusals carry
   * the `WWW-Authenticate` challenge clients follow. Default: off. See docs/auth.md.
   */
  auth?: HttpAuthOptions;
  /**
   * Your own HTTP middleware, run in the order given in front of the MCP endpoint: after the
   * health endpoint, the metadata document, the 404 of other paths, the Host/Origin guard, CORS
   * and the shutdown check; before the bearer gate (`auth`). Neither probes nor refused
   * requests reach it. See docs/transports.md, "HTTP middleware". Default: none.
   */
  middleware?: readonly HttpMiddleware[];
}

/** Options of a handler's (or `listen`'s) `close`. */
export interface CloseOptions {
  /**
   * How long requests in flight may take to finish, in milliseconds. New requests get 503 at
   * once and GET streams end with a `retry` hint; POSTs still unanswered when it runs out are cut
   * (their streams end with the hint too). Default 0: close at once.
   */
  graceMs?: number;
}

/** Options of {@link StreamableHttpOptions.health}. */
export interface HealthOptions {
  /** Default `/healthz`. */
  path?: string;
  /** Checks what the server depends on; resolves with details to report, throws when down. */
  check?: () => unknown;
}

/** Options with every default applied. */
export interface ResolvedOptions {
  readonly path: string;
  readonly sessions: boolean;
  readonly maxSessions: number;
  readonly sessionIdleMs: number;
  readonly body: { readonly maxBytes: number; readonly timeoutMs: number };
  /** How POST bodies are decoded: batches allowed, up to maxBatchMessages. */
  readonly decode: DecodeOptions;
  readonly allowedHosts: readonly string[] | 'any';
  readonly allowedOrigins: readonly string[] | 'any' | 'loopback';
  readonly cors: Required<CorsOptions> | undefined;
  readonly responseMode: ResponseMode;
  readonly eventStore: EventStore | undefined;
  readonly retryMs: number;
  readonly keepAliveMs: number;
  readonly legacySse: Required<LegacySseOptions> | undefined;
  readonly onError: (error: unknown, where: string) => void;
  /** The resource-server gate, when `auth` is given. */
  readonly auth: ResolvedAuth | undefined;
  readonly sessionStore: SessionStore | undefined;
  /** The health endpoint, when `health` is given. */
  readonly health:
    { readonly path: string; readonly check: (() => unknown) | undefined } | undefined;
  /** The user's middleware, composed; undefined when none. */
  readonly middleware: HttpMiddleware | undefined;
}

/** The host names a server on loopback answers to. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

function positive(name: string, value: number): number {
  if (!(value > 0)) throw new TypeError(`${name} must be a positive number`);
  return value;
}

/** Applies the defaults; throws TypeError on a nonsensical value. */
export function resolveOptions(options: StreamableHttpOptions): ResolvedOptions {
  const path = options.path ?? '/mcp';
  if (!path.startsWith('/')) throw new TypeError('path must start with "/"');
  const cors = options.cors ?? false;
  const legacy = options.enableLegacySse ?? false;
  const mode = options.responseMode ?? 'auto';
  if (!['auto', 'json', 'sse'].includes(mode)) {
    throw new TypeError('responseMode must be "auto", "json" or "sse"');
  }
  return {
    auth: resolveAuth(options.auth, path),
    path,
    sessions: options.sessions ?? true,
    maxSessions: positive('maxSessions', options.maxSessions ?? 10_000),
    sessionIdleMs: positive('sessionIdleMs', options.sessionIdleMs ?? 30 * 60_000),
    body: {
      maxBytes: positive('maxBodyBytes', options.maxBodyBytes ?? 4 * 1024 * 1024),
      timeoutMs: positive('bodyTimeoutMs', options.bodyTimeoutMs ?? 30_000),
    },
    decode: {
      allowBatch: true,
      maxBatch: positive('maxBatchMessages', options.maxBatchMessages ?? MAX_BATCH_MESSAGES),
    },
    allowedHosts: options.allowedHosts ?? LOOPBACK_HOSTS,
    allowedOrigins: options.allowedOrigins ?? 'loopback',
    cors:
      cors === false
        ? undefined
        : {
            maxAgeSeconds: (cors === true ? undefined : cors.maxAgeSeconds) ?? 600,
            credentials: (cors === true ? undefined : cors.credentials) ?? false,
          },
    responseMode: mode,
    eventStore:
      options.eventStore === null ? undefined : (options.eventStore ?? new MemoryEventStore()),
    retryMs: options.retryMs ?? 1000,
    keepAliveMs: options.keepAliveMs ?? 15_000,
    legacySse:
      legacy === false
        ? undefined
        : {
            ssePath: (legacy === true ? undefined : legacy.ssePath) ?? '/sse',
            messagesPath: (legacy === true ? undefined : legacy.messagesPath) ?? '/messages',
          },
    onError: options.onError ?? noop,
    health: resolveHealth(options.health, options.auth?.verify),
    sessionStore: options.sessionStore,
    middleware:
      options.middleware === undefined || options.middleware.length === 0
        ? undefined
        : compose(...options.middleware),
  };
}

function resolveHealth(
  health: StreamableHttpOptions['health'],
  verifier: TokenVerifier | undefined,
): ResolvedOptions['health'] {
  if (health === undefined || health === false) return undefined;
  const path = (health === true ? undefined : health.path) ?? '/healthz';
  if (!path.startsWith('/')) throw new TypeError(`health.path must start with "/", got "${path}"`);
  const check = health === true ? undefined : health.check;
  return { path, check: verifier?.health === undefined ? check : withAuth(check, verifier) };
}
