import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { sleep } from './abort.js';

describe('sleep', () => {
  it('resolves, and leaves no abort listener on the signal however often it sleeps on it', async () => {
    const controller = new AbortController();
    for (let i = 0; i < 20; i++) await sleep(1, controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    await expect(sleep(1)).resolves.toBeUndefined();
  });

  it("rejects with the signal's reason when it aborts first, or has already", async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const waiting = sleep(60_000, controller.signal);
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    await expect(sleep(60_000, controller.signal)).rejects.toBe(reason);
  });
});
