import { afterEach, describe, expect, it, vi } from 'vitest';
import { JsonRpcError } from '../../client/index.js';
import type { EventHub } from './events.js';
import { Questions } from './questions.js';

function hub(): { hub: EventHub; sent: [string, any][] } {
  const sent: [string, any][] = [];
  return {
    hub: {
      broadcast: (type: string, data: unknown) => sent.push([type, data]),
    } as unknown as EventHub,
    sent,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('Questions', () => {
  it('passes an answer on and tells every page it went away', async () => {
    const { hub: events, sent } = hub();
    const questions = new Questions(events, 60_000);
    const asked = questions.ask('elicit', { message: 'm' }, new AbortController().signal);
    const [type, data] = sent[0]!;
    expect(type).toBe('elicit');
    expect(questions.events()).toEqual([['elicit', data]]);
    expect(() => {
      questions.answer(data.requestId, { result: { action: 'maybe' } });
    }).toThrow(/accept/);
    questions.answer(data.requestId, { result: { action: 'accept', content: { a: 1 } } });
    await expect(asked).resolves.toEqual({ action: 'accept', content: { a: 1 } });
    expect(sent[1]).toEqual(['answered', { requestId: data.requestId }]);
    expect(questions.events()).toEqual([]);
    expect(() => {
      questions.answer(data.requestId, { result: {} });
    }).toThrow(/no pending question/);
  });

  it('declines an elicitation and refuses a sampling request nobody answers', async () => {
    vi.useFakeTimers();
    const { hub: events, sent } = hub();
    const questions = new Questions(events, 1000);
    const elicit = questions.ask('elicit', {}, new AbortController().signal);
    const sample = questions.ask('sample', {}, new AbortController().signal);
    const refused = expect(sample).rejects.toBeInstanceOf(JsonRpcError);
    vi.advanceTimersByTime(1000);
    await expect(elicit).resolves.toEqual({ action: 'decline' });
    await refused;
    expect(sent.filter(([type]) => type === 'answered')).toHaveLength(2);
  });

  it('drops a question the server gave up on, and refuses all on close', async () => {
    const { hub: events, sent } = hub();
    const questions = new Questions(events, 60_000);
    const abort = new AbortController();
    const gone = questions.ask('sample', {}, abort.signal);
    abort.abort(new Error('server cancelled'));
    await expect(gone).rejects.toThrow('server cancelled');
    const left = questions.ask('sample', {}, new AbortController().signal);
    questions.refuseAll('closing');
    await expect(left).rejects.toThrow('closing');
    expect(sent.filter(([type]) => type === 'answered')).toHaveLength(2);
    const already = new AbortController();
    already.abort(new Error('too late'));
    await expect(questions.ask('elicit', {}, already.signal)).rejects.toThrow('too late');
  });

  it('fills a sampling answer and takes a refusal', async () => {
    const { hub: events, sent } = hub();
    const questions = new Questions(events, 60_000);
    const one = questions.ask('sample', {}, new AbortController().signal);
    questions.answer(sent[0]![1].requestId, { result: { content: { type: 'text', text: 'hi' } } });
    await expect(one).resolves.toEqual({
      role: 'assistant',
      model: 'mcpkit-inspector',
      content: { type: 'text', text: 'hi' },
    });
    const two = questions.ask('sample', {}, new AbortController().signal);
    const id = sent.at(-1)![1].requestId;
    expect(() => {
      questions.answer(id, { result: { text: 'no content' } });
    }).toThrow(/result.content/);
    questions.answer(id, { result: { action: 'decline' } });
    await expect(two).rejects.toThrow('the user rejected the sampling request');
  });
});
