import { describe, expect, it, vi } from 'vitest';
import type { BatchItem } from './codec.js';
import { Inbox } from './inbox.js';
import type { Message } from './message.js';
import type { MessageInfo, Receiver } from './transport.js';

function recorder(withBatch = true) {
  const seen: string[] = [];
  const receiver: Receiver = {
    message: (message: Message, info?: MessageInfo) => {
      seen.push(
        `message ${'method' in message ? message.method : 'response'}${info ? ' +info' : ''}`,
      );
    },
    closed: (error?: Error) => {
      seen.push(`closed${error ? ` ${error.message}` : ''}`);
    },
  };
  if (withBatch) {
    receiver.batch = (items: readonly BatchItem[]) => {
      seen.push(`batch ${String(items.length)}`);
    };
  }
  return { receiver, seen };
}

const ping = (method: string): Message => ({ jsonrpc: '2.0', method });
const items: BatchItem[] = [{ message: ping('a') }, { message: ping('b') }];

describe('Inbox', () => {
  it('buffers what arrives before start and delivers it in order, then live', async () => {
    const inbox = new Inbox();
    const { receiver, seen } = recorder();
    inbox.message(ping('one'), { headers: {} });
    inbox.batch(items);
    inbox.message(ping('two'));
    expect(seen).toEqual([]);
    await inbox.start(receiver);
    inbox.message(ping('three'));
    expect(seen).toEqual(['message one +info', 'batch 2', 'message two', 'message three']);
    expect(inbox.started).toBe(true);
    expect(inbox.receiver).toBe(receiver);
  });

  it('starts once: a second start rejects with ALREADY_STARTED', async () => {
    const inbox = new Inbox();
    await inbox.start(recorder().receiver);
    await expect(inbox.start(recorder().receiver)).rejects.toMatchObject({
      code: 'ALREADY_STARTED',
    });
  });

  it('reports the close exactly once, with its cause, and drops what comes after', async () => {
    const inbox = new Inbox();
    const { receiver, seen } = recorder();
    await inbox.start(receiver);
    inbox.close(new Error('gone'));
    inbox.close();
    inbox.message(ping('late'));
    inbox.batch(items);
    expect(seen).toEqual(['closed gone']);
    expect(inbox.closed).toBe(true);
    expect(inbox.receiver).toBeUndefined();
  });

  it('reports a close that came before start at start, after what arrived before it', async () => {
    const inbox = new Inbox();
    const { receiver, seen } = recorder();
    inbox.message(ping('early'));
    inbox.close();
    inbox.message(ping('dropped'));
    await inbox.start(receiver);
    expect(seen).toEqual(['message early', 'closed']);
  });

  it('lets the transport answer a batch the receiver takes none of, now or at start', async () => {
    const inbox = new Inbox();
    const { receiver, seen } = recorder(false);
    const early = vi.fn();
    inbox.batch(items, undefined, early);
    await inbox.start(receiver);
    expect(early).toHaveBeenCalledOnce();
    const late = vi.fn();
    inbox.batch(items, undefined, late);
    expect(late).toHaveBeenCalledOnce();
    expect(seen).toEqual([]);
  });
});
