// The embedded database: PGlite (PostgreSQL compiled to WebAssembly) in a child process, seeded
// with the shop dataset. PGlite runs a query synchronously and has no timer interrupts, so
// statement_timeout never fires inside it; running it in a process of its own lets the server
// keep serving meanwhile and enforce the time limit (and cancellation) by ending that process.
// Every process starts from a snapshot of the seeded database (a gzipped data directory), so
// nothing is lost: every query is read-only anyway. The snapshot is made once: at build time into
// dist/sql (scripts/sql-snapshot.mjs), else on first use into the cache folder, else in memory.
// PGlite is loaded only inside the child, so nothing else ever loads it.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionSource, SqlSession } from './adapter.js';
import { SqlError } from './adapter.js';
import type { DbProcess } from './pglite-process.js';
import { PGLITE_CONF, startDbProcess } from './pglite-process.js';

/** Changes whenever the way a snapshot is made changes (part of its file name). */
const SNAPSHOT_FORMAT = 2;

/** Options of the embedded database. */
export interface PgliteOptions {
  /** SQL that creates and fills the database (run once; later processes start from a snapshot). */
  seed: string;
  /** A folder where the seeded snapshot is cached between runs. Default: no cache. */
  cacheDir?: string | undefined;
  /**
   * Folders holding snapshots made ahead (read only, looked in after `cacheDir`). Default: the
   * package's dist/sql, where the build puts the shop's.
   */
  preparedDirs?: readonly string[] | undefined;
  /** Receives errors that concern no query (a failed cache write). */
  onError?: ((error: unknown, where: string) => void) | undefined;
  /**
   * Most queries waiting for their turn (one runs at a time); one more fails at once with a
   * "busy" SqlError (SQLSTATE 53300). Default 32.
   */
  maxWaiting?: number | undefined;
}

/** The package the embedded database needs. */
export const PGLITE_PACKAGE = '@electric-sql/pglite';

function resolvePglite(): string {
  try {
    return createRequire(import.meta.url).resolve(PGLITE_PACKAGE);
  } catch (error) {
    // Said as a failed import says it (ERR_MODULE_NOT_FOUND, "Cannot find package"), so that
    // `mcpkit serve` names the missing peer as it names every other one.
    throw Object.assign(
      new Error(
        `Cannot find package '${PGLITE_PACKAGE}': the embedded database needs it (npm install ${PGLITE_PACKAGE}), or give a PostgreSQL databaseUrl`,
        { cause: error },
      ),
      { code: 'ERR_MODULE_NOT_FOUND' },
    );
  }
}

/** Whether PGlite can be loaded (without loading it). */
export function pgliteInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve(PGLITE_PACKAGE);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts the embedded database and resolves once it is ready (loaded from a snapshot, or seeded
 * first). Queries are served one at a time, as PGlite has a single session.
 */
export async function startPglite(options: PgliteOptions): Promise<SessionSource> {
  const entry = resolvePglite();
  const name = await snapshotName(options.seed, entry);
  const cacheFile = options.cacheDir === undefined ? undefined : join(options.cacheDir, name);
  const dirs = options.preparedDirs ?? defaultPreparedDirs();
  let snapshot = await readFirst([
    ...(cacheFile === undefined ? [] : [cacheFile]),
    ...dirs.map((dir) => join(dir, name)),
  ]);
  const loaded = snapshot !== undefined;
  const spawn = async (): Promise<DbProcess> => {
    if (snapshot === undefined) {
      const seeded = await startDbProcess(entry, options.seed, undefined);
      if (!('snapshot' in seeded)) return seeded.db;
      snapshot = seeded.snapshot;
      if (cacheFile !== undefined) await writeCache(cacheFile, snapshot, options.onError);
    }
    const started = await startDbProcess(entry, options.seed, snapshot);
    if (!('db' in started)) throw new Error('the embedded database did not load its snapshot');
    return started.db;
  };
  let current: Promise<DbProcess> = spawn();
  try {
    await current;
  } catch (error) {
    if (!loaded) throw error;
    // A snapshot that does not load (made by another PGlite build): seed afresh.
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
    // (runLimited sees the signal aborted), so no process is restarted for it.
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
  handle: DbProcess,
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

/**
 * The snapshot's file name: the PGlite version that made it, the seed, the settings and the
 * format, hashed (a snapshot made by another PGlite build or from another seed is never read).
 */
async function snapshotName(seed: string, entry: string): Promise<string> {
  const key = createHash('sha256')
    .update(
      `${String(SNAPSHOT_FORMAT)}\n${await pgliteVersion(entry)}\n${PGLITE_CONF.join(',')}\n${seed}`,
    )
    .digest('hex')
    .slice(0, 16);
  return `mcpkit-sql-pglite-${key}.tar.gz`;
}

/** The version in the package.json above PGlite's entry. */
async function pgliteVersion(entry: string): Promise<string> {
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (manifest.name === '@electric-sql/pglite') return String(manifest.version);
    } catch {
      // No package.json here: keep walking.
    }
  }
  return 'unknown';
}

/** dist/sql of the package this module belongs to (source or built), when there is one. */
function defaultPreparedDirs(): string[] {
  for (
    let dir = dirname(fileURLToPath(import.meta.url));
    dir !== dirname(dir);
    dir = dirname(dir)
  ) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'dist'))) {
      return [join(dir, 'dist', 'sql')];
    }
  }
  return [];
}

/** The content of the first of `files` that can be read. */
async function readFirst(files: readonly string[]): Promise<Uint8Array | undefined> {
  for (const file of files) {
    try {
      return new Uint8Array(await readFile(file));
    } catch {
      // Not there (yet): the next one, or seed.
    }
  }
  return undefined;
}

async function writeCache(
  file: string,
  snapshot: Uint8Array,
  onError: PgliteOptions['onError'],
): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true });
    const temporary = `${file}.${String(process.pid)}.${String(Date.now())}.tmp`;
    await writeFile(temporary, snapshot);
    await rename(temporary, file); // atomic: concurrent starts never read a partial file
  } catch (error) {
    onError?.(error, 'sql: writing the PGlite cache');
  }
}
