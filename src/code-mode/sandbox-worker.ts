// The sandbox worker (a node:worker_threads Worker that runCode starts): loads QuickJS once, in a
// WebAssembly memory capped at `pages` (so no allocation of the code, counted by QuickJS or not,
// can take more), then runs one run at a time as the host thread asks. Tool calls go to the host
// as messages; `searchTools` is answered synchronously (the worker blocks on Atomics.wait until
// the host writes the answer to the search port). The host ends the worker when a run passes its
// limits without the interpreter noticing; nothing here has to survive that.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import type { QuickJSWASMModule } from 'quickjs-emscripten';
import type { GuestChannel } from './guest.js';
import { runGuest } from './guest.js';
import type { HostMessage, WorkerData, WorkerMessage } from './sandbox-protocol.js';
import { SEARCHED, STOP } from './sandbox-protocol.js';

const data = workerData as WorkerData;
const control = new Int32Array(data.control);
const port = parentPort;
if (port === null) throw new Error('sandbox-worker runs as a worker thread');

/** QuickJS's release-sync build in a fresh memory of at most `pages` pages. */
async function loadModule(pages: number): Promise<QuickJSWASMModule> {
  const quickjs = await import('quickjs-emscripten');
  // The build's .wasm file, found from quickjs-emscripten's own place (its dependency).
  const require = createRequire(createRequire(import.meta.url).resolve('quickjs-emscripten'));
  const bytes = await readFile(require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm'));
  const wasmModule = await WebAssembly.compile(bytes);
  const wasmMemory = new WebAssembly.Memory({ initial: Math.min(256, pages), maximum: pages });
  const variant = quickjs.newVariant(quickjs.RELEASE_SYNC, { wasmModule, wasmMemory });
  return quickjs.newQuickJSWASMModuleFromVariant(variant);
}

const post = (message: WorkerMessage) => {
  port.postMessage(message);
};

/** Messages of the current run, queued until the run asks for the next one. */
const inbox: HostMessage[] = [];
let waiting: ((message: HostMessage) => void) | undefined;

const channel: GuestChannel = {
  post,
  next: () => {
    const queued = inbox.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve) => {
      waiting = resolve;
    });
  },
  search: (query, limit, progress) => {
    Atomics.store(control, SEARCHED, 0);
    post({ type: 'search', query, limit, progress });
    // Short waits, so that a stop (or the host ending the worker) is seen between them.
    while (Atomics.wait(control, SEARCHED, 0, 50) === 'timed-out') {
      if (Atomics.load(control, STOP) !== 0) return '';
    }
    const answer = receiveMessageOnPort(data.searchPort);
    return typeof answer?.message === 'string' ? answer.message : '';
  },
  stopped: () => Atomics.load(control, STOP) !== 0,
};

let loading: Promise<QuickJSWASMModule> | undefined;

async function start(request: Extract<HostMessage, { type: 'run' }>): Promise<void> {
  let quickjs: QuickJSWASMModule;
  try {
    loading ??= loadModule(data.pages);
    quickjs = await loading;
  } catch (error) {
    post({ type: 'load-failed', error: error instanceof Error ? error.message : String(error) });
    return;
  }
  inbox.length = 0;
  post(await runGuest(quickjs, request, channel));
}

port.on('message', (message: HostMessage) => {
  if (message.type === 'run') {
    void start(message);
    return;
  }
  const resolve = waiting;
  waiting = undefined;
  if (resolve === undefined) inbox.push(message);
  else resolve(message);
});

// Loaded before the first run asks: the host waits for this before it starts its clocks.
loading = loadModule(data.pages);
loading.then(
  () => {
    post({ type: 'ready' });
  },
  (error: unknown) => {
    post({ type: 'load-failed', error: error instanceof Error ? error.message : String(error) });
  },
);
