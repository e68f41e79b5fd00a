import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryEventStore } from './event-store.js';

const msg = (n: number) => ({ jsonrpc: '2.0' as const, method: 'n', params: { n } });

afterEach(() => {
  vi.useRealTimers();
});

describe('MemoryEventStore', () => {
  it('replays what followed an event on its own stream only, skipping priming events', () => {
    const store = new MemoryEventStore();
    const prime = store.append('s/1', null);
    const a = store.append('s/1', msg(1));
    store.append('s/2', msg(99));
    store.append('s/1', msg(2));
    expect(store.replayAfter(prime)).toEqual({
      streamId: 's/1',
      events: [
        { id: a, message: msg(1) },
        { id: expect.any(String), message: msg(2) },
      ],
    });
    expect(store.replayAfter(a)?.events.map((e) => e.message)).toEqual([msg(2)]);
    expect(store.replayAfter('nope')).toBeUndefined();
    expect(store.replayAfter('12345')).toBeUndefined();
  });

  it("keeps at most maxEventsPerSession for one session: its flood evicts its own events, not others'", () => {
    const store = new MemoryEventStore({ maxEvents: 100, maxEventsPerSession: 10 });
    const quiet = store.append('quiet/1', null);
    store.append('quiet/1', msg(1));
    let first = '';
    for (let n = 0; n < 1000; n++) {
      const id = store.append(`busy/${String(1 + (n % 3))}`, msg(n));
      if (n === 0) first = id;
    }
    expect(store.replayAfter(quiet)?.events.map((e) => e.message)).toEqual([msg(1)]);
    expect(store.size).toBe(12);
    expect(store.replayAfter(first)).toBeUndefined();
    store.forget('busy/1');
    store.forget('busy/2');
    store.forget('busy/3');
    expect(store.size).toBe(2);
  });

  it('keeps at most maxEvents, dropping the oldest', () => {
    const store = new MemoryEventStore({ maxEvents: 3 });
    const first = store.append('s', msg(1));
    const second = store.append('s', msg(2));
    store.append('s', msg(3));
    store.append('s', msg(4));
    expect(store.size).toBe(3);
    expect(store.replayAfter(first)).toBeUndefined();
    expect(store.replayAfter(second)?.events.map((e) => e.message)).toEqual([msg(3), msg(4)]);
  });

  it('forgets events older than maxAgeMs, and whole streams on request', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const store = new MemoryEventStore({ maxAgeMs: 1000 });
    const old = store.append('s', msg(1));
    vi.setSystemTime(Date.now() + 1500);
    const fresh = store.append('t', msg(2));
    expect(store.replayAfter(old)).toBeUndefined();
    expect(store.size).toBe(1);
    store.forget('t');
    expect(store.replayAfter(fresh)).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('refuses nonsensical bounds', () => {
    expect(() => new MemoryEventStore({ maxEvents: 0 })).toThrow(TypeError);
    expect(() => new MemoryEventStore({ maxAgeMs: -1 })).toThrow(TypeError);
  });
});
