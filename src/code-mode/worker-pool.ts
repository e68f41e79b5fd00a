// The sandbox workers of this process: each runs one run at a time in its own thread, so the
// code's computing never holds the host's event loop, and the host can end it at any moment
// (`terminate`). One idle worker is kept warm (started by the first run, reused by the next run
// with the same memory cap, `unref`ed so it never keeps the process alive); a worker whose run
// hit a limit, crashed or was ended is discarded, and a replacement is started in the background
// at once, so that the next run does not wait for a worker to start.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { Answer, RunRequest, WorkerData, WorkerMessage } from './sandbox-protocol.js';
import { BUSY_SINCE, COMPUTED, CONTROL_SLOTS, POSTED, STOP } from './sandbox-protocol.js';

/** What a run hears from its worker. */
export interface WorkerListener {
  message(message: WorkerMessage): void;
  /** The worker died (an uncaught error, its heap limit, or terminate()). */
  exit(error: Error | undefined): void;
}

/** The worker's own (V8) heap limits, in MB: the code's data lives in the WebAssembly memory. */
function heapLimits(pages: number): NonNullable<ConstructorParameters<typeof Worker>[1]> {
  const wasmMb = Math.ceil(pages / 16);
  return {
    resourceLimits: {
      // Room for strings copied out of the WebAssembly memory (lines, results, errors).
      maxOldGenerationSizeMb: 64 + 2 * wasmMb,
      maxYoungGenerationSizeMb: 16,
      stackSizeMb: 4,
    },
  };
}

/** How the worker starts: its script, beside this module (src/ under tsx or vitest, or dist/esm/). */
function workerScript(): { script: string | URL; eval?: true } {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    // Running from source: the worker is TypeScript too, loaded through tsx's loader (a
    // worker does not inherit the main thread's, and `--import tsx` is not honoured there).
    const api = JSON.stringify(import.meta.resolve('tsx/esm/api'));
    const target = JSON.stringify(new URL('./sandbox-worker.ts', here).href);
    return {
      script: `import(${api}).then((tsx) => { tsx.register(); return import(${target}); });`,
      eval: true,
    };
  }
  // In dist/esm/ this code is either in dist/esm/src/code-mode/ or in a shared chunk
  // (dist/esm/chunks/); scripts/bundle.mjs emits the worker at dist/esm/src/code-mode/.
  for (const path of ['./sandbox-worker.js', '../src/code-mode/sandbox-worker.js']) {
    const url = new URL(path, here);
    if (existsSync(fileURLToPath(url))) return { script: url };
  }
  throw new Error(`the sandbox worker script is missing beside ${here}`);
}

/** QuickJS could not be loaded in the worker (quickjs-emscripten is missing, most often). */
export class QuickJsLoadError extends Error {
  override readonly name = 'QuickJsLoadError';
}

/** A sandbox worker, seen from the host thread. */
export class SandboxWorker {
  readonly pages: number;
  readonly control: Int32Array;
  /** Resolves when QuickJS is loaded; rejects with why it could not be. */
  readonly ready: Promise<void>;
  #worker: Worker;
  #answers: MessagePort;
  #listener: WorkerListener | undefined;
  #dead = false;
  /** True once terminate() was called (the thread may not be gone yet). */
  #ending = false;

  constructor(pages: number) {
    this.pages = pages;
    const buffer = new SharedArrayBuffer(4 * CONTROL_SLOTS);
    this.control = new Int32Array(buffer);
    const { port1, port2 } = new MessageChannel();
    this.#answers = port1;
    const script = workerScript();
    const data: WorkerData = { control: buffer, answers: port2, pages };
    this.#worker = new Worker(script.script, {
      workerData: data,
      transferList: [port2],
      ...heapLimits(pages),
      ...(script.eval === undefined ? {} : { eval: true }),
    });
    let loaded: (() => void) | undefined;
    let failed: ((error: Error) => void) | undefined;
    this.ready = new Promise<void>((resolve, reject) => {
      loaded = resolve;
      failed = reject;
    });
    // No unhandled rejection when nobody awaits a failed start.
    this.ready.catch(() => undefined);
    this.#worker.on('message', (message: WorkerMessage) => {
      if (typeof message === 'string') this.#listener?.message(message);
      else if (message.type === 'ready') loaded?.();
      else if (message.type === 'load-failed') failed?.(new QuickJsLoadError(message.error));
      else this.#listener?.message(message);
    });
    this.#worker.on('error', (error) => {
      failed?.(error);
      this.#died(error);
    });
    this.#worker.on('exit', () => {
      failed?.(new Error('the sandbox worker exited while starting'));
      this.#died(undefined);
    });
  }

  /** False once the worker has died or is being ended. */
  get alive(): boolean {
    return !this.#dead && !this.#ending;
  }

  #died(error: Error | undefined): void {
    if (this.#dead) return;
    this.#dead = true;
    if (idle === this) idle = undefined;
    const listener = this.#listener;
    this.#listener = undefined;
    listener?.exit(error);
  }

  /**
   * Gives the worker to a run: its messages go to `listener` until {@link release}. A worker
   * that died already tells the listener so at once (in a microtask).
   */
  attach(listener: WorkerListener): void {
    if (!this.alive) {
      queueMicrotask(() => {
        listener.exit(undefined);
      });
      return;
    }
    this.#listener = listener;
    for (const slot of [STOP, BUSY_SINCE, COMPUTED]) Atomics.store(this.control, slot, 0);
    this.#worker.ref();
  }

  /** Starts a run. */
  run(request: RunRequest): void {
    if (this.alive) this.#worker.postMessage(request);
  }

  /** Answers a tool call or a `searchTools` of the run, waking the worker if it waits. */
  answer(answer: Answer): void {
    this.#answers.postMessage(answer);
    this.#wake();
  }

  /** Asks the run to stop at the interpreter's next check (or at once when it waits). */
  stop(): void {
    Atomics.store(this.control, STOP, 1);
    this.#wake();
  }

  #wake(): void {
    Atomics.add(this.control, POSTED, 1);
    Atomics.notify(this.control, POSTED);
  }

  /**
   * The code's running time so far in the current run (ms), from what the worker published:
   * `epoch` is the run's.
   */
  codeTime(epoch: number): number {
    const computed = Atomics.load(this.control, COMPUTED);
    const since = Atomics.load(this.control, BUSY_SINCE);
    return since === 0 ? computed : computed + Math.max(0, Date.now() - epoch - (since - 1));
  }

  /**
   * Ends the worker now, whatever it is doing; resolves once its thread is gone, after telling
   * the run it was given to (if any) that it stopped.
   */
  async terminate(): Promise<void> {
    this.#ending = true;
    if (idle === this) idle = undefined;
    await this.#worker.terminate().catch(() => undefined);
    this.#died(undefined);
  }

  /**
   * The run is over: keeps the worker warm when `reusable`; else ends it, and starts a
   * replacement in the background when no worker is warm.
   */
  release(reusable: boolean): void {
    this.#listener = undefined;
    if (reusable && this.alive) {
      this.#worker.unref();
      keepWarm(this);
      return;
    }
    void this.terminate();
    if (idle === undefined) {
      const replacement = new SandboxWorker(this.pages);
      replacement.#worker.unref();
      idle = replacement;
    }
  }
}

/** Makes `worker` the warm one (ending the one it replaces, if any). */
function keepWarm(worker: SandboxWorker): void {
  const previous = idle;
  idle = worker;
  if (previous !== undefined && previous !== worker) void previous.terminate();
}

/** The warm worker, when one is idle. */
let idle: SandboxWorker | undefined;

/** A worker for a run with a memory cap of `pages`: the warm one when it fits, else a new one. */
export function takeWorker(pages: number): SandboxWorker {
  const warm = idle;
  idle = undefined;
  if (warm !== undefined && warm.alive && warm.pages === pages) return warm;
  if (warm !== undefined) void warm.terminate();
  return new SandboxWorker(pages);
}
