// The sandbox against ordinary and hostile code: each hostile case ends with a clear error, and
// the host (this process, and the next run) is unharmed.
import { describe, expect, it } from 'vitest';
import type { CallOutcome, RunCodeOptions } from './sandbox.js';
import { runCode } from './sandbox.js';

const echo = async (call: {
  namespace: string;
  name: string;
  arguments: unknown;
}): Promise<CallOutcome> =>
  Promise.resolve(
    call.name === 'fail'
      ? { ok: false, error: 'no such row' }
      : { ok: true, value: { at: `${call.namespace}.${call.name}`, input: call.arguments } },
  );

function run(code: string, options: Partial<RunCodeOptions> = {}) {
  return runCode({
    code,
    namespaces: { db: ['get', 'fail'] },
    call: echo,
    limits: { timeoutMs: 2_000, memoryBytes: 16 * 1024 * 1024 },
    ...options,
  });
}

/** After a hostile run, a plain one still works (the module was not left broken). */
async function stillWorks(): Promise<void> {
  const after = await run('return 6 * 7');
  expect(after).toMatchObject({ ok: true, value: '42' });
}

describe('runCode', () => {
  it('returns what the code prints and returns, calling tools through the callback', async () => {
    const result = await run(
      'const a = await db.get({ id: 1 }); console.log("got", a.at, { n: 1 }); console.error("careful"); return a.input.id + 1',
    );
    expect(result).toEqual({
      ok: true,
      logs: ['got db.get {"n":1}', 'error: careful'],
      value: '2',
      calls: 1,
      truncated: false,
    });
  });

  it('runs calls concurrently (Promise.all) and gives tool errors as catchable ToolErrors', async () => {
    const result = await run(`
      const [a, b] = await Promise.all([db.get({ id: 1 }), db.get({ id: 2 })]);
      try { await db.fail({}); } catch (e) { return [a.input.id, b.input.id, e.name, e.message, e.tool, e instanceof ToolError]; }
    `);
    expect(result.ok).toBe(true);
    expect(JSON.parse(result.value ?? '')).toEqual([
      1,
      2,
      'ToolError',
      'no such row',
      'db.fail',
      true,
    ]);
  });

  it('turns a callback that throws into a ToolError, and a thrown value into an error result', async () => {
    const thrown = await run('try { await db.get({}) } catch (e) { return e.message }', {
      call: () => Promise.reject(new Error('connection lost')),
    });
    expect(thrown.value).toBe('"connection lost"');
    const uncaught = await run('throw new RangeError("bad")');
    expect(uncaught.ok).toBe(false);
    expect(uncaught.error).toMatch(/^RangeError: bad/);
  });

  it('ends an infinite loop at the time limit', async () => {
    const result = await run('for (;;) {}', { limits: { timeoutMs: 300 } });
    expect(result).toMatchObject({ ok: false, error: 'the code ran past its time limit (300 ms)' });
    await stillWorks();
  });

  it('ends a tool call that never answers at the wall-clock limit, and aborts it', async () => {
    let aborted = false;
    const result = await run('await db.get({})', {
      limits: { wallTimeoutMs: 300 },
      call: (_call, signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve({ ok: false, error: 'aborted' });
          });
        }),
    });
    expect(result.error).toBe('the run passed its wall-clock limit (300 ms, tool calls included)');
    expect(aborted).toBe(true);
  });

  it('ends memory bombs with an error (out of memory or the time limit)', async () => {
    for (const code of [
      'const a = []; for (;;) a.push(new Array(10000).fill(1));',
      'let s = "x"; for (;;) s = s + s;',
      'const a = []; for (;;) a.push({ a: 1, b: [1, 2, 3] });',
    ]) {
      const result = await run(code);
      expect(result.ok).toBe(false);
      expect(result.error).toMatch(/out of memory|string too long|time limit/);
      expect(result.error).not.toMatch(/sandbox failed/);
    }
    await stillWorks();
    // Each bomb discards its worker: the next run starts another (slow from source, under tsx).
  }, 60_000);

  it('ends deep recursion with a stack overflow, not a crash of the host', async () => {
    const result = await run('function f(n) { return f(n + 1) + 1 } f(0)');
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/stack overflow/);
    await stillWorks();
  });

  it('offers no way to the host: no process, require, import, fetch, timers or host functions', async () => {
    const result = await run(`
      const seen = {};
      for (const name of ['process', 'require', 'module', 'fetch', 'setTimeout', 'setInterval', 'XMLHttpRequest', 'WebAssembly', '__call', '__log', '__search', 'Deno', 'Bun'])
        seen[name] = typeof globalThis[name];
      seen.fromFunction = typeof Function('return this')().process;
      seen.fromConstructor = (() => {}).constructor('return typeof process')();
      try { await import('fs'); seen.import = 'loaded'; } catch (e) { seen.import = e.name; }
      seen.logIsHost = String(console.log).includes('native');
      return seen;
    `);
    expect(result.ok).toBe(true);
    const seen = JSON.parse(result.value ?? '{}') as Record<string, unknown>;
    for (const name of [
      'process',
      'require',
      'module',
      'fetch',
      'setTimeout',
      'setInterval',
      'XMLHttpRequest',
      'WebAssembly',
      '__call',
      '__log',
      '__search',
      'Deno',
      'Bun',
    ]) {
      expect(seen[name], name).toBe('undefined');
    }
    expect(seen['fromFunction']).toBe('undefined');
    expect(seen['fromConstructor']).toBe('undefined');
    expect(seen['import']).not.toBe('loaded');
    expect(seen['logIsHost']).toBe(false);
  });

  it('survives prototype games: the host reads only JSON text, the code only hurts itself', async () => {
    const polluted = await run(`
      Object.prototype.ok = true; Object.prototype.value = 'forged';
      JSON.parse = () => ({ ok: true, value: 'forged' }); JSON.stringify = () => '{"evil":1}';
      Array.prototype.map = () => { throw new Error('trap') };
      const got = await db.get({ id: 5 });
      console.log({ x: 1 });
      return got.input.id;
    `);
    expect(polluted).toMatchObject({ ok: true, logs: ['{"x":1}'], value: '5' });
    // Nothing leaked into the host's own prototypes.
    expect(({} as Record<string, unknown>)['ok']).toBeUndefined();
    const getter = await run(`return { get boom() { for (;;) {} } }`, {
      limits: { timeoutMs: 300 },
    });
    expect(getter.error).toMatch(/time limit/);
    const cyclic = await run('const a = {}; a.a = a; return a');
    expect(cyclic.value).toMatch(/not JSON/);
    const thenable = await run('return { then(resolve) { resolve(7) } }');
    expect(thenable.value).toBe('7');
    await stillWorks();
  }, 60_000);

  it('bounds tool calls and output', async () => {
    const calls = await run(
      'for (let i = 0; ; i++) { try { await db.get({ i }) } catch (e) { return [i, e.message] } }',
      {
        limits: { maxToolCalls: 3 },
      },
    );
    expect(JSON.parse(calls.value ?? '')).toEqual([
      3,
      'the limit of 3 tool calls per run is reached',
    ]);
    const output = await run(
      'for (let i = 0; i < 1000; i++) console.log("x".repeat(100)); return "y".repeat(1000)',
      {
        limits: { maxOutputChars: 500 },
      },
    );
    expect(output.truncated).toBe(true);
    expect(output.logs.join('').length).toBeLessThan(700);
    expect(output.value).toBeUndefined();
  });

  it('does not count the time spent waiting on calls against the running time', async () => {
    let calls = 0;
    const result = await run('for (let i = 0; i < 3; i++) await db.get({}); return "done"', {
      limits: { timeoutMs: 150 },
      // Each call answers after a while (a user answering a form): 3 × 100 ms of waiting.
      call: () =>
        new Promise((resolve) => {
          calls++;
          setTimeout(() => {
            resolve({ ok: true, value: calls });
          }, 100);
        }),
    });
    expect(result).toMatchObject({ ok: true, value: '"done"', calls: 3 });
  });

  it('reports a promise that can never settle, and a syntax error', async () => {
    expect((await run('await new Promise(() => {})')).error).toMatch(/never settles/);
    expect((await run('return (')).error).toMatch(/^SyntaxError/);
  });

  it('stops when the signal aborts, during a tool call', async () => {
    const controller = new AbortController();
    const result = await run('await db.get({}); for (;;) {}', {
      signal: controller.signal,
      limits: { timeoutMs: 60_000 },
      call: (_call, signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            resolve({ ok: false, error: 'aborted' });
          });
          controller.abort();
        }),
    });
    expect(result.error).toBe('the run was cancelled');
  });
});
