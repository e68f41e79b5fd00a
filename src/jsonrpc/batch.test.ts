import { describe, expect, it } from 'vitest';
import { serveBatchElements } from './batch.js';
import { decode, encode } from './codec.js';
import type { Response } from './message.js';

const ok = (id: number, size = 0): Response => ({
  jsonrpc: '2.0',
  id,
  result: { pad: 'x'.repeat(size) },
});

describe('batches', () => {
  it('refuses a batch longer than the limit as a whole', () => {
    const batch = JSON.stringify(
      Array.from({ length: 101 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'ping' })),
    );
    expect(decode(batch, { allowBatch: true })).toMatchObject({
      kind: 'invalid',
      response: {
        id: null,
        error: {
          code: -32600,
          message: expect.stringMatching(/101 messages exceeds the limit of 100/),
        },
      },
    });
    expect(decode(batch, { allowBatch: true, maxBatch: 101 })).toMatchObject({ kind: 'batch' });
  });

  it('answers in element order, leaving out elements that answer nothing', async () => {
    const answers = await serveBatchElements(
      [1, 2, 3],
      (n) => (n === 2 ? undefined : Promise.resolve(ok(n))),
      1e6,
    );
    expect(answers.map((r) => r.id)).toEqual([1, 3]);
  });

  it('replaces responses past the answer limit by -32603 errors with their ids', async () => {
    const limit = encode(ok(1, 100)).length * 2;
    const answers = await serveBatchElements([1, 2, 3, 4], (n) => ok(n, 100), limit);
    expect(answers.slice(0, 2)).toEqual([ok(1, 100), ok(2, 100)]);
    for (const [i, answer] of answers.slice(2).entries()) {
      expect(answer).toMatchObject({
        id: i + 3,
        error: { code: -32603, message: expect.stringMatching(/exceed/) },
      });
    }
  });

  it('lets other work run between the elements it starts', async () => {
    const order: string[] = [];
    const served = serveBatchElements(
      [1, 2, 3],
      (n) => {
        order.push(`serve ${String(n)}`);
        if (n === 1) setImmediate(() => order.push('other client'));
        return ok(n);
      },
      1e6,
    );
    await served;
    expect(order).toEqual(['serve 1', 'other client', 'serve 2', 'serve 3']);
  });
});
