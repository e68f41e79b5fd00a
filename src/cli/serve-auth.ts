// `mcpkit serve --auth-issuer`: the served endpoint as an OAuth resource server (docs/auth.md).
// The resource URL is --public-url, or the URL the server is reached at on this machine; tokens
// must be minted for it (or for --auth-audience) by the issuer, whose metadata and keys are read
// at start, within --auth-timeout (default 5 s) as every later request to it.
import { createServer } from 'node:net';
import { createJwtVerifier } from '../auth/index.js';
import type { DpopReplayStore } from '../auth/index.js';
import type { HttpAuthOptions } from '../transports/http/index.js';
import type { Connectable } from '../protocol/index.js';
import { flag, positiveInteger, text } from './args.js';
import type { CommandContext } from './command.js';
import { CliError, UsageError } from './errors.js';
import { messageOf } from '../internal/message-of.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * The port to listen on: the given one, or (auth on, port 0, no --public-url) a free one found
 * first, since the resource URL tokens are minted for must name the port.
 */
export async function portFor(
  ctx: CommandContext,
  address: { host: string; port: number },
): Promise<number> {
  const needsPort =
    text(ctx.parsed, 'auth-issuer') !== undefined &&
    address.port === 0 &&
    text(ctx.parsed, 'public-url') === undefined;
  if (!needsPort) return address.port;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, address.host, resolve);
  });
  const bound = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return typeof bound === 'object' && bound !== null ? bound.port : 0;
}

/**
 * The `auth` option of the handler, from the --auth-* flags; undefined without --auth-issuer.
 * `address.dpopReplayStore` (with --redis) remembers the DPoP proofs taken, for every process.
 * `address.suffix` (`/team`: a gateway's endpoint `/mcp/team`) is added to the resource URL.
 */
export async function authOptions(
  ctx: CommandContext,
  served: { readonly server: Connectable },
  address: AuthAddress,
): Promise<HttpAuthOptions | undefined> {
  const auth = await tokenAuth(ctx, address);
  return auth === undefined ? undefined : declaringScopes(auth, served.server);
}

/** Where a served endpoint is reached (see {@link authOptions}). */
export interface AuthAddress {
  host: string;
  port: number;
  dpopReplayStore?: DpopReplayStore;
  suffix?: string;
}

/** `auth` whose `scopesSupported` also names the scopes `server`'s tools and others declare. */
export function declaringScopes(auth: HttpAuthOptions, server: Connectable): HttpAuthOptions {
  const declared = (server as { declaredScopes?: () => string[] }).declaredScopes?.() ?? [];
  const scopes = [...new Set([...(auth.scopesSupported ?? []), ...declared])];
  return { ...auth, scopesSupported: scopes };
}

/**
 * {@link authOptions} before the served server is known: its issuer checked (metadata and keys),
 * its `scopesSupported` only the required scopes.
 */
export async function tokenAuth(
  ctx: CommandContext,
  address: AuthAddress,
): Promise<HttpAuthOptions | undefined> {
  const issuer = text(ctx.parsed, 'auth-issuer');
  const others = ['auth-audience', 'auth-scopes', 'auth-dpop', 'auth-timeout'].filter((f) =>
    f === 'auth-dpop' ? flag(ctx.parsed, f) : text(ctx.parsed, f) !== undefined,
  );
  if (issuer === undefined) {
    if (others.length > 0) throw new UsageError(`--${others[0] ?? ''} needs --auth-issuer`);
    return undefined;
  }
  const publicUrl = text(ctx.parsed, 'public-url');
  if (publicUrl === undefined && !LOOPBACK.has(address.host)) {
    throw new UsageError(
      `--auth-issuer on ${address.host} needs --public-url`,
      'give the URL clients use, as the resource tokens are minted for: --public-url https://mcp.example.com/mcp',
    );
  }
  const host = address.host.includes(':') ? `[${address.host}]` : address.host;
  const resource =
    (publicUrl ?? `http://${host}:${String(address.port)}/mcp`) + (address.suffix ?? '');
  const audience = text(ctx.parsed, 'auth-audience') ?? resource;
  const requiredScopes = (text(ctx.parsed, 'auth-scopes') ?? '')
    .split(',')
    .map((scope) => scope.trim())
    .filter(Boolean);
  const dpop = flag(ctx.parsed, 'auth-dpop') ? {} : undefined;
  const { dpopReplayStore } = address;
  const replays = dpopReplayStore === undefined ? {} : { replayStore: dpopReplayStore };
  const timeout = text(ctx.parsed, 'auth-timeout');
  const timeoutMs = timeout === undefined ? undefined : positiveInteger(timeout, '--auth-timeout');
  let verify;
  try {
    verify = createJwtVerifier({
      issuer,
      audience,
      ...(dpop === undefined ? {} : { dpop: { ...dpop, ...replays } }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
    // The metadata and the keys, each within the time limit: a hung issuer stops start-up.
    await verify.health?.();
  } catch (error) {
    throw new CliError(`cannot use ${issuer} as the authorization server: ${messageOf(error)}`, {
      hint: 'give the issuer URL exactly as its metadata names it (https, or http on loopback)',
      cause: error,
    });
  }
  return {
    resource,
    authorizationServers: [issuer],
    verify,
    requiredScopes,
    scopesSupported: requiredScopes,
    ...(dpop === undefined ? {} : { dpop }),
  };
}
