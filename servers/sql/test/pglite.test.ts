// The sql server on its embedded database (PGlite in a worker thread): the shared suite, plus
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
