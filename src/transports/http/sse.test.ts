import { describe, expect, it } from 'vitest';
import type { SseEvent } from './sse.js';
import { SseParser, encodeSseComment, encodeSseEvent } from './sse.js';

function parseAll(chunks: string[]): { events: SseEvent[]; parser: SseParser } {
  const events: SseEvent[] = [];
  const parser = new SseParser((e) => events.push(e));
  for (const chunk of chunks) parser.push(chunk);
  return { events, parser };
}

describe('SSE', () => {
  it('round-trips events through any chunking', () => {
    const text =
      encodeSseEvent({ id: '1', event: 'message', data: '{"a":1}' }) +
      encodeSseComment('keep-alive') +
      encodeSseEvent({ data: 'line1\nline2', retry: 500 });
    for (let size = 1; size <= text.length; size += 3) {
      const chunks = text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g'))!;
      const { events, parser } = parseAll(chunks);
      expect(events).toEqual([
        { id: '1', event: 'message', data: '{"a":1}' },
        { id: '1', data: 'line1\nline2', retry: 500 },
      ]);
      expect(parser.lastEventId).toBe('1');
      expect(parser.retry).toBe(500);
    }
  });

  it('handles CRLF split across chunks, and a priming event with empty data', () => {
    const { events, parser } = parseAll(['id: p1\r', '\nretry: 1000\r\ndata: \r\n\r', '\n']);
    expect(events).toEqual([{ id: 'p1', data: '', retry: 1000 }]);
    expect(parser.lastEventId).toBe('p1');
  });

  it('keeps id and retry of a data-less block without dispatching it', () => {
    const { events, parser } = parseAll(['id: 7\nretry: 20\n\n']);
    expect(events).toEqual([]);
    expect(parser.lastEventId).toBe('7');
    expect(parser.retry).toBe(20);
  });

  it('drops an overlong line with an error instead of growing without bound', () => {
    const errors: Error[] = [];
    const events: SseEvent[] = [];
    const parser = new SseParser((e) => events.push(e), {
      maxLineLength: 10,
      onError: (e) => errors.push(e),
    });
    parser.push('data: ' + 'x'.repeat(20));
    parser.push('\n\ndata: ok\n\n');
    expect(errors).toHaveLength(1);
    expect(events.at(-1)).toEqual({ data: 'ok' });
  });

  it('strips newlines from ids and event names when encoding', () => {
    expect(encodeSseEvent({ id: 'a\nb', event: 'x\ry', data: 'd' })).toBe(
      'id: ab\nevent: xy\ndata: d\n\n',
    );
  });
});
