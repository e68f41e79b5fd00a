// The sandbox's worker across runs and failures (#41 point 5): the warm worker reused after a
// run that threw or left a call behind, memory caps changing between runs, limits that are not
// numbers, a worker that dies while a call is in flight, cancellation while the code waits, and
// what the code may pass to the host (a query far longer than keywords).
import { describe, expect, it } from 'vitest';
import type { CallOutcome, RunCodeOptions } from './sandbox.js';
import { runCode } from './sandbox.js';
import { wasmPages } from './sandbox-protocol.js';
import { takeWorker } from './worker-pool.js';

const MiB = 1024 * 1024;

function run(code: string, options: Partial<RunCodeOptions> = {}) {
  return runCode({
    code,
    namespaces: { db: ['get', 'slow'] },
    call: (call) =>
      Promise.resolve<CallOutcome>({ ok: true, value: { name: call.name, input: call.arguments } }),
    limits: { memoryBytes: 16 * MiB },
    ...options,
  });
}

describe('the sandbox worker across runs', () => {
  it('reuses the warm worker after a run that threw: a fresh global each run', async () => {
    const threw = await run('globalThis.leak = 1; throw new Error("boom")');
    expect(threw).toMatchObject({ ok: false, error: expect.stringMatching(/^Error: boom/) });
    expect(await run('return typeof leak')).toMatchObject({ ok: true, value: '"undefined"' });
  });

  it('never gives a run the answer of a call the previous run left behind', async () => {
    // The first run's call is answered while the code still computes; it returns without
    // awaiting it, so the answer waits for nobody. The next run's first call must get its own.
    const first = await run(
      'db.get({ run: 1 }); const t = Date.now(); while (Date.now() - t < 200); return 1',
    );
    expect(first).toMatchObject({ ok: true, value: '1' });
    const second = await run('return (await db.get({ run: 2 })).input.run');
    expect(second).toMatchObject({ ok: true, value: '2' });
  });

  it('gives each run the memory cap of its own limits when memoryBytes changes between runs', async () => {
    // About 24 MiB of arrays the runtime counts: over a 16 MiB cap, under a 64 MiB one.
    const code =
      'const a = []; for (let i = 0; i < 48; i++) a.push(new Array(65536).fill(i)); return a.length';
    const small = await run(code, { limits: { memoryBytes: 16 * MiB } });
    expect(small).toMatchObject({ ok: false, error: expect.stringMatching(/out of memory/) });
    const large = await run(code, { limits: { memoryBytes: 64 * MiB, timeoutMs: 30_000 } });
    expect(large).toMatchObject({ ok: true, value: '48' });
    const again = await run(code, { limits: { memoryBytes: 16 * MiB } });
    expect(again).toMatchObject({ ok: false, error: expect.stringMatching(/out of memory/) });
  }, 60_000);

  it('rejects limits that are not positive numbers with a RangeError naming them', async () => {
    for (const limits of [
      { memoryBytes: Number.NaN },
      { timeoutMs: -1 },
      { maxToolCalls: 0 },
      { stackBytes: '1' as unknown as number },
    ]) {
      await expect(run('return 1', { limits })).rejects.toThrow(
        new RegExp(`limit ${Object.keys(limits)[0] ?? ''} must be a positive number`),
      );
    }
    // Undefined keeps the default.
    expect(
      await run('return 1', { limits: { memoryBytes: undefined as unknown as number } }),
    ).toMatchObject({
      ok: true,
      value: '1',
    });
  });

  it('settles the run and aborts its call when the worker dies while the call is in flight', async () => {
    // The worker the run will take (the warm one for its memory cap), ended during the call.
    const worker = takeWorker(wasmPages(16 * MiB));
    await worker.ready;
    worker.release(true);
    let aborted = false;
    const result = await run('await db.slow({}); return 1', {
      call: (_call, signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve({ ok: false, error: 'aborted' });
          });
          void worker.terminate();
        }),
    });
    expect(result).toMatchObject({ ok: false, error: 'the sandbox worker stopped', calls: 1 });
    expect(aborted).toBe(true);
    expect(await run('return 6 * 7')).toMatchObject({ ok: true, value: '42' });
  });

  it('ends a run cancelled while the code waits on a call that ignores the signal', async () => {
    const controller = new AbortController();
    const result = await run('await db.slow({}); return 1', {
      signal: controller.signal,
      call: () => {
        controller.abort();
        return new Promise<CallOutcome>(() => undefined);
      },
    });
    expect(result).toMatchObject({ ok: false, error: 'the run was cancelled', calls: 1 });
    expect(await run('return 6 * 7')).toMatchObject({ ok: true, value: '42' });
  });

  it('aborts the call in flight with the reason of the signal that cancelled the run', async () => {
    const controller = new AbortController();
    const reason = new Error('the user left');
    let seen: unknown;
    const result = await run('await db.slow({}); return 1', {
      signal: controller.signal,
      call: (_call, signal) =>
        new Promise<CallOutcome>((resolve) => {
          signal.addEventListener('abort', () => {
            seen = signal.reason;
            resolve({ ok: false, error: 'aborted' });
          });
          controller.abort(reason);
        }),
    });
    expect(result).toMatchObject({ ok: false, error: 'the run was cancelled', calls: 1 });
    expect(seen).toBe(reason);
  });

  it('passes the host at most 1,000 characters of a searchTools query', async () => {
    let seen = -1;
    const result = await run('return searchTools("a".repeat(100000), 1e9)', {
      search: (query, limit) => {
        seen = query.length;
        return `limit ${String(limit)}`;
      },
    });
    expect(result).toMatchObject({ ok: true, value: '"limit 20"' });
    expect(seen).toBe(1_000);
  });
});

describe('the sandbox memory', () => {
  it('frees the runtime after a tool result of 4 MiB and more, and keeps the worker warm', async () => {
    // The code's jobs grew the WebAssembly memory (a 4 MiB result, parsed after an await), and
    // quickjs-emscripten 0.32 then read the job's context through a view of the memory before
    // it grew: it made a context no one freed, JS_FreeRuntime failed its assertion, and every
    // such run paid a new worker.
    const limits = { memoryBytes: 48 * MiB };
    const worker = takeWorker(wasmPages(limits.memoryBytes));
    await worker.ready;
    worker.release(true);
    const value = 'x'.repeat(4 * MiB);
    const result = await run('const r = await db.get({}); return r.length', {
      limits,
      call: () => Promise.resolve<CallOutcome>({ ok: true, value }),
    });
    expect(result).toMatchObject({ ok: true, value: String(4 * MiB), calls: 1 });
    const next = takeWorker(wasmPages(limits.memoryBytes));
    expect(next).toBe(worker);
    expect(next.alive).toBe(true);
    next.release(true);
    expect(await run('return 6 * 7', { limits })).toMatchObject({ ok: true, value: '42' });
  }, 60_000);

  it('ends the run when a tool result meets a memory the code filled, and discards the worker', async () => {
    // Large strings QuickJS does not count fill the WebAssembly memory to its cap; the copy of a
    // 16 KB answer into it then fails, and quickjs-emscripten writes it at address 0, over the
    // interpreter's own data (before: the run failed with "thrown: 2", its worker kept). The run
    // ends there, out of memory, its worker discarded; the next runs are sound.
    const options = {
      limits: { memoryBytes: 16 * MiB, timeoutMs: 60_000 },
      call: () => Promise.resolve<CallOutcome>({ ok: true, value: 'z'.repeat(16 * 1024) }),
    };
    const filled = await run(
      'const keep = []; for (const n of [1e6, 1e5, 1e4, 1e3]) { try { for (;;) keep.push("y".repeat(n) + keep.length) } catch {} } const r = await db.get({}); return r.length',
      options,
    );
    expect(filled).toMatchObject({
      ok: false,
      error:
        "the code ran out of memory (limit 16777216 bytes): the tool result did not fit in the sandbox's memory",
    });
    for (let i = 0; i < 2; i++) {
      expect(await run('return [1, 2, 3].map((x) => x * 2).join()', options)).toMatchObject({
        ok: true,
        value: '"2,4,6"',
      });
    }
  }, 60_000);
});
