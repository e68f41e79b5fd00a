import { describe, expect, it } from 'vitest';
import { SseWriter } from './sse-writer.js';

const utf8 = new TextDecoder();

/** What the writer gives, bytes decoded and marked `bytes:` (they are never joined with text). */
async function drain(writer: SseWriter): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of writer) {
    out.push(typeof chunk === 'string' ? chunk : `bytes:${utf8.decode(chunk)}`);
  }
  return out;
}

describe('SseWriter', () => {
  it('delivers queued text (coalesced) before ending, then drops writes', async () => {
    const closes: boolean[] = [];
    const writer = new SseWriter(new AbortController().signal, 0, (lost) => closes.push(lost));
    writer.write('a');
    writer.write('b');
    writer.end();
    expect(writer.write('c')).toBe(false);
    expect(await drain(writer)).toEqual(['ab']);
    expect(closes).toEqual([false]);
  });

  it('gives bytes as they are, one chunk at a time, and joins the text around them', async () => {
    const writer = new SseWriter(new AbortController().signal, 0);
    writer.write('data: ');
    writer.write(new TextEncoder().encode('{"a":"\\"é"}'));
    writer.write('\n\n');
    writer.write(': x\n\n');
    writer.end();
    expect(await drain(writer)).toEqual(['data: ', 'bytes:{"a":"\\"é"}', '\n\n: x\n\n']);
  });

  it('ends and reports the loss when the client goes away', async () => {
    const abort = new AbortController();
    const closes: boolean[] = [];
    const writer = new SseWriter(abort.signal, 0, (lost) => closes.push(lost));
    const drained = drain(writer);
    writer.write('x');
    await Promise.resolve();
    abort.abort();
    expect(await drained).toEqual(['x']);
    expect(closes).toEqual([true]);
    expect(writer.closed).toBe(true);
  });

  it('sends keep-alive comments while quiet', async () => {
    const writer = new SseWriter(new AbortController().signal, 5);
    const iterator = writer[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toBe(': keep-alive\n\n');
    writer.end();
    expect((await iterator.next()).done).toBe(true);
  });
});
