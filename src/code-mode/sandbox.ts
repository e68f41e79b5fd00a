// The code-mode sandbox: runs a model's JavaScript in QuickJS compiled to WebAssembly
// (quickjs-emscripten, an optional peer). The code sees no network, no file system, no timers and
// no host object: only `console`, one object per server whose functions call tools, and
// `searchTools`. Values cross the boundary as JSON text, so nothing of the host (credentials,
// clients, functions) is reachable from inside. Time (the code's own running time, through an
// interrupt handler, and a wall-clock limit of the whole run, awaited tool calls included),
// memory (the runtime's limit), stack, tool calls and output are bounded; when a bound is hit the run ends with an error naming it and the
// runtime is thrown away.
import type {
  QuickJSContext,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
} from 'quickjs-emscripten';
import { BOOTSTRAP } from './bootstrap.js';

/** Bounds of one run. Every field is optional. */
export interface SandboxLimits {
  /**
   * Time the code may spend running, in ms: its own work, not the time it waits for tool calls
   * (checked by QuickJS's interrupt handler). Default 10,000.
   */
  readonly timeoutMs?: number;
  /**
   * Wall-clock time of the whole run, tool calls included (a user answering an elicitation, a
   * slow server), in ms; past it the calls in flight are aborted. Default 300,000.
   */
  readonly wallTimeoutMs?: number;
  /** Most bytes the runtime's heap may hold. Default 64 MiB. */
  readonly memoryBytes?: number;
  /**
   * Most bytes of QuickJS stack (deep recursion fails with a stack overflow). Default and most
   * 256 KiB: above it, the recursion exhausts Node's own stack first.
   */
  readonly stackBytes?: number;
  /** Most tool calls one run may make. Default 50. */
  readonly maxToolCalls?: number;
  /** Most characters of output (console lines and the returned value, together). Default 40,000. */
  readonly maxOutputChars?: number;
}

/** The defaults of {@link SandboxLimits}. */
export const DEFAULT_LIMITS: Required<SandboxLimits> = {
  timeoutMs: 10_000,
  wallTimeoutMs: 300_000,
  memoryBytes: 64 * 1024 * 1024,
  stackBytes: 256 * 1024,
  maxToolCalls: 50,
  maxOutputChars: 40_000,
};

/** What a tool call made from the code ends with: a value, or an error the code can catch. */
export type CallOutcome =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

/**
 * Runs one tool for the code. `namespace` and `name` are the identifiers the code used. It must
 * not throw (a throw is turned into an error outcome) and should stop when `signal` aborts.
 */
export type ToolCaller = (
  call: { readonly namespace: string; readonly name: string; readonly arguments: unknown },
  signal: AbortSignal,
) => Promise<CallOutcome>;

/** Options of {@link runCode}. */
export interface RunCodeOptions {
  /** The code: the body of an async function (`await` and `return` work at its top level). */
  readonly code: string;
  /** The functions the code may call: identifiers by namespace. */
  readonly namespaces: Readonly<Record<string, readonly string[]>>;
  /** Runs each tool call. */
  readonly call: ToolCaller;
  /** `searchTools(query, limit)` inside the code: declarations of matching tools. */
  readonly search?: (query: string, limit: number) => string;
  readonly limits?: SandboxLimits;
  /** Ends the run (and aborts its tool calls). */
  readonly signal?: AbortSignal;
}

/** How a run went: what it printed, what it returned, or why it failed. */
export interface CodeRunResult {
  readonly ok: boolean;
  /** The console lines, in order (`error`/`warn` lines prefixed). */
  readonly logs: string[];
  /** The returned value as JSON text, when the code returned something other than undefined. */
  readonly value?: string;
  /** Why the run failed: the code's uncaught exception, or the limit it hit. */
  readonly error?: string;
  /** Tool calls made. */
  readonly calls: number;
  /** True when output was cut at `maxOutputChars`. */
  readonly truncated: boolean;
}

type QuickJs = QuickJSWASMModule;
let loading: Promise<QuickJs> | undefined;

/**
 * Loads (once) the QuickJS WebAssembly module. Rejects with an install hint when the optional
 * peer quickjs-emscripten is missing.
 */
export function loadQuickJs(): Promise<QuickJs> {
  // A module of our own (not the package's shared singleton), so that one left broken by a
  // runtime that failed to free can be replaced without touching anyone else's.
  loading ??= import('quickjs-emscripten').then(
    (module) => module.newQuickJSWASMModule(),
    (error: unknown) => {
      loading = undefined;
      throw new Error(
        `code mode needs the quickjs-emscripten package (npm install quickjs-emscripten): ${String(error)}`,
      );
    },
  );
  return loading;
}

/** One run's state, shared by its host functions. */
class Run {
  readonly logs: string[] = [];
  chars = 0;
  truncated = false;
  calls = 0;
  /** The first limit hit, which ends the run. */
  fatal: string | undefined;
  readonly pending = new Set<Promise<void>>();
  /** Guest promises of calls not answered yet: disposed with the run. */
  readonly deferreds = new Set<{ dispose(): void }>();
  readonly abort = new AbortController();
  readonly limits: Required<SandboxLimits>;
  readonly options: RunCodeOptions;
  readonly deadline: number;
  readonly runtime: QuickJSRuntime;
  readonly context: QuickJSContext;

  constructor(quickjs: QuickJs, options: RunCodeOptions) {
    this.options = options;
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.deadline = Date.now() + this.limits.wallTimeoutMs;
    this.runtime = quickjs.newRuntime();
    this.runtime.setMemoryLimit(this.limits.memoryBytes);
    this.runtime.setMaxStackSize(Math.min(this.limits.stackBytes, DEFAULT_LIMITS.stackBytes));
    this.runtime.setInterruptHandler(() => {
      const now = Date.now();
      const since = this.#sliceStart;
      if (since !== undefined && this.#computed + now - since > this.limits.timeoutMs) {
        this.fatal ??= timeLimit(this.limits);
      }
      if (now > this.deadline) this.fatal ??= wallLimit(this.limits);
      if (options.signal?.aborted === true) this.fatal ??= 'the run was cancelled';
      return this.fatal !== undefined;
    });
    this.context = this.runtime.newContext();
  }

  #expiry: Promise<void> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Time the code has run so far (ms), and when the current stretch began. */
  #computed = 0;
  #sliceStart: number | undefined;

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

  /** Resolves at the deadline (one timer per run, made when the code first waits on a call). */
  expiry(): Promise<void> {
    this.#expiry ??= new Promise<void>((resolve) => {
      this.#timer = setTimeout(resolve, Math.max(0, this.deadline - Date.now()));
    });
    return this.#expiry;
  }

  /** The limit that ended the run, if one did (the interrupt handler may set it at any time). */
  stopped(): string | undefined {
    return this.fatal;
  }

  /** The result, with what the run printed. */
  finish(fields: { error?: string; value?: string }): CodeRunResult {
    return {
      ok: fields.error === undefined,
      logs: this.logs,
      ...fields,
      calls: this.calls,
      truncated: this.truncated,
    };
  }

  /** Frees the runtime; false when QuickJS failed to (the module is then unusable). */
  dispose(): boolean {
    clearTimeout(this.#timer);
    try {
      for (const deferred of this.deferreds) deferred.dispose();
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
 * Runs `options.code` in a fresh QuickJS runtime and resolves with what it printed and returned.
 * Never rejects for the code's behaviour (an exception, a limit hit, an abort are a failed result);
 * rejects only when the QuickJS module cannot be loaded.
 */
export async function runCode(options: RunCodeOptions): Promise<CodeRunResult> {
  const quickjs = await loadQuickJs();
  const run = new Run(quickjs, options);
  const onAbort = () => {
    run.fatal ??= 'the run was cancelled';
    run.abort.abort();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let result: CodeRunResult;
  try {
    result = await execute(run);
  } catch (error) {
    // The interpreter itself failed (Node's stack, a WebAssembly trap): the run ends.
    run.fatal ??= `the sandbox failed: ${error instanceof Error ? error.message : String(error)}`;
    result = run.finish({ error: run.fatal });
  }
  options.signal?.removeEventListener('abort', onAbort);
  run.abort.abort();
  // A runtime that failed to free (QuickJS aborts after some out-of-memory cases), or a run that
  // hit a limit (it may have grown the module's memory): the next run loads a fresh module.
  if ((!run.dispose() || run.fatal !== undefined) && loading !== undefined) {
    if ((await loading.catch(() => undefined)) === quickjs) loading = undefined;
  }
  return result;
}

function timeLimit(limits: Required<SandboxLimits>): string {
  return `the code ran past its time limit (${String(limits.timeoutMs)} ms)`;
}

function wallLimit(limits: Required<SandboxLimits>): string {
  return `the run passed its wall-clock limit (${String(limits.wallTimeoutMs)} ms, tool calls included)`;
}

async function execute(run: Run): Promise<CodeRunResult> {
  const { context } = run;
  installHost(run);
  const encoder = run.running(() => evaluate(context, BOOTSTRAP, 'bootstrap.js'));
  if (typeof encoder === 'string') {
    return run.finish({ error: `the sandbox failed to start: ${encoder}` });
  }
  try {
    const code = `(async () => {\n${run.options.code}\n})()`;
    const promise = run.running(() => evaluate(context, code, 'code.js'));
    if (typeof promise === 'string') return run.finish({ error: run.fatal ?? promise });
    try {
      const settled = await settle(run, promise);
      const encoded =
        run.stopped() === undefined ? run.running(() => encode(run, encoder, settled)) : undefined;
      settled.handle.dispose();
      const stopped = run.stopped();
      if (stopped !== undefined) return run.finish({ error: stopped });
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
 * Drives the code until its promise settles: runs the pending jobs, then waits for a tool call
 * to answer (or the deadline). A promise still pending with no call in flight never settles.
 */
async function settle(
  run: Run,
  promise: QuickJSHandle,
): Promise<{ ok: boolean; handle: QuickJSHandle }> {
  const { context, runtime, deadline } = run;
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
    if (run.pending.size === 0) {
      run.fatal = 'the code awaits a promise that never settles (no tool call is in flight)';
      continue;
    }
    await Promise.race([...run.pending, run.expiry()]);
    if (Date.now() > deadline && run.pending.size > 0) {
      run.fatal ??= wallLimit(run.limits);
      run.abort.abort();
    }
  }
}

/** The host functions the bootstrap captures: __log, __call, __search, and the namespaces. */
function installHost(run: Run): void {
  const { context, options } = run;
  const set = (name: string, handle: QuickJSHandle) => {
    context.setProp(context.global, name, handle);
    handle.dispose();
  };
  set('__namespaces', context.newString(JSON.stringify(options.namespaces)));
  set(
    '__log',
    context.newFunction('log', (line) => {
      if (context.typeof(line) !== 'string') return;
      const kept = run.out(context.getString(line));
      if (kept !== undefined) {
        run.logs.push(kept);
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
  const { search } = options;
  if (search !== undefined) {
    set(
      '__search',
      context.newFunction('search', (query, limit) => {
        const q = context.typeof(query) === 'string' ? context.getString(query) : '';
        const n = context.typeof(limit) === 'number' ? context.getNumber(limit) : 5;
        const found = search(q, Number.isFinite(n) ? Math.max(1, Math.min(20, Math.floor(n))) : 5);
        return context.newString(run.out(found) ?? '');
      }),
    );
  }
}

/** One tool call from the code: a guest promise settled with the outcome's JSON text. */
function callTool(run: Run, [ns, name, args]: (string | undefined)[]): QuickJSHandle {
  const { context, options } = run;
  const deferred = context.newPromise();
  run.deferreds.add(deferred);
  const answer = (outcome: CallOutcome) => {
    run.deferreds.delete(deferred);
    if (!context.alive) return;
    let text: string;
    try {
      text = JSON.stringify(outcome);
    } catch {
      text = JSON.stringify({ ok: false, error: 'the tool result is not JSON' });
    }
    try {
      const handle = context.newString(text);
      deferred.resolve(handle);
      handle.dispose();
    } catch (error) {
      // The heap is full (a result too big for the memory limit): the run ends.
      run.fatal ??= `the tool result did not fit in the sandbox's memory: ${String(error)}`;
      deferred.dispose();
    }
  };
  run.calls++;
  if (ns === undefined || name === undefined || args === undefined) {
    answer({ ok: false, error: 'a tool call needs a namespace, a name and JSON arguments' });
  } else if (run.calls > run.limits.maxToolCalls) {
    answer({
      ok: false,
      error: `the limit of ${String(run.limits.maxToolCalls)} tool calls per run is reached`,
    });
  } else {
    const pending = startCall(run, options, { namespace: ns, name, text: args }).then(answer);
    run.pending.add(pending);
    void pending.finally(() => run.pending.delete(pending));
  }
  return deferred.handle;
}

async function startCall(
  run: Run,
  options: RunCodeOptions,
  call: { namespace: string; name: string; text: string },
): Promise<CallOutcome> {
  try {
    const parsed: unknown = JSON.parse(call.text);
    return await options.call(
      { namespace: call.namespace, name: call.name, arguments: parsed },
      run.abort.signal,
    );
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
