import { describe, expect, it } from 'vitest';
import type { Params } from '../jsonrpc/message.js';
import type { RequestScope } from './context.js';
import { createContext } from './context.js';

function scope(sent: [string, Params][], controller = new AbortController()): RequestScope {
  return {
    id: 7,
    era: 'legacy',
    revision: '2025-11-25',
    client: { capabilities: {}, info: undefined },
    meta: { progressToken: 'p1' },
    info: undefined,
    logLevel: 'info',
    get signal() {
      return controller.signal;
    },
    get source() {
      return controller.signal;
    },
    notify(method, params) {
      sent.push([method, params]);
      return Promise.resolve();
    },
    request() {
      return Promise.reject(new Error('no client requests here'));
    },
  };
}

describe('createContext', () => {
  it('gives functions that work when destructured, made once per context', async () => {
    const sent: [string, Params][] = [];
    const ctx = createContext(scope(sent), undefined);
    const { progress, log } = ctx;
    await progress(1, 2, 'half');
    await log('warning', { disk: 'low' }, 'fs');
    await log('debug', 'below the level: not sent');
    expect(sent).toEqual([
      ['notifications/progress', { progressToken: 'p1', progress: 1, total: 2, message: 'half' }],
      ['notifications/message', { level: 'warning', data: { disk: 'low' }, logger: 'fs' }],
    ]);
    expect(ctx.progress).toBe(progress);
    expect(ctx.requestId).toBe(7);
  });

  it("reads the scope's signal, or the input round's, only when asked", () => {
    const controller = new AbortController();
    const ctx = createContext(scope([], controller), undefined);
    expect(ctx.signal).toBe(controller.signal);
    const own = new AbortController();
    let reads = 0;
    const given = createContext(scope([]), {
      get round(): never {
        throw new Error('no input asked for');
      },
      get signal() {
        reads++;
        return own.signal;
      },
    });
    expect(reads).toBe(0);
    expect(given.signal).toBe(own.signal);
    expect(reads).toBe(1);
  });

  it("gives a cancellation that follows the signal, the input round's without making it", () => {
    const controller = new AbortController();
    const reasons: unknown[] = [];
    const ctx = createContext(scope([], controller), undefined);
    const off = ctx.cancellation.follow((reason) => reasons.push(reason));
    controller.abort('gone');
    off();
    expect(reasons).toEqual(['gone']);
    const followed: ((reason: unknown) => void)[] = [];
    const given = createContext(scope([]), {
      get round(): never {
        throw new Error('no input asked for');
      },
      get signal(): never {
        throw new Error('the signal is not made');
      },
      cancellation: {
        follow: (listener) => {
          followed.push(listener);
          return () => undefined;
        },
      },
    });
    given.cancellation.follow((reason) => reasons.push(reason));
    for (const listener of followed) listener('stopped');
    expect(reasons).toEqual(['gone', 'stopped']);
  });
});
