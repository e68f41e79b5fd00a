// `mcpkit gateway --http`: the gateway's endpoints on one HTTP server. `/mcp` serves every
// upstream; each endpoint of the config is `/mcp/<name>`, with its own resource URL (tokens are
// minted for it) and protected resource metadata. Identity comes from --auth-issuer (OAuth), or
// from the config's `identity.header` (a fronting proxy's headers). A reload routes the endpoints
// it adds, closes those it removes and swaps the trusted headers, each from the next request on.
import type { Gateway, GatewayConfig, ReloadSummary } from '../gateway/index.js';
import { routeEndpoints, trustedHeader } from '../gateway/index.js';
import type { McpServer } from '../server/index.js';
import type {
  HttpAuthOptions,
  HttpMiddleware,
  StreamableHttpHandler,
} from '../transports/http/index.js';
import { createStreamableHttpHandler } from '../transports/http/index.js';
import { text, texts } from './args.js';
import type { CommandContext } from './command.js';
import { CliError, UsageError } from './errors.js';
import { declaringScopes, tokenAuth } from './serve-auth.js';
import type { SharedState } from './serve-redis.js';

/** How long the requests in flight on an endpoint a reload removes may take to finish. */
const REMOVED_GRACE_MS = 5_000;

/** The gateway's HTTP face: one handler for every endpoint, which a reload changes. */
export interface GatewayHttp {
  readonly handler: StreamableHttpHandler;
  /**
   * Gets ready to serve `config`: the trusted headers it names, the resource URL and metadata
   * of each endpoint it adds. Throws, nothing changed, when it cannot (the reload is refused).
   */
  prepare(config: GatewayConfig): Promise<HttpChange>;
}

/** What {@link GatewayHttp.prepare} made ready, taken at the gateway's swap. */
export interface HttpChange {
  /**
   * Takes the trusted headers and routes the endpoints added, from the next request on, and
   * closes the handlers of those removed (resolves once closed). Synchronous up to its promise.
   */
  commit(summary: ReloadSummary): Promise<void>;
}

/** The handler serving every endpoint of `gateway` (the default one also serves `/healthz`). */
export async function gatewayHttp(
  ctx: CommandContext,
  served: { gateway: Gateway; config: GatewayConfig; shared: SharedState | undefined },
  address: { host: string; port: number },
): Promise<GatewayHttp> {
  const { gateway, config, shared } = served;
  // With --redis, every process shares sessions and streams.
  const stores = {
    ...(shared?.http.sessionStore === undefined ? {} : { sessionStore: shared.http.sessionStore }),
    ...(shared?.http.eventStore === undefined ? {} : { eventStore: shared.http.eventStore }),
  };
  const allowedHosts = texts(ctx.parsed, 'allowed-host');
  // The trusted headers in force, read per request (a reload swaps them); with --auth-issuer
  // there are none, ever: the two exclude each other.
  let identity = identityMiddleware(ctx, config);
  const tokens = text(ctx.parsed, 'auth-issuer') !== undefined;
  const trusted: HttpMiddleware = (exchange, answer, next) => {
    if (identity === undefined) next(exchange, answer);
    else identity(exchange, answer, next);
  };
  const authOf = (path: string) =>
    tokenAuth(ctx, { ...address, suffix: path.slice('/mcp'.length) });
  const make = (
    server: McpServer,
    path: string,
    own: { auth: HttpAuthOptions | undefined; health?: { check: () => unknown } },
  ) =>
    createStreamableHttpHandler(() => server, {
      path,
      ...(allowedHosts.length === 0 ? {} : { allowedHosts }),
      ...(own.auth === undefined ? {} : { auth: declaringScopes(own.auth, server) }),
      ...(tokens ? {} : { middleware: [trusted] }),
      ...(own.health === undefined ? {} : { health: own.health }),
      ...stores,
    });
  const fallback = make(gateway.server, '/mcp', {
    auth: await authOf('/mcp'),
    health: { check: () => healthOf(gateway) },
  });
  const named: StreamableHttpHandler[] = [];
  for (const [name, endpoint] of gateway.endpoints) {
    const path = `/mcp/${name}`;
    named.push(make(endpoint.server, path, { auth: await authOf(path) }));
  }
  const routes = routeEndpoints(fallback, named);
  return {
    handler: routes,
    async prepare(next) {
      const nextIdentity = identityMiddleware(ctx, next);
      const auths = new Map<string, HttpAuthOptions | undefined>();
      for (const name of Object.keys(next.endpoints ?? {})) {
        if (!gateway.endpoints.has(name)) auths.set(name, await authOf(`/mcp/${name}`));
      }
      return {
        commit(summary) {
          identity = nextIdentity;
          for (const name of summary.endpoints?.added ?? []) {
            const endpoint = gateway.endpoints.get(name);
            const auth = auths.get(name);
            // Never served without the token check its siblings have.
            if (endpoint === undefined || (tokens && auth === undefined)) continue;
            routes.add(make(endpoint.server, `/mcp/${name}`, { auth }));
          }
          const removed = summary.endpoints?.removed ?? [];
          return Promise.all(
            removed.map((name) => routes.remove(`/mcp/${name}`, { graceMs: REMOVED_GRACE_MS })),
          ).then(() => undefined);
        },
      };
    },
  };
}

/** What `/healthz` says: each upstream's state; throws while none is connected. */
function healthOf(gateway: Gateway) {
  const status = gateway.status();
  if (!status.upstreams.some((upstream) => upstream.state === 'ready')) {
    throw new Error('no upstream server is connected');
  }
  return {
    upstreams: status.upstreams.map(({ name, state, latencyMs }) => ({ name, state, latencyMs })),
  };
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
