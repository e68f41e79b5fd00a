import { describe, expect, it } from 'vitest';
import { SseParser } from './sse';

describe('SseParser', () => {
  it('dispatches named events with their data, ignoring comments', () => {
    const parser = new SseParser();
    expect(parser.push(': keep-alive\n\nevent: state\ndata: {"a":1}\n\n')).toEqual([
      { event: 'state', data: '{"a":1}' },
    ]);
  });

  it('joins data lines and calls an unnamed event "message"', () => {
    expect(new SseParser().push('data: one\ndata: two\n\n')).toEqual([
      { event: 'message', data: 'one\ntwo' },
    ]);
  });

  it('keeps state across chunks split anywhere, CRLF included', () => {
    const parser = new SseParser();
    const text = 'event: wire\r\ndata: {"seq":1}\r\n\r\nevent: log\r\ndata: x\r\n\r\n';
    const out = Array.from({ length: text.length }, (_, i) => parser.push(text.charAt(i))).flat();
    expect(out).toEqual([
      { event: 'wire', data: '{"seq":1}' },
      { event: 'log', data: 'x' },
    ]);
  });

  it('does not dispatch an event without data, and resets the name after each event', () => {
    const parser = new SseParser();
    expect(parser.push('event: nothing\n\ndata: y\n\n')).toEqual([{ event: 'message', data: 'y' }]);
  });
});
