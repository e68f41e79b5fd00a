// One run of the model's code in a QuickJS runtime, inside the sandbox worker: the bootstrap, the
// host functions the code reaches (__log, __call, __search), the job queue driven until the
// code's promise settles, and the value read out as JSON text. Tool calls and searches leave
// through a channel to the host thread; the run never touches anything else of the host. A run
// is synchronous from start to end: while the code waits on the host, the worker blocks on the
// channel (the host's answer wakes it), so no event loop turn or promise of the worker's is on a
// call's path.
// Time (the code's own, through the interrupt handler), the wall-clock deadline, the host's stop
// flag, memory (the runtime's limit, inside a capped WebAssembly memory), stack, calls and output
// are bounded; the first bound hit ends the run with an error naming it.
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten';
import type { QuickJSWASMModule } from 'quickjs-emscripten';
import { BOOTSTRAP } from './bootstrap.js';
import type { Answer, Progress, RunRequest, WorkerMessage } from './sandbox-protocol.js';
import { DEFAULT_LIMITS, memoryLimit, timeLimit, wallLimit } from './sandbox-protocol.js';
import { messageOf } from '../internal/message-of.js';

/** How a run talks to the host thread. */
export interface GuestChannel {
  post(message: WorkerMessage): void;
  /** The host's next answer to a tool call; undefined once the host asked the run to stop. */
  wait(): Extract<Answer, string> | undefined;
  /** `searchTools` answered by the host; '' when the run is stopped meanwhile. */
  search(query: string, limit: number): string;
  /** True once the host asked the run to stop (cancelled, past its deadline). */
  stopped(): boolean;
  /**
   * Tells the host the code's clock: running since `since` (Date.now() ms), or waiting on the
   * host (undefined), after `computed` ms of running before.
   */
  clock(since: number | undefined, computed: number): void;
}

/** The worker's QuickJS, and the WebAssembly memory it runs in as a run watches it. */
export interface GuestModule {
  readonly quickjs: QuickJSWASMModule;
  readonly memory: {
    /** False once a copy from the host into the memory failed (it is then corrupt). */
    intact(): boolean;
  };
}

/** The run's outcome as the worker reports it. */
export type GuestResult = Extract<WorkerMessage, { type: 'done' }>;

/**
 * Lines go to the host at most this often (ms) while the code runs, so that a run the host ends
 * keeps what it printed, without a message per line.
 */
const FLUSH_MS = 10;

/** The error of a run the host stopped; the host reports its own reason instead. */
const STOPPED = 'the run was stopped by the host';

/** The longest query searchTools passes to the host (keywords; the rest is cut). */
const MAX_QUERY = 1_000;

/** One run's state, shared by its host functions. */
class Run {
  readonly limits: Required<RunRequest['limits']>;
  readonly runtime: QuickJSRuntime;
  readonly context: QuickJSContext;
  /** Lines not yet sent to the host. */
  unsent: string[] = [];
  chars = 0;
  truncated = false;
  calls = 0;
  /** Calls posted and not answered yet. */
  inFlight = 0;
  /** The first limit hit, which ends the run. */
  fatal: string | undefined;
  /** True once the memory is found corrupt: nothing more may run in it, not even freeing. */
  corrupt = false;
  /** The bootstrap's `deliver(id, outcome)`, once it has run. */
  deliver: QuickJSHandle | undefined;
  /** Time the code has run so far (ms) before the current stretch, and when that began. */
  #computed = 0;
  #since: number | undefined;
  /** When lines last went to the host, and the counters it was last told. */
  #flushed = 0;
  #toldCalls = 0;
  #toldTruncated = false;

  readonly request: RunRequest;
  readonly channel: GuestChannel;
  readonly memory: GuestModule['memory'];

  constructor({ quickjs, memory }: GuestModule, request: RunRequest, channel: GuestChannel) {
    this.request = request;
    this.channel = channel;
    this.memory = memory;
    this.limits = request.limits;
    this.resume();
    this.runtime = quickjs.newRuntime();
    this.runtime.setMemoryLimit(this.limits.memoryBytes);
    this.runtime.setMaxStackSize(Math.min(this.limits.stackBytes, DEFAULT_LIMITS.stackBytes));
    this.runtime.setInterruptHandler(() => {
      const now = Date.now();
      if (this.#computed + now - (this.#since ?? now) > this.limits.timeoutMs) {
        this.fatal ??= timeLimit(this.limits);
      }
      if (now > request.deadline) this.fatal ??= wallLimit(this.limits);
      if (channel.stopped()) this.fatal ??= STOPPED;
      if (this.unsent.length > 0 && now - this.#flushed >= FLUSH_MS) this.flush();
      return this.fatal !== undefined;
    });
    this.context = this.runtime.newContext();
  }

  /** The code waits on the host from now: its clock stops. */
  pause(): void {
    const since = this.#since;
    if (since === undefined) return;
    this.#computed += Date.now() - since;
    this.#since = undefined;
    this.channel.clock(undefined, this.#computed);
  }

  /** The code (or the worker, for it) runs again from now. */
  resume(): void {
    this.#since = Date.now();
    this.channel.clock(this.#since, this.#computed);
  }

  /** The lines printed since the last report, and the counters. */
  progress(): Progress {
    const logs = this.unsent;
    this.unsent = [];
    this.#flushed = Date.now();
    this.#toldCalls = this.calls;
    this.#toldTruncated = this.truncated;
    return { logs, calls: this.calls, truncated: this.truncated };
  }

  /** Keeps a line the code printed; sends it at once unless lines went out a moment ago. */
  log(line: string): void {
    this.unsent.push(line);
    if (Date.now() - this.#flushed >= FLUSH_MS) this.flush();
  }

  /** Sends what the host has not been told yet, if anything. */
  flush(): void {
    const told = this.#toldCalls === this.calls && this.#toldTruncated === this.truncated;
    if (told && this.unsent.length === 0) return;
    this.channel.post({ type: 'progress', progress: this.progress() });
  }

  /** Call `id`, the host is told of by its message (so no report is due for it). */
  posted(id: number): void {
    if (this.#toldCalls === id - 1) this.#toldCalls = id;
  }

  /**
   * Checks that copying `what` into the memory did not fail; when it did, the run ends out of
   * memory and runs nothing more (`corrupt`). True when the memory is intact.
   */
  intact(what: string): boolean {
    if (this.corrupt || this.memory.intact()) return !this.corrupt;
    this.corrupt = true;
    this.fatal = memoryLimit(this.limits, `${what} did not fit in the sandbox's memory`);
    return false;
  }

  /** The result, with what the run printed. */
  finish(fields: { error?: string; value?: string }, reusable = true): GuestResult {
    return { type: 'done', ...fields, reusable, progress: this.progress() };
  }

  /** Frees the runtime; false when QuickJS failed to (the module is then unusable). */
  dispose(): boolean {
    this.pause();
    try {
      this.deliver?.dispose();
      this.context.dispose();
      this.runtime.dispose();
      return true;
    } catch {
      return false;
    }
  }

  /** Keeps output within maxOutputChars. */
  out(text: string): string | undefined {
    if (this.truncated) return undefined;
    const room = this.limits.maxOutputChars - this.chars;
    if (text.length > room) {
      this.truncated = true;
      return `${text.slice(0, Math.max(0, room))}… (output cut at ${String(this.limits.maxOutputChars)} characters)`;
    }
    this.chars += text.length;
    return text;
  }
}

/**
 * Runs `request.code` in a fresh runtime of `module` and says how it went. Never throws;
 * `reusable` is false when the run hit a limit or its runtime could not be freed (the worker is
 * then discarded).
 */
export function runGuest(
  module: GuestModule,
  request: RunRequest,
  channel: GuestChannel,
): GuestResult {
  if (!module.memory.intact()) {
    return {
      type: 'done',
      error: failed('its memory is corrupt'),
      reusable: false,
      progress: noProgress,
    };
  }
  let run: Run;
  try {
    run = new Run(module, request, channel);
  } catch (error) {
    channel.clock(undefined, 0);
    return { type: 'done', error: failed(error), reusable: false, progress: noProgress };
  }
  let result: GuestResult;
  try {
    result = execute(run);
  } catch (error) {
    // The interpreter itself failed (a WebAssembly trap): the run ends.
    if (!(error instanceof Corrupt)) run.fatal ??= failed(error);
    result = run.finish({ error: run.fatal ?? failed(error) });
  }
  run.intact('a value');
  const freed = !run.corrupt && run.dispose();
  return freed && run.fatal === undefined ? result : { ...result, reusable: false };
}

const noProgress: Progress = { logs: [], calls: 0, truncated: false };

/** Thrown to leave a run whose memory is corrupt (`run.fatal` says why). */
class Corrupt extends Error {}

/** Throws {@link Corrupt} when copying `what` into the memory failed. */
function check(run: Run, what: string): void {
  if (!run.intact(what)) throw new Corrupt(run.fatal);
}

function failed(error: unknown): string {
  return `the sandbox failed: ${messageOf(error)}`;
}

function execute(run: Run): GuestResult {
  const { context } = run;
  installHost(run);
  const boot = evaluate(context, BOOTSTRAP, 'bootstrap.js');
  check(run, 'the bootstrap');
  if (typeof boot === 'string')
    return run.finish({ error: `the sandbox failed to start: ${boot}` });
  const encoder = context.getProp(boot, 0);
  run.deliver = context.getProp(boot, 1);
  boot.dispose();
  try {
    const promise = evaluate(context, `(async () => {\n${run.request.code}\n})()`, 'code.js');
    check(run, 'the code');
    if (typeof promise === 'string') return run.finish({ error: run.fatal ?? promise });
    try {
      const settled = settle(run, promise);
      const encoded = run.fatal === undefined ? encode(run, encoder, settled) : undefined;
      settled.handle.dispose();
      if (run.fatal !== undefined) return run.finish({ error: run.fatal });
      if (!settled.ok) return run.finish({ error: encoded ?? 'the code failed' });
      const value = encoded === undefined ? undefined : run.out(encoded);
      return run.finish(value === undefined ? {} : { value });
    } finally {
      promise.dispose();
    }
  } finally {
    encoder.dispose();
  }
}

/** Evaluates `code`: its value's handle, or the error's text. */
function evaluate(context: QuickJSContext, code: string, file: string): QuickJSHandle | string {
  const result = context.evalCode(code, file);
  if (result.error === undefined) return result.value;
  const text = errorText(context, result.error);
  result.error.dispose();
  return text;
}

/** An error handle as text. */
function errorText(context: QuickJSContext, handle: QuickJSHandle): string {
  try {
    const dumped: unknown = context.dump(handle);
    if (dumped !== null && typeof dumped === 'object') {
      const { name, message } = dumped as { name?: unknown; message?: unknown };
      if (typeof message === 'string')
        return `${typeof name === 'string' ? name : 'Error'}: ${message}`;
    }
    return `thrown: ${String(dumped)}`;
  } catch {
    return 'the code failed with a value that cannot be shown';
  }
}

/** Runs the encoder on a settled value: JSON text (value) or a description (error). */
function encode(
  { context }: Run,
  encoder: QuickJSHandle,
  { ok, handle }: { ok: boolean; handle: QuickJSHandle },
): string | undefined {
  const kind = ok ? 'value' : 'error';
  const kindHandle = context.newString(kind);
  const result = context.callFunction(encoder, context.undefined, kindHandle, handle);
  kindHandle.dispose();
  if (result.error !== undefined) {
    const text = errorText(context, result.error);
    result.error.dispose();
    return kind === 'error' ? text : JSON.stringify(`(the returned value cannot be read: ${text})`);
  }
  const out =
    context.typeof(result.value) === 'string' ? context.getString(result.value) : undefined;
  result.value.dispose();
  return out;
}

/**
 * Drives the code until its promise settles: runs the pending jobs, then waits for the host's
 * next answer (or a stop). A promise still pending with no call in flight never settles.
 */
function settle(run: Run, promise: QuickJSHandle): { ok: boolean; handle: QuickJSHandle } {
  const { context, runtime, channel } = run;
  for (;;) {
    const jobs = runtime.executePendingJobs();
    if (jobs.error !== undefined) {
      const text = errorText(context, jobs.error);
      jobs.error.dispose();
      run.fatal ??= text;
    }
    if (run.fatal !== undefined) return { ok: false, handle: context.undefined };
    const state = context.getPromiseState(promise);
    if (state.type === 'fulfilled') return { ok: true, handle: state.value };
    if (state.type === 'rejected') return { ok: false, handle: state.error };
    if (run.inFlight === 0) {
      run.fatal = 'the code awaits a promise that never settles (no tool call is in flight)';
      continue;
    }
    run.flush();
    run.pause();
    const answer = channel.wait();
    run.resume();
    if (answer === undefined) run.fatal ??= STOPPED;
    else deliver(run, answer);
  }
}

/** Settles the guest promise of a call with its answer (the JSON text naming the call). */
function deliver(run: Run, text: string): void {
  const { context } = run;
  run.inFlight--;
  let problem: string | undefined;
  try {
    const textHandle = context.newString(text);
    check(run, 'the tool result');
    const result = context.callFunction(
      run.deliver as QuickJSHandle,
      context.undefined,
      textHandle,
    );
    textHandle.dispose();
    if (result.error !== undefined) problem = errorText(context, result.error);
    result.dispose();
  } catch (error) {
    if (error instanceof Corrupt) throw error;
    problem = String(error);
  }
  // The heap is full (a result too big for the memory limit): the run ends.
  if (problem !== undefined) {
    run.fatal ??= `the tool result did not fit in the sandbox's memory: ${problem}`;
  }
}

/** The host functions the bootstrap captures: __log, __call, __search, and the functions. */
function installHost(run: Run): void {
  const { context, request } = run;
  const set = (name: string, handle: QuickJSHandle) => {
    context.setProp(context.global, name, handle);
    handle.dispose();
  };
  set('__functions', context.newString(JSON.stringify(request.functions)));
  set(
    '__log',
    context.newFunction('log', (line) => {
      if (context.typeof(line) !== 'string') return;
      const kept = run.out(context.getString(line));
      if (kept !== undefined) {
        run.log(kept);
        run.chars += 1;
      }
    }),
  );
  // Only the bootstrap calls it, always as (index: number, args: JSON text).
  set(
    '__call',
    context.newFunction('call', (fn, args) =>
      callTool(run, context.getNumber(fn), context.getString(args)),
    ),
  );
  if (request.search) {
    set(
      '__search',
      context.newFunction('search', (query, limit) => {
        const q = context.typeof(query) === 'string' ? context.getString(query) : '';
        const n = context.typeof(limit) === 'number' ? context.getNumber(limit) : 5;
        run.flush();
        run.pause();
        const found = run.channel.search(
          q.slice(0, MAX_QUERY),
          Number.isFinite(n) ? Math.max(1, Math.min(20, Math.floor(n))) : 5,
        );
        run.resume();
        const handle = context.newString(run.out(found) ?? '');
        // A corrupt memory ends the run at the interpreter's next check (a throw from here would
        // build an error object in it).
        return run.intact("searchTools' answer") ? handle : undefined;
      }),
    );
  }
}

/** One tool call from the code: its id (the guest waits for its answer), or why it is refused. */
function callTool(run: Run, fn: number, args: string): QuickJSHandle {
  const { context } = run;
  run.flush();
  const id = ++run.calls;
  if (id > run.limits.maxToolCalls) {
    return context.newString(
      `the limit of ${String(run.limits.maxToolCalls)} tool calls per run is reached`,
    );
  }
  // The input is the guest's JSON text: the message is one string, parsed once by the host.
  run.channel.post(`[${String(id)},${String(fn)},${args}]`);
  run.posted(id);
  run.inFlight++;
  return context.newNumber(id);
}
