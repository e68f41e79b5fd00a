// A fetch for Node written on node:net and node:tls: HTTP/1.1 with keep-alive, one write per
// request, and a response parser that does only what the Streamable HTTP client transport reads.
// The global fetch (undici) spends most of a small JSON-RPC exchange's CPU time in its own
// machinery (web streams, request cloning, timing info), and node:http's ClientRequest still
// costs several times a raw socket's; a gateway forwarding every call pays it on each.
//
// Scope, stated as the contract: http: and https: URLs; bodies of type string, bytes or
// URLSearchParams; the response body buffered (content-length, chunked or until close), except
// `text/event-stream`, which streams; redirects are returned, not followed (`redirect: 'manual'`
// semantics); no cookies, no proxy, no compression asked for (gzip, deflate and br are decoded
// when a buffered body comes compressed anyway). Failures reject as fetch does: a TypeError
// "fetch failed" with the cause, or the abort signal's reason. Besides `signal`, it takes a
// cancellation that is not an AbortSignal (FETCH_CANCELLATION of http.ts), which the client
// transports give it.
//
// The pieces, from the top: node-fetch-pool.ts (the connections to one origin),
// node-fetch-connection.ts (one socket), node-fetch-exchange.ts (one response, parsed as it
// arrives), node-fetch-request.ts (the URL and init made into a request head and body).
import type { ConnectionOptions } from 'node:tls';
import { Pool } from './node-fetch-pool.js';
import type { Request1, Settings, Target } from './node-fetch-request.js';
import { abortError, cancellationOf, requestOf, targetOf } from './node-fetch-request.js';
import { FETCH_CANCELLATION } from './http.js';

/** What {@link createNodeFetch} returns: a fetch, plus `close()` for its idle connections. */
export interface NodeFetch {
  (input: string | URL, init?: RequestInit): Promise<Response>;
  /** Closes every idle connection; requests in flight finish. Later requests open new ones. */
  close(): void;
  /**
   * It reads an init's `[FETCH_CANCELLATION]` (mcpkit/transports/http), before `signal`: the
   * client transports then cancel a request without making an AbortSignal.
   */
  readonly [FETCH_CANCELLATION]: true;
}

/** Options of {@link createNodeFetch}. */
export interface NodeFetchOptions {
  /** Most connections per origin; more requests wait for one. Default 256. */
  readonly maxSockets?: number;
  /** An idle connection is closed after this long (below servers' usual 5 s). Default 4000. */
  readonly idleTimeoutMs?: number;
  /** Largest response head (1xx heads before it included), and apart the trailers. Default 65 536. */
  readonly maxHeaderBytes?: number;
  /** Largest buffered (non-stream) response body, as received and once decoded. Default 64 MiB. */
  readonly maxBodyBytes?: number;
  /** TLS settings of https: connections (`ca`, `cert`, `key`, `rejectUnauthorized`, …). */
  readonly tls?: Omit<ConnectionOptions, 'host' | 'port' | 'servername' | 'socket'>;
}

/**
 * A fetch for Node over raw keep-alive connections: one pool of at most `maxSockets` per origin,
 * idle connections unreferenced (they never keep the process alive). Safe for concurrent use.
 */
export function createNodeFetch(options: NodeFetchOptions = {}): NodeFetch {
  const settings: Settings = {
    maxSockets: positive(options.maxSockets, 256, 'maxSockets'),
    idleTimeoutMs: positive(options.idleTimeoutMs, 4000, 'idleTimeoutMs'),
    maxHeaderBytes: positive(options.maxHeaderBytes, 65_536, 'maxHeaderBytes'),
    maxBodyBytes: positive(options.maxBodyBytes, 64 * 1024 * 1024, 'maxBodyBytes'),
    tls: options.tls ?? {},
  };
  const pools = new Map<string, Pool>();
  const targets = new Map<string, Target>();
  const fetch = (input: string | URL, init: RequestInit = {}): Promise<Response> => {
    let target: Target;
    let request: Request1;
    try {
      target = targetOf(input, targets);
      request = requestOf(target, init);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new TypeError(String(error)));
    }
    const cancel = cancellationOf(init);
    if (cancel?.aborted === true) return Promise.reject(abortError(cancel.reason));
    let pool = pools.get(target.origin);
    if (pool === undefined) {
      pool = new Pool(target, settings);
      pools.set(target.origin, pool);
    }
    return pool.send(request, cancel);
  };
  return Object.assign(fetch, {
    close() {
      for (const pool of pools.values()) pool.closeIdle();
    },
    [FETCH_CANCELLATION]: true as const,
  });
}
function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(
      `createNodeFetch: ${name} must be a positive integer, got ${String(value)}`,
    );
  }
  return value;
}
