// `mcpkit serve --redis <url> --state-secret <secret>`: what makes every process started with the
// same two values one server (docs/cli.md, docs/deployment.md). The Redis connection (node-redis,
// the optional peer `redis`, loaded only here) carries the legacy sessions, the resumable SSE
// streams, the tasks and the DPoP proofs taken; the state secret seals 2026-07-28 `requestState`
// so that any process opens what another sealed. /healthz reports whether Redis answers.
import type { DpopReplayStore } from '../auth/index.js';
import { maskRedisUrl, redisErrorMessage } from '../stores/redis/index.js';
import type { RedisConnection } from '../stores/redis/index.js';
import type { ChangeBus, StateKey, StateSecret } from '../server/index.js';
import type { TasksOptions } from '../ext/tasks/index.js';
import type { EventStore, HealthOptions, SessionStore } from '../transports/http/index.js';
import { positiveInteger, text, texts } from './args.js';
import type { CommandContext } from './command.js';
import { CliError, UsageError } from './errors.js';

/** The shared parts a served process is given: the McpServer's and the HTTP handler's options. */
export interface SharedState {
  /** For the McpServer: the sealing secret, the change bus. */
  readonly server: { stateSecret?: StateSecret; changeBus?: ChangeBus };
  /** For the tasks extension (`tasks()` of mcpkit/tasks): the shared task store. */
  readonly tasks: TasksOptions;
  /** For the Streamable HTTP handler: the session and event stores, the health check. */
  readonly http: { sessionStore?: SessionStore; eventStore?: EventStore; health?: HealthOptions };
  /** For the token verifier (--auth-dpop): where DPoP proofs taken are remembered. */
  readonly auth: { dpopReplayStore?: DpopReplayStore };
  /** The Redis connection and key prefix, for what else a command keeps there (gateway limits). */
  readonly redis?: { readonly client: RedisConnection; readonly prefix: string };
  /** What Redis is reached at, for the start line (the password masked). */
  readonly describe: string | undefined;
  /** Closes the Redis connections (the task store's subscriber included). Idempotent. */
  close(): Promise<void>;
}

/**
 * Reads --redis, --redis-prefix, --redis-timeout and --state-secret (or MCPKIT_REDIS_URL,
 * MCPKIT_STATE_SECRET),
 * connects to Redis and makes the stores. `--redis` needs a secret: sealed state must open on
 * every process. Throws UsageError for bad values, CliError when `redis` is not installed or
 * Redis cannot be reached.
 */
export async function sharedState(ctx: CommandContext, http: boolean): Promise<SharedState> {
  const url = nonEmpty(text(ctx.parsed, 'redis') ?? ctx.io.env['MCPKIT_REDIS_URL']);
  const secret = stateSecret(ctx);
  const prefix = text(ctx.parsed, 'redis-prefix');
  const timeout = text(ctx.parsed, 'redis-timeout');
  if (url === undefined) {
    if (prefix !== undefined) throw new UsageError('--redis-prefix needs --redis');
    if (timeout !== undefined) throw new UsageError('--redis-timeout needs --redis');
    return {
      server: secret === undefined ? {} : { stateSecret: secret },
      tasks: {},
      http: {},
      auth: {},
      describe: undefined,
      close: async () => {},
    };
  }
  if (!http) {
    throw new UsageError(
      '--redis needs --http',
      'several processes share Redis behind one HTTP endpoint; stdio serves one client',
    );
  }
  if (secret === undefined) {
    throw new UsageError(
      '--redis needs --state-secret (or MCPKIT_STATE_SECRET)',
      'every process must seal 2026-07-28 requestState with the same secret, or another process cannot open it: give them all one secret of at least 32 characters, e.g. $(openssl rand -base64 32)',
    );
  }
  const keys = checkedPrefix(prefix ?? 'mcpkit');
  const commandTimeoutMs =
    timeout === undefined ? undefined : positiveInteger(timeout, '--redis-timeout');
  const redis = await import('../stores/redis/index.js');
  // Said once per distinct failure (a reconnect loop repeats the same one every 2 s).
  let last = '';
  const onError = (error: unknown): void => {
    const line = `mcpkit serve: redis: ${redisErrorMessage(error)}`;
    if (line !== last) ctx.io.stderr.write(`${line}\n`);
    last = line;
  };
  const client = await connect(url, { onError, commandTimeoutMs });
  const taskStore = redis.createRedisTaskStore({ client, prefix: `${keys}:tasks`, onError });
  let closed: Promise<void> | undefined;
  return {
    server: {
      stateSecret: secret,
      // List changes and resource updates made on one process reach the clients of all.
      changeBus: redis.createRedisChangeBus({ client, prefix: keys, onError }),
    },
    tasks: { store: taskStore },
    http: {
      sessionStore: redis.createRedisSessionStore({ client, prefix: `${keys}:sessions`, onError }),
      eventStore: redis.createRedisEventStore({ client, prefix: `${keys}:events` }),
      health: { check: redis.redisHealthCheck(client) },
    },
    // A DPoP proof taken by one process is refused by every other.
    auth: { dpopReplayStore: redis.createRedisDpopReplayStore({ client, prefix: `${keys}:dpop` }) },
    redis: { client, prefix: keys },
    describe: maskRedisUrl(url),
    close: () =>
      (closed ??= (async () => {
        await taskStore.close().catch(() => undefined);
        await client.quit().catch(() => undefined);
      })()),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** The --state-secret values (repeatable, for rotation) or MCPKIT_STATE_SECRET, checked. */
function stateSecret(ctx: CommandContext): StateSecret | undefined {
  const given = texts(ctx.parsed, 'state-secret');
  const values =
    given.length > 0 ? given : [ctx.io.env['MCPKIT_STATE_SECRET'] ?? ''].filter((v) => v !== '');
  if (values.length === 0) return undefined;
  const keys = values.map(stateKey);
  if (keys.length === 1 && keys[0]?.id === '') return keys[0].secret;
  const unnamed = keys.find((key) => key.id === '');
  if (unnamed !== undefined) {
    throw new UsageError(
      'several --state-secret values must each name their key: <id>:<secret>',
      'the first seals, every one opens: --state-secret k2:<new> --state-secret k1:<old>',
    );
  }
  return keys;
}

const NAMED = /^([A-Za-z0-9_-]{1,32}):(.*)$/s;

/** `<id>:<secret>` names a key (for rotation); anything else is one unnamed secret. */
function stateKey(value: string): StateKey {
  const match = NAMED.exec(value);
  const key =
    match === null ? { id: '', secret: value } : { id: match[1] ?? '', secret: match[2] ?? '' };
  if (new TextEncoder().encode(key.secret).byteLength < 32) {
    throw new UsageError(
      `the state secret${key.id === '' ? '' : ` "${key.id}"`} is shorter than 32 bytes`,
      'use a long random value, e.g. $(openssl rand -base64 32), the same on every process',
    );
  }
  return key;
}

function checkedPrefix(prefix: string): string {
  if (!/^[A-Za-z0-9_.:-]{1,100}$/.test(prefix)) {
    throw new UsageError(
      `invalid --redis-prefix "${prefix}"`,
      'use letters, digits, ".", "_", "-" and ":"',
    );
  }
  return prefix;
}

/**
 * Connects node-redis through connectRedis (no offline queue and a time limit on every command,
 * so requests answer 503 while Redis is down or silent; reconnects by itself): fails at once when
 * Redis cannot be reached at start.
 */
async function connect(
  url: string,
  options: { onError: (error: unknown) => void; commandTimeoutMs: number | undefined },
): Promise<RedisConnection> {
  const { connectRedis } = await import('../stores/redis/index.js');
  const { onError, commandTimeoutMs } = options;
  try {
    return await connectRedis(url, {
      onError,
      ...(commandTimeoutMs === undefined ? {} : { commandTimeoutMs }),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: unknown } }).cause;
    if (cause?.code === 'ERR_MODULE_NOT_FOUND') {
      throw new CliError('--redis needs the package "redis" (node-redis), which is not installed', {
        hint: "install it beside mcpkit: npm install redis (one of mcpkit's optional peers)",
        cause: error,
      });
    }
    throw new CliError(redisErrorMessage(error), {
      hint: 'start Redis, or check --redis / MCPKIT_REDIS_URL (the address, the password, the TLS scheme)',
      cause: error,
    });
  }
}
