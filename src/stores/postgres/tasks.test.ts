// Unit tests of the PostgreSQL task store's options (no database: a pool that records its
// queries). The store on a real PostgreSQL is tested in test/integration/tasks-postgres.test.ts.
import { describe, expect, it } from 'vitest';
import { createPostgresTaskStore } from './tasks.js';
import type { PgPoolLike } from './tasks.js';

function recordingPool(): { pool: PgPoolLike; queries: string[] } {
  const queries: string[] = [];
  const pool: PgPoolLike = {
    query(text) {
      queries.push(text);
      return Promise.resolve({ rows: [] });
    },
    connect: () => Promise.reject(new Error('no LISTEN in this test')),
  };
  return { pool, queries };
}

describe('createPostgresTaskStore options', () => {
  it('refuses a table or channel that is not a plain identifier, before any query', () => {
    const { pool, queries } = recordingPool();
    expect(() => createPostgresTaskStore({ pool, table: 'tasks; drop table x' })).toThrow(
      'table must be a lower-case identifier, got "tasks; drop table x"',
    );
    expect(() => createPostgresTaskStore({ pool, channel: 'Signals' })).toThrow(TypeError);
    expect(queries).toEqual([]);
  });

  it('refuses a negative sweep interval and a quota that is not a positive integer', () => {
    const { pool } = recordingPool();
    expect(() => createPostgresTaskStore({ pool, sweepIntervalMs: -1 })).toThrow(
      'sweepIntervalMs must be 0 or more, got -1',
    );
    expect(() => createPostgresTaskStore({ pool, maxTasksPerOwner: 0 })).toThrow(
      'maxTasksPerOwner must be a positive integer, got 0',
    );
  });

  it('creates its table under the name given', async () => {
    const { pool, queries } = recordingPool();
    const store = createPostgresTaskStore({ pool, table: 'my_tasks', sweepIntervalMs: 0 });
    await store.ready;
    expect(queries.join('\n')).toContain('my_tasks');
    await store.close();
  });
});
