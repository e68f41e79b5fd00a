// The host against hostile code (#41 point 3): the code runs in a worker thread, in a WebAssembly
// memory capped at its limit, watched by the host. A run that allocates what QuickJS does not count
// (large strings) or holds the interpreter in long operations ends with a clear error, the host
// process's memory stays within a bound, and its event loop keeps running meanwhile. The bounds
// below are generous ceilings (the old sandbox passed them by hundreds of MB and by seconds),
// not timings.
import { describe, expect, it } from 'vitest';
import type { RunCodeOptions } from './sandbox.js';
import { runCode } from './sandbox.js';

const MiB = 1024 * 1024;

function run(code: string, options: Partial<RunCodeOptions> = {}) {
  return runCode({
    code,
    namespaces: {},
    call: () => Promise.resolve({ ok: true, value: null }),
    ...options,
  });
}

/** Runs `code`, and measures the process's RSS (its peak over the run) and the ticks of a timer. */
async function watched(code: string, options: Partial<RunCodeOptions>) {
  // A clean run first: the worker for these limits is started, and warm.
  expect(await run('return 1', options)).toMatchObject({ ok: true, value: '1' });
  const before = process.memoryUsage().rss;
  let peak = before;
  let ticks = 0;
  const timer = setInterval(() => {
    ticks++;
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const result = await run(code, options);
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growth: peak - before, ticks };
  } finally {
    clearInterval(timer);
  }
}

describe('runCode keeps the host unharmed', () => {
  it('bounds large strings that QuickJS does not count: out of memory, RSS within the limit + 64 MB', async () => {
    const memoryBytes = 16 * MiB;
    const { result, growth } = await watched(
      'const a = []; for (let i = 0; ; i++) a.push("y".repeat(100000) + i);',
      { limits: { memoryBytes, timeoutMs: 60_000 } },
    );
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/out of memory/);
    expect(growth).toBeLessThan(memoryBytes + 64 * MiB);
    expect(await run('return 6 * 7')).toMatchObject({ ok: true, value: '42' });
  }, 90_000);

  it('ends long built-in operations at the time limit, while the event loop keeps running', async () => {
    const { result, ticks } = await watched('for (;;) "x".repeat(1e6);', {
      limits: { timeoutMs: 1_000 },
    });
    expect(result).toMatchObject({
      ok: false,
      error: 'the code ran past its time limit (1000 ms)',
    });
    // The run lasted at least its second: a blocked event loop would have ticked 0 times.
    expect(ticks).toBeGreaterThan(0);
    expect(await run('return 6 * 7')).toMatchObject({ ok: true, value: '42' });
  });

  it('cancels code held in a long operation', async () => {
    const controller = new AbortController();
    const pending = run('for (;;) "x".repeat(1e6);', {
      signal: controller.signal,
      limits: { timeoutMs: 60_000 },
    });
    setTimeout(() => {
      controller.abort();
    }, 300);
    expect(await pending).toMatchObject({ ok: false, error: 'the run was cancelled' });
  });

  it('keeps what the code printed before a limit ended it', async () => {
    const result = await run('console.log("before"); await null; for (;;) "x".repeat(1e6);', {
      limits: { timeoutMs: 500 },
    });
    expect(result).toMatchObject({
      ok: false,
      logs: ['before'],
      error: 'the code ran past its time limit (500 ms)',
    });
  });

  it('counts only the code running against the time limit across tool calls, in the worker too', async () => {
    const result = await run(
      'let n = 0; for (let i = 0; i < 4; i++) { await db.get({}); const t = Date.now(); while (Date.now() - t < 100) n++; } return "done"',
      {
        namespaces: { db: ['get'] },
        limits: { timeoutMs: 1_000 },
        call: () =>
          new Promise((resolve) => {
            setTimeout(() => {
              resolve({ ok: true, value: 1 });
            }, 400);
          }),
      },
    );
    expect(result).toMatchObject({ ok: true, value: '"done"', calls: 4 });
  });

  it('takes limits longer than a timer can wait (setTimeout fires at once above 2^31 - 1 ms)', async () => {
    const result = await run('await db.get({}); return "done"', {
      namespaces: { db: ['get'] },
      limits: { timeoutMs: 2 ** 40, wallTimeoutMs: 2 ** 40 },
    });
    expect(result).toMatchObject({ ok: true, value: '"done"' });
  });
});
