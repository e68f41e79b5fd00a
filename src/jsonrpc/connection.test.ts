import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryPair } from '../transports/memory.js';
import { Connection } from './connection.js';
import type { ConnectionOptions } from './connection.js';
import { JsonRpcError, LocalError } from './errors.js';
import type { Message } from './message.js';
import type { Receiver, Transport } from './transport.js';

const open: Connection[] = [];

async function pair(
  serverOptions: ConnectionOptions = {},
  clientOptions: ConnectionOptions = {},
): Promise<{ client: Connection; server: Connection; frames: string[] }> {
  const frames: string[] = [];
  const [a, b] = createMemoryPair({ onFrame: (_from, text) => frames.push(text) });
  const client = new Connection(a, clientOptions);
  const server = new Connection(b, serverOptions);
  open.push(client, server);
  await Promise.all([client.start(), server.start()]);
  return { client, server, frames };
}

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(open.splice(0).map((c) => c.close()));
});

describe('Connection', () => {
  it('correlates concurrent calls with their responses', async () => {
    const { client } = await pair({
      onRequest: async (request) => {
        const { n } = request.params as { n: number };
        await new Promise((r) => setTimeout(r, (10 - n) * 2));
        return { n: n * 2 };
      },
    });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, n) => client.request('double', { n })),
    );
    expect(results).toEqual(Array.from({ length: 10 }, (_, n) => ({ n: n * 2 })));
  });

  it('answers with -32601 when no handler is installed', async () => {
    const { client } = await pair();
    await expect(client.request('nothing')).rejects.toMatchObject({ code: -32601 });
  });

  it('passes a thrown JsonRpcError through with its code and data', async () => {
    const { client } = await pair({
      onRequest: () => Promise.reject(new JsonRpcError(-32002, 'resource not found', { uri: 'x' })),
    });
    const error = await client.request('read').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({
      code: -32002,
      message: 'resource not found',
      data: { uri: 'x' },
    });
  });

  it('turns any other throw into -32603 without leaking its message, and reports it', async () => {
    const onError = vi.fn();
    const { client, frames } = await pair({
      onRequest: () => Promise.reject(new Error('secret database password in stack')),
      onError,
    });
    await expect(client.request('boom')).rejects.toMatchObject({
      code: -32603,
      message: 'internal error',
    });
    expect(frames.join('\n')).not.toContain('secret');
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'secret database password in stack' }),
    );
  });

  it('times out a call with a LocalError and ignores the late response', async () => {
    const onError = vi.fn();
    const { client } = await pair(
      {
        onRequest: () =>
          new Promise((r) =>
            setTimeout(() => {
              r('late');
            }, 40),
          ),
      },
      { onError },
    );
    const error = await client
      .request('slow', undefined, { timeoutMs: 5 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({ code: 'REQUEST_TIMEOUT' });
    await new Promise((r) => setTimeout(r, 60));
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: expect.stringMatching(/unknown id 1/) }),
    );
  });

  it('uses the default timeout and tells onAbandon of calls given up on, not of answered ones', async () => {
    const abandoned: unknown[] = [];
    const { client } = await pair(
      { onRequest: (request) => (request.method === 'fast' ? 'ok' : new Promise(() => undefined)) },
      { timeoutMs: 5, onAbandon: (call) => abandoned.push(call) },
    );
    await expect(client.request('fast')).resolves.toBe('ok');
    const timedOut = await client.request('slow').catch((e: unknown) => e);
    expect(timedOut).toMatchObject({ code: 'REQUEST_TIMEOUT' });
    const controller = new AbortController();
    const aborted = client.request('slow', undefined, {
      signal: controller.signal,
      timeoutMs: 10_000,
      relatedRequestId: 'r',
    });
    controller.abort('enough');
    await expect(aborted).rejects.toBe('enough');
    expect(abandoned).toEqual([
      { id: 2, method: 'slow', reason: timedOut, relatedRequestId: undefined },
      { id: 3, method: 'slow', reason: 'enough', relatedRequestId: 'r' },
    ]);
  });

  it('times calls out on one timer, each at its own deadline, and keeps none once they end', async () => {
    vi.useFakeTimers();
    let answer: (value: string) => void = () => undefined;
    const { client } = await pair({
      onRequest: (request) =>
        request.method === 'answered'
          ? new Promise<string>((resolve) => (answer = resolve))
          : new Promise(() => undefined),
    });
    const settled = new Map<string, unknown>();
    const call = (id: string, timeoutMs?: number, method = 'slow') => {
      client.request(method, undefined, timeoutMs === undefined ? { id } : { id, timeoutMs }).then(
        (value: unknown) => settled.set(id, value),
        (e: unknown) => settled.set(id, e),
      );
    };
    call('a', 100);
    call('b', 50);
    call('c', 200);
    call('d', 150, 'answered');
    call('e'); // no timeout
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(49);
    expect(settled.size).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect([...settled.keys()]).toEqual(['b']);
    answer('done');
    await vi.advanceTimersByTimeAsync(50);
    expect(settled.get('d')).toBe('done');
    expect(settled.get('a')).toMatchObject({ code: 'REQUEST_TIMEOUT' });
    expect(client.touch('c')).toBe(true); // at 100: its deadline moves from 200 to 300
    await vi.advanceTimersByTimeAsync(199);
    expect(settled.has('c')).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled.get('c')).toMatchObject({
      code: 'REQUEST_TIMEOUT',
      message: 'request "slow" timed out after 200 ms',
    });
    // Only the call without a timeout is left: no timer keeps the process up.
    expect(vi.getTimerCount()).toBe(0);
    expect(settled.has('e')).toBe(false);
  });

  it('restarts the timeout on touch', async () => {
    vi.useFakeTimers();
    const { client } = await pair({ onRequest: () => new Promise(() => undefined) });
    let settled: unknown;
    client
      .request('slow', undefined, { timeoutMs: 100, id: 'p' })
      .catch((e: unknown) => (settled = e));
    await vi.advanceTimersByTimeAsync(80);
    expect(client.touch('p')).toBe(true);
    await vi.advanceTimersByTimeAsync(80);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(30);
    expect(settled).toMatchObject({ code: 'REQUEST_TIMEOUT' });
    expect(client.touch('p')).toBe(false);
  });

  it('rejects with the abort reason when the signal aborts, before or during the call', async () => {
    const { client } = await pair({ onRequest: () => new Promise(() => undefined) });
    const controller = new AbortController();
    const call = client.request('slow', undefined, { signal: controller.signal });
    controller.abort(new Error('user gave up'));
    await expect(call).rejects.toThrow('user gave up');
    await expect(
      client.request('x', undefined, { signal: AbortSignal.abort('early') }),
    ).rejects.toBe('early');
  });

  it('rejects with the reason when a cancellation aborts, before (nothing sent) or during the call', async () => {
    const { client, frames } = await pair({ onRequest: () => new Promise(() => undefined) });
    const listeners = new Set<(reason: unknown) => void>();
    const cancellation = {
      follow: (listener: (reason: unknown) => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    const call = client.request('slow', undefined, { cancellation });
    expect(listeners.size).toBe(1);
    for (const listener of listeners) listener(new Error('user gave up'));
    await expect(call).rejects.toThrow('user gave up');
    expect(listeners.size).toBe(0); // the settled call stopped following it
    const answered = client.request('slow', undefined, { cancellation, timeoutMs: 1 });
    await expect(answered).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT' });
    expect(listeners.size).toBe(0);
    const sent = frames.length;
    const aborted = {
      follow: (listener: (reason: unknown) => void) => (listener('early'), () => undefined),
    };
    await expect(client.request('x', undefined, { cancellation: aborted })).rejects.toBe('early');
    expect(frames.length).toBe(sent);
  });

  it('rejects every pending call when the transport closes, and later calls too', async () => {
    const { client, server } = await pair({ onRequest: () => new Promise(() => undefined) });
    const calls = [client.request('a'), client.request('b'), client.request('c')];
    await server.close();
    for (const call of calls)
      await expect(call).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    await expect(client.request('d')).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    await expect(client.notify('n')).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    expect(client.isClosed).toBe(true);
  });

  it('aborts incoming handlers when the connection closes', async () => {
    let signal: AbortSignal | undefined;
    const { client, server } = await pair({
      onRequest: (_request, ctx) => {
        signal = ctx.signal;
        return new Promise(() => undefined);
      },
    });
    void client.request('hang').catch(() => undefined);
    await vi.waitFor(() => {
      expect(signal).toBeDefined();
    });
    await server.close();
    expect(signal?.aborted).toBe(true);
  });

  it('cancels an incoming request and sends no response for it', async () => {
    const onError = vi.fn();
    let signal: AbortSignal | undefined;
    const { client, server, frames } = await pair(
      {
        onRequest: (_request, ctx) => {
          signal = ctx.signal;
          return new Promise((resolve) => {
            ctx.signal.addEventListener('abort', () => {
              resolve('done anyway');
            });
          });
        },
      },
      { onError },
    );
    const call = client
      .request('work', undefined, { id: 'w', timeoutMs: 50 })
      .catch((e: unknown) => e);
    await vi.waitFor(() => {
      expect(signal).toBeDefined();
    });
    expect(server.cancelIncoming('w', 'stop')).toBe(true);
    expect(signal?.reason).toBe('stop');
    await expect(call).resolves.toMatchObject({ code: 'REQUEST_TIMEOUT' });
    expect(frames.filter((f) => f.includes('"result"'))).toEqual([]);
    expect(server.cancelIncoming('w')).toBe(false);
  });

  it('makes a request signal only when read, aborted if the request was cancelled first', async () => {
    let read: (() => AbortSignal) | undefined;
    let finish: ((value: unknown) => void) | undefined;
    const { client, server } = await pair({
      onRequest: (_request, ctx) => {
        read = () => ctx.signal;
        return new Promise((resolve) => {
          finish = resolve;
        });
      },
    });
    const call = client
      .request('work', undefined, { id: 'c', timeoutMs: 50 })
      .catch((e: unknown) => e);
    await vi.waitFor(() => {
      expect(read).toBeDefined();
    });
    expect(server.cancelIncoming('c', 'gone')).toBe(true);
    const signal = read?.();
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBe('gone');
    finish?.('too late');
    await expect(call).resolves.toMatchObject({ code: 'REQUEST_TIMEOUT' });
  });

  it('answers a handler that returns synchronously, and one that throws synchronously', async () => {
    const { client } = await pair({
      onRequest: (request) => {
        if (request.method === 'fail') throw new JsonRpcError(-32000, 'no');
        return { at: 'once' };
      },
    });
    await expect(client.request('now')).resolves.toEqual({ at: 'once' });
    await expect(client.request('fail')).rejects.toMatchObject({ code: -32000, message: 'no' });
  });

  it('makes success responses with `respond` when given, and sends what it makes', async () => {
    const { transport } = await rawPeer({
      onRequest: (request) => (request.method === 'none' ? undefined : { n: 1 }),
      respond: (request, result) => ({ jsonrpc: '2.0', id: request.id, result: { made: result } }),
    });
    transport.receiver?.message({ jsonrpc: '2.0', id: 1, method: 'some' });
    transport.receiver?.message({ jsonrpc: '2.0', id: 2, method: 'none' });
    await vi.waitFor(() => {
      expect(transport.sent).toEqual([
        { jsonrpc: '2.0', id: 1, result: { made: { n: 1 } } },
        { jsonrpc: '2.0', id: 2, result: { made: null } },
      ]);
    });
  });

  it('delivers notifications in order and sends related messages through the context', async () => {
    const seen: string[] = [];
    const { client } = await pair(
      {
        onRequest: async (_request, ctx) => {
          await ctx.notify('progress', { step: 1 });
          const answer = await ctx.request('ask', { q: 'name?' });
          await ctx.notify('progress', { step: 2 });
          return { answer };
        },
      },
      {
        onNotification: (n) => seen.push(`${n.method}:${JSON.stringify(n.params)}`),
        onRequest: (request) =>
          Promise.resolve({ reply: (request.params as { q: string }).q.toUpperCase() }),
      },
    );
    await expect(client.request('go')).resolves.toEqual({ answer: { reply: 'NAME?' } });
    expect(seen).toEqual(['progress:{"step":1}', 'progress:{"step":2}']);
  });

  it('reports a response with an unknown id and keeps working', async () => {
    const onError = vi.fn();
    const { transport, peer } = await rawPeer({ onError, onRequest: () => Promise.resolve('ok') });
    peer.push({ jsonrpc: '2.0', id: 999, result: 1 });
    await vi.waitFor(() => {
      expect(onError).toHaveBeenCalledTimes(1);
    });
    peer.push({ jsonrpc: '2.0', id: 'q', method: 'm' });
    await vi.waitFor(() => {
      expect(transport.sent).toContainEqual({ jsonrpc: '2.0', id: 'q', result: 'ok' });
    });
  });

  it('refuses a duplicate in-flight id from the peer', async () => {
    const { transport, peer } = await rawPeer({ onRequest: () => new Promise(() => undefined) });
    peer.push({ jsonrpc: '2.0', id: 1, method: 'm' });
    peer.push({ jsonrpc: '2.0', id: 1, method: 'm' });
    await vi.waitFor(() => {
      expect(transport.sent).toHaveLength(1);
    });
    expect(transport.sent[0]).toMatchObject({ id: 1, error: { code: -32600 } });
  });

  it('answers a batch with one array, or refuses it when batches are not accepted', async () => {
    const { transport, peer } = await rawPeer({
      onRequest: (r) => Promise.resolve(r.method),
      acceptBatch: () => true,
    });
    peer.batch([
      { message: { jsonrpc: '2.0', id: 1, method: 'a' } },
      { message: { jsonrpc: '2.0', method: 'n' } },
      {
        invalid: {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: 'invalid request: x' },
        },
      },
      { message: { jsonrpc: '2.0', id: 2, method: 'b' } },
    ]);
    await vi.waitFor(() => {
      expect(transport.sent).toHaveLength(1);
    });
    expect(transport.sent[0]).toEqual([
      { jsonrpc: '2.0', id: 1, result: 'a' },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: x' } },
      { jsonrpc: '2.0', id: 2, result: 'b' },
    ]);
    const refusing = await rawPeer({ onRequest: (r) => Promise.resolve(r.method) });
    refusing.peer.batch([{ message: { jsonrpc: '2.0', id: 1, method: 'a' } }]);
    await vi.waitFor(() => {
      expect(refusing.transport.sent).toHaveLength(1);
    });
    expect(refusing.transport.sent[0]).toMatchObject({
      id: null,
      error: { code: -32600, message: expect.stringMatching(/batch/) },
    });
  });

  it('carries 10 MB messages both ways', async () => {
    const { client } = await pair({ onRequest: (r) => Promise.resolve(r.params) });
    const big = { data: 'y'.repeat(10 * 1024 * 1024) };
    await expect(client.request('echo', big)).resolves.toEqual(big);
  });

  it('refuses a second start and a duplicate outgoing id', async () => {
    const { client } = await pair({ onRequest: () => new Promise(() => undefined) });
    await expect(client.start()).rejects.toMatchObject({ code: 'ALREADY_STARTED' });
    void client.request('a', undefined, { id: 'same' }).catch(() => undefined);
    await expect(client.request('b', undefined, { id: 'same' })).rejects.toBeInstanceOf(LocalError);
  });
});

/** A connection driven by hand-written frames, to test what a well-behaved peer never sends. */
async function rawPeer(options: ConnectionOptions) {
  const transport = new RecordingTransport();
  const connection = new Connection(transport, options);
  open.push(connection);
  await connection.start();
  const receiver = transport.receiver!;
  return {
    transport,
    peer: {
      push: (message: Message) => {
        receiver.message(message);
      },
      batch: (items: Parameters<NonNullable<Receiver['batch']>>[0]) => {
        receiver.batch?.(items);
      },
    },
  };
}

class RecordingTransport implements Transport {
  receiver: Receiver | undefined;
  readonly sent: unknown[] = [];
  start(receiver: Receiver): Promise<void> {
    this.receiver = receiver;
    return Promise.resolve();
  }
  send(message: Message | readonly Message[]): Promise<void> {
    this.sent.push(JSON.parse(JSON.stringify(message)));
    return Promise.resolve();
  }
  close(): Promise<void> {
    this.receiver?.closed();
    return Promise.resolve();
  }
}
