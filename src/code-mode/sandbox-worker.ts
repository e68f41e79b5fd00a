// The sandbox worker (a node:worker_threads Worker that runCode starts): loads QuickJS once, in a
// WebAssembly memory capped at `pages` (so no allocation of the code, counted by QuickJS or not,
// can take more), then runs one run at a time as the host thread asks. A run is synchronous: tool
// calls and searches go to the host as messages, and while the code waits the worker blocks on
// Atomics.wait until the host has put its answer on the answer port (or asked it to stop). The
// host ends the worker when a run passes its limits without the interpreter noticing; nothing here
// has to survive that.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import type { GuestChannel, GuestModule } from './guest.js';
import { runGuest } from './guest.js';
import type { Answer, RunRequest, WorkerData, WorkerMessage } from './sandbox-protocol.js';
import { BUSY_SINCE, COMPUTED, POSTED, STOP } from './sandbox-protocol.js';
import { messageOf } from '../internal/message-of.js';

const data = workerData as WorkerData;
const control = new Int32Array(data.control);
const port = parentPort;
if (port === null) throw new Error('sandbox-worker runs as a worker thread');

/**
 * Marks written at address 0 of the WebAssembly memory. The build places nothing below 1,024
 * (its data starts there), and no byte of UTF-8 is 0xF8-0xFF; quickjs-emscripten 0.32 copies a
 * host string to the address its malloc returned without checking it, so a malloc that failed
 * (the memory full) writes at 0, over the interpreter's own data past 1,024 bytes.
 */
const CANARY = [0xff, 0xfe, 0xfd, 0xfc];

/** The check that nothing wrote at address 0 of `memory` since the marks were set. */
function guard(memory: WebAssembly.Memory): GuestModule['memory'] {
  let low = new Uint8Array(memory.buffer, 0, CANARY.length);
  low.set(CANARY);
  return {
    intact: () => {
      // A memory that grew has a new buffer (the old one's views are empty).
      if (low.length === 0) low = new Uint8Array(memory.buffer, 0, CANARY.length);
      return CANARY.every((byte, i) => low[i] === byte);
    },
  };
}

/** QuickJS's release-sync build in a fresh memory of at most `pages` pages. */
async function loadModule(pages: number): Promise<GuestModule> {
  const quickjs = await import('quickjs-emscripten');
  // The build's .wasm file, found from quickjs-emscripten's own place (its dependency).
  const require = createRequire(createRequire(import.meta.url).resolve('quickjs-emscripten'));
  const bytes = await readFile(require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm'));
  const wasmModule = await WebAssembly.compile(bytes);
  // The whole cap from the start, so the memory never grows (pages the code does not touch cost
  // no RSS): quickjs-emscripten 0.32's executePendingJobs reads the job's context through a view
  // made before the jobs ran, which a growth during them detaches; it then makes a context that
  // nobody frees, and freeing the runtime fails its assertion (a 4 MiB tool result did that).
  const wasmMemory = new WebAssembly.Memory({ initial: pages, maximum: pages });
  const variant = quickjs.newVariant(quickjs.RELEASE_SYNC, { wasmModule, wasmMemory });
  const loaded = await quickjs.newQuickJSWASMModuleFromVariant(variant);
  return { quickjs: loaded, memory: guard(wasmMemory) };
}

const post = (message: WorkerMessage) => {
  port.postMessage(message);
};

/** How long one Atomics.wait lasts (the host wakes it sooner; this only bounds a lost wake). */
const WAIT_MS = 1_000;

/** The host's next message on the answer port, waited for; undefined once the run is stopped. */
function receive(): Answer | undefined {
  for (;;) {
    const posted = Atomics.load(control, POSTED);
    const got = receiveMessageOnPort(data.answers) as { message: Answer } | undefined;
    if (got !== undefined) return got.message;
    if (Atomics.load(control, STOP) !== 0) return undefined;
    Atomics.wait(control, POSTED, posted, WAIT_MS);
  }
}

/** Tool answers that came while a search waited, for the run's next wait. */
const early: Extract<Answer, string>[] = [];
/** The clock slots' origin: the current run's epoch. */
let epoch = 0;

const channel: GuestChannel = {
  post,
  wait: () => {
    const first = early.shift();
    if (first !== undefined) return first;
    for (;;) {
      const answer = receive();
      if (answer === undefined || typeof answer === 'string') return answer;
    }
  },
  search: (query, limit) => {
    post({ type: 'search', query, limit });
    for (;;) {
      const answer = receive();
      if (answer === undefined) return '';
      if (typeof answer !== 'string') return answer.found;
      early.push(answer);
    }
  },
  stopped: () => Atomics.load(control, STOP) !== 0,
  clock: (since, computed) => {
    // BUSY_SINCE is cleared before COMPUTED grows, so the host never counts a stretch twice.
    Atomics.store(control, BUSY_SINCE, 0);
    Atomics.store(control, COMPUTED, Math.min(computed, 2 ** 31 - 1));
    if (since !== undefined) {
      Atomics.store(control, BUSY_SINCE, Math.max(0, Math.min(since - epoch, 2 ** 31 - 2)) + 1);
    }
  },
};

let loading: Promise<GuestModule> | undefined;

async function start(request: RunRequest): Promise<void> {
  let loaded: GuestModule;
  try {
    loading ??= loadModule(data.pages);
    loaded = await loading;
  } catch (error) {
    post({ type: 'load-failed', error: messageOf(error) });
    return;
  }
  // Answers of an earlier run that came after its end (a call the code did not await).
  while (receiveMessageOnPort(data.answers) !== undefined);
  early.length = 0;
  epoch = request.epoch;
  post(runGuest(loaded, request, channel));
}

port.on('message', (message: RunRequest) => {
  void start(message);
});

// Loaded before the first run asks: the host waits for this before it starts its clocks.
loading = loadModule(data.pages);
loading.then(
  () => {
    post({ type: 'ready' });
  },
  (error: unknown) => {
    post({ type: 'load-failed', error: messageOf(error) });
  },
);
