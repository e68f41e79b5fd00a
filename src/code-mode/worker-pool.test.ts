// The pool's workers seen alone: a run given a worker that died before it started hears so at
// once (the run settles with an error instead of waiting for its wall-clock limit).
import { describe, expect, it } from 'vitest';
import type { WorkerMessage } from './sandbox-protocol.js';
import { wasmPages } from './sandbox-protocol.js';
import { takeWorker } from './worker-pool.js';

describe('SandboxWorker', () => {
  it('tells a listener attached to a dead worker that it died', async () => {
    const worker = takeWorker(wasmPages(4 * 1024 * 1024));
    await worker.ready;
    await worker.terminate();
    expect(worker.alive).toBe(false);
    const heard = await new Promise<string>((resolve) => {
      worker.attach({
        message: (message: WorkerMessage) => {
          resolve(`message ${typeof message === 'string' ? message : message.type}`);
        },
        exit: () => {
          resolve('exit');
        },
      });
    });
    expect(heard).toBe('exit');
  });
});
