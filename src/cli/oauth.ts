// Authorization for URL targets: when a server answers 401, the CLI runs the OAuth flow of
// mcpkit/client with a loopback redirect (127.0.0.1, a random port, the client's `state`), opens
// the system browser (or prints the URL with --no-browser; $BROWSER names another program) and
// keeps tokens per server URL in the user's config folder, in a file only the user can read.
// --trace prints the OAuth HTTP exchanges with every secret and token masked.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import type { OAuthClient, OAuthClientInformation, OAuthProvider } from '../client/index.js';
import { createOAuthClient, fileStore } from '../client/index.js';
import { BodyTooLargeError, describeBytes, readBodyCapped } from '../internal/body.js';
import type { CommonOptions } from './args.js';
import { UsageError } from './errors.js';
import type { Io } from './io.js';
import type { Style } from './output.js';

/** Where the CLI keeps its state: $MCPKIT_CONFIG_DIR, else XDG (Linux), APPDATA, ~/.config. */
export function configDir(env: Io['env']): string {
  const own = env['MCPKIT_CONFIG_DIR'];
  if (own !== undefined && own !== '') return own;
  const xdg = env['XDG_CONFIG_HOME'];
  if (xdg !== undefined && xdg !== '') return join(xdg, 'mcpkit');
  const appData = env['APPDATA'];
  if (process.platform === 'win32' && appData !== undefined) return join(appData, 'mcpkit');
  return join(homedir(), '.config', 'mcpkit');
}

/** The file holding the registrations and tokens of the server at `url`. */
export function tokenFile(env: Io['env'], url: string): string {
  const id = createHash('sha256').update(new URL(url).href).digest('hex').slice(0, 24);
  return join(configDir(env), 'oauth', `${id}.json`);
}

/** The OAuth client of a URL target. */
export function cliOAuth(
  url: string,
  context: { io: Io; style: Style; common: CommonOptions },
): OAuthClient {
  const { io, style, common } = context;
  const auth = common.auth;
  const secret = auth.clientSecret ?? io.env['MCPKIT_CLIENT_SECRET'];
  if (
    auth.grant === 'client_credentials' &&
    (auth.clientId === undefined || secret === undefined)
  ) {
    throw new UsageError(
      '--grant client_credentials needs --client-id and a secret',
      'give --client-secret or set MCPKIT_CLIENT_SECRET',
    );
  }
  const client: OAuthClientInformation | undefined =
    auth.clientId === undefined
      ? undefined
      : { client_id: auth.clientId, ...(secret === undefined ? {} : { client_secret: secret }) };
  return createOAuthClient({
    serverUrl: url,
    store: fileStore(tokenFile(io.env, url)),
    provider: loopbackProvider({ io, style, browser: auth.browser }),
    clientMetadata: { client_name: 'mcpkit CLI' },
    ...(client === undefined ? {} : { client }),
    ...(auth.grant === 'client_credentials' ? { grant: { type: 'client_credentials' } } : {}),
    ...(auth.scope === undefined ? {} : { scope: auth.scope }),
    ...(common.trace ? { fetch: tracedFetch(io, style) } : {}),
    // --timeout bounds each OAuth request too (default: the OAuth client's 30 s).
    ...(common.timeoutMs === undefined ? {} : { timeoutMs: common.timeoutMs }),
  });
}

/**
 * True when the token file at `file` holds tokens for `url` that need no sign-in: unexpired,
 * or with a refresh token. Never throws (an unreadable file holds none).
 */
export function storedTokensUsable(file: string, url: string): boolean {
  let all: unknown;
  try {
    all = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
  if (typeof all !== 'object' || all === null) return false;
  const tokens = (all as Record<string, unknown>)[`tokens ${new URL(url).href}`];
  if (typeof tokens !== 'object' || tokens === null) return false;
  const { refresh_token: refresh, expires_at: expires } = tokens as Record<string, unknown>;
  return typeof refresh === 'string' || typeof expires !== 'number' || expires > Date.now();
}

/**
 * The user's side of the authorization code grant: a one-shot listener on 127.0.0.1 for the
 * redirect (RFC 8252 section 7.3), and the browser (or the printed URL) for the sign-in.
 */
export function loopbackProvider(options: {
  io: Io;
  style: Style;
  browser: boolean;
}): OAuthProvider {
  const { io, style } = options;
  let listener: Promise<Listener> | undefined;
  return {
    async redirectUri(registered) {
      listener ??= listen(registeredPort(registered));
      return (await listener).uri;
    },
    async authorize(url, signal) {
      listener ??= listen();
      const open = await listener;
      io.stderr.write(`${style.bold('Sign in')} to authorize mcpkit: ${url.href}\n`);
      if (options.browser) openBrowser(url.href, io);
      else io.stderr.write(`${style.dim('(--no-browser: open the URL above yourself)')}\n`);
      try {
        return await open.next(signal);
      } finally {
        listener = undefined;
        open.close();
      }
    },
  };
}

interface Listener {
  readonly uri: string;
  /** The next redirect to the callback path. */
  next(signal: AbortSignal): Promise<URL>;
  close(): void;
}

const CALLBACK_PATH = '/callback';

/** The port of a registered 127.0.0.1 callback URI, to reuse that registration; else 0. */
function registeredPort(registered: readonly string[] | undefined): number {
  for (const uri of registered ?? []) {
    const match = /^http:\/\/127\.0\.0\.1:(\d+)\/callback$/.exec(uri);
    if (match !== null) return Number(match[1]);
  }
  return 0;
}

/** Listens on `port` of 127.0.0.1 (a random one when it is 0 or taken). */
async function listen(port = 0): Promise<Listener> {
  if (port === 0) return listenOn(0);
  return listenOn(port).catch(() => listenOn(0));
}

function listenOn(port: number): Promise<Listener> {
  let deliver: ((url: URL) => void) | undefined;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const host = request.headers.host ?? '';
    if (url.pathname !== CALLBACK_PATH || !/^127\.0\.0\.1(:\d+)?$/.test(host)) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    const failed = url.searchParams.has('error');
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(
        `<!doctype html><meta charset="utf-8"><title>mcpkit</title><p>${
          failed ? 'Authorization was not granted.' : 'Signed in.'
        } You can close this tab and return to the terminal.</p>\n`,
      );
    deliver?.(new URL(`${CALLBACK_PATH}${url.search}`, uriOf(server)));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    // Not unref'd: while the user signs in, the listener is all that keeps `mcpkit login` alive.
    server.listen(port, '127.0.0.1', () => {
      resolve({
        uri: `${uriOf(server)}${CALLBACK_PATH}`,
        next: (signal) =>
          new Promise<URL>((done, fail) => {
            const onAbort = (): void => {
              fail(new Error('no sign-in arrived in time (the browser step was not completed)'));
            };
            if (signal.aborted) onAbort();
            signal.addEventListener('abort', onAbort, { once: true });
            deliver = (url) => {
              signal.removeEventListener('abort', onAbort);
              done(url);
            };
          }),
        close: () => {
          server.close();
          server.closeAllConnections();
        },
      });
    });
  });
}

function uriOf(server: ReturnType<typeof createServer>): string {
  return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
}

/** Opens `url` in $BROWSER or the system's browser; a failure only leaves the printed URL. */
function openBrowser(url: string, io: Io): void {
  const chosen = io.env['BROWSER'];
  // $BROWSER is a program, or a program and its arguments ("node open.mjs").
  const words = chosen === undefined || existsSync(chosen) ? [] : chosen.trim().split(/\s+/);
  const [command, args]: [string, string[]] =
    chosen !== undefined && chosen !== ''
      ? [words[0] ?? chosen, [...words.slice(1), url]]
      : process.platform === 'darwin'
        ? ['open', [url]]
        : process.platform === 'win32'
          ? ['cmd', ['/c', 'start', '""', url]]
          : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // The URL is printed; the user can open it.
  }
}

/** Names whose values are credentials: masked in traces. */
const SECRET_WORDS =
  'access_token|refresh_token|id_token|client_secret|registration_access_token|code|code_verifier|device_code|assertion|client_assertion|subject_token|actor_token|authorization|dpop|password';
const SECRET_NAMES = new RegExp(`^(?:${SECRET_WORDS})$`, 'i');
/** The same names in text that does not parse (neither JSON nor a form): `name: value` pairs. */
const SECRET_PAIRS = new RegExp(`("?\\b(?:${SECRET_WORDS})"?\\s*[:=]\\s*"?)([^"&,\\s}]+)`, 'gi');

/** Masks the credentials in a form or JSON body. */
export function maskSecrets(text: string): string {
  try {
    const value: unknown = JSON.parse(text);
    return JSON.stringify(value, (name, field: unknown) =>
      SECRET_NAMES.test(name) && typeof field === 'string' ? '***' : field,
    );
  } catch {
    // Not JSON: a form body, or plain text.
  }
  if (/^[\w.~%+-]+=[^&]*(&[\w.~%+-]+=[^&]*)*$/.test(text)) {
    const form = new URLSearchParams(text);
    for (const [name] of form) if (SECRET_NAMES.test(name)) form.set(name, '***');
    return decodeURIComponent(form.toString().replace(/\+/g, ' ').replace(/%2A/g, '*'));
  }
  return text.replace(SECRET_PAIRS, '$1***');
}

function maskUrl(url: string): string {
  const parsed = new URL(url);
  for (const [name] of parsed.searchParams) {
    if (SECRET_NAMES.test(name)) parsed.searchParams.set(name, '***');
  }
  return parsed.href;
}

/** The most of an answer --trace reads to mask and show (the OAuth client's own cap). */
const TRACED_BYTES = 1024 * 1024;

/** A fetch that writes each OAuth exchange to stderr, masked. */
function tracedFetch(io: Io, style: Style): (url: string, init: RequestInit) => Promise<Response> {
  return async (url, init) => {
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? ` ${maskSecrets(init.body)}` : '';
    const headers = new Headers(init.headers);
    const auth = headers.has('authorization') ? ' [authorization: ***]' : '';
    io.stderr.write(
      `${style.dim('trace')} oauth ${style.cyan('>>')} ${method} ${maskUrl(url)}${auth}${body}\n`,
    );
    const response = await fetch(url, init);
    // Read here (no further than the OAuth client reads an answer) and handed on as read.
    let text: string | undefined;
    let failure: unknown;
    try {
      text = await readBodyCapped(response, TRACED_BYTES);
    } catch (error) {
      failure = error;
    }
    // Masked whole, then cut: a cut body no longer parses.
    const masked = text === undefined ? '' : maskSecrets(text);
    const shown =
      failure instanceof BodyTooLargeError
        ? `[larger than ${describeBytes(TRACED_BYTES)}, not shown]`
        : masked.length > 2000
          ? `${masked.slice(0, 2000)}…`
          : masked;
    io.stderr.write(
      `${style.dim('trace')} oauth ${style.green('<<')} ${String(response.status)} ${maskUrl(url)} ${shown}\n`,
    );
    return answered(response, text, failure);
  };
}

/** `response` with `text` as its body, or a body that fails as reading it did. */
function answered(response: Response, text: string | undefined, failure: unknown): Response {
  const init = {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  };
  if (NULL_BODY_STATUSES.has(response.status)) return new Response(null, init);
  if (text !== undefined) return new Response(text, init);
  const failed = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.error(failure);
    },
  });
  return new Response(failed, init);
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
