import { describe, expect, it, vi } from 'vitest';
import { JsonRpcError } from './errors.js';
import type { Request } from './message.js';
import type { Peer } from './serve.js';
import { ServedRequest, serveRequest } from './serve.js';

const request: Request = { jsonrpc: '2.0', id: 7, method: 'work', params: { n: 1 } };

function peer() {
  const notify = vi.fn(() => Promise.resolve());
  const request = vi.fn(() => Promise.resolve({ ok: true }) as Promise<unknown>);
  const to: Peer = { notify, request };
  return { to, notify, request };
}

describe('serveRequest', () => {
  const ctx = new ServedRequest(peer().to, request.id, undefined);

  it('answers at once when the handler does, through respond when given', () => {
    const plain = serveRequest({ onRequest: () => ({ n: 2 }) }, request, ctx);
    expect(plain).toEqual({ jsonrpc: '2.0', id: 7, result: { n: 2 } });
    const none = serveRequest({ onRequest: () => undefined }, request, ctx);
    expect(none).toEqual({ jsonrpc: '2.0', id: 7, result: null });
    const made = serveRequest(
      {
        onRequest: () => 'x',
        respond: (req, result) => ({ jsonrpc: '2.0', id: req.id, result: { made: result } }),
      },
      request,
      ctx,
    );
    expect(made).toEqual({ jsonrpc: '2.0', id: 7, result: { made: 'x' } });
  });

  it('answers a promise, which never rejects, when the handler waits', async () => {
    const later = serveRequest({ onRequest: () => Promise.resolve({ later: true }) }, request, ctx);
    expect(later).toBeInstanceOf(Promise);
    await expect(later).resolves.toEqual({ jsonrpc: '2.0', id: 7, result: { later: true } });
    const onError = vi.fn();
    const rejected = serveRequest(
      { onRequest: () => Promise.reject(new Error('secret')), onError },
      request,
      ctx,
    );
    await expect(rejected).resolves.toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32603, message: 'internal error' },
    });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'secret' }));
  });

  it('classifies failures where they arise: a JsonRpcError as is, anything else -32603', () => {
    const onError = vi.fn();
    const thrown = serveRequest(
      {
        onRequest: () => {
          throw new JsonRpcError(-32602, 'bad params', { at: 'n' });
        },
        onError,
      },
      request,
      ctx,
    );
    expect(thrown).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32602, message: 'bad params', data: { at: 'n' } },
    });
    expect(onError).not.toHaveBeenCalled();
    const crashed = serveRequest(
      {
        onRequest: () => {
          // eslint-disable-next-line @typescript-eslint/only-throw-error -- what a careless handler may throw
          throw 'not even an Error';
        },
        onError,
      },
      request,
      ctx,
    );
    expect(crashed).toMatchObject({ error: { code: -32603, message: 'internal error' } });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'not even an Error' }));
    // A respond that throws is a failure of the same kind, not an escape.
    const badRespond = serveRequest(
      {
        onRequest: () => 1,
        respond: () => {
          throw new Error('respond broke');
        },
        onError,
      },
      request,
      ctx,
    );
    expect(badRespond).toMatchObject({ error: { code: -32603 } });
  });

  it('answers -32601 without a handler', () => {
    expect(serveRequest({}, request, ctx)).toMatchObject({
      id: 7,
      error: { code: -32601, message: 'method not found: work' },
    });
  });
});

describe('ServedRequest', () => {
  it('sends what relates to the request to its peer, naming the request', async () => {
    const { to, notify, request: sent } = peer();
    const served = new ServedRequest(to, 'r1', { headers: { a: 'b' } });
    expect(served.info).toEqual({ headers: { a: 'b' } });
    await served.notify('notifications/progress', { progress: 1 });
    expect(notify).toHaveBeenCalledWith(
      'notifications/progress',
      { progress: 1 },
      {
        relatedRequestId: 'r1',
      },
    );
    await expect(served.request('roots/list', undefined, { timeoutMs: 5 })).resolves.toEqual({
      ok: true,
    });
    expect(sent).toHaveBeenCalledWith('roots/list', undefined, {
      relatedRequestId: 'r1',
      timeoutMs: 5,
    });
  });

  it('aborts its signal on cancel, whether read before or after', () => {
    const early = new ServedRequest(peer().to, 1, undefined);
    const signal = early.signal;
    early.cancel('stop');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('stop');
    expect(early.cancelled).toBe(true);
    const late = new ServedRequest(peer().to, 2, undefined);
    late.cancel('later');
    expect(late.signal.aborted).toBe(true);
    expect(late.signal.reason).toBe('later');
  });
});
