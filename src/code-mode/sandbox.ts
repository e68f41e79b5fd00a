// The code-mode sandbox: runs a model's JavaScript in QuickJS compiled to WebAssembly
// (quickjs-emscripten, an optional peer), in a worker thread (worker-pool.ts, sandbox-worker.ts).
// The code sees no network, no file system, no timers and no host object: only `console`, one
// object per server whose functions call tools, and `searchTools`. Values cross the boundary as
// JSON text, so nothing of the host (credentials, clients, functions) is reachable from inside.
// Time, memory, stack, tool calls and output are bounded; when a bound is hit the run ends with
// an error naming it. Here, on the host thread: the tool calls (through the caller's callback),
// the wall-clock limit, cancellation, and a watchdog that ends the worker when the code's
// running time passes its limit without the interpreter stopping it.
import type { QuickJSWASMModule } from 'quickjs-emscripten';
import type { Progress, SandboxLimits, WorkerMessage } from './sandbox-protocol.js';
import { limitsOf, memoryLimit, timeLimit, wallLimit, wasmPages } from './sandbox-protocol.js';
import type { SandboxWorker, WorkerListener } from './worker-pool.js';
import { QuickJsLoadError, takeWorker } from './worker-pool.js';
import { messageOf } from '../internal/message-of.js';

export type { SandboxLimits } from './sandbox-protocol.js';
export { DEFAULT_LIMITS } from './sandbox-protocol.js';

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
  /**
   * `searchTools(query, limit)` inside the code: declarations of matching tools. Called on the
   * host thread while the code waits for it; it should be quick.
   */
  readonly search?: (query: string, limit: number) => string;
  readonly limits?: SandboxLimits;
  /**
   * Ends the run, and aborts its tool calls: their signal aborts with this one's reason, at
   * once (a caller need not follow this signal too).
   */
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

let loading: Promise<QuickJSWASMModule> | undefined;

/**
 * Loads (once) a QuickJS WebAssembly module in this thread, for a host that wants to know code
 * mode can run, or to use QuickJS itself ({@link runCode} loads its own, in its worker). Rejects
 * with an install hint when the optional peer quickjs-emscripten is missing.
 */
export function loadQuickJs(): Promise<QuickJSWASMModule> {
  loading ??= import('quickjs-emscripten').then(
    (module) => module.newQuickJSWASMModule(),
    (error: unknown) => {
      loading = undefined;
      throw new Error(installHint(error));
    },
  );
  return loading;
}

function installHint(error: unknown): string {
  return `code mode needs the quickjs-emscripten package (npm install quickjs-emscripten): ${messageOf(error)}`;
}

/**
 * How long past `timeoutMs` the host waits for the interpreter to stop the code itself before
 * it ends the worker (QuickJS checks its interrupt handler every few thousand operations; one
 * operation can take long).
 */
const GRACE_MS = 250;

/** The longest delay setTimeout takes (a longer one fires at once). */
const MAX_DELAY = 2_147_483_647;

/**
 * Runs `options.code` in a fresh QuickJS runtime, in a worker thread, and resolves with what it
 * printed and returned. Never rejects for the code's behaviour (an exception, a limit hit, an
 * abort are a failed result); rejects when the sandbox cannot start (quickjs-emscripten missing)
 * and, with a RangeError, when a limit is not a positive number.
 */
export async function runCode(options: RunCodeOptions): Promise<CodeRunResult> {
  const limits = limitsOf(options.limits);
  const cancelled = {
    ok: false,
    logs: [],
    error: 'the run was cancelled',
    calls: 0,
    truncated: false,
  };
  const aborted = () => options.signal?.aborted === true;
  if (aborted()) return cancelled;
  const worker = takeWorker(wasmPages(limits.memoryBytes));
  try {
    await worker.ready;
  } catch (error) {
    void worker.terminate();
    const why = messageOf(error);
    throw new Error(
      error instanceof QuickJsLoadError
        ? installHint(error)
        : `the code-mode sandbox could not start: ${why}`,
      { cause: error },
    );
  }
  if (aborted()) {
    worker.release(true);
    return cancelled;
  }
  return new HostRun(worker, options, limits).start();
}

/** The functions of `namespaces` in order, as [namespace, name]: a call names one by index. */
function functionsOf(namespaces: RunCodeOptions['namespaces']): (readonly [string, string])[] {
  return Object.entries(namespaces).flatMap(([ns, names]) =>
    names.map((name) => [ns, name] as const),
  );
}

/** One run, seen from the host thread: its calls, clocks and result. */
class HostRun implements WorkerListener {
  readonly #logs: string[] = [];
  #calls = 0;
  #truncated = false;
  /** Why the host ended the run (it wins over what the worker says). */
  #fatal: string | undefined;
  #ended = false;
  #terminating = false;
  readonly #abort = new AbortController();
  readonly #functions: (readonly [string, string])[];
  /** When the run started (Date.now() ms): the origin of the worker's clock slots. */
  #epoch = 0;
  #watchdog: ReturnType<typeof setTimeout> | undefined;
  #wall: ReturnType<typeof setTimeout> | undefined;
  #kill: ReturnType<typeof setTimeout> | undefined;
  #resolve: ((result: CodeRunResult) => void) | undefined;
  readonly #onAbort = () => {
    this.#stop('the run was cancelled', this.options.signal?.reason);
  };

  readonly worker: SandboxWorker;
  readonly options: RunCodeOptions;
  readonly limits: Required<SandboxLimits>;

  constructor(worker: SandboxWorker, options: RunCodeOptions, limits: Required<SandboxLimits>) {
    this.worker = worker;
    this.options = options;
    this.limits = limits;
    this.#functions = functionsOf(options.namespaces);
  }

  start(): Promise<CodeRunResult> {
    const { options, limits, worker } = this;
    const result = new Promise<CodeRunResult>((resolve) => {
      this.#resolve = resolve;
    });
    this.#epoch = Date.now();
    const deadline = this.#epoch + limits.wallTimeoutMs;
    worker.attach(this);
    worker.run({
      type: 'run',
      code: options.code,
      functions: this.#functions,
      search: options.search !== undefined,
      limits,
      epoch: this.#epoch,
      deadline,
    });
    this.#armWatchdog();
    this.#armWall(deadline);
    options.signal?.addEventListener('abort', this.#onAbort, { once: true });
    return result;
  }

  message(message: WorkerMessage): void {
    if (this.#ended) return;
    if (typeof message === 'string') {
      this.#callOf(message);
      return;
    }
    switch (message.type) {
      case 'search':
        this.#search(message.query, message.limit);
        break;
      case 'progress':
        this.#progress(message.progress);
        break;
      case 'done': {
        this.#progress(message.progress);
        const error = this.#fatal ?? message.error;
        this.#finish(
          error === undefined
            ? message.value === undefined
              ? {}
              : { value: message.value }
            : { error },
          message.reusable,
        );
        break;
      }
      case 'ready':
      case 'load-failed':
        break;
    }
  }

  exit(error: Error | undefined): void {
    if (this.#ended) return;
    const code = (error as { code?: unknown } | undefined)?.code;
    const text =
      error === undefined
        ? 'the sandbox worker stopped'
        : code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? memoryLimit(this.limits, error.message)
          : `the sandbox failed: ${error.message}`;
    this.#fatal ??= text;
    this.#finish({ error: this.#fatal }, false);
  }

  #progress(progress: Progress): void {
    for (const line of progress.logs) this.#logs.push(line);
    this.#calls = Math.max(this.#calls, progress.calls);
    this.#truncated = progress.truncated;
  }

  /** Stops the run at `deadline` (a timer can wait at most MAX_DELAY: it is set again). */
  #armWall(deadline: number): void {
    this.#wall = setTimeout(
      () => {
        if (Date.now() < deadline) this.#armWall(deadline);
        else this.#stop(wallLimit(this.limits));
      },
      Math.min(MAX_DELAY, Math.max(0, deadline - Date.now())),
    );
  }

  /**
   * Ends the worker once the code's running time (as the worker publishes it, so also while one
   * operation holds the interpreter) passes `timeoutMs` + GRACE_MS. The timer is set for the
   * time left, which the code cannot spend sooner; it is set again while time is left.
   */
  #armWatchdog(): void {
    const left = this.limits.timeoutMs + GRACE_MS - this.worker.codeTime(this.#epoch);
    if (left > 0) {
      this.#watchdog = setTimeout(
        () => {
          this.#armWatchdog();
        },
        Math.min(MAX_DELAY, left),
      );
      return;
    }
    this.#fatal ??= timeLimit(this.limits);
    void this.#terminate();
  }

  /** A tool call of the worker's (the JSON text of `[id, fn, input]`), started. */
  #callOf(message: string): void {
    let call: [number, number, unknown];
    try {
      call = JSON.parse(message) as [number, number, unknown];
    } catch {
      // The worker writes the input as the guest's JSON.stringify gave it: never reached.
      this.#stop('the sandbox sent a tool call that is not JSON');
      return;
    }
    const [id, fn, input] = call;
    this.#calls = Math.max(this.#calls, id);
    // Once the run is stopping, its calls are not started (the worker is told to stop).
    if (this.#fatal === undefined) void this.#call(id, fn, input);
  }

  async #call(id: number, fn: number, input: unknown): Promise<void> {
    let outcome: CallOutcome;
    try {
      const target = this.#functions[fn];
      if (target === undefined) throw new Error(`no function #${String(fn)}`);
      outcome = await this.options.call(
        { namespace: target[0], name: target[1], arguments: input },
        this.#abort.signal,
      );
    } catch (error) {
      outcome = { ok: false, error: messageOf(error) };
    }
    if (this.#ended) return;
    let text: string;
    try {
      text = JSON.stringify({ id, ...outcome });
    } catch {
      text = JSON.stringify({ id, ok: false, error: 'the tool result is not JSON' });
    }
    if (text.length > this.limits.memoryBytes) {
      this.#stop(
        `the tool result did not fit in the sandbox's memory (${String(text.length)} characters, limit ${String(this.limits.memoryBytes)} bytes)`,
      );
      return;
    }
    this.worker.answer(text);
  }

  #search(query: string, limit: number): void {
    let found: string;
    try {
      found = this.options.search?.(query, limit) ?? '';
    } catch (error) {
      found = `searchTools failed: ${messageOf(error)}`;
    }
    // No more than the run may print: the worker keeps at most that much of it.
    const text = typeof found === 'string' ? found : String(found);
    this.worker.answer({ found: text.slice(0, this.limits.maxOutputChars + 1) });
  }

  /**
   * Ends the run for `reason`: the worker stops at its next check, or is ended after a grace.
   * The calls in flight are aborted with `cause` (the caller's reason when it cancelled).
   */
  #stop(reason: string, cause?: unknown): void {
    if (this.#ended || this.#fatal !== undefined) return;
    this.#fatal = reason;
    this.worker.stop();
    this.#abort.abort(cause);
    this.#kill = setTimeout(() => void this.#terminate(), GRACE_MS);
  }

  /** Ends the worker (the code did not stop in time) and the run with the host's reason. */
  async #terminate(): Promise<void> {
    if (this.#ended || this.#terminating) return;
    this.#terminating = true;
    await this.worker.terminate();
    this.#finish({ error: this.#fatal ?? 'the run was ended' }, false);
  }

  #finish(fields: { value?: string; error?: string }, reusable: boolean): void {
    if (this.#ended) return;
    this.#ended = true;
    clearTimeout(this.#watchdog);
    clearTimeout(this.#wall);
    clearTimeout(this.#kill);
    this.options.signal?.removeEventListener('abort', this.#onAbort);
    this.#abort.abort();
    this.worker.release(reusable && this.#fatal === undefined);
    this.#resolve?.({
      ok: fields.error === undefined,
      logs: this.#logs,
      ...fields,
      calls: this.#calls,
      truncated: this.#truncated,
    });
  }
}
