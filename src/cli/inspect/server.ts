// `mcpkit inspect`'s local web server: the page's files and the API, on 127.0.0.1 by default,
// behind the gate of security.ts. startInspector is what the command and the tests use.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { ProtocolRevision } from '../../protocol/index.js';
import type { Target } from '../target.js';
import type { ApiContext } from './api.js';
import { handleApi, sendJson } from './api.js';
import { defaultUiDir, serveStatic } from './assets.js';
import { EventHub } from './events.js';
import {
  TOKEN_COOKIE,
  TOKEN_HEADER,
  allowedHosts,
  cookieValue,
  newToken,
  refusal,
  tokenCookie,
  tokenMatches,
} from './security.js';
import type { UrlAuth } from './session.js';
import type { State } from './views.js';
import { startSandbox } from './sandbox.js';
import { InspectorSession } from './session.js';
import { WireLog } from './wire-log.js';

/** Options of {@link startInspector}. Every field is optional. */
export interface InspectorOptions {
  /** The address to bind. Default 127.0.0.1. */
  host?: string;
  /** The port; 0 (the default) picks a free one. */
  port?: number;
  /** The port of the MCP Apps sandbox (another origin); 0 (the default) picks a free one. */
  sandboxPort?: number;
  /** The access token. Default: 32 random bytes, base64url. */
  token?: string;
  /** A server to connect to at start. */
  target?: Target;
  /** `auto` (the default) or a revision to pin. */
  mode?: 'auto' | ProtocolRevision;
  /** Whether the page may start stdio servers (commands). Default false. */
  allowStdio?: boolean;
  /** The folder of the built page. Default: <package root>/dist/inspector. */
  uiDir?: string;
  /** Timeout of each MCP request. Default 60 000 ms. */
  timeoutMs?: number;
  /**
   * How long a question of the server (elicitation, sampling) waits for the page before it is
   * declined (elicitation) or refused (sampling). Default: `timeoutMs`.
   */
  questionTimeoutMs?: number;
  /** Where a stdio server's stderr goes (besides the page's log). Default: nowhere. */
  stderr?: (chunk: string) => void;
  /**
   * Authorizes URL targets connected without an `Authorization` header (the command gives the
   * CLI's OAuth client: tokens of `mcpkit login`, or a sign-in in the browser). Default: none.
   */
  auth?: UrlAuth;
}

/** A running inspector. */
export interface Inspector {
  /** The page's URL with the token: `http://127.0.0.1:PORT/?token=T`. */
  readonly url: string;
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  /** The origin MCP App views are served from: the same host, another port. */
  readonly sandboxOrigin: string;
  readonly token: string;
  /** How many event streams (pages) are open. */
  eventStreams(): number;
  /**
   * Connects to `target` as POST /api/connect does (closing the connection before); resolves
   * with the State, also when the server could not be reached (then `error` says why).
   */
  connect(target: Target, mode?: 'auto' | ProtocolRevision): Promise<State>;
  /** Closes the MCP session, every event stream and the server. Idempotent. */
  close(): Promise<void>;
}

/** Starts the inspector; when `target` is given, connects to it before resolving. */
export async function startInspector(options: InspectorOptions = {}): Promise<Inspector> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? newToken();
  if (token.length < 16 || !/^[A-Za-z0-9_-]+$/.test(token)) {
    throw new TypeError('the inspector token must be at least 16 base64url characters');
  }
  const uiDir = options.uiDir ?? defaultUiDir();
  const log = new WireLog();
  const hub = new EventHub();
  const unsubscribe = log.subscribe((entry) => {
    hub.broadcast('wire', entry);
  });
  const session = new InspectorSession({
    log,
    hub,
    allowStdio: options.allowStdio === true || options.target?.kind === 'command',
    mode: options.mode ?? 'auto',
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.questionTimeoutMs === undefined
      ? {}
      : { questionTimeoutMs: options.questionTimeoutMs }),
    ...(options.stderr === undefined ? {} : { stderr: options.stderr }),
    ...(options.auth === undefined ? {} : { auth: options.auth }),
  });
  const served: Served = {
    api: { session, hub, log, sandboxPort: undefined },
    token,
    uiDir,
    hosts: new Set(),
  };
  const server = createServer((req, res) => {
    void handle(served, req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: String(error) });
      else res.destroy();
    });
  });
  await listenOn(server, host, options.port ?? 0);
  const port = (server.address() as AddressInfo).port;
  served.hosts = hostsOf(host, port);
  const sandbox = await startSandbox({
    host,
    ...(options.sandboxPort === undefined ? {} : { port: options.sandboxPort }),
    hostsFor: (p) => hostsOf(host, p),
    inspectorOrigins: () => new Set([...served.hosts].map((h) => `http://${h}`)),
  }).catch(async (error: unknown) => {
    await closeServer(server);
    throw error;
  });
  served.api.sandboxPort = sandbox.port;
  const shownHost = isWildcard(host) ? '127.0.0.1' : hostPart(host);
  const origin = `http://${shownHost}:${String(port)}`;
  if (options.target !== undefined) await session.connect(options.target, options.mode);
  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    sandboxOrigin: `http://${shownHost}:${String(sandbox.port)}`,
    token,
    eventStreams: () => hub.size,
    connect: (target, mode) => session.connect(target, mode),
    close: () =>
      (closing ??= (async () => {
        unsubscribe();
        hub.close();
        await session.close();
        await Promise.all([closeServer(server), sandbox.close()]);
      })()),
  };
}

/** What the inspector's HTTP server answers with; `hosts` is set once the port is known. */
interface Served {
  readonly api: ApiContext;
  readonly token: string;
  readonly uiDir: string | undefined;
  hosts: Set<string>;
}

/**
 * One request: refused unless its Host and Origin are the inspector's; /api/ needs the token
 * header; the page needs the token in the query (then set as a cookie) or the cookie.
 */
async function handle(served: Served, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { token } = served;
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  const refused = refusal(req, served.hosts);
  if (refused !== undefined) {
    sendJson(res, refused.status, { error: refused.error });
    return;
  }
  const url = new URL(req.url ?? '/', 'http://inspector.invalid');
  if (url.pathname.startsWith('/api/')) {
    const given = req.headers[TOKEN_HEADER];
    if (!tokenMatches(typeof given === 'string' ? given : undefined, token)) {
      sendJson(res, 401, { error: 'missing or wrong token' });
      return;
    }
    await handleApi(served.api, { req, res }, url.pathname);
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    sendJson(res, 405, { error: 'the page is read with GET' });
    return;
  }
  const queryToken = url.searchParams.get('token');
  const cookie = cookieValue(req.headers.cookie, TOKEN_COOKIE);
  const authorised =
    queryToken !== null ? tokenMatches(queryToken, token) : tokenMatches(cookie, token);
  if (!authorised) {
    sendJson(res, 401, { error: 'missing or wrong token' });
    return;
  }
  await serveStatic(res, served.uiDir, {
    pathname: url.pathname,
    headers: queryToken === null ? {} : { 'Set-Cookie': tokenCookie(token) },
  });
}

/**
 * The Host values the page may be reached by: loopback, and beyond it (an explicit --host) the
 * address bound, or for a wildcard every address of this machine's interfaces.
 */
function hostsOf(host: string, port: number): Set<string> {
  const hosts = allowedHosts(port);
  for (const name of isWildcard(host) ? interfaceAddresses() : isLoopback(host) ? [] : [host]) {
    hosts.add(`${hostPart(name)}:${String(port)}`.toLowerCase());
  }
  return hosts;
}

function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
    server.closeAllConnections();
  });
}

function listenOn(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Whether `host` is a loopback address or name. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** A host name or address as it is written in a URL (IPv6 in brackets). */
function hostPart(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** The addresses of this machine's network interfaces. */
function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) =>
    (list ?? []).map((info) => info.address.replace(/%.*$/, '')),
  );
}

function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::';
}
