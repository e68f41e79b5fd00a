// `mcpkit gateway --http`: the gateway's endpoints on one HTTP server. `/mcp` serves every
// upstream; each endpoint of the config is `/mcp/<name>`, with its own resource URL (tokens are
// minted for it) and protected resource metadata. Identity comes from --auth-issuer (OAuth), or
// from the config's `identity.header` (a fronting proxy's headers).
import type { Gateway, GatewayConfig } from '../gateway/index.js';
import { routeEndpoints, trustedHeader } from '../gateway/index.js';
import type { McpServer } from '../server/index.js';
import type { HttpMiddleware, StreamableHttpHandler } from '../transports/http/index.js';
import { createStreamableHttpHandler } from '../transports/http/index.js';
import { text, texts } from './args.js';
import type { CommandContext } from './command.js';
import { CliError, UsageError } from './errors.js';
import { authOptions } from './serve-auth.js';
import type { SharedState } from './serve-redis.js';

/** The handler serving every endpoint of `gateway` (the default one also serves `/healthz`). */
export async function endpointsHandler(
  ctx: CommandContext,
  served: { gateway: Gateway; config: GatewayConfig; shared: SharedState | undefined },
  address: { host: string; port: number },
): Promise<StreamableHttpHandler> {
  const { gateway, config, shared } = served;
  // With --redis, every process shares sessions and streams.
  const stores = {
    ...(shared?.http.sessionStore === undefined ? {} : { sessionStore: shared.http.sessionStore }),
    ...(shared?.http.eventStore === undefined ? {} : { eventStore: shared.http.eventStore }),
  };
  const allowedHosts = texts(ctx.parsed, 'allowed-host');
  const identity = identityMiddleware(ctx, config);
  const make = async (server: McpServer, path: string, health?: { check: () => unknown }) => {
    const suffix = path.slice('/mcp'.length);
    const auth = await authOptions(ctx, { server }, { ...address, suffix });
    return createStreamableHttpHandler(() => server, {
      path,
      ...(allowedHosts.length === 0 ? {} : { allowedHosts }),
      ...(auth === undefined ? {} : { auth }),
      ...(identity === undefined ? {} : { middleware: [identity] }),
      ...(health === undefined ? {} : { health }),
      ...stores,
    });
  };
  const fallback = await make(gateway.server, '/mcp', {
    check: () => {
      const status = gateway.status();
      if (!status.upstreams.some((upstream) => upstream.state === 'ready')) {
        throw new Error('no upstream server is connected');
      }
      return {
        upstreams: status.upstreams.map(({ name, state, latencyMs }) => ({
          name,
          state,
          latencyMs,
        })),
      };
    },
  });
  const named: StreamableHttpHandler[] = [];
  for (const [name, endpoint] of gateway.endpoints) {
    named.push(await make(endpoint.server, `/mcp/${name}`));
  }
  return named.length === 0 ? fallback : routeEndpoints(fallback, named);
}

/** The trusted-header middleware of the config's `identity.header`; undefined without one. */
function identityMiddleware(
  ctx: CommandContext,
  config: GatewayConfig,
): HttpMiddleware | undefined {
  const header = config.identity?.header;
  if (header === undefined) return undefined;
  if (text(ctx.parsed, 'auth-issuer') !== undefined) {
    throw new UsageError(
      'choose one of --auth-issuer and the config\'s "identity.header"',
      'a fronting proxy that authenticates sets the headers; otherwise the gateway checks tokens',
    );
  }
  const { secretEnv, ...headers } = header;
  let secret: string | undefined;
  if (secretEnv !== undefined) {
    secret = ctx.io.env[secretEnv];
    if (secret === undefined || secret === '') {
      throw new CliError(
        `the environment variable ${secretEnv} (identity.header.secretEnv) is not set`,
      );
    }
  }
  return trustedHeader({ ...headers, ...(secret === undefined ? {} : { secret }) });
}
