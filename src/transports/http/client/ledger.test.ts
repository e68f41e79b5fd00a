import { describe, expect, it } from 'vitest';
import type { Message } from '../../../jsonrpc/message.js';
import { Ledger } from './ledger.js';

function ledger(): { ledger: Ledger; delivered: Message[] } {
  const delivered: Message[] = [];
  return { ledger: new Ledger((message) => delivered.push(message)), delivered };
}

const owner = { abort: (): void => undefined };
const answer = (id: number): Message => ({ jsonrpc: '2.0', id, result: {} });

describe('Ledger', () => {
  it('delivers a response once and drops its replays while it is among the last 1024 answered', () => {
    const { ledger: l, delivered } = ledger();
    for (let id = 1; id <= 1025; id++) {
      l.track([id], owner);
      l.receive(answer(id));
    }
    expect(delivered).toHaveLength(1025);
    l.receive(answer(1025)); // a replay: dropped
    l.receive(answer(2)); // the oldest still remembered: dropped
    expect(delivered).toHaveLength(1025);
    l.receive(answer(1)); // forgotten: delivered (the receiver reports an unknown id)
    expect(delivered).toHaveLength(1026);
  });

  it('keeps an id answered again remembered from its later answer', () => {
    const { ledger: l, delivered } = ledger();
    l.track([7], owner);
    l.receive(answer(7));
    for (let id = 100; id < 100 + 1000; id++) {
      l.track([id], owner);
      l.receive(answer(id));
    }
    l.track([7], owner); // the id used again
    l.receive(answer(7));
    for (let id = 2000; id < 2000 + 100; id++) {
      l.track([id], owner);
      l.receive(answer(id));
    }
    // The first answer of 7 left the ring; the second has not.
    const before = delivered.length;
    l.receive(answer(7));
    expect(delivered).toHaveLength(before);
  });
});

describe('Ledger, an id used again', () => {
  it('delivers the answer to a request whose POST failed to go out, its id answered before', () => {
    const { ledger: l, delivered } = ledger();
    l.track([5], owner);
    l.receive(answer(5));
    l.track([5], owner); // used again; the POST fails to go out
    l.release([5]);
    l.receive(answer(5)); // not a replay of anything this POST awaited: delivered as ever
    expect(delivered).toHaveLength(2);
  });

  it('drops a late answer to an abandoned request, and delivers one awaited again', () => {
    const { ledger: l, delivered } = ledger();
    const post = {
      aborted: 0,
      abort(): void {
        this.aborted++;
      },
    };
    l.track([1, 2], post);
    l.abandon(post, new Error('cancelled'));
    expect(post.aborted).toBe(1);
    l.receive(answer(1));
    expect(delivered).toHaveLength(0);
    l.track([2], owner);
    expect(l.owner(2)).toBe(owner);
    l.receive(answer(2));
    expect(delivered).toHaveLength(1);
    expect(l.owner(2)).toBeUndefined();
  });
});
