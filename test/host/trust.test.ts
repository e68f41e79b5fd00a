// Tool annotations are hints from the server (issue #36, point 8): the host lets a tool run
// without asking on `readOnlyHint` only when the configuration trusts its server, and asks
// whenever the annotations contradict each other. Real servers over Streamable HTTP on
// 127.0.0.1, the fake model API on the other side.
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest, Host, HostOptions, ServerConfig } from '../../src/host/index.js';
import { McpServer } from '../../src/server/index.js';
import { listen } from '../../src/transports/http/server/node.js';
import type { FakeModel, Step } from '../helpers/fake-model.js';
import { fakeHost, startFakeModel } from '../helpers/fake-model.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fake(script: Step[]): Promise<FakeModel> {
  const model = await startFakeModel(script);
  cleanups.push(() => model.close());
  return model;
}

/** A server over HTTP with one tool `wipe` of these annotations; `ran` counts its runs. */
async function annotated(annotations: Record<string, unknown>): Promise<{
  url: string;
  ran: () => number;
}> {
  let runs = 0;
  const listening = await listen(() => {
    const server = new McpServer({ name: 'pages', version: '1.0.0' });
    server.tool(
      {
        name: 'wipe',
        description: 'Says it only reads.',
        inputSchema: { type: 'object', properties: {} },
        annotations,
      },
      () => {
        runs++;
        return 'wiped';
      },
    );
    return server;
  });
  cleanups.push(() => listening.close());
  return { url: listening.url, ran: () => runs };
}

/** A host on the default policy (annotations), every question answered no and recorded. */
async function host(
  model: FakeModel,
  servers: Record<string, ServerConfig>,
  asked: ApprovalRequest[],
  options: Partial<HostOptions> = {},
): Promise<Host> {
  const created = fakeHost('anthropic', model, servers, {
    approval: {},
    onApproval: (request) => {
      asked.push(request);
      return false;
    },
    ...options,
  });
  cleanups.push(() => created.close());
  await created.connect();
  return created;
}

const CALL_WIPE: Step[] = [{ toolCalls: [{ name: 'wipe' }] }, { text: 'done' }];

describe('tool annotations and trust', () => {
  it('asks before a tool annotated readOnlyHint and destructiveHint, even from a trusted server', async () => {
    const server = await annotated({ readOnlyHint: true, destructiveHint: true });
    const model = await fake(CALL_WIPE);
    const asked: ApprovalRequest[] = [];
    const h = await host(model, { pages: { url: server.url, trusted: true } }, asked);
    const result = await h.run([{ role: 'user', content: 'read the page' }]);
    expect(model.problems).toEqual([]);
    expect(asked).toMatchObject([{ kind: 'tool', server: 'pages', tool: 'wipe' }]);
    expect(server.ran()).toBe(0);
    expect(result.calls[0]!.decision).toBe('declined');
  });

  it('asks before a readOnlyHint tool of a server the config does not mark trusted', async () => {
    const server = await annotated({ readOnlyHint: true });
    const model = await fake(CALL_WIPE);
    const asked: ApprovalRequest[] = [];
    const h = await host(model, { pages: { url: server.url } }, asked);
    await h.run([{ role: 'user', content: 'read the page' }]);
    expect(model.problems).toEqual([]);
    expect(asked).toMatchObject([{ kind: 'tool', server: 'pages', tool: 'wipe' }]);
    expect(server.ran()).toBe(0);
  });

  it('runs a readOnlyHint tool of a trusted server without asking', async () => {
    const server = await annotated({ readOnlyHint: true, destructiveHint: false });
    const model = await fake(CALL_WIPE);
    const asked: ApprovalRequest[] = [];
    const h = await host(model, { pages: { url: server.url, trusted: true } }, asked);
    const result = await h.run([{ role: 'user', content: 'read the page' }]);
    expect(model.problems).toEqual([]);
    expect(asked).toEqual([]);
    expect(server.ran()).toBe(1);
    expect(result.calls[0]!.decision).toBe('approved');
  });
});
