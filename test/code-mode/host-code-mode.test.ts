// Code mode in the host end to end (#41): a fake model API writes code against the run_code
// declarations; the code runs in the QuickJS sandbox and calls real reference servers — the sql
// server over stdio (the built CLI, PGlite) and the everything server over Streamable HTTP in
// both eras — with elicitation from inside the code, the approval policy on each call, and the
// rows of a large result never sent to the model.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { afterEach, describe, expect, it } from 'vitest';
import { createEverythingServer } from '../../servers/everything/server.js';
import type { Host, HostEvent, HostOptions, ServerConfig } from '../../src/host/index.js';
import type { ProtocolRevision } from '../../src/protocol/index.js';
import { listen } from '../../src/transports/http/server/node.js';
import type { FakeModel, Step } from '../helpers/fake-model.js';
import { fakeHost, startFakeModel } from '../helpers/fake-model.js';
import { waitServer } from '../helpers/wait-server.js';

const BIN = join(process.env['MCPKIT_DIST'] ?? 'dist', 'esm/src/cli/main.js');
const hasDist = existsSync(BIN);
if (!hasDist) console.log('host-code-mode: the stdio cases are skipped, dist/ is missing');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fake(script: Step[]): Promise<FakeModel> {
  const model = await startFakeModel(script);
  cleanups.push(() => model.close());
  return model;
}

async function host(
  api: 'anthropic' | 'openai',
  model: FakeModel,
  servers: Record<string, ServerConfig>,
  options: Partial<HostOptions> = {},
): Promise<Host> {
  const created = fakeHost(api, model, servers, { codeMode: true, ...options });
  cleanups.push(() => created.close());
  const statuses = await created.connect();
  expect(statuses.map((s) => s.status)).toEqual(statuses.map(() => 'connected'));
  return created;
}

const SUM_DELIVERED = `
const result = await sql.query({
  sql: "SELECT o.status, l.quantity, l.unit_price FROM order_lines l JOIN orders o ON o.id = l.order_id",
  maxRows: 1000,
});
let total = 0, lines = 0;
for (const [status, quantity, price] of result.rows) {
  if (status === 'delivered') { total += quantity * Number(price); lines++; }
}
console.log('rows read:', result.rowCount);
return { lines, total: Math.round(total * 100) / 100 };
`;

describe.each(['anthropic', 'openai'] as const)('code mode in the host with %s', (api) => {
  it.skipIf(!hasDist)(
    'sums a large SQL result in code (sql server over stdio): the rows never reach the model',
    async () => {
      const model = await fake([
        (seen) => {
          const description = JSON.stringify(seen.body.tools);
          expect(description).toContain('declare namespace sql');
          expect(description).toContain('function query(input:');
          return { toolCalls: [{ name: 'run_code', arguments: { code: SUM_DELIVERED } }] };
        },
        (seen) => ({ text: `Delivered: ${seen.results[0]?.text ?? '?'}` }),
      ]);
      const events: HostEvent[] = [];
      const h = await host(
        api,
        model,
        { sql: { command: process.execPath, args: [BIN, 'serve', 'sql'] } },
        { onEvent: (e) => events.push(e) },
      );
      const result = await h.run([
        { role: 'user', content: 'What did delivered orders bring in?' },
      ]);
      expect(model.problems).toEqual([]);
      expect(model.requests.map((r) => r.tools)).toEqual([['run_code'], ['run_code']]);
      // The expected figures, asked of the database directly.
      const direct = await h.client('sql')!.callTool('query', {
        sql: "SELECT count(*)::int AS n, sum(l.quantity * l.unit_price)::float AS total FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE o.status = 'delivered'",
      });
      const [n, total] = (direct.structuredContent as { rows: [number, number][] }).rows[0]!;
      const all = await h.client('sql')!.callTool('query', {
        sql: 'SELECT count(*)::int FROM order_lines',
      });
      const [rows] = (all.structuredContent as { rows: [number][] }).rows[0]!;
      expect(result.calls).toHaveLength(1);
      const answer = model.requests[1]!.results[0]!;
      expect(answer.isError).toBe(false);
      expect(answer.text).toBe(
        `rows read: ${String(rows)}\nReturned: ${JSON.stringify({ lines: n, total: Math.round(total * 100) / 100 })}`,
      );
      // No row went to the model: the second request is the first plus a short result.
      const sizes = model.requests.map((r) => JSON.stringify(r.body).length);
      expect(sizes[1]! - sizes[0]!).toBeLessThan(SUM_DELIVERED.length * 2 + 500);
      expect(events.filter((e) => e.type === 'approval')).toMatchObject([
        { id: expect.stringMatching(/\/1$/), name: 'query', decision: 'approved' },
      ]);
    },
    60_000,
  );

  for (const revision of ['2025-11-25', '2026-07-28'] as const) {
    it(`answers an elicitation from inside the code (everything over HTTP, ${revision})`, async () => {
      // One server for every request: its task store and state secret are shared.
      const ev = createEverythingServer({
        researchStepMs: 1,
        server: { revisions: [revision] as ProtocolRevision[] },
      });
      cleanups.push(() => ev.close());
      const everything = await listen(() => ev.server);
      cleanups.push(() => everything.close());
      const model = await fake([
        {
          toolCalls: [
            {
              name: 'run_code',
              arguments: {
                code: `
                  const summary = await ev.simulate_research_query({ topic: 'jaguar', ambiguous: true });
                  let failed;
                  try { await ev.get_sum({ a: 'x' }) } catch (e) { failed = e.name; }
                  return { summary: String(summary).slice(0, 400), failed };`,
              },
            },
          ],
        },
        (seen) => ({ text: seen.results[0]?.text ?? '' }),
      ]);
      const asked: string[] = [];
      const h = await host(
        api,
        model,
        { ev: { url: everything.url } },
        {
          onElicit: (params) => {
            asked.push(params.message);
            const properties = (params as { requestedSchema?: { properties?: object } })
              .requestedSchema?.properties;
            const content = Object.fromEntries(
              Object.entries(properties ?? {}).map(([key, schema]) => [
                key,
                ((schema as { enum?: string[] }).enum ?? ['deep'])[0] ?? 'deep',
              ]),
            );
            return Promise.resolve({ action: 'accept', content });
          },
        },
      );
      expect(h.client('ev')!.revision).toBe(revision);
      const result = await h.run([{ role: 'user', content: 'research jaguars' }]);
      expect(model.problems).toEqual([]);
      expect(asked.length).toBeGreaterThan(0);
      const text = model.requests[1]!.results[0]!.text;
      expect(text).toMatch(/^Returned: /);
      const returned = JSON.parse(text.slice('Returned: '.length)) as Record<string, unknown>;
      expect(String(returned['summary'])).toMatch(/jaguar/i);
      expect(returned['failed']).toBe('ToolError');
      expect(result.text).toBe(text);
    }, 30_000);
  }

  it('declines a call the approval policy refuses: the code gets a ToolError', async () => {
    const everything = await listen(() => createEverythingServer().server);
    cleanups.push(() => everything.close());
    const model = await fake([
      {
        toolCalls: [
          {
            name: 'run_code',
            arguments: {
              code: 'try { await ev.echo({ message: "hi" }) } catch (e) { return e.message }',
            },
          },
        ],
      },
      (seen) => ({ text: seen.results[0]?.text ?? '' }),
    ]);
    const h = await host(
      api,
      model,
      { ev: { url: everything.url } },
      {
        approval: { mode: 'never' },
      },
    );
    const result = await h.run([{ role: 'user', content: 'echo hi' }]);
    expect(result.text).toBe('Returned: "the call of echo was declined"');
  });

  it('sends hostile code back as an error result, and the host goes on', async () => {
    const everything = await listen(() => createEverythingServer().server);
    cleanups.push(() => everything.close());
    const model = await fake([
      { toolCalls: [{ name: 'run_code', arguments: { code: 'for (;;) {}' } }] },
      { toolCalls: [{ name: 'run_code', arguments: { code: 'return typeof process' } }] },
      (seen) => ({ text: seen.results[0]?.text ?? '' }),
    ]);
    const h = await host(
      api,
      model,
      { ev: { url: everything.url } },
      {
        codeMode: { timeoutMs: 300 },
      },
    );
    const result = await h.run([{ role: 'user', content: 'loop' }]);
    expect(model.requests[1]!.results[0]).toMatchObject({
      isError: true,
      text: 'Error: the code ran past its time limit (300 ms)',
    });
    expect(result.text).toBe('Returned: "undefined"');
  });
  /** The wait server, listening: its `wait` never ends on its own. */
  async function slowServer() {
    const { create, running, aborted } = waitServer();
    const listening = await listen(create);
    cleanups.push(() => listening.close());
    return { url: listening.url, running, aborted };
  }

  it('cancels the call the code has in flight when the run is cancelled', async () => {
    const slow = await slowServer();
    const model = await fake([
      { toolCalls: [{ name: 'run_code', arguments: { code: 'return await slow.wait({})' } }] },
      { text: 'never' },
    ]);
    const h = await host(api, model, { slow: { url: slow.url } });
    const controller = new AbortController();
    const run = h.run([{ role: 'user', content: 'wait' }], { signal: controller.signal });
    await slow.running;
    controller.abort(new Error('stopped by the user'));
    await expect(run).rejects.toThrow('stopped by the user');
    await slow.aborted;
    expect(model.requests).toHaveLength(1);
  });

  it('cancels the call the code has in flight when the code run passes its wall-clock limit', async () => {
    const slow = await slowServer();
    const model = await fake([
      { toolCalls: [{ name: 'run_code', arguments: { code: 'return await slow.wait({})' } }] },
      (seen) => ({ text: seen.results[0]?.text ?? '' }),
    ]);
    const h = await host(
      api,
      model,
      { slow: { url: slow.url } },
      {
        codeMode: { wallTimeoutMs: 300 },
      },
    );
    const result = await h.run([{ role: 'user', content: 'wait' }]);
    await slow.aborted;
    expect(model.requests[1]!.results[0]).toMatchObject({
      isError: true,
      text: expect.stringContaining('wall-clock limit (300 ms'),
    });
    expect(result.text).toContain('wall-clock limit');
  });
});
