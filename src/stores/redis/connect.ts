// connectRedis: a node-redis client configured the way the mcpkit stores need it. Its commands
// fail at once while Redis is down (no offline queue, so a request answers 503 instead of
// waiting) and within a time limit while Redis is connected but silent (stopped, a half-open
// network), it reconnects by itself with a capped backoff (the process recovers when Redis
// returns), and its 'error' events (and those of the subscriber connections the stores make
// with `duplicate()`) are reported instead of crashing the process.
import type { RedisBusSubscriberLike, RedisKeyValueLike } from './session-store.js';
import type { RedisStreamClientLike } from './event-store.js';
import type { RedisClientLike } from './tasks.js';
import type { RedisSetNxLike } from './dpop-replay.js';

/** What {@link connectRedis} resolves with: a node-redis client, typed by what mcpkit uses. */
export type RedisConnection = RedisKeyValueLike &
  RedisStreamClientLike &
  RedisClientLike &
  RedisSetNxLike &
  RedisConnectionState & {
    duplicate(): RedisBusSubscriberLike & RedisConnectionState;
  };

/** The connection-level part of a node-redis client. */
export interface RedisConnectionState {
  /** True while connected and usable; commands fail at once when false. */
  readonly isReady: boolean;
  ping(): Promise<unknown>;
  /**
   * Closes the connection once pending commands are answered; when Redis does not answer within
   * `commandTimeoutMs`, rejects and closes it at once.
   */
  quit(): Promise<unknown>;
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

/** Options of {@link connectRedis}. */
export interface ConnectRedisOptions {
  /**
   * At start: `'fail'` (default) rejects with a {@link RedisUnavailableError} when the first
   * connection attempt fails, so that a process without its Redis does not start; `'background'`
   * resolves at once and keeps connecting with the backoff (requests that need Redis answer 503
   * and a {@link redisHealthCheck} reports 503 until it is reached).
   */
  startup?: 'fail' | 'background';
  /** How long one connection attempt may take, in milliseconds. Default 5000. */
  connectTimeoutMs?: number;
  /** The longest wait between reconnection attempts (50 ms, doubling), in milliseconds. Default 2000. */
  maxReconnectDelayMs?: number;
  /**
   * How long a command may wait for its answer, in milliseconds. Default 2000. Past it the
   * command rejects with a {@link RedisTimeoutError} (a request that needed it answers 503); an
   * answer that comes later is dropped, and the connection serves again once Redis answers.
   */
  commandTimeoutMs?: number;
  /**
   * Receives the client's errors: a lost connection, every failed reconnection attempt (of the
   * client and of the connections duplicated from it). Default: ignored.
   */
  onError?: (error: unknown) => void;
  /**
   * More node-redis `createClient` options (`password`, `database`, `socket.tls`, …). The ones
   * above and `disableOfflineQueue: true` win over them.
   */
  clientOptions?: Record<string, unknown>;
}

/** Redis could not be reached (at start, with `startup: 'fail'`), or `redis` is not installed. */
export class RedisUnavailableError extends Error {
  override readonly name: string = 'RedisUnavailableError';
}

/** Redis is connected but did not answer a command within `commandTimeoutMs`. */
export class RedisTimeoutError extends RedisUnavailableError {
  override readonly name = 'RedisTimeoutError';
}

/** The node-redis client, before it is connected. */
type NodeRedisClient = RedisConnection & { connect(): Promise<unknown>; destroy?(): void };

/** The part of node-redis connectRedis uses. */
interface NodeRedis {
  createClient(options: Record<string, unknown>): NodeRedisClient;
}

/**
 * Creates and connects a node-redis client (the optional peer `redis`) for the stores of
 * `mcpkit/stores/redis`: `disableOfflineQueue` (a command while disconnected rejects at once), a
 * reconnect strategy with a capped backoff, a connect timeout, and error listeners on the client
 * and on every `duplicate()`. Rejects with a {@link RedisUnavailableError} when `redis` is not
 * installed, the URL is invalid, or (with `startup: 'fail'`) Redis cannot be reached; throws
 * TypeError for a bad option.
 */
export async function connectRedis(
  url: string,
  options: ConnectRedisOptions = {},
): Promise<RedisConnection> {
  const startup = options.startup ?? 'fail';
  if (!['fail', 'background'].includes(startup)) {
    throw new TypeError(`startup must be "fail" or "background", got ${JSON.stringify(startup)}`);
  }
  const connectTimeout = positive('connectTimeoutMs', options.connectTimeoutMs ?? 5000);
  const maxDelay = positive('maxReconnectDelayMs', options.maxReconnectDelayMs ?? 2000);
  const commandTimeout = positive('commandTimeoutMs', options.commandTimeoutMs ?? 2000);
  const onError = options.onError ?? (() => undefined);
  const nodeRedis = await loadNodeRedis();
  // Until the first connection, a failure is final when the start must fail.
  let connected = startup === 'background';
  const given = options.clientOptions ?? {};
  const socket = (given['socket'] ?? {}) as Record<string, unknown>;
  let client: NodeRedisClient;
  try {
    client = nodeRedis.createClient({
      ...given,
      url,
      disableOfflineQueue: true,
      socket: {
        ...socket,
        connectTimeout,
        reconnectStrategy: (retries: number, cause: Error) =>
          connected ? Math.min(50 * 2 ** retries, maxDelay) : cause,
      },
    });
  } catch (error) {
    throw new RedisUnavailableError(
      `invalid Redis URL ${maskRedisUrl(url)}: ${redisErrorMessage(error)}`,
      {
        cause: error,
      },
    );
  }
  reportErrors(client, onError, commandTimeout);
  const connecting = client.connect().then(() => {
    connected = true;
  });
  // A quit that is not answered still ends the connection (else it would keep the process up).
  const limitedClient = limitCommands(client, commandTimeout, (method) => {
    if (method === 'quit' || method === 'close') client.destroy?.();
  });
  if (startup === 'background') {
    connecting.catch(onError);
    return limitedClient;
  }
  try {
    await connecting;
  } catch (error) {
    throw new RedisUnavailableError(
      `cannot reach Redis at ${maskRedisUrl(url)}: ${redisErrorMessage(error)}`,
      {
        cause: error,
      },
    );
  }
  return limitedClient;
}

/** What {@link reportErrors} needs of a client. */
interface ErrorSource {
  on(event: 'error', listener: (error: unknown) => void): unknown;
  duplicate(...args: unknown[]): unknown;
  destroy?(): void;
}

/**
 * Listens to 'error' on the client and on every connection duplicated from it. A duplicate's
 * commands are limited to `ms` too, and a duplicate that misses the limit is destroyed: the
 * stores give up a subscriber that fails, and one left connecting would linger.
 */
function reportErrors(client: ErrorSource, onError: (error: unknown) => void, ms: number): void {
  // node-redis emits 'error' on every failed (re)connection; with no listener it would throw.
  client.on('error', onError);
  const duplicate = client.duplicate.bind(client);
  Object.defineProperty(client, 'duplicate', {
    configurable: true,
    writable: true,
    value: (...args: unknown[]) => {
      const copy = duplicate(...args) as ErrorSource;
      reportErrors(copy, onError, ms);
      return limitCommands(copy, ms, () => copy.destroy?.());
    },
  });
}

/**
 * The client seen through a proxy whose methods that answer with a promise (every command)
 * reject with a {@link RedisTimeoutError} when the answer takes longer than `ms`. node-redis's
 * own command `timeout` stops only while a command is not yet written; once written, a command
 * would wait for as long as the socket lives.
 */
function limitCommands<T extends object>(
  client: T,
  ms: number,
  onLate: (method: PropertyKey) => void,
): T {
  const limited = new Map<PropertyKey, { original: unknown; wrapper: unknown }>();
  const late = (what: PropertyKey) =>
    new RedisTimeoutError(`Redis did not answer within ${String(ms)} ms (${String(what)})`);
  return new Proxy(client, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== 'function') return value;
      const known = limited.get(key);
      if (known?.original === value) return known.wrapper;
      const method = value as (...args: unknown[]) => unknown;
      const wrapper = (...args: unknown[]): unknown => {
        const answer = method.apply(target, args);
        if (!(answer instanceof Promise)) return answer;
        return new Promise((resolve, reject) => {
          const timer = setTimeout(() => {
            reject(late(key));
            onLate(key);
          }, ms);
          void answer.then(resolve, reject).finally(() => {
            clearTimeout(timer);
          });
        });
      };
      limited.set(key, { original: value, wrapper });
      return wrapper;
    },
  });
}

async function loadNodeRedis(): Promise<NodeRedis> {
  // A variable specifier: bundlers and TypeScript leave the optional peer alone.
  const name = 'redis';
  try {
    return (await import(name)) as NodeRedis;
  } catch (error) {
    throw new RedisUnavailableError(
      'connectRedis needs the package "redis" (node-redis): npm install redis',
      { cause: error },
    );
  }
}

function positive(name: string, value: number): number {
  if (!(Number.isFinite(value) && value > 0)) {
    throw new TypeError(`${name} must be a positive number, got ${String(value)}`);
  }
  return value;
}

/** The URL with its password replaced by `***` (`(unparsable URL)` when it does not parse). */
export function maskRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

/**
 * The message of a Redis failure: an AggregateError's first error (Node reports a failed
 * connection to each address of a host as one), else the error's message, else its name.
 */
export function redisErrorMessage(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return redisErrorMessage(error.errors[0]);
  }
  return error instanceof Error ? error.message || error.name : String(error);
}
