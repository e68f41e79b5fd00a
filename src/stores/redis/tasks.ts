// A TaskStore on Redis (mcpkit/stores/redis): each task one key expiring with its TTL, an index
// per principal (a sorted set scored by expiry, itself expiring with its longest-lived task) for
// tasks/list and the per-owner quota, and signals (tasks/update, tasks/cancel) published on one
// channel that the process running a task subscribes to. It takes a connected node-redis client
// (the optional peer `redis`), typed structurally; subscriptions use a duplicate of it.
import {
  DEFAULT_MAX_TASKS_PER_OWNER,
  TaskListeners,
  byCreation,
  finishedOldestFirst,
  limitOption,
  ownerQuotaError,
} from '../../ext/tasks/index.js';
import type { TaskRecord, TaskSignal, TaskStore } from '../../ext/tasks/index.js';

/** The commands of a node-redis client the store uses. */
export interface RedisClientLike {
  set(key: string, value: string, options?: RedisSetOptions): Promise<unknown>;
  get(key: string): Promise<string | null>;
  mGet(keys: string[]): Promise<(string | null)[]>;
  del(keys: string[]): Promise<number>;
  pExpireAt(key: string, at: number): Promise<unknown>;
  persist(key: string): Promise<unknown>;
  zAdd(key: string, member: { score: number; value: string }): Promise<unknown>;
  zCard(key: string): Promise<number>;
  zRange(key: string, start: number, stop: number): Promise<string[]>;
  zRangeWithScores(
    key: string,
    start: number,
    stop: number,
  ): Promise<{ value: string; score: number }[]>;
  zRem(key: string, member: string[]): Promise<unknown>;
  zRemRangeByScore(key: string, min: string, max: number): Promise<unknown>;
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
  /** Most tasks kept per owner (see TaskStore). Default 1 000. */
  readonly maxTasksPerOwner?: number;
}

/** A TaskStore that can be closed (its subscriber connection quit). */
export interface RedisTaskStore extends TaskStore {
  close(): Promise<void>;
}

/** Creates the store on a connected client. */
export function createRedisTaskStore(options: RedisTaskStoreOptions): RedisTaskStore {
  return new RedisStore(options.client, {
    prefix: options.prefix ?? 'mcpkit:tasks',
    onError: options.onError,
    maxPerOwner: limitOption(
      'maxTasksPerOwner',
      options.maxTasksPerOwner,
      DEFAULT_MAX_TASKS_PER_OWNER,
    ),
  });
}

class RedisStore implements RedisTaskStore {
  readonly #client: RedisClientLike;
  readonly #prefix: string;
  readonly #onError: ((error: unknown) => void) | undefined;
  readonly #maxPerOwner: number;
  readonly #listeners = new TaskListeners();
  #subscriber: Promise<RedisSubscriberLike | undefined> | undefined;

  constructor(
    client: RedisClientLike,
    options: {
      prefix: string;
      onError: ((error: unknown) => void) | undefined;
      maxPerOwner: number;
    },
  ) {
    this.#client = client;
    this.#prefix = options.prefix;
    this.#onError = options.onError;
    this.#maxPerOwner = options.maxPerOwner;
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
    const { taskId, expiresAt } = record;
    const ttl = expiresAt === undefined ? undefined : Math.max(1, expiresAt - Date.now());
    const index = this.#index(record.owner);
    // One round trip: the record, its index entry, the index's expired entries dropped, then
    // how many are left and the latest expiry among them.
    const [, , , held, [last]] = await Promise.all([
      this.#client.set(
        this.#key(taskId),
        JSON.stringify(record),
        ...(ttl === undefined ? [] : [{ expiration: { type: 'PX', value: ttl } } as const]),
      ),
      this.#client.zAdd(index, { score: expiresAt ?? Infinity, value: taskId }),
      this.#client.zRemRangeByScore(index, '-inf', Date.now()),
      this.#client.zCard(index),
      this.#client.zRangeWithScores(index, -1, -1),
    ]);
    // The index lives as long as its longest-lived task.
    const until = last?.score ?? Infinity;
    await (until === Infinity
      ? this.#client.persist(index)
      : this.#client.pExpireAt(index, Math.ceil(until)));
    if (held > this.#maxPerOwner) await this.#makeRoom(index, record);
  }

  /**
   * Removes the oldest finished task of the owner of `created` (its index `index`), over its
   * quota; when it has none, removes `created` and throws TaskLimitError. Creations racing on
   * other processes each remove their own (a task removed is counted once: by its DEL).
   */
  async #makeRoom(index: string, created: TaskRecord): Promise<void> {
    const others = (await this.#live(index)).filter((r) => r.taskId !== created.taskId);
    if (others.length < this.#maxPerOwner) return;
    for (const old of finishedOldestFirst(others)) {
      if ((await this.#client.del([this.#key(old.taskId)])) === 1) {
        await this.#client.zRem(index, [old.taskId]);
        return;
      }
    }
    await Promise.all([
      this.#client.del([this.#key(created.taskId)]),
      this.#client.zRem(index, [created.taskId]),
    ]);
    throw ownerQuotaError(this.#maxPerOwner);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const text = await this.#client.get(this.#key(taskId));
    return text === null ? undefined : (JSON.parse(text) as TaskRecord);
  }

  async list(owner: string | undefined): Promise<TaskRecord[]> {
    const records = await this.#live(this.#index(owner));
    return records.sort(byCreation);
  }

  /** The unexpired tasks of an index; entries whose task is gone are dropped from it. */
  async #live(index: string): Promise<TaskRecord[]> {
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
