// A PostgreSQL that accepts TCP and never answers must not hang the gateway: start-up fails with a
// clear message, and a query whose connection cannot be had answers within its limit. Through a
// proxy in front of the real database (MCPKIT_TEST_POSTGRES_URL) that can stop answering.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlServer } from '../server.js';
import { loginUrl } from './logins.js';
import { freezingProxy } from './proxy.js';

const url = process.env['MCPKIT_TEST_POSTGRES_URL'];
if (url === undefined)
  console.log('servers/sql: hung-database tests skipped: set MCPKIT_TEST_POSTGRES_URL');

/** A TCP proxy to `target`; `freeze()` cuts every connection and leaves new ones unanswered. */
const proxy = (target: URL) => freezingProxy(target, 5432);

const login = `mcpkit_t_hung_${randomBytes(4).toString('hex')}`;
let admin: pg.Client | undefined;

(url === undefined ? describe.skip : describe)(
  'sql gateway on a database that stops answering',
  () => {
    beforeAll(async () => {
      admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE ROLE ${login} LOGIN`);
    });
    afterAll(async () => {
      await admin?.query(`DROP ROLE IF EXISTS ${login}`);
      await admin?.end();
    });

    it('fails at start-up with a message naming the address and the limit', async () => {
      const silent = await proxy(new URL(url!));
      silent.freeze();
      try {
        const databaseUrl = `postgres://${login}@127.0.0.1:${String(silent.port)}/test`;
        await expect(createSqlServer({ databaseUrl, connectTimeoutMs: 200 })).rejects.toThrow(
          `PostgreSQL at 127.0.0.1:${String(silent.port)} did not answer within 200 ms`,
        );
      } finally {
        await silent.close();
      }
    });

    it('answers a query within its limit when no connection can be had', async () => {
      const hop = await proxy(new URL(url!));
      const target = new URL(loginUrl(url!, login));
      target.hostname = '127.0.0.1';
      target.port = String(hop.port);
      const sql = await createSqlServer({
        databaseUrl: target.toString(),
        connectTimeoutMs: 1000,
        timeoutMs: 300,
        server: { onError: () => undefined },
      });
      try {
        hop.freeze();
        // Let the pool see its idle connection cut, so the query needs a new one.
        await new Promise((resolve) => setTimeout(resolve, 100));
        const run = sql.adapter.query('SELECT 1', [], {
          readOnly: true,
          timeoutMs: 300,
          maxRows: 1,
        });
        await expect(run).rejects.toMatchObject({ code: '57014' });
      } finally {
        await sql.close().catch(() => undefined);
        await hop.close();
      }
    });
  },
);
