// `mcpkit serve --redis <url> --state-secret <secret>`: what makes every process started with the
// same two values one server (docs/cli.md, docs/deployment.md). The Redis connection (node-redis,
// the optional peer `redis`, loaded only here) carries the legacy sessions, the resumable SSE
// streams and the tasks; the state secret seals 2026-07-28 `requestState` so that any process
// opens what another sealed. /healthz reports whether Redis answers.
import type * as Redis from 'redis';
import type { RedisClientType } from 'redis';
import type { StateKey, StateSecret, TaskStore } from '../server/index.js';
import type { EventStore, HealthOptions, SessionStore } from '../transports/http/index.js';
import { text, texts } from './args.js';
import type { CommandContext } from './command.js';
import { CliError, UsageError } from './errors.js';

/** How long the first connection to Redis may take before `serve` gives up. */
const CONNECT_TIMEOUT_MS = 5000;

/** The shared parts a served process is given: the McpServer's and the HTTP handler's options. */
export interface SharedState {
  /** For the McpServer: the sealing secret, the task store. */
  readonly server: { stateSecret?: StateSecret; taskStore?: TaskStore };
  /** For the Streamable HTTP handler: the session and event stores, the health check. */
  readonly http: { sessionStore?: SessionStore; eventStore?: EventStore; health?: HealthOptions };
  /** What Redis is reached at, for the start line (the password masked). */
  readonly describe: string | undefined;
  /** Closes the Redis connections (the task store's subscriber included). Idempotent. */
  close(): Promise<void>;
}

/**
 * Reads --redis, --redis-prefix and --state-secret (or MCPKIT_REDIS_URL, MCPKIT_STATE_SECRET),
 * connects to Redis and makes the stores. `--redis` needs a secret: sealed state must open on
 * every process. Throws UsageError for bad values, CliError when `redis` is not installed or
 * Redis cannot be reached.
 */
export async function sharedState(ctx: CommandContext, http: boolean): Promise<SharedState> {
  const url = nonEmpty(text(ctx.parsed, 'redis') ?? ctx.io.env['MCPKIT_REDIS_URL']);
  const secret = stateSecret(ctx);
  const prefix = text(ctx.parsed, 'redis-prefix');
  if (url === undefined) {
    if (prefix !== undefined) throw new UsageError('--redis-prefix needs --redis');
    return {
      server: secret === undefined ? {} : { stateSecret: secret },
      http: {},
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
  const client = await connect(url);
  const redis = await import('../redis/index.js');
  const onError = (error: unknown): void => {
    ctx.io.stderr.write(
      `mcpkit serve: redis: ${error instanceof Error ? error.message : String(error)}\n`,
    );
  };
  const taskStore = redis.createRedisTaskStore({ client, prefix: `${keys}:tasks`, onError });
  let closed: Promise<void> | undefined;
  return {
    server: { stateSecret: secret, taskStore },
    http: {
      sessionStore: redis.createRedisSessionStore({ client, prefix: `${keys}:sessions`, onError }),
      eventStore: redis.createRedisEventStore({ client, prefix: `${keys}:events` }),
      health: { check: () => redisHealth(client) },
    },
    describe: masked(url),
    close: () =>
      (closed ??= (async () => {
        await taskStore.close().catch(() => undefined);
        await client.close().catch(() => undefined);
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

/** Connects node-redis; fails at once (no retry loop) when Redis cannot be reached at start. */
async function connect(url: string): Promise<RedisClientType> {
  const { createClient } = await loadRedis();
  let connected = false;
  let client: RedisClientType;
  try {
    client = createClient({
      url,
      socket: {
        connectTimeout: CONNECT_TIMEOUT_MS,
        // At start, one failure is final; once connected, reconnect with a capped backoff.
        reconnectStrategy: (retries: number, cause: Error) =>
          connected ? Math.min(50 * 2 ** retries, 2000) : cause,
      },
    });
  } catch (error) {
    throw new UsageError(
      `invalid --redis URL "${masked(url)}": ${message(error)}`,
      'write redis://[user:password@]host[:port][/db] or rediss://…',
    );
  }
  // node-redis emits 'error' on every failed (re)connection; without a listener it would throw.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    throw new CliError(`cannot reach Redis at ${masked(url)}: ${message(error)}`, {
      hint: 'start Redis, or check --redis / MCPKIT_REDIS_URL (the address, the password, the TLS scheme)',
      cause: error,
    });
  }
  connected = true;
  return client;
}

async function loadRedis(): Promise<typeof Redis> {
  try {
    return await import('redis');
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new CliError('--redis needs the package "redis" (node-redis), which is not installed', {
      hint: "install it beside mcpkit: npm install redis (one of mcpkit's optional peers)",
      cause: error,
    });
  }
}

/** The /healthz check: Redis answers PING in time, or the probe reports it down. */
async function redisHealth(client: RedisClientType): Promise<{ redis: 'ok' }> {
  if (!client.isReady) throw new Error('redis is not connected');
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.ping(),
      new Promise((_resolve, reject) => {
        timer = setTimeout(() => {
          reject(new Error('redis did not answer PING within 2 s'));
        }, 2000);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
  return { redis: 'ok' };
}

/** The URL with its password replaced by `***`. */
function masked(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

function message(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return message(error.errors[0]);
  return error instanceof Error ? error.message || error.name : String(error);
}
