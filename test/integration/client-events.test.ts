// The client's events in both eras: list changes (legacy notifications; a 2026-07-28 listen
// stream opened on connect), resource subscriptions, log levels, and explicit listen streams.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalError } from '../../src/client/index.js';
import { McpServer } from '../../src/server/server.js';
import type { McpServerOptions } from '../../src/server/server.js';
import { ERAS, closeClients, connectClient } from '../helpers/client-pair.js';

afterEach(async () => {
  await closeClients();
});

function eventServer(options: McpServerOptions = {}) {
  const server = new McpServer({ name: 'events', version: '1.0.0' }, options);
  server.tool({ name: 'chatty', description: 'Logs at two levels.' }, async (_args, ctx) => {
    await ctx.log('debug', 'details');
    await ctx.log('warning', 'careful', 'chatty');
    return 'ok';
  });
  server.resource({ uri: 'test://a', name: 'a' }, () => 'a');
  server.resource({ uri: 'test://b', name: 'b' }, () => 'b');
  server.prompt({ name: 'p' }, () => 'p');
  return server;
}

describe('list changes', () => {
  for (const [era, revision] of ERAS) {
    it(`reaches onListChanged and invalidates the list cache (${era})`, async () => {
      const server = eventServer({ cacheHints: { 'tools/list': { ttlMs: 60_000 } } });
      const changed: string[] = [];
      const { client, sent } = await connectClient(server, {
        mode: { pin: revision },
        onListChanged: (kind) => changed.push(kind),
      });
      if (era === 'modern') {
        expect(sent('subscriptions/listen')[0]!.message['params']['notifications']).toEqual({
          toolsListChanged: true,
          promptsListChanged: true,
          resourcesListChanged: true,
        });
      }
      expect((await client.listTools()).map((t) => t.name)).toEqual(['chatty']);
      await client.listTools();
      expect(sent('tools/list')).toHaveLength(era === 'modern' ? 1 : 2);
      server.tool({ name: 'late' }, () => 'late');
      server.prompt({ name: 'late-prompt' }, () => '');
      await vi.waitFor(() => {
        expect(changed.sort()).toEqual(['prompts', 'tools']);
      });
      expect((await client.listTools()).map((t) => t.name)).toEqual(['chatty', 'late']);
    });
  }

  it('opens no stream without onListChanged or with autoListen off (2026-07-28)', async () => {
    const { sent } = await connectClient(eventServer());
    const { sent: off } = await connectClient(eventServer(), {
      onListChanged: () => undefined,
      autoListen: false,
    });
    expect(sent('subscriptions/listen')).toEqual([]);
    expect(off('subscriptions/listen')).toEqual([]);
  });
});

describe('resource subscriptions', () => {
  for (const [era, revision] of ERAS) {
    it(`delivers updates of subscribed resources only (${era})`, async () => {
      const server = eventServer();
      const updated: string[] = [];
      const { client, sent } = await connectClient(server, {
        mode: { pin: revision },
        onResourceUpdated: (uri) => updated.push(uri),
      });
      await client.subscribe('test://a');
      server.resourceUpdated('test://a');
      server.resourceUpdated('test://b');
      await vi.waitFor(() => {
        expect(updated).toEqual(['test://a']);
      });
      await client.subscribe('test://b');
      server.resourceUpdated('test://b');
      await vi.waitFor(() => {
        expect(updated).toEqual(['test://a', 'test://b']);
      });
      await client.unsubscribe('test://a');
      await client.unsubscribe('test://b');
      server.resourceUpdated('test://a');
      server.resourceUpdated('test://b');
      await client.ping();
      await client.ping();
      expect(updated).toEqual(['test://a', 'test://b']);
      if (era === 'legacy') {
        expect(sent('resources/subscribe')).toHaveLength(2);
        expect(sent('resources/unsubscribe')).toHaveLength(2);
      } else {
        const streams = sent('subscriptions/listen').map(
          (f) => f.message['params']['notifications']['resourceSubscriptions'],
        );
        expect(streams).toEqual([['test://a'], ['test://a', 'test://b'], ['test://b']]);
        const ids = sent('subscriptions/listen').map((f) => f.message['id']);
        const cancelled = sent('notifications/cancelled').map(
          (f) => f.message['params']['requestId'],
        );
        expect(cancelled).toEqual(ids);
      }
    });
  }
});

describe('log levels', () => {
  for (const [era, revision] of ERAS) {
    it(`honours logLevel and setLogLevel (${era})`, async () => {
      const logs: unknown[] = [];
      const { client, sent } = await connectClient(eventServer(), {
        mode: { pin: revision },
        logLevel: 'info',
        onLog: (params) => logs.push([params.level, params.data, params.logger]),
      });
      await client.callTool('chatty');
      expect(logs).toEqual([['warning', 'careful', 'chatty']]);
      await client.setLogLevel('debug');
      await client.callTool('chatty');
      expect(logs).toHaveLength(3);
      expect(logs[1]).toEqual(['debug', 'details', undefined]);
      if (era === 'legacy') {
        expect(sent('logging/setLevel').map((f) => f.message['params']['level'])).toEqual([
          'info',
          'debug',
        ]);
      } else {
        expect(sent('logging/setLevel')).toEqual([]);
        const levels = sent('tools/call').map(
          (f) => f.message['params']['_meta']['io.modelcontextprotocol/logLevel'],
        );
        expect(levels).toEqual(['info', 'debug']);
      }
    });
  }

  it('receives no logs in 2026-07-28 unless asked', async () => {
    const onLog = vi.fn();
    const { client } = await connectClient(eventServer(), { onLog });
    await client.callTool('chatty');
    expect(onLog).not.toHaveBeenCalled();
  });
});

describe('listen', () => {
  it('opens a stream, reports the agreed filter, and ends with the server', async () => {
    const server = eventServer();
    const notifications: string[] = [];
    const { client } = await connectClient(server, {
      onNotification: (n) => notifications.push(n.method),
      onResourceUpdated: (uri) => notifications.push(uri),
    });
    const subscription = client.listen({
      resourceSubscriptions: ['test://b'],
      toolsListChanged: true,
    });
    await expect(subscription.acknowledged).resolves.toEqual({
      resourceSubscriptions: ['test://b'],
      toolsListChanged: true,
    });
    server.resourceUpdated('test://b');
    await vi.waitFor(() => {
      expect(notifications).toContain('test://b');
    });
    await server.close();
    await expect(subscription.closed).resolves.toBeUndefined();
  });

  it('closes a stream on request and ignores its late notifications', async () => {
    const server = eventServer();
    const updated: string[] = [];
    const { client } = await connectClient(server, {
      onResourceUpdated: (uri) => updated.push(uri),
    });
    const subscription = client.listen({ resourceSubscriptions: ['test://a'] });
    await subscription.acknowledged;
    await subscription.close();
    await expect(subscription.closed).resolves.toBeUndefined();
    server.resourceUpdated('test://a');
    await client.ping();
    expect(updated).toEqual([]);
  });

  it('is refused in the legacy era', async () => {
    const { client } = await connectClient(eventServer(), { mode: { pin: '2025-06-18' } });
    expect(() => client.listen({ toolsListChanged: true })).toThrow(LocalError);
  });
});
