// The embedded database: PGlite (PostgreSQL compiled to WebAssembly) in a worker thread of this
// process, seeded with the shop dataset. PGlite runs a query synchronously and has no timer
// interrupts, so statement_timeout never fires inside it; running it in a worker lets the server
// keep serving meanwhile and enforce the time limit (and cancellation) by terminating the worker.
// A fresh worker starts from a snapshot of the seeded database, so nothing is lost: every query
// is read-only anyway. PGlite is loaded only inside the worker, so nothing else ever loads it.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { gunzip, gzip } from 'node:zlib';
import type { RawResult, SessionSource, SqlSession } from './adapter.js';
import { SqlError } from './adapter.js';
import { RAW_TEXT_TYPES } from './logic.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

// The worker's code. Plain JavaScript run with `eval`, so it works from source (tests) and from
// dist alike. It answers { id, sql, params } with rows or the database's error fields.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const raw = (text) => text;
const parsers = Object.fromEntries(workerData.rawTypes.map((oid) => [oid, raw]));
const quiet = () => {};
(async () => {
  let db;
  let snapshot;
  try {
    const mod = await import(workerData.entry);
    const PGlite = mod.PGlite || (mod.default && mod.default.PGlite);
    if (workerData.snapshot) {
      db = await PGlite.create({ loadDataDir: new Blob([workerData.snapshot]) });
    } else {
      db = await PGlite.create();
      await db.exec(workerData.seed);
      const blob = await db.dumpDataDir('none');
      snapshot = new Uint8Array(await blob.arrayBuffer());
    }
  } catch (error) {
    parentPort.postMessage({ type: 'failed', message: String((error && error.message) || error) });
    return;
  }
  parentPort.postMessage({ type: 'ready', snapshot }, snapshot ? [snapshot.buffer] : []);
  parentPort.on('message', async ({ id, sql, params }) => {
    try {
      const r = await db.query(sql, params, { rowMode: 'array', parsers, onNotice: quiet });
      const fields = r.fields.map((f) => ({ name: f.name, typeId: f.dataTypeID }));
      parentPort.postMessage({ id, ok: true, fields, rows: r.rows, command: r.command });
    } catch (e) {
      const error = { message: String((e && e.message) || e), code: e && e.code, detail: e && e.detail, hint: e && e.hint };
      parentPort.postMessage({ id, ok: false, error });
    }
  });
})();
`;

interface Reply {
  type?: 'ready' | 'failed';
  id?: number;
  ok?: boolean;
  fields?: RawResult['fields'];
  rows?: unknown[][];
  command?: string;
  snapshot?: Uint8Array;
  message?: string;
  error?: { message: string; code?: string; detail?: string; hint?: string };
}

/** One running worker and the statements waiting for it. */
class WorkerHandle {
  readonly #worker: Worker;
  readonly #pending = new Map<
    number,
    { resolve: (r: RawResult) => void; reject: (e: Error) => void }
  >();
  #nextId = 0;
  #dead: Error | undefined;

  constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (reply: Reply) => {
      if (reply.id === undefined) return;
      const waiter = this.#pending.get(reply.id);
      this.#pending.delete(reply.id);
      if (waiter === undefined) return;
      if (reply.ok === true) {
        waiter.resolve({
          fields: reply.fields ?? [],
          rows: reply.rows ?? [],
          command: reply.command,
        });
      } else {
        waiter.reject(new SqlError(reply.error ?? { message: 'unknown database error' }));
      }
    });
    worker.on('error', (error) => {
      this.kill(new SqlError({ message: `the embedded database failed: ${error.message}` }));
    });
    worker.on('exit', () => {
      this.kill(new SqlError({ message: 'the embedded database stopped' }));
    });
  }

  get alive(): boolean {
    return this.#dead === undefined;
  }

  run(sql: string, params: readonly unknown[]): Promise<RawResult> {
    if (this.#dead !== undefined) return Promise.reject(this.#dead);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ id, sql, params });
    });
  }

  /** Keeps the process alive while a query runs, not while idle. */
  hold(on: boolean): void {
    if (on) this.#worker.ref();
    else this.#worker.unref();
  }

  /** Stops the worker; every waiting statement rejects with `reason`. Idempotent. */
  kill(reason: Error): void {
    if (this.#dead !== undefined) return;
    this.#dead = reason;
    for (const waiter of this.#pending.values()) waiter.reject(reason);
    this.#pending.clear();
    void this.#worker.terminate();
  }
}

/** Options of the embedded database. */
export interface PgliteOptions {
  /** SQL that creates and fills the database (run once; later workers start from a snapshot). */
  seed: string;
  /** A folder where the seeded snapshot is cached between runs. Default: no cache. */
  cacheDir?: string | undefined;
  /** Receives errors that concern no query (a failed cache write). */
  onError?: ((error: unknown, where: string) => void) | undefined;
  /**
   * Most queries waiting for their turn (one runs at a time); one more fails at once with a
   * "busy" SqlError (SQLSTATE 53300). Default 32.
   */
  maxWaiting?: number | undefined;
}

function resolvePglite(): string {
  try {
    return createRequire(import.meta.url).resolve('@electric-sql/pglite');
  } catch (error) {
    throw new Error(
      'the embedded database needs the @electric-sql/pglite package (npm install @electric-sql/pglite), or give a PostgreSQL databaseUrl',
      { cause: error },
    );
  }
}

/**
 * Starts the embedded database and resolves once it is ready (seeded, or loaded from the cache).
 * Queries are served one at a time, as PGlite has a single session.
 */
export async function startPglite(options: PgliteOptions): Promise<SessionSource> {
  const entry = resolvePglite();
  const cacheFile = options.cacheDir === undefined ? undefined : await cachePath(options, entry);
  const cached = cacheFile === undefined ? undefined : await readCache(cacheFile);
  let snapshot: Uint8Array | undefined;
  const spawn = async (): Promise<WorkerHandle> => {
    const started = await startWorker(entry, options.seed, snapshot);
    if (started.snapshot !== undefined) {
      snapshot = started.snapshot;
      if (cacheFile !== undefined) await writeCache(cacheFile, snapshot, options.onError);
    }
    const handle = new WorkerHandle(started.worker);
    handle.hold(false);
    return handle;
  };
  snapshot = cached;
  let current: Promise<WorkerHandle> = spawn();
  try {
    await current;
  } catch (error) {
    if (cached === undefined) throw error;
    // A cached snapshot that does not load (another PGlite build): seed afresh.
    snapshot = undefined;
    current = spawn();
    await current;
  }
  let queue: Promise<unknown> = Promise.resolve();
  const state = { closed: false, waiting: 0 };
  const isClosed = () => state.closed; // read after awaits: no narrowing
  const maxWaiting = options.maxWaiting ?? 32;

  const withSession: SessionSource['withSession'] = (work, limits) => {
    if (state.waiting >= maxWaiting) return Promise.reject(busy(maxWaiting));
    state.waiting++;
    const turn = queue.then(async () => {
      state.waiting--;
      if (state.closed) throw new SqlError({ message: 'the database is closed' });
      let handle = await current.catch(() => undefined);
      if (handle?.alive !== true) {
        current = spawn();
        handle = await current;
      }
      try {
        return await runLimited(handle, work, limits);
      } finally {
        if (!handle.alive && !isClosed()) {
          // Killed by the time limit or a cancel: start its successor now, not on the next query.
          current = spawn();
          current.catch(() => undefined); // the next query reports a failed start
        }
      }
    });
    queue = turn.catch(() => undefined);
    // A call cancelled while it waits fails at once; its turn then passes without running
    // (runLimited sees the signal aborted), so no worker is restarted for it.
    return untilAborted(turn, limits.signal);
  };
  return {
    withSession,
    async close() {
      if (state.closed) return;
      state.closed = true;
      await queue;
      const handle = await current.catch(() => undefined);
      handle?.kill(new SqlError({ message: 'the database is closed' }));
    },
  };
}

async function runLimited<T>(
  handle: WorkerHandle,
  work: (session: SqlSession) => Promise<T>,
  limits: { timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<T> {
  const { signal } = limits;
  if (signal?.aborted === true) throw cancelled();
  // PGlite cannot interrupt a statement, so the limit covers the whole transaction from here.
  const timer = setTimeout(() => {
    handle.kill(
      new SqlError({ message: 'canceling statement due to statement timeout', code: '57014' }),
    );
  }, limits.timeoutMs);
  const onAbort = () => {
    handle.kill(cancelled());
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  handle.hold(true);
  try {
    return await work({ run: (sql, params) => handle.run(sql, params) });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    handle.hold(false);
  }
}

/** `work`, or a cancel as soon as `signal` aborts, whichever comes first. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      reject(cancelled());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        // What the work rejected with, as is.
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
        reject(error);
      },
    );
  });
}

function busy(maxWaiting: number): SqlError {
  return new SqlError({
    message: `the embedded database is busy: ${String(maxWaiting)} queries are already waiting for it`,
    code: '53300',
    hint: 'try again shortly, or use a PostgreSQL server (DATABASE_URL) for concurrent queries',
  });
}

function cancelled(): SqlError {
  return new SqlError({ message: 'canceling statement due to user request', code: '57014' });
}

async function cachePath(options: PgliteOptions, entry: string): Promise<string> {
  const info = await stat(entry);
  const key = createHash('sha256')
    .update(`${entry}\n${String(info.size)}\n${String(info.mtimeMs)}\n${options.seed}`)
    .digest('hex')
    .slice(0, 16);
  return join(options.cacheDir ?? '.', `mcpkit-sql-pglite-${key}.tar.gz`);
}

async function readCache(file: string): Promise<Uint8Array | undefined> {
  try {
    return new Uint8Array(await readFile(file));
  } catch {
    return undefined; // No cache yet: the first start seeds the database and writes it.
  }
}

async function writeCache(
  file: string,
  snapshot: Uint8Array,
  onError: PgliteOptions['onError'],
): Promise<void> {
  try {
    await mkdir(join(file, '..'), { recursive: true });
    const temporary = `${file}.${String(process.pid)}.${String(Date.now())}.tmp`;
    await writeFile(temporary, snapshot);
    await rename(temporary, file); // atomic: concurrent starts never read a partial file
  } catch (error) {
    onError?.(error, 'sql: writing the PGlite cache');
  }
}

/**
 * Starts one database worker from `snapshot` (gzipped; none: seeded with `seed`) and resolves
 * once it is ready, with the gzipped snapshot it took when it was seeded. Rejects when the
 * worker fails to start (it is terminated).
 */
async function startWorker(
  entry: string,
  seed: PgliteOptions['seed'],
  snapshot: Uint8Array | undefined,
): Promise<{ worker: Worker; snapshot?: Uint8Array }> {
  const raw = snapshot === undefined ? undefined : new Uint8Array(await gunzipAsync(snapshot));
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    // Never write to this process's stdout: over stdio it carries the MCP messages.
    stdout: true,
    stderr: true,
    workerData: { entry: pathToFileURL(entry).href, seed, snapshot: raw, rawTypes: RAW_TEXT_TYPES },
  });
  worker.stdout.resume();
  worker.stderr.resume();
  const ready = await new Promise<Reply>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => {
      reject(new Error(`the embedded database exited while starting (code ${String(code)})`));
    });
  });
  if (ready.type !== 'ready') {
    await worker.terminate();
    throw new Error(`the embedded database did not start: ${ready.message ?? 'unknown error'}`);
  }
  if (ready.snapshot === undefined) return { worker };
  return { worker, snapshot: new Uint8Array(await gzipAsync(ready.snapshot)) };
}
