// One run of the model's code in a QuickJS runtime, inside the sandbox worker: the bootstrap, the
// host functions the code reaches (__log, __call, __search), the job queue driven until the
// code's promise settles, and the value read out as JSON text. Tool calls and searches leave
// through a channel to the host thread; the run never touches anything else of the host.
// Time (the code's own, through the interrupt handler), the wall-clock deadline, the host's stop
// flag, memory (the runtime's limit, inside a capped WebAssembly memory), stack, calls and output
// are bounded; the first bound hit ends the run with an error naming it.
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten';
import type { QuickJSWASMModule } from 'quickjs-emscripten';
import { BOOTSTRAP } from './bootstrap.js';
import type { HostMessage, Progress, RunRequest, WorkerMessage } from './sandbox-protocol.js';
import { DEFAULT_LIMITS, timeLimit, wallLimit } from './sandbox-protocol.js';

/** How a run talks to the host thread. */
export interface GuestChannel {
  post(message: WorkerMessage): void;
  /** The host's next message of this run (an answer, or a wake-up to stop). */
  next(): Promise<HostMessage>;
  /** `searchTools` answered by the host, synchronously; '' when the run is stopped meanwhile. */
  search(query: string, limit: number, progress: Progress): string;
  /** True once the host asked the run to stop (cancelled, past its deadline). */
  stopped(): boolean;
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
  /** Answers received from the host. */
  seen = 0;
  /** The first limit hit, which ends the run. */
  fatal: string | undefined;
  /** Guest promises of calls not answered yet, by id: disposed with the run. */
  readonly deferreds = new Map<number, { resolve(h: QuickJSHandle): void; dispose(): void }>();
  /** Time the code has run so far (ms), and when the current stretch began. */
  #computed = 0;
  #sliceStart: number | undefined;
  /** When lines last went to the host. */
  #flushed = 0;

  readonly request: RunRequest;
  readonly channel: GuestChannel;

  constructor(quickjs: QuickJSWASMModule, request: RunRequest, channel: GuestChannel) {
    this.request = request;
    this.channel = channel;
    this.limits = request.limits;
    this.runtime = quickjs.newRuntime();
    this.runtime.setMemoryLimit(this.limits.memoryBytes);
    this.runtime.setMaxStackSize(Math.min(this.limits.stackBytes, DEFAULT_LIMITS.stackBytes));
    this.runtime.setInterruptHandler(() => {
      const now = Date.now();
      const since = this.#sliceStart;
      if (since !== undefined && this.#computed + now - since > this.limits.timeoutMs) {
        this.fatal ??= timeLimit(this.limits);
      }
      if (now > request.deadline) this.fatal ??= wallLimit(this.limits);
      if (channel.stopped()) this.fatal ??= STOPPED;
      if (this.unsent.length > 0 && now - this.#flushed >= FLUSH_MS) this.flush();
      return this.fatal !== undefined;
    });
    this.context = this.runtime.newContext();
  }

  /** Runs `work` (the interpreter running the code) as time the code spends. */
  running<T>(work: () => T): T {
    const start = Date.now();
    this.#sliceStart = start;
    try {
      return work();
    } finally {
      this.#computed += Date.now() - start;
      this.#sliceStart = undefined;
    }
  }

  /** Takes `ms` (spent waiting on the host) off the code's running time. */
  waited(ms: number): void {
    this.#computed -= ms;
  }

  /** The lines printed since the last message, and the counters. */
  progress(): Progress {
    const logs = this.unsent;
    this.unsent = [];
    this.#flushed = Date.now();
    return { logs, calls: this.calls, truncated: this.truncated };
  }

  /** Keeps a line the code printed; sends it at once unless lines went out a moment ago. */
  log(line: string): void {
    this.unsent.push(line);
    if (Date.now() - this.#flushed >= FLUSH_MS) this.flush();
  }

  /** Sends the lines not sent yet. */
  flush(): void {
    this.channel.post({ type: 'progress', progress: this.progress() });
  }

  /** The result, with what the run printed. */
  finish(fields: { error?: string; value?: string }, reusable = true): GuestResult {
    return { type: 'done', ...fields, reusable, progress: this.progress() };
  }

  /** Frees the runtime; false when QuickJS failed to (the module is then unusable). */
  dispose(): boolean {
    try {
      for (const deferred of this.deferreds.values()) deferred.dispose();
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
 * Runs `request.code` in a fresh runtime of `quickjs` and says how it went. Never throws for the
 * code's behaviour; `reusable` is false when the runtime could not be freed.
 */
export async function runGuest(
  quickjs: QuickJSWASMModule,
  request: RunRequest,
  channel: GuestChannel,
): Promise<GuestResult> {
  const run = new Run(quickjs, request, channel);
  let result: GuestResult;
  try {
    result = await execute(run);
  } catch (error) {
    // The interpreter itself failed (a WebAssembly trap): the run ends.
    run.fatal ??= `the sandbox failed: ${error instanceof Error ? error.message : String(error)}`;
    result = run.finish({ error: run.fatal });
  }
  const freed = run.dispose();
  return freed && run.fatal === undefined ? result : { ...result, reusable: false };
}

async function execute(run: Run): Promise<GuestResult> {
  const { context } = run;
  installHost(run);
  const encoder = run.running(() => evaluate(context, BOOTSTRAP, 'bootstrap.js'));
  if (typeof encoder === 'string') {
    return run.finish({ error: `the sandbox failed to start: ${encoder}` });
  }
  try {
    const code = `(async () => {\n${run.request.code}\n})()`;
    const promise = run.running(() => evaluate(context, code, 'code.js'));
    if (typeof promise === 'string') return run.finish({ error: run.fatal ?? promise });
    try {
      const settled = await settle(run, promise);
      const encoded =
        run.fatal === undefined ? run.running(() => encode(run, encoder, settled)) : undefined;
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

/** An error handle as text, read without running the guest's code. */
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
 * next message (a tool call's answer, or a stop). A promise still pending with no call in
 * flight never settles.
 */
async function settle(
  run: Run,
  promise: QuickJSHandle,
): Promise<{ ok: boolean; handle: QuickJSHandle }> {
  const { context, runtime, channel } = run;
  for (;;) {
    const jobs = run.running(() => runtime.executePendingJobs());
    if (jobs.error !== undefined) {
      const text = errorText(context, jobs.error);
      jobs.error.dispose();
      run.fatal ??= text;
    }
    if (run.fatal !== undefined) return { ok: false, handle: context.undefined };
    const state = context.getPromiseState(promise);
    if (state.type === 'fulfilled') return { ok: true, handle: state.value };
    if (state.type === 'rejected') return { ok: false, handle: state.error };
    if (run.deferreds.size === 0) {
      run.fatal = 'the code awaits a promise that never settles (no tool call is in flight)';
      continue;
    }
    channel.post({ type: 'idle', seen: run.seen, progress: run.progress() });
    const message = await channel.next();
    if (message.type === 'answer') {
      run.seen++;
      answer(run, message.id, message.text);
    } else if (message.type === 'stop' || channel.stopped()) {
      run.fatal ??= STOPPED;
    }
  }
}

/** Settles the guest promise of call `id` with the outcome's JSON text. */
function answer(run: Run, id: number, text: string): void {
  const { context } = run;
  const deferred = run.deferreds.get(id);
  if (deferred === undefined || !context.alive) return;
  run.deferreds.delete(id);
  try {
    const handle = context.newString(text);
    deferred.resolve(handle);
    handle.dispose();
  } catch (error) {
    // The heap is full (a result too big for the memory limit): the run ends.
    run.fatal ??= `the tool result did not fit in the sandbox's memory: ${String(error)}`;
    deferred.dispose();
  }
}

/** The host functions the bootstrap captures: __log, __call, __search, and the namespaces. */
function installHost(run: Run): void {
  const { context, request } = run;
  const set = (name: string, handle: QuickJSHandle) => {
    context.setProp(context.global, name, handle);
    handle.dispose();
  };
  set('__namespaces', context.newString(JSON.stringify(request.namespaces)));
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
  set(
    '__call',
    context.newFunction('call', (ns, name, args) => {
      const strings = [ns, name, args].map((h) =>
        context.typeof(h) === 'string' ? context.getString(h) : undefined,
      );
      return callTool(run, strings);
    }),
  );
  if (request.search) {
    set(
      '__search',
      context.newFunction('search', (query, limit) => {
        const q = context.typeof(query) === 'string' ? context.getString(query) : '';
        const n = context.typeof(limit) === 'number' ? context.getNumber(limit) : 5;
        const asked = Date.now();
        const found = run.channel.search(
          q,
          Number.isFinite(n) ? Math.max(1, Math.min(20, Math.floor(n))) : 5,
          run.progress(),
        );
        run.waited(Date.now() - asked);
        return context.newString(run.out(found) ?? '');
      }),
    );
  }
}

let lastId = 0;

/** One tool call from the code: a guest promise the host's answer settles. */
function callTool(run: Run, [ns, name, args]: (string | undefined)[]): QuickJSHandle {
  const { context } = run;
  const deferred = context.newPromise();
  run.calls++;
  let refusal: string | undefined;
  if (ns === undefined || name === undefined || args === undefined) {
    refusal = 'a tool call needs a namespace, a name and JSON arguments';
  } else if (run.calls > run.limits.maxToolCalls) {
    refusal = `the limit of ${String(run.limits.maxToolCalls)} tool calls per run is reached`;
  }
  const id = ++lastId;
  run.deferreds.set(id, deferred);
  if (refusal !== undefined || ns === undefined || name === undefined || args === undefined) {
    answer(run, id, JSON.stringify({ ok: false, error: refusal }));
  } else {
    run.channel.post({ type: 'call', id, namespace: ns, name, args, progress: run.progress() });
  }
  return deferred.handle;
}
