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

  it('keeps a quiet stream replayable while another stream floods the store', () => {
    const store = new MemoryEventStore({ maxEvents: 10 });
    const prime = store.append('quiet/1', null);
    for (let n = 1; n <= 3; n++) store.append('quiet/1', msg(n));
    for (let n = 0; n < 100; n++) store.append('busy/1', msg(n));
    expect(store.size).toBe(10);
    expect(store.replayAfter(prime)?.events.map((e) => e.message)).toEqual([
      msg(1),
      msg(2),
      msg(3),
    ]);
  });

  it("caps each stream at maxEventsPerStream, dropping that stream's oldest first", () => {
    const store = new MemoryEventStore({ maxEventsPerStream: 5 });
    const other = store.append('s/2', msg(0));
    store.append('s/2', msg(1));
    const ids = [];
    for (let n = 0; n < 20; n++) ids.push(store.append('s/1', msg(n)));
    expect(store.size).toBe(7);
    expect(store.replayAfter(ids[14]!)).toBeUndefined();
    expect(store.replayAfter(ids[15]!)?.events.map((e) => e.message)).toEqual(
      [16, 17, 18, 19].map(msg),
    );
    expect(store.replayAfter(other)?.events.map((e) => e.message)).toEqual([msg(1)]);
  });

  it('under global pressure drops from the session holding the most, even over many streams', () => {
    const store = new MemoryEventStore({ maxEvents: 20 });
    const prime = store.append('victim/1', null);
    for (let n = 1; n <= 5; n++) store.append('victim/1', msg(n));
    // A session of many short streams: each smaller than the victim's, together larger.
    for (let stream = 1; stream <= 50; stream++) {
      store.append(`flood/${String(stream)}`, null);
      store.append(`flood/${String(stream)}`, msg(stream));
    }
    expect(store.size).toBe(20);
    expect(store.replayAfter(prime)?.events).toHaveLength(5);
    store.forget('victim/1');
    expect(store.size).toBe(14);
    expect(store.replayAfter(prime)).toBeUndefined();
    // The flood kept its newest events.
    const last = store.append('flood/51', msg(51));
    expect(store.replayAfter(last)).toEqual({ streamId: 'flood/51', events: [] });
  });

  it("finds a session's oldest event after its other stream was trimmed many times", () => {
    const store = new MemoryEventStore({ maxEvents: 6, maxEventsPerStream: 3 });
    const idle = store.append('s/1', msg(0));
    let last = '';
    for (let n = 1; n <= 100; n++) last = store.append('s/2', msg(n));
    expect(store.size).toBe(4);
    const t = [1, 2, 3].map((n) => store.append('t/1', msg(n)));
    expect(store.size).toBe(6);
    expect(store.replayAfter(idle)).toBeUndefined();
    expect(store.replayAfter(String(Number(last) - 2))?.events.map((e) => e.message)).toEqual([
      msg(99),
      msg(100),
    ]);
    expect(store.replayAfter(t[0]!)?.events).toHaveLength(2);
  });

  it('refuses nonsensical bounds', () => {
    expect(() => new MemoryEventStore({ maxEvents: 0 })).toThrow(TypeError);
    expect(() => new MemoryEventStore({ maxAgeMs: -1 })).toThrow(TypeError);
    expect(() => new MemoryEventStore({ maxEventsPerStream: 0 })).toThrow(TypeError);
  });
});
