import { PassThrough } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatchItem } from '../../jsonrpc/codec.js';
import { Connection } from '../../jsonrpc/connection.js';
import { LocalError } from '../../jsonrpc/errors.js';
import type { Message } from '../../jsonrpc/message.js';
import type { Receiver, Transport } from '../../jsonrpc/transport.js';
import { createStdioServerTransport } from './server.js';

interface Harness {
  transport: Transport;
  stdin: PassThrough;
  stdout: PassThrough;
  messages: Message[];
  batches: (readonly BatchItem[])[];
  closes: (Error | undefined)[];
  /** Lines written to stdout so far, parsed. */
  output(): unknown[];
}

const open: Transport[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

async function harness(
  options: { batch?: boolean; maxLineBytes?: number; highWaterMark?: number } = {},
): Promise<Harness> {
  const stdin = new PassThrough();
  const stdout = new PassThrough(
    options.highWaterMark === undefined ? {} : { highWaterMark: options.highWaterMark },
  );
  const transport = createStdioServerTransport(
    options.maxLineBytes === undefined
      ? { stdin, stdout }
      : { stdin, stdout, maxLineBytes: options.maxLineBytes },
  );
  open.push(transport);
  const messages: Message[] = [];
  const batches: (readonly BatchItem[])[] = [];
  const closes: (Error | undefined)[] = [];
  const receiver: Receiver = {
    message: (message) => messages.push(message),
    closed: (error) => closes.push(error),
  };
  if (options.batch === true) receiver.batch = (items) => batches.push(items);
  await transport.start(receiver);
  let text = '';
  stdout.setEncoding('utf8');
  if (options.highWaterMark === undefined) stdout.on('data', (chunk: string) => (text += chunk));
  const output = (): unknown[] =>
    text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as unknown);
  return { transport, stdin, stdout, messages, batches, closes, output };
}

const request = (id: number, params: Record<string, unknown> = {}): Message => ({
  jsonrpc: '2.0',
  id,
  method: 'm',
  params,
});

describe('createStdioServerTransport', () => {
  it('delivers each line as a message and writes each send as one line', async () => {
    const h = await harness();
    h.stdin.write(JSON.stringify(request(1)) + '\n' + JSON.stringify(request(2)) + '\r\n');
    await nextTurn();
    expect(h.messages).toEqual([request(1), request(2)]);
    await h.transport.send({ jsonrpc: '2.0', id: 1, result: { ok: true } });
    await nextTurn();
    expect(h.output()).toEqual([{ jsonrpc: '2.0', id: 1, result: { ok: true } }]);
  });

  it('answers a malformed line with -32700 and keeps reading', async () => {
    const h = await harness();
    h.stdin.write(
      'this is not json\n{"jsonrpc":"2.0","id":1}\n' + JSON.stringify(request(3)) + '\n',
    );
    await nextTurn();
    expect(h.messages).toEqual([request(3)]);
    const [parse, invalid] = h.output() as { id: unknown; error: { code: number } }[];
    expect(parse).toMatchObject({ id: null, error: { code: -32700 } });
    expect(invalid).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('answers a request whose id is a float or an unsafe integer with -32600 and id null', async () => {
    const h = await harness();
    h.stdin.write(
      '{"jsonrpc":"2.0","id":1.5,"method":"m"}\n' +
        '{"jsonrpc":"2.0","id":9007199254740993,"method":"m"}\n' +
        JSON.stringify(request(3)) +
        '\n',
    );
    await nextTurn();
    expect(h.messages).toEqual([request(3)]);
    expect(h.output()).toMatchObject([
      { id: null, error: { code: -32600 } },
      { id: null, error: { code: -32600 } },
    ]);
  });

  it('reassembles a message whose multi-byte characters are split across chunks', async () => {
    const h = await harness();
    const message = request(1, { text: 'héllo € 😀' });
    const bytes = Buffer.from(JSON.stringify(message) + '\n');
    for (const byte of bytes) h.stdin.write(Buffer.of(byte));
    await nextTurn();
    expect(h.messages).toEqual([message]);
  });

  it('delivers a batch to receiver.batch, or refuses it without one', async () => {
    const withBatch = await harness({ batch: true });
    withBatch.stdin.write(JSON.stringify([request(1), { bad: true }]) + '\n');
    await nextTurn();
    expect(withBatch.batches).toHaveLength(1);
    expect(withBatch.batches[0]?.[0]).toEqual({ message: request(1) });

    const without = await harness();
    without.stdin.write(JSON.stringify([request(1)]) + '\n');
    await nextTurn();
    expect(without.messages).toEqual([]);
    expect(without.output()).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'invalid request: batches are not supported' },
      },
    ]);
  });

  it('answers an over-long line with -32600 and reads the next one', async () => {
    const h = await harness({ maxLineBytes: 100 });
    h.stdin.write(JSON.stringify(request(1, { pad: 'x'.repeat(200) })) + '\n');
    h.stdin.write(JSON.stringify(request(2)) + '\n');
    await nextTurn();
    expect(h.messages).toEqual([request(2)]);
    expect(h.output()).toMatchObject([
      {
        id: null,
        error: { code: -32600, message: expect.stringMatching(/longer than 100 bytes/) },
      },
    ]);
  });

  it('carries a 10 MB message in both directions', async () => {
    const h = await harness();
    const big = request(1, { data: 'x€😀'.repeat(1_250_000) });
    const bytes = Buffer.from(JSON.stringify(big) + '\n');
    for (let at = 0; at < bytes.length; at += 65_536)
      h.stdin.write(bytes.subarray(at, at + 65_536));
    await nextTurn();
    expect(h.messages).toEqual([big]);
    await h.transport.send(big);
    await nextTurn();
    expect(h.output()).toEqual([big]);
  });

  it('reports end of input as one clean close, after delivering the last line', async () => {
    const h = await harness();
    h.stdin.end(JSON.stringify(request(1)));
    await nextTurn();
    await nextTurn();
    expect(h.messages).toEqual([request(1)]);
    expect(h.closes).toEqual([undefined]);
    await h.transport.close();
    expect(h.closes).toEqual([undefined]);
    await expect(h.transport.send(request(2))).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
    });
  });

  it('stops reading on close without ending stdout, idempotently', async () => {
    const h = await harness();
    await Promise.all([h.transport.close(), h.transport.close()]);
    expect(h.closes).toEqual([undefined]);
    expect(h.stdin.listenerCount('data')).toBe(0);
    expect(h.stdin.listenerCount('end')).toBe(0);
    expect(h.stdin.isPaused()).toBe(true);
    expect(h.stdout.writableEnded).toBe(false);
    h.stdin.write(JSON.stringify(request(1)) + '\n');
    await nextTurn();
    expect(h.messages).toEqual([]);
    const error = await h.transport.send(request(1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({ code: 'CONNECTION_CLOSED' });
  });

  it('rejects a message that cannot be encoded, and keeps working', async () => {
    const h = await harness();
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    await expect(h.transport.send(request(1, cyclic))).rejects.toMatchObject({
      code: 'INVALID_MESSAGE',
    });
    await h.transport.send(request(2));
    await nextTurn();
    expect(h.output()).toEqual([request(2)]);
  });

  it('closes with the error when stdout fails (the client went away)', async () => {
    const h = await harness();
    h.stdout.destroy(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await nextTurn();
    expect(h.closes).toHaveLength(1);
    expect(h.closes[0]).toMatchObject({ code: 'CONNECTION_CLOSED', message: /EPIPE/ });
    await expect(h.transport.send(request(1))).rejects.toBeInstanceOf(LocalError);
  });

  it('keeps send order under backpressure and never writes into a full buffer', async () => {
    const highWaterMark = 4096;
    const h = await harness({ highWaterMark });
    const realWrite = h.stdout.write.bind(h.stdout);
    let worstBacklog = 0;
    h.stdout.write = ((chunk: string) => {
      worstBacklog = Math.max(worstBacklog, h.stdout.writableLength);
      return realWrite(chunk);
    }) as typeof h.stdout.write;

    const count = 200;
    const settled: number[] = [];
    const sends = Array.from({ length: count }, (_, n) =>
      h.transport.send(request(n, { pad: 'y'.repeat(1000 + (n % 7) * 500) })).then(() => {
        settled.push(n);
      }),
    );
    // A slow reader: one chunk per turn of the event loop.
    let text = '';
    const reading = (async () => {
      while (text.split('\n').length <= count) {
        const chunk = h.stdout.read() as string | null;
        if (chunk !== null) text += chunk;
        await nextTurn();
      }
    })();
    await Promise.all(sends);
    await reading;
    expect(settled).toEqual(Array.from({ length: count }, (_, n) => n));
    const ids = text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => (JSON.parse(line) as { id: number }).id);
    expect(ids).toEqual(Array.from({ length: count }, (_, n) => n));
    // Every write found the buffer below its high-water mark: backlog is one frame at most.
    expect(worstBacklog).toBeLessThan(highWaterMark);
  });

  it('runs a Connection: answers requests written to stdin', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const connection = new Connection(createStdioServerTransport({ stdin, stdout }), {
      onRequest: (req) => Promise.resolve({ echoed: req.params }),
    });
    await connection.start();
    let text = '';
    stdout.setEncoding('utf8');
    stdout.on('data', (chunk: string) => (text += chunk));
    stdin.write(JSON.stringify(request(7, { a: 1 })) + '\n');
    while (!text.includes('\n')) await nextTurn();
    expect(JSON.parse(text)).toEqual({ jsonrpc: '2.0', id: 7, result: { echoed: { a: 1 } } });
    await connection.close();
  });
});
