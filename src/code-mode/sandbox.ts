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
import {
  DEFAULT_LIMITS,
  memoryLimit,
  timeLimit,
  wallLimit,
  wasmPages,
} from './sandbox-protocol.js';
import type { SandboxWorker, WorkerListener } from './worker-pool.js';
import { QuickJsLoadError, takeWorker } from './worker-pool.js';

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
  return `code mode needs the quickjs-emscripten package (npm install quickjs-emscripten): ${error instanceof Error ? error.message : String(error)}`;
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
 * abort are a failed result); rejects only when the sandbox cannot start (quickjs-emscripten
 * missing).
 */
export async function runCode(options: RunCodeOptions): Promise<CodeRunResult> {
  const limits: Required<SandboxLimits> = { ...DEFAULT_LIMITS, ...options.limits };
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
    const why = error instanceof Error ? error.message : String(error);
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
  /** The code's running time (ms) before the current stretch, and when that stretch began. */
  #computed = 0;
  #busySince: number | undefined;
  /** Answers posted to the worker. */
  #sent = 0;
  #watchdog: ReturnType<typeof setTimeout> | undefined;
  #wall: ReturnType<typeof setTimeout> | undefined;
  #kill: ReturnType<typeof setTimeout> | undefined;
  #resolve: ((result: CodeRunResult) => void) | undefined;
  readonly #onAbort = () => {
    this.#stop('the run was cancelled');
  };

  readonly worker: SandboxWorker;
  readonly options: RunCodeOptions;
  readonly limits: Required<SandboxLimits>;

  constructor(worker: SandboxWorker, options: RunCodeOptions, limits: Required<SandboxLimits>) {
    this.worker = worker;
    this.options = options;
    this.limits = limits;
  }

  start(): Promise<CodeRunResult> {
    const { options, limits, worker } = this;
    const result = new Promise<CodeRunResult>((resolve) => {
      this.#resolve = resolve;
    });
    worker.attach(this);
    const deadline = Date.now() + limits.wallTimeoutMs;
    worker.post({
      type: 'run',
      code: options.code,
      namespaces: options.namespaces,
      search: options.search !== undefined,
      limits,
      deadline,
    });
    this.#busy();
    this.#armWall(deadline);
    options.signal?.addEventListener('abort', this.#onAbort, { once: true });
    return result;
  }

  message(message: WorkerMessage): void {
    if (this.#ended) return;
    if ('progress' in message) this.#progress(message.progress);
    switch (message.type) {
      case 'call':
        void this.#call(message);
        break;
      case 'search':
        this.#search(message.query, message.limit);
        break;
      case 'idle':
        // An answer still on its way means the code is about to run again.
        if (message.seen === this.#sent) this.#idle();
        break;
      case 'done': {
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
      case 'progress':
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
    this.#calls = progress.calls;
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

  /** The code runs (from the start, or since an answer reached it while it waited). */
  #busy(): void {
    if (this.#busySince !== undefined) return;
    this.#busySince = Date.now();
    this.#armWatchdog();
  }

  #armWatchdog(): void {
    clearTimeout(this.#watchdog);
    const since = this.#busySince;
    if (since === undefined) return;
    const left = this.limits.timeoutMs + GRACE_MS - this.#computed - (Date.now() - since);
    this.#watchdog = setTimeout(
      () => {
        const start = this.#busySince;
        if (start === undefined) return;
        if (this.#computed + Date.now() - start < this.limits.timeoutMs + GRACE_MS) {
          this.#armWatchdog();
          return;
        }
        this.#fatal ??= timeLimit(this.limits);
        void this.#terminate();
      },
      Math.max(0, left),
    );
  }

  /** The code waits on tool calls: its clock stops. */
  #idle(): void {
    const since = this.#busySince;
    if (since === undefined) return;
    this.#computed += Date.now() - since;
    this.#busySince = undefined;
    clearTimeout(this.#watchdog);
  }

  async #call(message: Extract<WorkerMessage, { type: 'call' }>): Promise<void> {
    let outcome: CallOutcome;
    try {
      const parsed: unknown = JSON.parse(message.args);
      outcome = await this.options.call(
        { namespace: message.namespace, name: message.name, arguments: parsed },
        this.#abort.signal,
      );
    } catch (error) {
      outcome = { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    if (this.#ended) return;
    let text: string;
    try {
      text = JSON.stringify(outcome);
    } catch {
      text = JSON.stringify({ ok: false, error: 'the tool result is not JSON' });
    }
    if (text.length > this.limits.memoryBytes) {
      this.#stop(
        `the tool result did not fit in the sandbox's memory (${String(text.length)} characters, limit ${String(this.limits.memoryBytes)} bytes)`,
      );
      return;
    }
    this.#sent++;
    this.worker.post({ type: 'answer', id: message.id, text });
    this.#busy();
  }

  #search(query: string, limit: number): void {
    let text: string;
    try {
      text = this.options.search?.(query, limit) ?? '';
    } catch (error) {
      text = `searchTools failed: ${error instanceof Error ? error.message : String(error)}`;
    }
    this.worker.answerSearch(text);
  }

  /** Ends the run for `reason`: the worker stops at its next check, or is ended after a grace. */
  #stop(reason: string): void {
    if (this.#ended || this.#fatal !== undefined) return;
    this.#fatal = reason;
    this.worker.stop();
    this.#abort.abort();
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
