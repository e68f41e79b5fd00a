// The sql server on its embedded database (PGlite in a child process): the shared suite, plus
// what is particular to the embedded engine. The seeded snapshot is cached in the OS temp folder,
// so only the first run on a machine pays for PGlite's initdb.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlServer } from '../server.js';
import { createSqlServer } from '../server.js';
import { sqlSuite } from './suite.js';

let sql: SqlServer | undefined;

beforeAll(async () => {
  sql = await createSqlServer({ cacheDir: join(tmpdir(), 'mcpkit-test-cache') });
}, 300_000);

afterAll(async () => {
  await sql?.close();
});

function get(): SqlServer {
  if (sql === undefined) throw new Error('the server did not start');
  return sql;
}

describe('sql server on PGlite', () => {
  it('is the embedded engine on schema public', () => {
    expect(get().adapter).toMatchObject({ kind: 'pglite', schema: 'public' });
  });
  sqlSuite(get);
});

describe('sql server on PGlite, one query at a time', () => {
  let small: SqlServer | undefined;
  beforeAll(async () => {
    small = await createSqlServer({
      cacheDir: join(tmpdir(), 'mcpkit-test-cache'),
      maxWaitingQueries: 2,
    });
  }, 300_000);
  afterAll(async () => {
    await small?.close();
  });

  it('refuses a query beyond the waiting limit as busy, and drops a cancelled waiting one at once', async () => {
    const settled: string[] = [];
    const query = (label: string, statement: string, signal?: AbortSignal) =>
      small!.adapter
        .query(statement, [], { readOnly: true, timeoutMs: 10_000, maxRows: 1, signal })
        .then(
          () => settled.push(`${label} ok`),
          (error: unknown) => settled.push(`${label} ${String((error as { code?: string }).code)}`),
        );
    const slow = query('slow', 'SELECT pg_sleep(0.5)');
    await new Promise((resolve) => setImmediate(resolve)); // slow has its turn: none waits
    const abort = new AbortController();
    const waiting = query('cancelled', 'SELECT 1', abort.signal);
    const next = query('next', 'SELECT 2');
    const refused = query('refused', 'SELECT 3');
    await refused;
    abort.abort();
    await waiting;
    expect(settled).toEqual(['refused 53300', 'cancelled 57014']);
    await Promise.all([slow, next]);
    expect(settled).toEqual(['refused 53300', 'cancelled 57014', 'slow ok', 'next ok']);
  });
});
