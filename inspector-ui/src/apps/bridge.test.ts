import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../types';
import type { BridgePort, Notice, Outcome } from './bridge';
import { AppBridge } from './bridge';
import { BURST, MAX_MESSAGE_BYTES, MessageGuard } from './guard';

/** A bridge whose page records what it is sent and shown. */
function bridge(call: (name: string) => Outcome = () => ({ result: { content: [] } })) {
  const posted: JsonObject[] = [];
  const notices: Notice[] = [];
  const modes: string[] = [];
  const port: BridgePort = {
    post: (m) => posted.push(m),
    log: () => undefined,
    callTool: (name) => Promise.resolve(call(name)),
    readResource: () => Promise.resolve({ result: { contents: [] } }),
    notice: (n) => notices.push(n),
    resize: () => undefined,
    setDisplayMode: (mode) => modes.push(mode),
  };
  const made = new AppBridge(port, {
    html: '<p>view</p>',
    csp: { connectDomains: [] },
    input: { name: 'Ada' },
    result: { content: [{ type: 'text', text: 'Hello' }] },
    hostInfo: { name: 'mcpkit-inspector', version: '0.0.0' },
    hostContext: { theme: 'light', platform: 'web' },
  });
  return { made, posted, notices, modes };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const methods = (posted: JsonObject[]) => posted.map((m) => m['method'] ?? `#${String(m['id'])}`);

describe('AppBridge', () => {
  it('follows the lifecycle: resource after proxy-ready, data only after initialized', async () => {
    const { made, posted } = bridge();
    made.receive({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} });
    expect(posted[0]).toMatchObject({
      method: 'ui/notifications/sandbox-resource-ready',
      params: { html: '<p>view</p>', csp: { connectDomains: [] } },
    });
    made.receive({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {} });
    await tick();
    expect(posted[1]).toMatchObject({
      id: 1,
      result: {
        protocolVersion: '2026-01-26',
        hostInfo: { name: 'mcpkit-inspector' },
        hostCapabilities: { openLinks: {}, serverTools: {}, serverResources: {}, logging: {} },
        hostContext: { theme: 'light', platform: 'web', displayMode: 'inline' },
      },
    });
    expect(posted).toHaveLength(2);
    made.receive({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
    expect(methods(posted).slice(2)).toEqual([
      'ui/notifications/tool-input',
      'ui/notifications/tool-result',
    ]);
    expect(posted[2]).toMatchObject({ params: { arguments: { name: 'Ada' } } });
  });

  it('passes tool calls on and answers unknown methods with -32601', async () => {
    const { made, posted } = bridge((name) =>
      name === 'ok' ? { result: { content: [] } } : { error: { code: -32600, message: 'no' } },
    );
    made.receive({ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'ok' } });
    made.receive({ jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'nope' } });
    made.receive({ jsonrpc: '2.0', id: 'c', method: 'sampling/createMessage', params: {} });
    await tick();
    expect(posted).toEqual([
      { jsonrpc: '2.0', id: 'a', result: { content: [] } },
      { jsonrpc: '2.0', id: 'b', error: { code: -32600, message: 'no' } },
      expect.objectContaining({ id: 'c', error: expect.objectContaining({ code: -32601 }) }),
    ]);
  });

  it('opens a link only once the person says so', async () => {
    const { made, posted, notices } = bridge();
    made.receive({
      jsonrpc: '2.0',
      id: 1,
      method: 'ui/open-link',
      params: { url: 'https://x.example' },
    });
    made.receive({
      jsonrpc: '2.0',
      id: 2,
      method: 'ui/open-link',
      params: { url: 'javascript:alert(1)' },
    });
    await tick();
    expect(posted).toEqual([expect.objectContaining({ id: 2, error: expect.anything() })]);
    const link = notices[0];
    if (link?.kind !== 'link') throw new Error('no link notice');
    link.decide(false);
    await tick();
    expect(posted[1]).toMatchObject({ id: 1, error: { message: 'Link opening denied by user' } });
  });

  it('switches display mode only to one both sides have', async () => {
    const { made, posted, modes } = bridge();
    made.receive({
      jsonrpc: '2.0',
      id: 1,
      method: 'ui/initialize',
      params: { appCapabilities: { availableDisplayModes: ['inline'] } },
    });
    made.receive({
      jsonrpc: '2.0',
      id: 2,
      method: 'ui/request-display-mode',
      params: { mode: 'fullscreen' },
    });
    await tick();
    expect(posted[1]).toMatchObject({ id: 2, result: { mode: 'inline' } });
    expect(modes).toEqual([]);
  });
});

describe('MessageGuard', () => {
  it('drops past the burst, then takes messages again as time passes', () => {
    let now = 0;
    const guard = new MessageGuard(() => now);
    for (let i = 0; i < BURST; i++) expect(guard.check({ i })).toBeUndefined();
    expect(guard.check({})).toBe('rate');
    now += 1000;
    expect(guard.check({})).toBeUndefined();
  });

  it('drops oversized and malformed messages', () => {
    const guard = new MessageGuard();
    expect(guard.check({ text: 'x'.repeat(MAX_MESSAGE_BYTES) })).toBe('size');
    expect(guard.check('a string')).toBe('malformed');
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(guard.check(cyclic)).toBe('malformed');
  });
});
