// One embedded database: PGlite in a child process of its own, talked to over the IPC channel.
// A process, not a worker thread, so that it can run with V8 flags of its own (Liftoff only, lazy
// compilation: PGlite's 9 MB of WebAssembly starts in a third of the time and memory TurboFan
// takes, and this process's flags are left alone), and so that ending it (the time limit, a
// cancel) returns all of its memory at once.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import type { RawResult } from './adapter.js';
import { SqlError } from './adapter.js';
import { RAW_TEXT_TYPES } from './logic.js';

/**
 * Settings every database runs with: a 1 MB buffer pool (the default 128 MB is touched as it is
 * used; the whole data directory is in memory already, so a page missed here is a copy, not a
 * read: 7 MiB less resident than with 8 MB). Part of the snapshot's cache key.
 */
export const PGLITE_CONF: readonly string[] = ['shared_buffers=1MB'];

// The child's code: plain CommonJS run with `node -e`, so it works from source (tests) and from
// dist alike. Its first message says what to load; then it answers { id, sql, params } with rows
// or the database's error fields. It exits when its parent goes away.
//
// Seeding (no snapshot): initdb with 1 MB WAL segments, the seed, the template databases dropped
// (nothing here creates a database; they were two thirds of the data directory) and the WAL
// cut down to what a start needs; then the gzipped data directory goes back to the parent.
const CHILD_SOURCE = `
const v8 = require('node:v8');
v8.setFlagsFromString('--liftoff-only');
v8.setFlagsFromString('--wasm-lazy-compilation');
const { gunzipSync, gzipSync } = require('node:zlib');
process.on('disconnect', () => process.exit(0));
const quiet = () => {};
const describe = (e) => ({ message: String((e && e.message) || e), code: e && e.code, detail: e && e.detail, hint: e && e.hint });
process.once('message', async (init) => {
  const raw = (text) => text;
  const parsers = Object.fromEntries(init.rawTypes.map((oid) => [oid, raw]));
  let db;
  try {
    const mod = await import(init.entry);
    const PGlite = mod.PGlite || (mod.default && mod.default.PGlite);
    if (init.snapshot) {
      let data = new Blob([gunzipSync(init.snapshot)]);
      init.snapshot = undefined;
      db = await PGlite.create({ loadDataDir: data, postgresqlconf: init.conf });
      data = undefined;
    } else {
      db = await PGlite.create({
        initDbStartParams: ['--wal-segsize=1'],
        postgresqlconf: [...init.conf, 'min_wal_size=2MB', 'max_wal_size=4MB'],
      });
      await db.exec(init.seed);
      for (const name of ['template0', 'template1']) {
        await db.exec('ALTER DATABASE ' + name + ' IS_TEMPLATE false');
        await db.exec('DROP DATABASE ' + name);
      }
      await db.exec('CHECKPOINT');
      await db.query('SELECT pg_switch_wal()');
      await db.exec('CHECKPOINT');
      const dump = await db.dumpDataDir('none');
      const snapshot = gzipSync(new Uint8Array(await dump.arrayBuffer()), { level: 9 });
      process.send({ type: 'seeded', snapshot });
      return;
    }
  } catch (error) {
    process.send({ type: 'failed', message: describe(error).message });
    return;
  }
  process.send({ type: 'ready' });
  process.on('message', async ({ id, sql, params }) => {
    try {
      const r = await db.query(sql, params, { rowMode: 'array', parsers, onNotice: quiet });
      const fields = r.fields.map((f) => ({ name: f.name, typeId: f.dataTypeID }));
      process.send({ id, ok: true, fields, rows: r.rows, command: r.command });
    } catch (e) {
      process.send({ id, ok: false, error: describe(e) });
    }
  });
});
`;

interface Reply {
  type?: 'ready' | 'seeded' | 'failed';
  id?: number;
  ok?: boolean;
  fields?: RawResult['fields'];
  rows?: unknown[][];
  command?: string;
  snapshot?: Uint8Array;
  message?: string;
  error?: { message: string; code?: string; detail?: string; hint?: string };
}

/** One running database process and the statements waiting for it. */
export class DbProcess {
  readonly #child: ChildProcess;
  readonly #pending = new Map<
    number,
    { resolve: (r: RawResult) => void; reject: (e: Error) => void }
  >();
  #nextId = 0;
  #dead: Error | undefined;

  constructor(child: ChildProcess) {
    this.#child = child;
    child.on('message', (reply: Reply) => {
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
    child.on('error', (error) => {
      this.kill(new SqlError({ message: `the embedded database failed: ${error.message}` }));
    });
    child.on('exit', () => {
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
      this.#child.send({ id, sql, params });
    });
  }

  /** Keeps this process alive while a query runs, not while idle. */
  hold(on: boolean): void {
    hold(this.#child, on);
  }

  /** Ends the process; every waiting statement rejects with `reason`. Idempotent. */
  kill(reason: Error): void {
    if (this.#dead !== undefined) return;
    this.#dead = reason;
    for (const waiter of this.#pending.values()) waiter.reject(reason);
    this.#pending.clear();
    this.#child.kill('SIGKILL');
  }
}

function hold(child: ChildProcess, on: boolean): void {
  const channel = child.channel as { ref(): void; unref(): void } | null | undefined;
  if (on) {
    child.ref();
    channel?.ref();
  } else {
    child.unref();
    channel?.unref();
  }
}

/** What a start gave: a running database, or (seeded afresh) only the snapshot it made. */
export type Started = { db: DbProcess } | { snapshot: Uint8Array };

/**
 * Starts one database process from `snapshot` (a gzipped data directory), or seeds one with
 * `seed` when there is none, in which case it resolves with the snapshot only (the process has
 * ended: a seeded process holds initdb's memory, so it is never the one that serves). Rejects
 * when the process fails to start (it is ended).
 */
export async function startDbProcess(
  entry: string,
  seed: string,
  snapshot: Uint8Array | undefined,
): Promise<Started> {
  // A 1 MB young generation: the child allocates little but its snapshot (10 MiB less resident).
  const flags = ['--max-semi-space-size=1', '--input-type=commonjs'];
  const child = spawn(process.execPath, [...flags, '-e', CHILD_SOURCE], {
    // Never this process's stdout: over stdio it carries the MCP messages.
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'advanced',
    windowsHide: true,
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    stderr = (stderr + text).slice(-2000);
  });
  const reply = new Promise<Reply>((resolve, reject) => {
    child.once('message', resolve);
    child.once('error', reject);
    child.once('exit', (code) => {
      const said = stderr.trim() === '' ? '' : `: ${stderr.trim().split('\n').slice(-3).join(' ')}`;
      reject(
        new Error(`the embedded database exited while starting (code ${String(code)})${said}`),
      );
    });
  });
  child.send({
    entry: pathToFileURL(entry).href,
    seed: snapshot === undefined ? seed : undefined,
    snapshot,
    conf: PGLITE_CONF,
    rawTypes: RAW_TEXT_TYPES,
  });
  let ready: Reply;
  try {
    ready = await reply;
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  if (ready.type === 'seeded' && ready.snapshot !== undefined) {
    child.kill('SIGKILL');
    return { snapshot: new Uint8Array(ready.snapshot) };
  }
  if (ready.type !== 'ready') {
    child.kill('SIGKILL');
    throw new Error(`the embedded database did not start: ${ready.message ?? 'unknown error'}`);
  }
  child.stderr?.removeAllListeners('data');
  child.stderr?.resume();
  const db = new DbProcess(child);
  db.hold(false);
  return { db };
}
