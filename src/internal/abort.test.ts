import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { LazySignal, sleep } from './abort.js';

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

describe('LazySignal', () => {
  it('follows a LazySignal source without making its signal', () => {
    const request = new LazySignal(() => []);
    let read = 0;
    const run = new LazySignal(() => {
      read++;
      return [request];
    });
    const signal = run.signal;
    expect(read).toBe(1);
    expect(signal.aborted).toBe(false);
    const reason = new Error('cancelled');
    request.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
  });

  it('aborts a follower at once when the source has aborted, and only once', () => {
    const source = new LazySignal(() => []);
    source.abort('first');
    source.abort('second');
    const seen: unknown[] = [];
    source.follow((reason) => seen.push(reason));
    expect(seen).toEqual(['first']);
    const made = new LazySignal(() => [source]);
    expect(made.signal.reason).toBe('first');
  });

  it('follows AbortSignals and LazySignals alike; its own abort leaves the sources alone', () => {
    const controller = new AbortController();
    const lazy = new LazySignal(() => []);
    const run = new LazySignal(() => [controller.signal, lazy]);
    const seen: unknown[] = [];
    run.follow((reason) => seen.push(reason));
    controller.abort('gone');
    expect(seen).toEqual(['gone']);
    expect(run.signal.reason).toBe('gone');
    const other = new LazySignal(() => [lazy]);
    other.abort('own');
    expect(other.signal.reason).toBe('own');
    expect(lazy.signal.aborted).toBe(false);
  });

  it('no longer follows its sources once released, and removes what it added', () => {
    const controller = new AbortController();
    const source = new LazySignal(() => []);
    const run = new LazySignal(() => [controller.signal, source]);
    const signal = run.signal;
    run.release();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    controller.abort('late');
    source.abort('late');
    expect(signal.aborted).toBe(false);
    const off = source.follow(() => undefined);
    off();
  });
});
