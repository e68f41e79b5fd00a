// A TaskStore on PostgreSQL (mcpkit/stores/postgres): tasks in one table, so they outlive the
// process that made them and any process sharing the database serves tasks/get; signals
// (tasks/update, tasks/cancel) travel by LISTEN/NOTIFY to the process running the task. Expired
// rows are hidden at once and deleted by a sweep that task creation starts at most once a minute.
// A task whose process died while it ran stays `working` until it expires: no process is left to
// finish it, and the store cannot tell a dead process from a slow one. It takes a `pg` Pool (the
// optional peer), typed structurally so no pg types are needed to use it.
import {
  DEFAULT_MAX_TASKS_PER_OWNER,
  TaskListeners,
  limitOption,
  ownerQuotaError,
} from '../../ext/tasks/index.js';
import type { TaskRecord, TaskSignal, TaskStore } from '../../ext/tasks/index.js';

/** The part of a `pg` Pool the store uses. */
export interface PgPoolLike {
  query(text: string, values?: readonly unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  connect(): Promise<PgClientLike>;
}

/** The part of a `pg` PoolClient the store uses (the LISTEN connection). */
export interface PgClientLike {
  query(text: string, values?: readonly unknown[]): Promise<unknown>;
  /** `notification` gives `{ channel, payload }`; `error` an Error. */
  on(event: 'notification' | 'error', listener: (value: never) => void): unknown;
  release(error?: Error | boolean): void;
}

/** Options of {@link createPostgresTaskStore}. */
export interface PostgresTaskStoreOptions {
  readonly pool: PgPoolLike;
  /** The table (created if missing). Default `mcpkit_tasks`. */
  readonly table?: string;
  /** The NOTIFY channel of signals. Default: the table's name. */
  readonly channel?: string;
  /**
   * Receives a failure of the LISTEN connection (signals stop until the next subscribe) or of a
   * sweep.
   */
  readonly onError?: (error: unknown) => void;
  /**
   * Least time between two sweeps of expired rows, which `create` starts (in the background)
   * when one is due. Default 60 000; 0 for none (call `sweep()` yourself).
   */
  readonly sweepIntervalMs?: number;
  /** Most tasks kept per owner (see TaskStore). Default 1 000. */
  readonly maxTasksPerOwner?: number;
}

/** A TaskStore that can be closed (its LISTEN connection released). */
export interface PostgresTaskStore extends TaskStore {
  /** Creates the table if missing; every method waits for it. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Creates the store; throws TypeError for a table or channel name that is not a plain identifier. */
export function createPostgresTaskStore(options: PostgresTaskStoreOptions): PostgresTaskStore {
  const table = options.table ?? 'mcpkit_tasks';
  const channel = options.channel ?? table;
  for (const [what, name] of [
    ['table', table],
    ['channel', channel],
  ] as const) {
    if (!IDENTIFIER.test(name))
      throw new TypeError(`${what} must be a lower-case identifier, got "${name}"`);
  }
  const sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
  if (!Number.isFinite(sweepIntervalMs) || sweepIntervalMs < 0) {
    throw new TypeError(`sweepIntervalMs must be 0 or more, got ${String(sweepIntervalMs)}`);
  }
  return new PostgresStore(options.pool, {
    table,
    channel,
    onError: options.onError,
    sweepIntervalMs,
    maxPerOwner: limitOption(
      'maxTasksPerOwner',
      options.maxTasksPerOwner,
      DEFAULT_MAX_TASKS_PER_OWNER,
    ),
  });
}

class PostgresStore implements PostgresTaskStore {
  readonly ready: Promise<void>;
  readonly #pool: PgPoolLike;
  readonly #table: string;
  readonly #channel: string;
  readonly #onError: ((error: unknown) => void) | undefined;
  readonly #listeners = new TaskListeners();
  #listening: Promise<PgClientLike | undefined> | undefined;
  readonly #sweepIntervalMs: number;
  readonly #maxPerOwner: number;
  /** When the last sweep started (0: never). */
  #sweptAt = 0;

  constructor(
    pool: PgPoolLike,
    names: {
      table: string;
      channel: string;
      onError: ((error: unknown) => void) | undefined;
      sweepIntervalMs: number;
      maxPerOwner: number;
    },
  ) {
    this.#pool = pool;
    this.#table = names.table;
    this.#channel = names.channel;
    this.#onError = names.onError;
    this.#sweepIntervalMs = names.sweepIntervalMs;
    this.#maxPerOwner = names.maxPerOwner;
    this.ready = pool
      .query(
        `CREATE TABLE IF NOT EXISTS ${this.#table} (
           task_id text PRIMARY KEY,
           owner text,
           expires_at timestamptz,
           record jsonb NOT NULL);
         CREATE INDEX IF NOT EXISTS ${this.#table}_expires_at ON ${this.#table} (expires_at);
         CREATE INDEX IF NOT EXISTS ${this.#table}_owner ON ${this.#table} (owner)`,
      )
      .then(() => undefined);
  }

  /** Starts a sweep in the background when one is due (at most one per sweepIntervalMs). */
  #sweepIfDue(): void {
    if (this.#sweepIntervalMs === 0) return;
    const now = Date.now();
    if (now - this.#sweptAt < this.#sweepIntervalMs) return;
    this.#sweptAt = now;
    this.sweep().catch((error: unknown) => {
      this.#onError?.(error);
    });
  }

  async create(record: TaskRecord): Promise<void> {
    await this.ready;
    // The process that creates tasks runs them: it listens before the first one exists, so no
    // signal for it is missed.
    this.#listening ??= this.#listen();
    await this.#listening;
    // The row, and (the statement does not see it) how many live tasks its owner had before.
    const { rows } = await this.#pool.query(
      `WITH added AS (
         INSERT INTO ${this.#table} (task_id, owner, expires_at, record) VALUES ($1, $2, $3, $4))
       SELECT count(*)::int AS n FROM ${this.#table}
        WHERE owner IS NOT DISTINCT FROM $2 AND (expires_at IS NULL OR expires_at > now())`,
      [record.taskId, record.owner ?? null, expiry(record), JSON.stringify(record)],
    );
    this.#sweepIfDue();
    if (Number(rows[0]?.['n'] ?? 0) >= this.#maxPerOwner) await this.#makeRoom(record);
  }

  /**
   * Removes the oldest finished task of the owner of `created`, over its quota; when it has
   * none, removes `created` and throws TaskLimitError. Creations racing each remove their own
   * (a row locked by one is skipped by the others).
   */
  async #makeRoom(created: TaskRecord): Promise<void> {
    const owner = created.owner ?? null;
    const { rows } = await this.#pool.query(
      `DELETE FROM ${this.#table} WHERE task_id = (
         SELECT task_id FROM ${this.#table}
          WHERE owner IS NOT DISTINCT FROM $1 AND task_id <> $2
            AND (expires_at IS NULL OR expires_at > now())
            AND record->>'status' IN ('completed', 'failed', 'cancelled')
          ORDER BY record->>'createdAt' LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING 1`,
      [owner, created.taskId],
    );
    if (rows.length > 0) return;
    await this.#pool.query(`DELETE FROM ${this.#table} WHERE task_id = $1`, [created.taskId]);
    throw ownerQuotaError(this.#maxPerOwner);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    await this.ready;
    const { rows } = await this.#pool.query(
      `SELECT record FROM ${this.#table}
        WHERE task_id = $1 AND (expires_at IS NULL OR expires_at > now())`,
      [taskId],
    );
    const record = rows[0]?.['record'];
    return typeof record === 'string'
      ? (JSON.parse(record) as TaskRecord)
      : (record as TaskRecord | undefined);
  }

  async list(owner: string | undefined): Promise<TaskRecord[]> {
    await this.ready;
    const { rows } = await this.#pool.query(
      `SELECT record FROM ${this.#table}
        WHERE owner IS NOT DISTINCT FROM $1 AND (expires_at IS NULL OR expires_at > now())
        ORDER BY record->>'createdAt'`,
      [owner ?? null],
    );
    return rows.map((row) => parse(row['record']));
  }

  async put(record: TaskRecord): Promise<void> {
    await this.ready;
    await this.#pool.query(`UPDATE ${this.#table} SET record = $2 WHERE task_id = $1`, [
      record.taskId,
      JSON.stringify(record),
    ]);
  }

  async signal(taskId: string, signal: TaskSignal): Promise<void> {
    await this.ready;
    await this.#pool.query('SELECT pg_notify($1, $2)', [
      this.#channel,
      TaskListeners.message(taskId, signal),
    ]);
  }

  subscribe(taskId: string, listener: (signal: TaskSignal) => void): () => void {
    const remove = this.#listeners.add(taskId, listener);
    this.#listening ??= this.#listen();
    return remove;
  }

  /** Removes expired tasks; resolves with how many. `create` calls it now and then. */
  async sweep(): Promise<number> {
    await this.ready;
    const { rows } = await this.#pool.query(
      `WITH gone AS (DELETE FROM ${this.#table} WHERE expires_at <= now() RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
    );
    return Number(rows[0]?.['n'] ?? 0);
  }

  async close(): Promise<void> {
    const client = await this.#listening?.catch(() => undefined);
    this.#listening = undefined;
    client?.release();
  }

  /** One connection LISTENs for every task's signals and hands them to their listeners. */
  async #listen(): Promise<PgClientLike | undefined> {
    try {
      await this.ready;
      const client = await this.#pool.connect();
      client.on('error', (error: Error) => {
        this.#onError?.(error);
        this.#listening = undefined;
      });
      client.on('notification', (message: { channel: string; payload?: string }) => {
        if (message.channel !== this.#channel || message.payload === undefined) return;
        this.#listeners.deliverMessage(message.payload);
      });
      await client.query(`LISTEN ${this.#channel}`);
      return client;
    } catch (error) {
      this.#onError?.(error);
      this.#listening = undefined;
      return undefined;
    }
  }
}

/** A `record` column as pg returns it (jsonb is parsed already; text is not). */
function parse(value: unknown): TaskRecord {
  return (typeof value === 'string' ? JSON.parse(value) : value) as TaskRecord;
}

function expiry(record: TaskRecord): string | null {
  return record.expiresAt === undefined ? null : new Date(record.expiresAt).toISOString();
}
