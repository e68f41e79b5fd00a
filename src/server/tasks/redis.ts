// A TaskStore on Redis (mcpkit/redis): each task one key expiring with its TTL, an index
// per principal for tasks/list, and signals (tasks/update, tasks/cancel) published on one
// channel that the process running a task subscribes to. It takes a connected node-redis client
// (the optional peer `redis`), typed structurally; subscriptions use a duplicate of it.
import { TaskListeners } from './store.js';
import type { TaskRecord, TaskSignal, TaskStore } from './store.js';

/** The commands of a node-redis client the store uses. */
export interface RedisClientLike {
  set(key: string, value: string, options?: RedisSetOptions): Promise<unknown>;
  get(key: string): Promise<string | null>;
  mGet(keys: string[]): Promise<(string | null)[]>;
  zAdd(key: string, member: { score: number; value: string }): Promise<unknown>;
  zRange(key: string, start: number, stop: number): Promise<string[]>;
  zRem(key: string, member: string[]): Promise<unknown>;
  publish(channel: string, message: string): Promise<unknown>;
  duplicate(): RedisSubscriberLike;
}

/**
 * The options of a SET the store makes (node-redis): a new task's expiry, or a replacement that
 * keeps the TTL and only applies to a key that still exists (`XX`).
 */
export type RedisSetOptions =
  | { expiration: { type: 'PX'; value: number } }
  | { condition: 'XX'; expiration: { type: 'KEEPTTL' } };

/** The subscriber connection the store makes with `duplicate()`. */
export interface RedisSubscriberLike {
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  quit(): Promise<unknown>;
}

/** Options of {@link createRedisTaskStore}. */
export interface RedisTaskStoreOptions {
  readonly client: RedisClientLike;
  /** Prefix of every key and of the channel. Default `mcpkit:tasks`. */
  readonly prefix?: string;
  /** Receives a failure of the subscriber (signals stop until the next task is made). */
  readonly onError?: (error: unknown) => void;
}

/** A TaskStore that can be closed (its subscriber connection quit). */
export interface RedisTaskStore extends TaskStore {
  close(): Promise<void>;
}

/** Creates the store on a connected client. */
export function createRedisTaskStore(options: RedisTaskStoreOptions): RedisTaskStore {
  return new RedisStore(options.client, options.prefix ?? 'mcpkit:tasks', options.onError);
}

class RedisStore implements RedisTaskStore {
  readonly #client: RedisClientLike;
  readonly #prefix: string;
  readonly #onError: ((error: unknown) => void) | undefined;
  readonly #listeners = new TaskListeners();
  #subscriber: Promise<RedisSubscriberLike | undefined> | undefined;

  constructor(
    client: RedisClientLike,
    prefix: string,
    onError: ((error: unknown) => void) | undefined,
  ) {
    this.#client = client;
    this.#prefix = prefix;
    this.#onError = onError;
  }

  get #channel(): string {
    return `${this.#prefix}:signals`;
  }

  #key(taskId: string): string {
    return `${this.#prefix}:task:${taskId}`;
  }

  #index(owner: string | undefined): string {
    // An owner's id is opaque: base64url keeps it one key segment.
    return `${this.#prefix}:owner:${owner === undefined ? '-' : btoa(owner).replace(/=+$/, '')}`;
  }

  async create(record: TaskRecord): Promise<void> {
    // The process that creates tasks runs them: it subscribes before the first one exists.
    this.#subscriber ??= this.#subscribe();
    await this.#subscriber;
    const ttl =
      record.expiresAt === undefined ? undefined : Math.max(1, record.expiresAt - Date.now());
    await this.#client.set(
      this.#key(record.taskId),
      JSON.stringify(record),
      ...(ttl === undefined ? [] : [{ expiration: { type: 'PX', value: ttl } } as const]),
    );
    await this.#client.zAdd(this.#index(record.owner), { score: Date.now(), value: record.taskId });
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const text = await this.#client.get(this.#key(taskId));
    return text === null ? undefined : (JSON.parse(text) as TaskRecord);
  }

  async list(owner: string | undefined): Promise<TaskRecord[]> {
    const index = this.#index(owner);
    const ids = await this.#client.zRange(index, 0, -1);
    if (ids.length === 0) return [];
    const texts = await this.#client.mGet(ids.map((id) => this.#key(id)));
    const gone = ids.filter((_, i) => texts[i] === null);
    if (gone.length > 0) await this.#client.zRem(index, gone);
    return texts.flatMap((text) => (text === null ? [] : [JSON.parse(text) as TaskRecord]));
  }

  /** Replaces a live record, keeping its TTL; an expired (gone) task stays gone. */
  async put(record: TaskRecord): Promise<void> {
    await this.#client.set(this.#key(record.taskId), JSON.stringify(record), {
      condition: 'XX',
      expiration: { type: 'KEEPTTL' },
    });
  }

  async signal(taskId: string, signal: TaskSignal): Promise<void> {
    await this.#client.publish(this.#channel, TaskListeners.message(taskId, signal));
  }

  subscribe(taskId: string, listener: (signal: TaskSignal) => void): () => void {
    const remove = this.#listeners.add(taskId, listener);
    this.#subscriber ??= this.#subscribe();
    return remove;
  }

  async close(): Promise<void> {
    const subscriber = await this.#subscriber?.catch(() => undefined);
    this.#subscriber = undefined;
    await subscriber?.quit();
  }

  async #subscribe(): Promise<RedisSubscriberLike | undefined> {
    try {
      const subscriber = this.#client.duplicate();
      await subscriber.connect();
      await subscriber.subscribe(this.#channel, (message) => {
        this.#listeners.deliverMessage(message);
      });
      return subscriber;
    } catch (error) {
      this.#onError?.(error);
      this.#subscriber = undefined;
      return undefined;
    }
  }
}
