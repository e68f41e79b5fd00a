// mcpkit gateway: many MCP servers behind one endpoint (src/gateway). Upstreams come from an
// mcpServers config; the gateway serves them over stdio (the default, for hosts that spawn
// processes) or Streamable HTTP. In stdio mode stdout carries only protocol messages.
import { readFileSync } from 'node:fs';
import {
  Gateway,
  createRedisLimitStore,
  parseGatewayConfig,
  watchConfig,
} from '../../gateway/index.js';
import type { GatewayConfig, GatewayOptions, RedisEvalLike } from '../../gateway/index.js';
import { loadTokenizerOrEstimate } from '../../catalogue/index.js';
import { listen } from '../../transports/http/node.js';
import { createStdioServerTransport } from '../../transports/stdio/index.js';
import { flag, positiveInteger, text, texts } from '../args.js';
import type { CommandContext } from '../command.js';
import { noMoreArguments, runCommand } from '../command.js';
import { CliError, UsageError } from '../errors.js';
import {
  listenError,
  parseAddress,
  untilStopped,
  watchClose,
  withHttpDefault,
} from '../serving.js';
import { portFor } from '../serve-auth.js';
import type { GatewayHttp } from '../gateway-http.js';
import { gatewayHttp } from '../gateway-http.js';
import { GatewayAudit, reloader } from '../gateway-reload.js';
import type { CliTelemetry } from '../otel.js';
import {
  METRICS_FLAG_HELP,
  OTEL_FLAG_HELP,
  metricsAddress,
  startTelemetry,
  tracedClients,
} from '../otel.js';
import { messageOf } from '../../internal/message-of.js';
import type { SharedState } from '../serve-redis.js';
import { sharedState } from '../serve-redis.js';

/** The --help text. */
export const help: string = `Usage: mcpkit gateway --config <file> [--stdio | --http [host:]port] [flags]

Serves the MCP servers of an mcpServers config (the format Claude Desktop, Claude Code and
Cursor use) as one server: their tools, resources, resource templates and prompts, tools and
prompts named with mcpkit chat's rules (a tool keeps its name unless another server has one
alike or it is not 1-64 characters of a-z A-Z 0-9 _ -; then <server>__<tool>). Any upstream
transport and revision, any downstream one: progress, cancellation, logs, list changes,
resource updates, errors and the upstreams' elicitation, sampling and roots requests are
forwarded to the client whose request caused them. An upstream that stops answering fails its
own tools with a clear error and is reconnected with backoff. The resource gateway://status
shows each upstream's state and latency.

Each config entry may curate its tools:
  "tools": {"allow": ["get_*"], "deny": ["delete_*"], "rename": {"q": "search_docs"},
            "describe": {"q": "Searches the product documentation."}}

The config may limit calls (token buckets; a refused call is a tool error saying when to
retry), per principal, per tool and per upstream, with concurrency caps per upstream:
  "rateLimits": {"principal": {"rate": 60, "per": "minute"},
                 "tools": {"search_*": {"rate": 5, "per": "second"}},
                 "upstreams": {"docs": {"rate": 600, "per": "minute", "maxConcurrent": 8}}}

The config file is watched (and re-read on SIGHUP): upstreams, curation, rate limits, policies,
endpoints, identity and the audit log are applied without dropping the session of a client of an
endpoint kept; an invalid file is refused, the old config kept. Flags win over the file.

By default the gateway speaks stdio (put it in a host's config in place of the servers);
with --http it serves Streamable HTTP on 127.0.0.1 (Host header checked) and GET /healthz.

For a team (docs/gateway.md): "endpoints" serve a selection of the servers each at
/mcp/<name> (own curation and budget); "policies" decide per caller (token scopes, client,
subject, claims; with --auth-issuer, or "identity.header" behind a proxy that authenticates)
which tools, prompts and resources are visible and callable, and with which arguments;
"audit" (or --audit) writes one JSON line per call.

Flags:
  --config <file>           the mcpServers JSON file (required)
  --stdio                   serve over stdin/stdout (the default)
  --http [host:]port        serve Streamable HTTP (port 0 picks a free one)
  --allowed-host <name>     a Host header to accept when binding beyond loopback (repeatable)
  --budget <tokens>         above this many tokens of tool definitions, serve search_tools and
                            the tools it finds instead of every tool
  --code-mode               serve one tool, run_code, that runs JavaScript against typed
                            declarations of every tool in a QuickJS sandbox (needs
                            quickjs-emscripten)
  --check                   connect to every upstream, print what would be served, and exit
                            (exit 2 when an upstream is unreachable)
  --auth-issuer <url>       HTTP: require access tokens from this authorization server
  --public-url <url>        the URL clients use (behind a proxy)
  --auth-audience <url>     the audience tokens must name
  --auth-scopes <s1,s2>     scopes every request needs
  --auth-timeout <ms>       how long the authorization server may take to answer (default
                            5000); past it start-up fails, a request gets 503
  --audit <file|->          append one JSON line per call to this file (- for stdout, only with
                            --http); default: the config's "audit.to", else none
  --redis <url>             HTTP: share rate limits, sessions and streams with every gateway
                            process given the same Redis (needs the package redis and
                            --state-secret; env MCPKIT_REDIS_URL)
  --redis-prefix <text>     the prefix of every Redis key (default mcpkit)
  --redis-timeout <ms>      how long a Redis command may wait for its answer (default 2000)
  --state-secret <secret>   with --redis: the secret every process seals state with (env
                            MCPKIT_STATE_SECRET)
  --json                    log events (upstream connected, down, stderr) as JSON lines on stderr
${OTEL_FLAG_HELP}
${METRICS_FLAG_HELP}
  -q, --quiet               say nothing on stderr (but the URL, with --http)

Examples:
  mcpkit gateway --config servers.json --check
  mcpkit gateway --config servers.json --check --budget 2000 --json
  mcpkit gateway --config servers.json --stdio

Serve remotely, or bridge a stdio server to HTTP (and an HTTP one to stdio with --stdio):
  mcpkit gateway --config servers.json --http 8080

In a Claude Desktop config, one entry in place of all the servers:
  {"mcpServers": {"gateway": {"command": "npx",
    "args": ["-y", "mcpkit", "gateway", "--config", "/abs/path/servers.json"]}}}`;

const OPTIONS = {
  config: { type: 'string' },
  http: { type: 'string' },
  stdio: { type: 'boolean' },
  'allowed-host': { type: 'string', multiple: true },
  budget: { type: 'string' },
  'code-mode': { type: 'boolean' },
  check: { type: 'boolean' },
  'auth-issuer': { type: 'string' },
  'auth-audience': { type: 'string' },
  'auth-scopes': { type: 'string' },
  'auth-dpop': { type: 'boolean' },
  'auth-timeout': { type: 'string' },
  'public-url': { type: 'string' },
  otel: { type: 'boolean' },
  metrics: { type: 'string' },
  audit: { type: 'string' },
  redis: { type: 'string' },
  'redis-prefix': { type: 'string' },
  'redis-timeout': { type: 'string' },
  'state-secret': { type: 'string', multiple: true },
} as const;

/** The default HTTP port. */

/** Runs `mcpkit gateway`; resolves once the gateway has shut down. */
export function run(args: readonly string[], io: CommandContext['io']): Promise<number> {
  return runCommand(
    { name: 'gateway', options: OPTIONS, help },
    { args: withHttpDefault(args), io },
    async (ctx) => {
      noMoreArguments(ctx.parsed.positionals);
      const file = text(ctx.parsed, 'config');
      if (file === undefined) {
        throw new UsageError('which servers?', 'give --config <file> with an mcpServers object');
      }
      const config = readConfig(file);
      const http = text(ctx.parsed, 'http');
      if (http !== undefined && flag(ctx.parsed, 'stdio')) {
        throw new UsageError('choose one of --stdio and --http');
      }
      const budgetText = text(ctx.parsed, 'budget');
      const budget = budgetText === undefined ? undefined : positiveInteger(budgetText, '--budget');
      const log = eventLog(ctx);
      const metrics = text(ctx.parsed, 'metrics');
      const audit = new GatewayAudit(ctx, config, http === undefined);
      const telemetry = await startTelemetry(
        {
          otel: flag(ctx.parsed, 'otel'),
          metrics: metrics === undefined ? undefined : metricsAddress(metrics),
        },
        'mcpkit-gateway',
        ctx.io.env,
      );
      const traced = telemetry === undefined ? undefined : tracedClients(telemetry, 'node');
      const shared = flag(ctx.parsed, 'check')
        ? undefined
        : await sharedState(ctx, http !== undefined);
      const gateway = await Gateway.start(config, {
        ...limitStoreOf(shared),
        ...(budget === undefined ? {} : { budget, tokenizer: await loadTokenizerOrEstimate() }),
        ...traced?.options,
        codeMode: flag(ctx.parsed, 'code-mode'),
        onEvent: log,
        ...(audit.sink === undefined ? {} : { audit: audit.sink }),
        server: {
          ...shared?.server,
          onError: (error, where) => {
            log({
              event: 'error',
              where,
              error: messageOf(error),
            });
          },
        },
      });
      telemetry?.instrument(gateway.server);
      for (const endpoint of gateway.endpoints.values()) telemetry?.instrument(endpoint.server);
      telemetry?.watch(gateway);
      if (telemetry?.metricsUrl !== undefined) log({ event: 'metrics', url: telemetry.metricsUrl });
      try {
        if (flag(ctx.parsed, 'check')) return await check(ctx, gateway);
        await serveWatched(ctx, { file, gateway, config, shared, audit, telemetry }, { http, log });
      } finally {
        await gateway.close();
        traced?.close();
        await audit.close();
        await shared?.close();
        await telemetry?.shutdown();
      }
      return 0;
    },
  );
}

/** Events on stderr: JSON lines with --json, else a line each but routine ones (none with -q). */
function eventLog(ctx: CommandContext): (event: Record<string, unknown>) => void {
  return (event) => {
    if (ctx.common.json)
      ctx.io.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), ...event })}\n`);
    else if (!ctx.common.quiet && !routine(event)) {
      ctx.io.stderr.write(`${ctx.style.dim(describe(event))}\n`);
    }
  };
}

/** What `mcpkit gateway` serves, and what a reload of its config changes. */
interface Served {
  file: string;
  gateway: Gateway;
  config: GatewayConfig;
  shared: SharedState | undefined;
  audit: GatewayAudit;
  telemetry: CliTelemetry | undefined;
}

/**
 * Serves until stopped (stdio, or HTTP at `http`), the config file watched for reloads from the
 * moment every endpoint has its handler.
 */
async function serveWatched(
  ctx: CommandContext,
  served: Served,
  { http, log }: { http: string | undefined; log: (event: Record<string, unknown>) => void },
): Promise<void> {
  const { file, gateway, audit, telemetry } = served;
  let face: GatewayHttp | undefined;
  const watch = () =>
    watchConfig(file, {
      load: () => readConfig(file),
      apply: reloader({
        gateway,
        audit,
        http: () => face,
        instrument: (server) => telemetry?.instrument(server),
      }),
      onEvent: log,
    });
  if (http === undefined) {
    const watching = watch();
    try {
      await serveStdio(gateway, log);
    } finally {
      watching.close();
    }
    return;
  }
  await serveHttp(ctx, served, {
    address: parseAddress(http),
    log,
    made: (made) => {
      face = made;
      return watch();
    },
  });
}

/** With --redis, the rate limits count in Redis (every process shares them). */
function limitStoreOf(shared: SharedState | undefined): Pick<GatewayOptions, 'limitStore'> {
  const redis = shared?.redis;
  if (redis === undefined) return {};
  // A node-redis client: it has eval (RedisConnection types only what the stores use).
  const client = redis.client as unknown as RedisEvalLike;
  return {
    limitStore: createRedisLimitStore(client, { prefix: `${redis.prefix}:gateway-limits` }),
  };
}

function readConfig(file: string): GatewayConfig {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read the config ${file}: ${(error as Error).message}`);
  }
  try {
    return parseGatewayConfig(JSON.parse(raw));
  } catch (error) {
    throw new CliError(`the config ${file} is not valid: ${(error as Error).message}`, {
      exitCode: 3,
      hint: 'write {"mcpServers": {"name": {"command": "…", "args": […]} or {"url": "…"}}}',
    });
  }
}

/** Pings, and upstream logs below warning that no request waited for: only in --json logs. */
function routine(event: Record<string, unknown>): boolean {
  if (event['event'] === 'ping') return true;
  const level = event['log'];
  return typeof level === 'string' && ['debug', 'info', 'notice'].includes(level);
}

/** One event as a human line. */
function describe(event: Record<string, unknown>): string {
  const { upstream, ...rest } = event;
  const who =
    upstream === undefined
      ? 'mcpkit gateway'
      : `mcpkit gateway: ${typeof upstream === 'string' ? upstream : JSON.stringify(upstream)}`;
  if (typeof rest['stderr'] === 'string') return `${who}: ${rest['stderr']}`;
  const parts = Object.entries(rest).map(([key, value]) =>
    key === 'event'
      ? String(value)
      : `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`,
  );
  return `${who}: ${parts.join(' ')}`;
}

/** --check: what would be served; exit 2 when an upstream is not connected. */
async function check(ctx: CommandContext, gateway: Gateway): Promise<number> {
  const status = gateway.status();
  const tools = (await listServedTools(gateway)).sort();
  if (ctx.common.json) {
    ctx.io.stdout.write(`${JSON.stringify({ ...status, tools }, null, 2)}\n`);
  } else {
    for (const upstream of status.upstreams) {
      const latency = upstream.latencyMs === undefined ? '' : ` ${String(upstream.latencyMs)} ms`;
      const error = upstream.lastError === undefined ? '' : ` (${upstream.lastError})`;
      ctx.io.stdout.write(
        `${upstream.name}: ${upstream.state}${error} ${upstream.revision ?? ''}${latency}, ${String(upstream.tools)} tool${upstream.tools === 1 ? '' : 's'}\n`,
      );
    }
    ctx.io.stdout.write(
      `mode ${status.mode}: ${String(status.tokens.served)} of ${String(status.tokens.all)} tokens of tool definitions served\n`,
    );
    ctx.io.stdout.write(`tools: ${tools.join(', ')}\n`);
  }
  return status.upstreams.every((upstream) => upstream.state === 'ready') ? 0 : 2;
}

/** The names in the gateway's tools/list, through an in-memory client. */
async function listServedTools(gateway: Gateway): Promise<string[]> {
  const { Client } = await import('../../client/index.js');
  const { createMemoryPair } = await import('../../transports/memory.js');
  const [clientSide, serverSide] = createMemoryPair();
  await gateway.server.connect(serverSide);
  const client = new Client({ name: 'mcpkit-gateway-check', version: '1' });
  await client.connect(clientSide);
  try {
    return (await client.listTools()).map((tool) => tool.name);
  } finally {
    await client.close();
  }
}

async function serveStdio(
  gateway: Gateway,
  log: (event: Record<string, unknown>) => void,
): Promise<void> {
  const { transport, closed } = watchClose(createStdioServerTransport());
  await gateway.server.connect(transport);
  log({ event: 'serving', on: 'stdio' });
  const reason = await untilStopped(closed);
  log({ event: 'stopped', reason });
}

async function serveHttp(
  ctx: CommandContext,
  served: Served,
  {
    address,
    log,
    made,
  }: {
    address: { host: string; port: number };
    log: (event: Record<string, unknown>) => void;
    /** Told of the HTTP face once made, before it listens; what it returns is closed at the end. */
    made: (face: GatewayHttp) => { close(): void };
  },
): Promise<void> {
  const loopback = ['127.0.0.1', 'localhost', '::1'].includes(address.host);
  if (!loopback && texts(ctx.parsed, 'allowed-host').length === 0) {
    throw listenError(new TypeError('allowedHosts'), address);
  }
  const port = await portFor(ctx, address);
  const face = await gatewayHttp(ctx, served, { host: address.host, port });
  const watching = made(face);
  try {
    let listening;
    try {
      listening = await listen(face.handler, { host: address.host, port });
    } catch (error) {
      await face.handler.close();
      throw listenError(error, address);
    }
    ctx.io.stderr.write(
      ctx.common.quiet ? `${listening.url}\n` : `mcpkit gateway: serving at ${listening.url}\n`,
    );
    for (const name of served.gateway.endpoints.keys()) {
      log({ event: 'endpoint', url: `${listening.url}/${name}` });
    }
    const reason = await untilStopped();
    log({ event: 'stopping', reason });
    await listening.close();
  } finally {
    watching.close();
  }
}
