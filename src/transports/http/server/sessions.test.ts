import { describe, expect, it } from 'vitest';
import type { SessionEntry } from './sessions.js';
import { SessionTable } from './sessions.js';

/** A session whose busyness the test sets, counting how often the table asked. */
class FakeSession implements SessionEntry {
  readonly kind = 'streamable';
  closed = false;
  busy = false;
  asked = 0;
  closes = 0;
  readonly id: string;

  constructor(id: string) {
    this.id = id;
  }

  isBusy(): boolean {
    this.asked++;
    return this.busy;
  }

  close(): Promise<void> {
    this.closed = true;
    this.closes++;
    return Promise.resolve();
  }
}

function table(max: number, idleMs = 60_000): SessionTable {
  return new SessionTable({ max, idleMs }, () => undefined);
}

/** Adds `n` sessions, named a, b, c, … (then s26, s27, …). */
function fill(sessions: SessionTable, n: number, busy: boolean): FakeSession[] {
  return Array.from({ length: n }, (_, i) => {
    const session = new FakeSession(i < 26 ? String.fromCharCode(97 + i) : `s${String(i)}`);
    session.busy = busy;
    sessions.add(session);
    return session;
  });
}

describe('SessionTable.makeRoom', () => {
  it('evicts the least recently used idle session, passing busy ones', () => {
    const sessions = table(3);
    const [a, b, c] = fill(sessions, 3, false) as [FakeSession, FakeSession, FakeSession];
    a.busy = true;
    sessions.get('b', 'streamable'); // b used last: c is now the least recently used idle one
    expect(sessions.makeRoom()).toBe(true);
    expect(c.closed).toBe(true);
    expect(sessions.knows('c')).toBe(false);
    expect(sessions.makeRoom()).toBe(true); // room already
    sessions.add(new FakeSession('d'));
    expect(sessions.makeRoom()).toBe(true);
    expect(b.closed).toBe(true);
    expect(a.closed).toBe(false);
  });

  it('refuses when every session is busy, and asks each only once over a burst', () => {
    const sessions = table(1000);
    const all = fill(sessions, 1000, true);
    for (let i = 0; i < 1000; i++) expect(sessions.makeRoom()).toBe(false);
    expect(all.every((s) => s.asked === 1)).toBe(true);
    expect(sessions.size).toBe(1000);
  });

  it('evicts a session set apart as busy once it is used and idle again', () => {
    const sessions = table(2);
    const [a, b] = fill(sessions, 2, true) as [FakeSession, FakeSession];
    expect(sessions.makeRoom()).toBe(false);
    a.busy = false;
    sessions.touch('a'); // a stream of it ended
    expect(sessions.makeRoom()).toBe(true);
    expect(a.closed).toBe(true);
    expect(b.closed).toBe(false);
  });

  it('evicts a session set apart as busy that settled without a use, before idle ones', () => {
    const sessions = table(3);
    const [a, b, c] = fill(sessions, 3, true) as [FakeSession, FakeSession, FakeSession];
    expect(sessions.makeRoom()).toBe(false); // all three set apart
    c.busy = false;
    sessions.touch('c'); // used last, idle
    b.busy = false;
    sessions.settled('b');
    expect(sessions.makeRoom()).toBe(true);
    expect(b.closed).toBe(true);
    expect(c.closed).toBe(false);
    expect(a.closed).toBe(false);
  });

  it('evicts a closed session set apart as busy once it says so', () => {
    const sessions = table(1);
    const [a] = fill(sessions, 1, true) as [FakeSession];
    expect(sessions.makeRoom()).toBe(false);
    a.closed = true;
    sessions.settled('a');
    expect(sessions.makeRoom()).toBe(true);
    expect(sessions.size).toBe(0);
  });
});

describe('SessionTable.sweep', () => {
  it('closes expired idle sessions, also those set apart as busy that went idle', async () => {
    const sessions = table(2, 5);
    const [a, b] = fill(sessions, 2, true) as [FakeSession, FakeSession];
    expect(sessions.makeRoom()).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 20));
    a.busy = false; // went idle unannounced
    sessions.sweep();
    expect(a.closed).toBe(true);
    expect(b.closed).toBe(false);
    expect(sessions.size).toBe(1);
  });
});
