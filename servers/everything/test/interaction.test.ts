import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Request } from '../../../src/jsonrpc/index.js';
import { MODERN } from '../../../test/helpers/wire.js';
import { connect, textOf, type Connected, type Era } from './connect.js';

const open: Connected[] = [];
async function connected(era: Era, options?: Parameters<typeof connect>[1]): Promise<Connected> {
  const c = await connect(era, options);
  open.push(c);
  return c;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

const ALL_CAPABILITIES = { elicitation: {}, sampling: {}, roots: {} };

/** A client that answers server requests from `answers` and records what it was asked. */
function answering(answers: Record<string, unknown>) {
  const asked: Request[] = [];
  return {
    asked,
    onRequest: (request: Request) => {
      asked.push(request);
      return Promise.resolve(answers[request.method]);
    },
  };
}

const methodsOf = (c: Connected) => c.w.notifications.map((n) => n.method);

describe('simulate-research-query: elicitation', () => {
  it('asks through a legacy push, then reports progress and summarizes (2025-11-25)', async () => {
    const client = answering({
      'elicitation/create': { action: 'accept', content: { depth: 'detailed', focus: 'cost' } },
    });
    const c = await connected('2025-11-25', {
      capabilities: ALL_CAPABILITIES,
      onRequest: client.onRequest,
    });
    const result = await c.call(
      'simulate-research-query',
      { topic: 'solar' },
      { progressToken: 'r' },
    );
    expect(client.asked).toHaveLength(1);
    expect(client.asked[0]!.params).toMatchObject({
      mode: 'form',
      message: expect.stringContaining('solar'),
      requestedSchema: {
        type: 'object',
        properties: { depth: { type: 'string', enum: ['overview', 'detailed', 'exhaustive'] } },
        required: ['depth'],
      },
    });
    expect(textOf(result)).toMatch(
      /^Research summary for "solar" \(depth: detailed, focus: cost\)/,
    );
    const progress = c.w.notifications.filter((n) => n.method === 'notifications/progress');
    expect(progress.map((n) => (n.params as any).progress)).toEqual([1, 2, 3, 4]);
    expect(progress[3]!.params).toMatchObject({ progressToken: 'r', total: 4 });
    c.check();
  });

  it('says so clearly when the user declines (2025-11-25)', async () => {
    const client = answering({ 'elicitation/create': { action: 'decline' } });
    const c = await connected('2025-11-25', {
      capabilities: ALL_CAPABILITIES,
      onRequest: client.onRequest,
    });
    const result = await c.call('simulate-research-query', { topic: 'solar' });
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe(
      'Research on "solar" was not started: the user declined the clarification.',
    );
    c.check();
  });

  it('goes on with defaults when the client cannot elicit (2024-11-05)', async () => {
    const c = await connected('2024-11-05');
    const result = await c.call('simulate-research-query', { topic: 'tides' });
    expect(textOf(result)).toMatch(/depth: overview/);
    expect(textOf(result)).toMatch(/cannot ask the user/);
    c.check();
  });

  it('runs as a multi round-trip request with requestState (2026-07-28)', async () => {
    const c = await connected(MODERN, { capabilities: ALL_CAPABILITIES });
    const args = { topic: 'solar' };
    const first = await c.call('simulate-research-query', args);
    expect(first).toMatchObject({ resultType: 'input_required', requestState: expect.any(String) });
    expect(first.inputRequests['input-0']).toMatchObject({
      method: 'elicitation/create',
      params: { mode: 'form', requestedSchema: { required: ['depth'] } },
    });
    const done = await c.send('tools/call', {
      name: 'simulate-research-query',
      arguments: args,
      requestState: first.requestState,
      inputResponses: { 'input-0': { action: 'accept', content: { depth: 'exhaustive' } } },
      _meta: { progressToken: 9 },
    });
    expect(done.resultType).toBe('complete');
    expect(textOf(done)).toMatch(/depth: exhaustive\)/);
    expect(methodsOf(c).filter((m) => m === 'notifications/progress')).toHaveLength(4);
    const cancelled = await c.send('tools/call', {
      name: 'simulate-research-query',
      arguments: args,
      requestState: first.requestState,
      inputResponses: { 'input-0': { action: 'cancel' } },
    });
    expect(textOf(cancelled)).toMatch(/the user cancelled the clarification/);
    c.check();
  });
});

describe('sample-llm and get-roots-list: requests to the client', () => {
  const sampled = {
    role: 'assistant',
    content: { type: 'text', text: 'Paris.' },
    model: 'test-model',
  };

  it('samples and lists roots over the legacy session (2025-11-25)', async () => {
    const client = answering({
      'sampling/createMessage': sampled,
      'roots/list': { roots: [{ uri: 'file:///work', name: 'work' }] },
    });
    const c = await connected('2025-11-25', {
      capabilities: ALL_CAPABILITIES,
      onRequest: client.onRequest,
    });
    const result = await c.call('sample-llm', { prompt: 'Capital of France?', maxTokens: 20 });
    expect(textOf(result)).toBe('LLM sampling result: Paris.');
    expect(client.asked[0]!.params).toMatchObject({
      messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }],
      maxTokens: 20,
    });
    expect(textOf(await c.call('get-roots-list'))).toBe('- file:///work (work)');
    c.check();
  });

  it('reports a missing sampling capability as a tool error (2024-11-05)', async () => {
    const c = await connected('2024-11-05');
    const result = await c.call('sample-llm', { prompt: 'hi' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/does not support sampling/);
    c.check();
  });

  it('samples through input_required (2026-07-28)', async () => {
    const c = await connected(MODERN, { capabilities: ALL_CAPABILITIES });
    const first = await c.call('sample-llm', { prompt: 'Capital of France?' });
    expect(first.inputRequests['input-0']).toMatchObject({
      method: 'sampling/createMessage',
      params: { maxTokens: 100 },
    });
    const done = await c.send('tools/call', {
      name: 'sample-llm',
      arguments: { prompt: 'Capital of France?' },
      requestState: first.requestState,
      inputResponses: { 'input-0': sampled },
    });
    expect(textOf(done)).toBe('LLM sampling result: Paris.');
    c.check();
  });
});

describe('trigger-long-running-operation: progress and cancellation', () => {
  for (const era of ['2025-11-25', MODERN] as const) {
    it(`reports progress per step with the request's token (${era})`, async () => {
      const c = await connected(era);
      const result = await c.call(
        'trigger-long-running-operation',
        { duration: 0.02, steps: 4 },
        { progressToken: 'op-1' },
      );
      expect(textOf(result)).toBe('Long running operation completed: 0.02 seconds, 4 steps.');
      const progress = c.w.notifications.map((n) => n.params as any);
      expect(progress).toEqual(
        [1, 2, 3, 4].map((p) => ({
          progressToken: 'op-1',
          progress: p,
          total: 4,
          message: `Step ${String(p)} of 4`,
        })),
      );
      c.check();
    });

    it(`stops on notifications/cancelled and sends no response (${era})`, async () => {
      const c = await connected(era);
      const params: Record<string, unknown> = {
        name: 'trigger-long-running-operation',
        arguments: { duration: 60, steps: 2 },
      };
      if (era === MODERN) {
        params['_meta'] = {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': {},
        };
      }
      const call = c.w.client
        .request('tools/call', params, { id: 'long-1', timeoutMs: 300 })
        .catch((e: unknown) => e);
      await vi.waitFor(() => {
        expect(c.w.frames.some((f) => f.message['id'] === 'long-1')).toBe(true);
      });
      await c.w.client.notify('notifications/cancelled', { requestId: 'long-1', reason: 'test' });
      await expect(call).resolves.toMatchObject({ code: 'REQUEST_TIMEOUT' });
      expect(c.w.frames.filter((f) => f.dir === '<<' && f.message['id'] === 'long-1')).toEqual([]);
      // The session still serves.
      expect(textOf(await c.call('echo', { message: 'after' }))).toBe('Echo: after');
      c.check();
    });
  }
});

describe('toggle-simulated-logging', () => {
  it('logs from every call while on, honouring logging/setLevel (2025-11-25)', async () => {
    const c = await connected('2025-11-25', { server: { random: () => 0.99 } });
    expect(textOf(await c.call('toggle-simulated-logging'))).toMatch(/is on/);
    await c.call('echo', { message: 'a' });
    await vi.waitFor(() => {
      expect(methodsOf(c)).toEqual(['notifications/message', 'notifications/message']);
    });
    expect(c.w.notifications[1]!.params).toEqual({
      level: 'emergency',
      data: 'simulated emergency message from echo',
      logger: 'everything',
    });
    await c.send('logging/setLevel', { level: 'emergency' });
    const quiet = await connected('2025-11-25', { server: { random: () => 0 } });
    await quiet.call('toggle-simulated-logging');
    await quiet.send('logging/setLevel', { level: 'error' });
    await quiet.call('echo', { message: 'debug-level log is filtered' });
    await quiet.send('ping');
    // Only the toggle's own info message, sent before setLevel: the echo's debug one is filtered.
    expect(quiet.w.notifications.map((n) => (n.params as any).level)).toEqual(['info']);
    expect(textOf(await c.call('toggle-simulated-logging'))).toBe('Simulated logging is off.');
    c.check();
    quiet.check();
  });

  it('logs only when the request asks for a level (2026-07-28)', async () => {
    const c = await connected(MODERN, { server: { random: () => 0.5 } });
    await c.call('toggle-simulated-logging');
    await c.call('echo', { message: 'a' });
    expect(c.w.notifications).toEqual([]);
    await c.call('echo', { message: 'b' }, { 'io.modelcontextprotocol/logLevel': 'debug' });
    expect(c.w.notifications.map((n) => n.params)).toEqual([
      { level: 'error', data: 'simulated error message from echo', logger: 'everything' },
    ]);
    c.check();
  });
});

describe('toggle-subscriber-updates', () => {
  it('notifies legacy subscribers as dynamic resources change, until toggled off', async () => {
    const c = await connected('2025-11-25', { server: { updateIntervalMs: 5 } });
    const uri = 'demo://resource/dynamic/text/1';
    await c.send('resources/subscribe', { uri });
    expect(textOf(await c.call('toggle-subscriber-updates'))).toMatch(/are on/);
    await vi.waitFor(() => {
      expect(
        methodsOf(c).filter((m) => m === 'notifications/resources/updated').length,
      ).toBeGreaterThan(1);
    });
    expect(c.w.notifications[0]!.params).toEqual({ uri });
    const read = await c.send('resources/read', { uri });
    expect(read.contents[0].text).not.toMatch(/revision 1\./);
    expect(textOf(await c.call('toggle-subscriber-updates'))).toMatch(/are off/);
    await c.send('ping');
    const count = c.w.notifications.length;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(c.w.notifications).toHaveLength(count);
    c.check();
  });

  it('streams updates on subscriptions/listen and close() stops the timer (2026-07-28)', async () => {
    const c = await connected(MODERN, { server: { updateIntervalMs: 5 } });
    const uri = 'demo://resource/dynamic/blob/2';
    const listen = c.w.client.request(
      'subscriptions/listen',
      {
        notifications: { resourceSubscriptions: [uri] },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
      { id: 'listen-1' },
    );
    await vi.waitFor(() => {
      expect(methodsOf(c)).toContain('notifications/subscriptions/acknowledged');
    });
    await c.call('toggle-subscriber-updates');
    await vi.waitFor(() => {
      expect(methodsOf(c)).toContain('notifications/resources/updated');
    });
    const update = c.w.notifications.find((n) => n.method === 'notifications/resources/updated');
    expect(update!.params).toEqual({
      uri,
      _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' },
    });
    await c.everything.close();
    await expect(listen).resolves.toMatchObject({ resultType: 'complete' });
    const count = c.w.notifications.length;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(c.w.notifications).toHaveLength(count);
    c.check();
  });
});
