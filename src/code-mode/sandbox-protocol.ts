// What runCode (the host thread) and the sandbox worker share: the limits, the texts of the
// errors they end a run with, the size of the worker's WebAssembly memory, and the messages
// between them. Both sides import it; it imports only types.
import type { MessagePort } from 'node:worker_threads';

/** Bounds of one run. Every field is optional. */
export interface SandboxLimits {
  /**
   * Time the code may spend running, in ms: its own work, not the time it waits for tool calls.
   * QuickJS's interrupt handler ends the run at this limit; when a single operation holds the
   * interpreter longer (a `repeat` of a megabyte), the host ends the worker a moment later.
   * Default 10,000.
   */
  readonly timeoutMs?: number;
  /**
   * Wall-clock time of the whole run, tool calls included (a user answering an elicitation, a
   * slow server), in ms; past it the calls in flight are aborted. Default 300,000.
   */
  readonly wallTimeoutMs?: number;
  /**
   * Most bytes the runtime's heap may hold. Default 64 MiB. The WebAssembly memory the
   * interpreter runs in is capped at this plus 16 MiB (its own data, stack and the allocator's
   * slack), whatever the code allocates.
   */
  readonly memoryBytes?: number;
  /**
   * Most bytes of QuickJS stack (deep recursion fails with a stack overflow). Default and most
   * 256 KiB.
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

const PAGE = 64 * 1024;
/** QuickJS's build starts its WebAssembly memory at 16 MiB; that much is added to memoryBytes. */
const BASE_BYTES = 16 * 1024 * 1024;
/** The most pages the build can grow to (2 GiB). */
const MAX_PAGES = 32_768;

/**
 * `limits` over {@link DEFAULT_LIMITS} (a limit left undefined keeps its default). Throws a
 * RangeError naming the first limit that is not a positive number; `memoryBytes` is capped at
 * what the WebAssembly memory can hold (2 GiB less the interpreter's 16 MiB).
 */
export function limitsOf(limits: SandboxLimits = {}): Required<SandboxLimits> {
  const out: { -readonly [K in keyof SandboxLimits]-?: number } = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof SandboxLimits)[]) {
    const value: unknown = limits[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !(value > 0)) {
      throw new RangeError(
        `the code-mode limit ${key} must be a positive number, not ${typeof value === 'number' ? String(value) : `a ${typeof value}`}`,
      );
    }
    out[key] = value;
  }
  out.memoryBytes = Math.floor(Math.min(out.memoryBytes, MAX_PAGES * PAGE - BASE_BYTES));
  return out;
}

/** The error of a run that passed `timeoutMs`. */
export function timeLimit(limits: Required<SandboxLimits>): string {
  return `the code ran past its time limit (${String(limits.timeoutMs)} ms)`;
}

/** The error of a run that passed `wallTimeoutMs`. */
export function wallLimit(limits: Required<SandboxLimits>): string {
  return `the run passed its wall-clock limit (${String(limits.wallTimeoutMs)} ms, tool calls included)`;
}

/** The error of a run whose worker ran out of memory, or whose interpreter trapped on it. */
export function memoryLimit(limits: Required<SandboxLimits>, detail: string): string {
  return `the code ran out of memory (limit ${String(limits.memoryBytes)} bytes): ${detail}`;
}

/** The pages of WebAssembly memory a worker gives QuickJS for `memoryBytes`: its hard cap. */
export function wasmPages(memoryBytes: number): number {
  const bytes = Math.max(0, Math.floor(memoryBytes)) + BASE_BYTES;
  return Math.min(MAX_PAGES, Math.ceil(bytes / PAGE));
}

/** What the worker is given when it starts. */
export interface WorkerData {
  /** Int32 slots shared by both threads, indexed by {@link STOP} and the constants after it. */
  readonly control: SharedArrayBuffer;
  /**
   * The port the host answers on (tool calls' outcomes and searchTools' declarations), read
   * synchronously by the worker while the code waits: the worker's event loop plays no part in
   * a run.
   */
  readonly answers: MessagePort;
  /** The WebAssembly memory's maximum, in pages. */
  readonly pages: number;
}

/** Slot of `control`: non-zero once the host asks the run to stop. */
export const STOP = 0;
/** Slot of `control`: bumped by the host after each message on the answer port, and on stop. */
export const POSTED = 1;
/**
 * Slot of `control`: while the code runs (or the worker works for it), when that stretch began,
 * in ms since the run's `epoch`, plus 1; 0 while the code waits on the host.
 */
export const BUSY_SINCE = 2;
/** Slot of `control`: the code's running time before the current stretch, in ms. */
export const COMPUTED = 3;
/** The number of slots of `control`. */
export const CONTROL_SLOTS = 4;

/** Host → worker (its parent port): start a run. */
export interface RunRequest {
  readonly type: 'run';
  readonly code: string;
  /** The functions the code may call, as [namespace, name]; a call names one by its index. */
  readonly functions: readonly (readonly [string, string])[];
  readonly search: boolean;
  readonly limits: Required<SandboxLimits>;
  /** When the host started the run (Date.now() ms): the origin of the clock slots. */
  readonly epoch: number;
  /** The wall-clock deadline (Date.now() ms). */
  readonly deadline: number;
}

/**
 * Host → worker, on the answer port. A tool call's outcome is a string, the JSON text of
 * `{ id, ...CallOutcome }` (the call's id first), which the guest parses: a string is the
 * cheapest message to copy between threads, and the guest reads the id out of it.
 */
export type Answer =
  /** A tool call's outcome. */
  | string
  /** What searchTools returns. */
  | { readonly found: string };

/** What the code printed since the worker's last report, and its counters so far. */
export interface Progress {
  readonly logs: string[];
  readonly calls: number;
  readonly truncated: boolean;
}

/** Worker → host (its parent port). */
export type WorkerMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'load-failed'; readonly error: string }
  /**
   * A tool call, as a string (the cheapest message): the JSON text of `[id, fn, input]`. `fn`
   * indexes the run's `functions`; `id` is the run's count of calls so far (refused ones
   * included), which the answer names.
   */
  | string
  | { readonly type: 'search'; readonly query: string; readonly limit: number }
  /**
   * Lines printed and counters changed since the last report: sent before a call or a wait
   * when there are any, and at most every few ms while the code runs (so a run ended keeps them).
   */
  | { readonly type: 'progress'; readonly progress: Progress }
  | {
      readonly type: 'done';
      readonly value?: string;
      readonly error?: string;
      /** False when the worker must not run another run (its runtime failed to free). */
      readonly reusable: boolean;
      readonly progress: Progress;
    };
