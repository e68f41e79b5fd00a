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

const PAGE = 64 * 1024;
/** QuickJS's build starts its WebAssembly memory at 16 MiB; that much is added to memoryBytes. */
const BASE_BYTES = 16 * 1024 * 1024;
/** The most pages the build can grow to (2 GiB). */
const MAX_PAGES = 32_768;

/** The pages of WebAssembly memory a worker gives QuickJS for `memoryBytes`: its hard cap. */
export function wasmPages(memoryBytes: number): number {
  const bytes = Math.max(0, Math.floor(memoryBytes)) + BASE_BYTES;
  return Math.min(MAX_PAGES, Math.ceil(bytes / PAGE));
}

/** What the worker is given when it starts. */
export interface WorkerData {
  /** Int32 slots: [STOP] is set by the host to stop the run; [SEARCHED] wakes a search. */
  readonly control: SharedArrayBuffer;
  /** The port the host answers `searchTools` on, read synchronously by the worker. */
  readonly searchPort: MessagePort;
  /** The WebAssembly memory's maximum, in pages. */
  readonly pages: number;
}

/** Index of the stop flag in `control` (non-zero: end the run). */
export const STOP = 0;
/** Index of the search flag in `control` (non-zero: an answer waits on the search port). */
export const SEARCHED = 1;

/** Host → worker: start a run. */
export interface RunRequest {
  readonly type: 'run';
  readonly code: string;
  readonly namespaces: Readonly<Record<string, readonly string[]>>;
  readonly search: boolean;
  readonly limits: Required<SandboxLimits>;
  /** The wall-clock deadline (Date.now() ms). */
  readonly deadline: number;
}

/** Host → worker: a tool call's outcome (JSON text of a CallOutcome), or a wake-up to stop. */
export type HostMessage =
  | RunRequest
  | { readonly type: 'answer'; readonly id: number; readonly text: string }
  | { readonly type: 'stop' };

/** What the code printed since the worker's last message, and its counters so far. */
export interface Progress {
  readonly logs: string[];
  readonly calls: number;
  readonly truncated: boolean;
}

/** Worker → host. Every message of a run carries the run's progress. */
export type WorkerMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'load-failed'; readonly error: string }
  | {
      readonly type: 'call';
      readonly id: number;
      readonly namespace: string;
      readonly name: string;
      readonly args: string;
      readonly progress: Progress;
    }
  | {
      readonly type: 'search';
      readonly query: string;
      readonly limit: number;
      readonly progress: Progress;
    }
  /** Lines printed while the code runs (sent at most every few ms, so a run ended keeps them). */
  | { readonly type: 'progress'; readonly progress: Progress }
  /** The code waits on tool calls; `seen` answers have reached it. */
  | { readonly type: 'idle'; readonly seen: number; readonly progress: Progress }
  | {
      readonly type: 'done';
      readonly value?: string;
      readonly error?: string;
      /** False when the worker must not run another run (its runtime failed to free). */
      readonly reusable: boolean;
      readonly progress: Progress;
    };
