// The sandbox origin of MCP Apps: a second listener beside the inspector's, on another port, so
// another origin (the spec's "Host and Sandbox MUST have different origins"). It serves the proxy
// page (sandbox-page.ts) and the views it is handed, each with its CSP as an HTTP header (built
// by mcpkit/apps' csp.ts). It has no API, no token, and takes no request from the inspector's origin but
// the framing of the proxy page: what runs here cannot reach the inspector.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildCsp, checkCsp } from '../../ext/apps/index.js';
import { proxyPage } from './sandbox-page.js';

/** The largest view (its HTML, with its CSP, as JSON) the proxy may hand over. */
export const MAX_VIEW_BYTES: number = 8 * 1024 * 1024;

/** How many views are kept at once (the oldest goes), and for how long. */
const MAX_VIEWS = 32;
const VIEW_TTL_MS = 10 * 60_000;

/** A running sandbox listener. */
export interface Sandbox {
  readonly port: number;
  /** Closes the listener. Idempotent. */
  close(): Promise<void>;
}

/** What the listener needs to know of the inspector. */
export interface SandboxOptions {
  /** The address to bind (the inspector's). */
  host: string;
  /** The port; 0 (the default) picks a free one. */
  port?: number;
  /** The Host values accepted on a port (the inspector's rule: loopback names, --host). */
  hostsFor: (port: number) => Set<string>;
  /** The origins of the inspector's page: the only ones that may frame the proxy. */
  inspectorOrigins: () => ReadonlySet<string>;
}

interface View {
  html: string;
  csp: string;
  expires: number;
}

/** Starts the sandbox listener. */
export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  const views = new Map<string, View>();
  let hosts = new Set<string>();
  const server = createServer((req, res) => {
    void route({ req, res, hosts, views, inspectorOrigins: options.inspectorOrigins }).catch(() => {
      if (!res.headersSent) text(res, 500, 'sandbox error');
      else res.destroy();
    });
  });
  await listenOn(server, options.host, options.port ?? 0);
  const port = (server.address() as AddressInfo).port;
  hosts = options.hostsFor(port);
  let closing: Promise<void> | undefined;
  return {
    port,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      })),
  };
}

interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  hosts: ReadonlySet<string>;
  views: Map<string, View>;
  inspectorOrigins: () => ReadonlySet<string>;
}

/** One request: the proxy page, a view handed over by it, or a view's document. */
async function route(x: Exchange): Promise<void> {
  const { req, res } = x;
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'no-store');
  const host = req.headers.host?.toLowerCase();
  if (host === undefined || !x.hosts.has(host)) {
    text(res, 403, 'host not allowed');
    return;
  }
  const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
  if (req.method === 'GET' && url.pathname === '/proxy') {
    serveProxy(x, url.searchParams.get('host'));
    return;
  }
  if (req.method === 'POST' && url.pathname === '/view') {
    await takeView(x, `http://${host}`);
    return;
  }
  const id = /^\/view\/([A-Za-z0-9_-]{22})$/.exec(url.pathname)?.[1];
  if (req.method === 'GET' && id !== undefined) {
    serveView(x, id);
    return;
  }
  text(res, 404, 'not found');
}

/** The proxy page, framable by the inspector's page only; `host` is that page's origin. */
function serveProxy(x: Exchange, host: string | null): void {
  const origins = x.inspectorOrigins();
  if (host === null || !origins.has(host)) {
    text(x.res, 400, 'the proxy is for the inspector page only');
    return;
  }
  const nonce = randomBytes(16).toString('base64');
  x.res.writeHead(200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy':
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; ` +
      `connect-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'none'; ` +
      `frame-ancestors ${host}`,
  });
  x.res.end(proxyPage(host, nonce));
}

/**
 * Keeps a view the proxy page hands over (JSON `{html, csp, permissions}`, posted from this
 * origin only) and answers its address. The CSP is built here, from the declared `csp`.
 */
async function takeView(x: Exchange, ownOrigin: string): Promise<void> {
  const { req, res } = x;
  if (req.headers.origin !== ownOrigin) {
    text(res, 403, 'views are handed over by the proxy page only');
    return;
  }
  if (!/^application\/json\s*(?:;|$)/i.test(req.headers['content-type'] ?? '')) {
    text(res, 415, 'send JSON');
    return;
  }
  const body = await readLimited(req, MAX_VIEW_BYTES);
  if (body === undefined) {
    text(res, 413, 'the view is too large');
    return;
  }
  let parsed: { html?: unknown; csp?: unknown };
  try {
    parsed = JSON.parse(body) as { html?: unknown; csp?: unknown };
  } catch {
    text(res, 400, 'bad JSON');
    return;
  }
  if (typeof parsed.html !== 'string') {
    text(res, 400, 'no html');
    return;
  }
  const now = Date.now();
  for (const [key, view] of x.views) if (view.expires < now) x.views.delete(key);
  while (x.views.size >= MAX_VIEWS) x.views.delete(x.views.keys().next().value as string);
  const id = randomBytes(16).toString('base64url');
  const csp = buildCsp(checkCsp(parsed.csp).csp);
  x.views.set(id, { html: parsed.html, csp, expires: now + VIEW_TTL_MS });
  const answer = JSON.stringify({ url: `/view/${id}` });
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(answer);
}

/**
 * A view's document, with its CSP as a header (a header rules from the first byte and cannot be
 * dropped by the document; a meta tag would). A second policy says who may frame it.
 */
function serveView(x: Exchange, id: string): void {
  const view = x.views.get(id);
  if (view === undefined || view.expires < Date.now()) {
    text(x.res, 404, 'no such view');
    return;
  }
  const host = x.req.headers.host ?? '';
  const ancestors = [`http://${host}`, ...x.inspectorOrigins()].join(' ');
  x.res.writeHead(200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': [view.csp, `frame-ancestors ${ancestors}`],
  });
  x.res.end(view.html);
}

/** The body as text, or undefined past `limit` bytes (the rest is drained unread). */
function readLimited(req: IncomingMessage, limit: number): Promise<string | undefined> {
  if (Number(req.headers['content-length'] ?? 0) > limit) {
    req.resume();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      req.resume();
      resolve(undefined);
    };
    req.on('data', onData);
    req.once('end', () => {
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.once('error', reject);
  });
}

function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(`${body}\n`);
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
