import { messageOf } from '../../internal/message-of.js';
// redisHealthCheck: the `check` of the HTTP handler's health endpoint for a server that depends
// on Redis. `GET /healthz` then answers 200 {"status":"ok","redis":"ok"} while Redis answers
// PING in time, and 503 {"status":"unavailable","redis":"unreachable","error":…} otherwise.

/** What the check needs of a node-redis client. */
export interface RedisPingLike {
  /** node-redis: true while connected and usable. Absent: the PING alone decides. */
  readonly isReady?: boolean;
  ping(): Promise<unknown>;
}

/** Options of {@link redisHealthCheck}. */
export interface RedisHealthCheckOptions {
  /** How long PING may take, in milliseconds. Default 1000. */
  timeoutMs?: number;
  /** The field of the health answer that reports Redis. Default `redis`. */
  name?: string;
}

/** The failure of a health check; the handler adds its `details` to the 503 answer. */
export class HealthCheckError extends Error {
  override readonly name = 'HealthCheckError';
  /** Fields of the 503 answer beside `status` and `error`. */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(message: string, details: Readonly<Record<string, unknown>>) {
    super(message);
    this.details = details;
  }
}

/**
 * Returns a health check (for `health: { check }` of the Streamable HTTP handler) that resolves
 * `{ [name]: 'ok' }` when Redis answers PING within `timeoutMs`, and throws a
 * {@link HealthCheckError} at once when the client is not connected, or when PING fails or is
 * late. Throws TypeError for a bad option.
 */
export function redisHealthCheck(
  client: RedisPingLike,
  options: RedisHealthCheckOptions = {},
): () => Promise<Record<string, 'ok'>> {
  const timeoutMs = options.timeoutMs ?? 1000;
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new TypeError(`timeoutMs must be a positive number, got ${String(timeoutMs)}`);
  }
  const name = options.name ?? 'redis';
  const down = (why: string): HealthCheckError =>
    new HealthCheckError(`${name}: ${why}`, { [name]: 'unreachable' });
  return async () => {
    if (client.isReady === false) throw down('not connected');
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        reject(down(`no answer to PING within ${String(timeoutMs)} ms`));
      }, timeoutMs);
    });
    try {
      await Promise.race([client.ping(), late]);
    } catch (error) {
      if (error instanceof HealthCheckError) throw error;
      throw down(messageOf(error));
    } finally {
      clearTimeout(timer);
    }
    return { [name]: 'ok' };
  };
}
