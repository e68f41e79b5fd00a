import { describe, expect, it } from 'vitest';
import type { Message } from '../jsonrpc/message.js';
import type { Receiver } from '../jsonrpc/transport.js';
import { createMemoryPair } from './memory.js';

function recorder(): Receiver & { got: Message[]; closes: number } {
  const r = {
    got: [] as Message[],
    closes: 0,
    message(m: Message) {
      r.got.push(m);
    },
    closed() {
      r.closes++;
    },
  };
  return r;
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('createMemoryPair', () => {
  it('buffers frames sent before start and delivers them in order', async () => {
    const [a, b] = createMemoryPair();
    await a.start(recorder());
    await a.send({ jsonrpc: '2.0', method: 'one' });
    await a.send({ jsonrpc: '2.0', method: 'two' });
    await tick();
    const rb = recorder();
    await b.start(rb);
    expect(rb.got.map((m) => ('method' in m ? m.method : ''))).toEqual(['one', 'two']);
  });

  it('delivers what a wire would carry: undefined members vanish', async () => {
    const [a, b] = createMemoryPair();
    const rb = recorder();
    await Promise.all([a.start(recorder()), b.start(rb)]);
    await a.send({ jsonrpc: '2.0', method: 'm', params: { keep: 1, drop: undefined } });
    await tick();
    expect(rb.got).toEqual([{ jsonrpc: '2.0', method: 'm', params: { keep: 1 } }]);
  });

  it('closes both ends once, and rejects sends afterwards', async () => {
    const [a, b] = createMemoryPair();
    const ra = recorder();
    const rb = recorder();
    await Promise.all([a.start(ra), b.start(rb)]);
    await a.close();
    await a.close();
    await tick();
    expect([ra.closes, rb.closes]).toEqual([1, 1]);
    await expect(a.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
    });
    await expect(b.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
    });
  });

  it('refuses a second start', async () => {
    const [a] = createMemoryPair();
    await a.start(recorder());
    await expect(a.start(recorder())).rejects.toMatchObject({ code: 'ALREADY_STARTED' });
  });
});
