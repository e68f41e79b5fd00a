import { describe, expect, it } from 'vitest';
import { BodyTooLargeError, readBodyCapped } from './body.js';

/** An endless body of 64 KiB chunks; counts the chunks pulled and whether it was cancelled. */
function endless() {
  const seen = { pulled: 0, cancelled: false };
  const chunk = new Uint8Array(64 * 1024).fill(0x42);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      seen.pulled++;
      controller.enqueue(chunk);
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

describe('readBodyCapped', () => {
  it('stops an endless body at the cap, cancels the rest, and rejects with BodyTooLargeError', async () => {
    const { stream, seen } = endless();
    const read = readBodyCapped(new Response(stream), 1024 * 1024);
    await expect(read).rejects.toThrow(BodyTooLargeError);
    await expect(read).rejects.toThrow('the body is larger than 1 MiB');
    expect(seen.cancelled).toBe(true);
    // The cap and a chunk past it, give or take the stream's queue: never the whole body.
    expect(seen.pulled).toBeLessThan(20);
  });

  it('refuses a declared Content-Length above the cap before reading', async () => {
    const { stream, seen } = endless();
    const response = new Response(stream, { headers: { 'content-length': '2684354560' } });
    await expect(readBodyCapped(response, 1024)).rejects.toThrow(BodyTooLargeError);
    expect(seen.cancelled).toBe(true);
    expect(seen.pulled).toBeLessThanOrEqual(1);
  });

  it('gives a body within the cap whole, with characters split across chunks', async () => {
    const bytes = new TextEncoder().encode('{"issuer":"é漢"}');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    expect(await readBodyCapped(new Response(stream), bytes.byteLength)).toBe('{"issuer":"é漢"}');
    expect(await readBodyCapped(new Response(null), 10)).toBe('');
  });

  it('rejects with the error of a failed read', async () => {
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('connection reset'));
      },
    });
    await expect(readBodyCapped(new Response(stream), 1024)).rejects.toThrow('connection reset');
  });
});
