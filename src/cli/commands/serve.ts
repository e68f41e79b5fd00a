// mcpkit serve: runs a reference server (or a module's McpServer) over stdio, the default, or
// Streamable HTTP. In stdio mode stdout carries only protocol messages, so everything this
// command says goes to stderr. SIGINT and SIGTERM close every session and exit cleanly.
import { resolve } from 'node:path';
import process from 'node:process';
// The node:http face is its own public entry (mcpkit/transports/http/node), keeping the
// transports/http index runtime-neutral.
import { listen } from '../../transports/http/node.js';
import { createStdioServerTransport } from '../../transports/stdio/index.js';
import { flag, text, texts } from '../args.js';
import type { CommandContext } from '../command.js';
import { noMoreArguments, runCommand } from '../command.js';
import { UsageError } from '../errors.js';
import {
  DEFAULT_PORT,
  listenError,
  parseAddress,
  untilStopped,
  watchClose,
  withHttpDefault,
} from '../serving.js';
import type { Io } from '../io.js';
import type { Served } from '../reference-servers.js';
import { SERVER_NAMES, loadServer } from '../reference-servers.js';
import { authOptions, portFor } from '../serve-auth.js';
import type { SharedState } from '../serve-redis.js';
import { sharedState } from '../serve-redis.js';
import { METRICS_FLAG_HELP, OTEL_FLAG_HELP, metricsAddress, startTelemetry } from '../otel.js';

/** How long requests in flight may take to finish on SIGTERM, with --redis. */
const GRACE_MS = 10_000;

/** The default HTTP port (`mcpkit serve demo --http` serves http://127.0.0.1:3000/mcp). */

/** The --help text. */
export const help: string = `Usage: mcpkit serve <server> [--stdio | --http [host:]port] [flags]

Runs a server: one of the reference servers by name, or the path of a module that exports
an McpServer (as default or as \`server\`; a function returning one works too, and is given
{ server, tasks }, the McpServer and tasks() options of --state-secret and --redis). A
TypeScript module (.ts) runs through tsx when it is installed beside mcpkit (Node 20 cannot
run TypeScript itself). While writing one, mcpkit dev serves it and reloads it on every change.

  pingme      one tool, PingME: is the connection alive?
  everything  every MCP feature, one tool each, plus resources, prompts and completions
  sql         a read-only SQL gateway: an embedded shop database, or PostgreSQL or
              MySQL/MariaDB when DATABASE_URL is set (postgres://, mysql://, mariadb://)
  utilix      check_ssl_certificate, format_json, validate_email; UTILIX_ALLOW and
              UTILIX_DENY (addresses, CIDR ranges, "private") limit where it connects;
              --http beyond loopback denies private ranges unless UTILIX_DENY is set
  demo        the tools, resources and prompts of all of them on one endpoint
  openapi     mcpkit serve openapi <file|url>: a REST API's operations as tools
              (mcpkit serve openapi --help)

By default the server speaks stdio (for hosts that spawn it); stdout then carries nothing
but protocol messages. With --http it serves Streamable HTTP on 127.0.0.1 (port
${String(DEFAULT_PORT)} unless given) and prints the endpoint URL on stderr. Every revision is
served from one endpoint. GET /healthz answers 200 while the server (and Redis) is up.
SIGINT or SIGTERM closes every session and exits.

Several processes behind a load balancer (round-robin, no sticky sessions needed) act as one
server when each is started with the same --redis and --state-secret: legacy sessions, resumable
streams and tasks live in Redis, and 2026-07-28 requestState sealed by one opens on any other.
Such a process stops gracefully: requests in flight get 10 s, streams end with a retry hint.

Flags:
  --stdio                   serve over stdin/stdout (the default)
  --http [host:]port        serve Streamable HTTP (port 0 picks a free one)
  --allowed-host <name>     a Host header to accept when binding beyond loopback (repeatable)
  --legacy-sse              also serve the deprecated HTTP+SSE transport (/sse, /messages)
  --allow-privileged-login  sql: serve even on a login that can escape read-only (PostgreSQL:
                            a superuser, pg_execute_server_program, …; MySQL: more than
                            SELECT/SHOW VIEW, e.g. FILE or writes; refused by default)
  --auth-issuer <url>       HTTP: require access tokens from this authorization server (an
                            OAuth resource server: metadata, 401/403 challenges; docs/auth.md)
  --public-url <url>        the URL clients use (behind a proxy): the resource tokens are for
  --auth-audience <url>     the audience tokens must name (default: the resource URL)
  --auth-scopes <s1,s2>     scopes every request needs
  --auth-dpop               also take DPoP-bound tokens with their proofs (RFC 9449)
  --auth-timeout <ms>       how long the authorization server may take to answer (default
                            5000); past it start-up fails, a request gets 503
  --redis <url>             HTTP: share sessions, streams and tasks through Redis (needs the
                            package redis; env MCPKIT_REDIS_URL); needs --state-secret
  --redis-prefix <text>     the prefix of every Redis key (default mcpkit): one per deployment
  --redis-timeout <ms>      how long a Redis command may wait for its answer (default 2000);
                            past it the request that needed it answers 503
  --state-secret <secret>   seals 2026-07-28 requestState; the same on every process, at least
                            32 characters (env MCPKIT_STATE_SECRET). To rotate, name the keys:
                            --state-secret k2:<new> --state-secret k1:<old> (the first seals)
${OTEL_FLAG_HELP}
${METRICS_FLAG_HELP}
  -q, --quiet               say nothing on stderr (but the URL, with --http)
  --debug                   print stack traces, also of errors a server reports (MCPKIT_DEBUG=1)

Examples:
  mcpkit serve pingme                           (stdio, for a host's config)
  mcpkit serve everything --http                (http://127.0.0.1:${String(DEFAULT_PORT)}/mcp)
  mcpkit serve demo --http 8080
  DATABASE_URL=postgres://localhost/shop mcpkit serve sql --http 0.0.0.0:3000 --allowed-host db.example.com
  mcpkit serve ./dist/my-server.js --http 0
  UTILIX_DENY=private mcpkit serve utilix
  MCPKIT_STATE_SECRET=replace-with-32-or-more-random-chars mcpkit serve everything --http 127.0.0.1:3001 --redis redis://127.0.0.1:6379  (one of several)

In a Claude-Desktop-style config (hosts start servers elsewhere: give absolute paths):
  {"mcpServers": {"everything": {"command": "node",
    "args": [${JSON.stringify(cliPath())}, "serve", "everything"]}}}
Once mcpkit is published: {"command": "npx", "args": ["-y", "mcpkit", "serve", "everything"]}`;

/** The absolute path of the CLI that is running, for a host's config. */
function cliPath(): string {
  const script = process.argv[1];
  return script === undefined || script === ''
    ? '<mcpkit>/dist/esm/src/cli/main.js'
    : resolve(script);
}

const OPTIONS = {
  http: { type: 'string' },
  stdio: { type: 'boolean' },
  'allowed-host': { type: 'string', multiple: true },
  'legacy-sse': { type: 'boolean' },
  'allow-privileged-login': { type: 'boolean' },
  'auth-issuer': { type: 'string' },
  'auth-audience': { type: 'string' },
  'auth-scopes': { type: 'string' },
  'public-url': { type: 'string' },
  'auth-dpop': { type: 'boolean' },
  'auth-timeout': { type: 'string' },
  redis: { type: 'string' },
  'redis-prefix': { type: 'string' },
  'redis-timeout': { type: 'string' },
  'state-secret': { type: 'string', multiple: true },
  otel: { type: 'boolean' },
  metrics: { type: 'string' },
} as const;

/** Runs `mcpkit serve`; resolves once the server has shut down. */
export function run(args: readonly string[], io: Io): Promise<number> {
  // `mcpkit serve openapi <document>`: a REST API as tools, with flags of its own.
  if (args[0] === 'openapi') {
    return import('../openapi/serve-openapi.js').then((command) => command.run(args.slice(1), io));
  }
  return runCommand(
    { name: 'serve', options: OPTIONS, help },
    { args: withHttpDefault(args), io },
    async (ctx) => {
      const [name, ...extra] = ctx.parsed.positionals;
      if (name === undefined) {
        throw new UsageError(
          'which server?',
          `serve one of ${SERVER_NAMES.join(', ')}, or a module path`,
        );
      }
      noMoreArguments(extra);
      const http = text(ctx.parsed, 'http');
      if (http !== undefined && flag(ctx.parsed, 'stdio')) {
        throw new UsageError('choose one of --stdio and --http');
      }
      const address = http === undefined ? undefined : parseAddress(http);
      // A server's default onError then prints an error's stack, a module's own McpServer too.
      if (ctx.common.debug) process.env['MCPKIT_DEBUG'] = '1';
      const metrics = text(ctx.parsed, 'metrics');
      const metricsAt = metrics === undefined ? undefined : metricsAddress(metrics);
      const asked = { otel: flag(ctx.parsed, 'otel'), metrics: metricsAt };
      const telemetry = await startTelemetry(asked, 'mcpkit-serve', io.env);
      if (metricsAt !== undefined) {
        say(
          ctx,
          `mcpkit serve: metrics at http://${metricsAt.host}:${String(metricsAt.port)}/metrics`,
        );
      }
      const shared = await sharedState(ctx, address !== undefined);
      try {
        const served = await loadServer(name, {
          env: io.env,
          cwd: process.cwd(),
          allowPrivilegedLogin: flag(ctx.parsed, 'allow-privileged-login'),
          warn: (message) => io.stderr.write(`${message}\n`),
          server: shared.server,
          tasks: telemetry?.tasks(shared.tasks) ?? shared.tasks,
          httpHost: address?.host,
        });
        if (telemetry?.instrument(served.server) === false) {
          say(ctx, `mcpkit serve: ${name} is not an McpServer, --otel cannot trace it`);
        }
        if (
          !(SERVER_NAMES as readonly string[]).includes(name) &&
          served.tookOptions !== true &&
          shared.describe !== undefined
        ) {
          say(
            ctx,
            `mcpkit serve: ${name} exports an McpServer it made itself, so the state secret and the Redis task store cannot reach it: export a factory instead, (options) => new McpServer(info, options.server).extend(tasks(options.tasks)); sessions and streams are shared here`,
          );
        }
        try {
          if (address === undefined) await serveStdio(ctx, served);
          else await serveHttp(ctx, served, { address, shared });
        } finally {
          await served.close();
        }
      } finally {
        await shared.close();
        await telemetry?.shutdown();
      }
      return 0;
    },
  );
}

function say(ctx: CommandContext, line: string): void {
  if (!ctx.common.quiet) ctx.io.stderr.write(`${ctx.style.dim(line)}\n`);
}

async function serveStdio(ctx: CommandContext, served: Served): Promise<void> {
  const { transport, closed } = watchClose(createStdioServerTransport());
  await served.server.connect(transport);
  say(ctx, `mcpkit serve: ${served.name} is serving on stdio`);
  const reason = await untilStopped(closed);
  say(ctx, `mcpkit serve: ${served.name} stopped (${reason})`);
}

async function serveHttp(
  ctx: CommandContext,
  served: Served,
  { address, shared }: { address: { host: string; port: number }; shared: SharedState },
): Promise<void> {
  const allowedHosts = texts(ctx.parsed, 'allowed-host');
  let listening;
  try {
    const port = await portFor(ctx, address);
    const auth = await authOptions(ctx, served, {
      host: address.host,
      port,
      ...shared.auth,
    });
    listening = await listen(() => served.server, {
      host: address.host,
      port,
      ...(allowedHosts.length === 0 ? {} : { allowedHosts }),
      ...(flag(ctx.parsed, 'legacy-sse') ? { enableLegacySse: true } : {}),
      ...(auth === undefined ? {} : { auth }),
      ...shared.http,
      health: shared.http.health ?? true,
    });
  } catch (error) {
    throw listenError(error, address);
  }
  ctx.io.stderr.write(
    ctx.common.quiet
      ? `${listening.url}\n`
      : `mcpkit serve: ${served.name} is serving at ${listening.url}\n`,
  );
  if (shared.describe !== undefined)
    say(ctx, `mcpkit serve: sharing state through ${shared.describe}`);
  const reason = await untilStopped();
  say(ctx, `mcpkit serve: ${served.name} stopping (${reason})`);
  // Behind a balancer with Redis, stop gracefully: new requests get 503 (the balancer moves on),
  // GET streams end with a retry hint (clients resume on another process), and requests in
  // flight get GRACE_MS to finish.
  await listening.close(shared.describe === undefined ? undefined : { graceMs: GRACE_MS });
}
