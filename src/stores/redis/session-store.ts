// A SessionStore on Redis (mcpkit/stores/redis): one key per legacy session, expiring when the session
// is idle for `ttlMs`, so that any process sharing the Redis resumes a session another opened.
// It takes a connected node-redis client (the optional peer `redis`), typed structurally.
import type { SessionEvent, SessionRecord, SessionStore } from '../../transports/http/index.js';

/** The commands of a node-redis client the session store uses. */
export interface RedisKeyValueLike {
  set(
    key: string,
    value: string,
    options?: { expiration: { type: 'PX'; value: number } },
  ): Promise<unknown>;
  get(key: string): Promise<string | null>;
  del(key: string): Promise<unknown>;
  pExpire(key: string, ms: number): Promise<unknown>;
  publish(channel: string, message: string): Promise<unknown>;
  duplicate(): RedisBusSubscriberLike;
}

/** The subscriber connection the store makes with `duplicate()` for the message bus. */
export interface RedisBusSubscriberLike {
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  quit(): Promise<unknown>;
}

/** Options of {@link createRedisSessionStore}. */
export interface RedisSessionStoreOptions {
  readonly client: RedisKeyValueLike;
  /** Prefix of every key. Default `mcpkit:sessions`. */
  readonly prefix?: string;
  /** How long an unused session is kept, in milliseconds. Default 30 minutes (the handler's idle limit). */
  readonly ttlMs?: number;
  /** Receives a failure of the bus subscriber. */
  readonly onError?: (error: unknown) => void;
}

/** Creates the store on a connected client. Throws TypeError for a ttlMs that is not positive. */
export function createRedisSessionStore(options: RedisSessionStoreOptions): SessionStore {
  const ttlMs = options.ttlMs ?? 1_800_000;
  if (!(Number.isInteger(ttlMs) && ttlMs > 0)) {
    throw new TypeError(`ttlMs must be a positive integer, got ${String(ttlMs)}`);
  }
  const { client } = options;
  const prefix = options.prefix ?? 'mcpkit:sessions';
  const key = (id: string): string => `${prefix}:${id}`;
  const channel = `${prefix}:bus`;
  // Who published a message: a process ignores its own (it delivered them already).
  const origin = crypto.randomUUID();
  return {
    ttlMs,
    async save(id, record) {
      await client.set(key(id), JSON.stringify(record), {
        expiration: { type: 'PX', value: ttlMs },
      });
    },
    async load(id) {
      const text = await client.get(key(id));
      return text === null ? undefined : (JSON.parse(text) as SessionRecord);
    },
    async delete(id) {
      await client.del(key(id));
    },
    async touch(id) {
      // PEXPIRE answers 0 when the key is gone (expired or deleted).
      return (await client.pExpire(key(id), ttlMs)) !== 0;
    },
    async publish(id, event) {
      await client.publish(channel, JSON.stringify({ o: origin, id, e: event }));
    },
    subscribe(listener) {
      const subscriber = client.duplicate();
      let closed = false;
      const ready = subscriber
        .connect()
        .then(() =>
          subscriber.subscribe(channel, (text) => {
            let parsed: { o?: unknown; id?: unknown; e?: unknown };
            try {
              parsed = JSON.parse(text) as typeof parsed;
            } catch {
              return;
            }
            const event: unknown = parsed.e;
            if (parsed.o === origin || typeof parsed.id !== 'string') return;
            if (!isEvent(event)) return;
            try {
              listener(parsed.id, event);
            } catch (error) {
              options.onError?.(error);
            }
          }),
        )
        .catch((error: unknown) => {
          options.onError?.(error);
        });
      return () => {
        if (closed) return;
        closed = true;
        void ready.then(() => subscriber.quit()).catch(() => undefined);
      };
    },
  };
}

function isEvent(value: unknown): value is SessionEvent {
  return typeof value === 'object' && value !== null && 'type' in value;
}
