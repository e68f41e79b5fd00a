// mcpkit gateway (#38 point 4) passing MCP Apps through: two real upstream processes (test/
// gateway/fixtures/apps-upstream.mjs over stdio), each with a view at the same `ui://view`, a
// model+app tool and an app-only tool, behind a gateway served over HTTP on 127.0.0.1 to mcpkit's
// client (both eras: 2026-07-28 negotiated, and 2025-11-25 pinned). Both views are reachable under
// distinct URIs with their own HTML, the tools' links match, visibility is kept, and the app-only
// tools are neither searched, loaded nor counted; a client that renders no view is not listed them.
// A view's own name for an app-visible tool (`refresh`, served as `a__refresh`) reaches it when
// one upstream has it, is refused naming the candidates when several do, never reaches a
// model-only tool.
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ESTIMATE, serializeTool } from '../../src/catalogue/index.js';
import { Client } from '../../src/client/index.js';
import type { ClientOptions, Tool } from '../../src/client/index.js';
import { Gateway, parseGatewayConfig } from '../../src/gateway/index.js';
import type { GatewayOptions } from '../../src/gateway/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import { listen } from '../../src/transports/http/server/node.js';

const UPSTREAM = fileURLToPath(new URL('./fixtures/apps-upstream.mjs', import.meta.url));
const info = { name: 'gateway-apps-test', version: '1.0.0' };
const timing = { pingIntervalMs: 0 };
const MIME = 'text/html;profile=mcp-app';
/** What a client that renders views declares (in every revision). */
const APPS: ClientOptions = {
  capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [MIME] } } },
};

function upstream(options: Record<string, unknown>) {
  return { command: process.execPath, args: [UPSTREAM, JSON.stringify(options)] };
}

/** Two upstreams, `a` (its view listed, linked by `_meta.ui`) and `b` (unlisted, flat key). */
const CONFIG = {
  mcpServers: {
    a: upstream({ name: 'a' }),
    b: upstream({ name: 'b', flat: true, unlisted: true }),
  },
};

function textOf(result: unknown): string {
  const blocks = ((result as { content?: unknown }).content ?? []) as { text?: string }[];
  return blocks.map((block) => block.text ?? '').join('\n');
}

function byName(tools: readonly Tool[]): Map<string, Tool> {
  return new Map(tools.map((tool) => [tool.name, tool]));
}

/** Runs `fn` with clients of a gateway (of `config`, CONFIG unless given) served over HTTP on 127.0.0.1. */
async function withGateway(
  options: GatewayOptions,
  fn: (
    connect: (clientOptions?: ClientOptions) => Promise<Client>,
    gateway: Gateway,
  ) => Promise<void>,
  config: unknown = CONFIG,
): Promise<void> {
  const gateway = await Gateway.start(parseGatewayConfig(config), { timing, ...options });
  const served = await listen(() => gateway.server);
  const clients: Client[] = [];
  try {
    await fn(async (clientOptions = APPS) => {
      const client = new Client(info, clientOptions);
      clients.push(client);
      await client.connect(createStreamableHttpClientTransport(served.url));
      return client;
    }, gateway);
  } finally {
    for (const client of clients) await client.close();
    await served.close();
    await gateway.close();
  }
}

describe('mcpkit gateway: MCP Apps', () => {
  it.each<[string, ClientOptions]>([
    ['2026-07-28', APPS],
    ['2025-11-25', { ...APPS, mode: { pin: '2025-11-25' } }],
  ])(
    'serves each upstream view under its own ui:// URI, links rewritten, visibility kept (%s)',
    async (_revision, clientOptions) => {
      await withGateway({}, async (connect) => {
        const client = await connect(clientOptions);
        const tools = byName(await client.listTools());
        expect([...tools.keys()].sort()).toEqual(
          ['a__caps', 'a__refresh', 'a__show', 'b__caps', 'b__refresh', 'b__show'].sort(),
        );
        // The upstreams listed their UI tools: the gateway declared the extension to them.
        const caps = JSON.parse(textOf(await client.callTool('a__caps'))) as {
          capabilities: { extensions?: Record<string, unknown> };
        };
        expect(caps.capabilities.extensions?.['io.modelcontextprotocol/ui']).toEqual({
          mimeTypes: [MIME],
        });
        expect(tools.get('a__show')?._meta).toEqual({
          ui: { resourceUri: 'ui://a/view', visibility: ['model', 'app'] },
        });
        expect(tools.get('a__refresh')?._meta).toEqual({
          ui: { resourceUri: 'ui://a/view', visibility: ['app'] },
        });
        // The deprecated flat key is rewritten too.
        expect(tools.get('b__show')?._meta).toEqual({ 'ui/resourceUri': 'ui://b/view' });
        expect(tools.get('b__refresh')?._meta).toEqual({
          ui: { resourceUri: 'ui://b/view', visibility: ['app'] },
        });

        // Both views are listed (b's only linked from its tools), neither under ui://view.
        const resources = await client.listResources();
        const uis = resources.filter((resource) => resource.uri.startsWith('ui://'));
        expect(uis.map((resource) => resource.uri).sort()).toEqual(['ui://a/view', 'ui://b/view']);
        expect(uis.find((resource) => resource.uri === 'ui://a/view')?.name).toBe('a view');
        expect(uis.every((resource) => resource.mimeType === MIME)).toBe(true);

        for (const name of ['a', 'b']) {
          const read = await client.readResource(`ui://${name}/view`);
          expect(read.contents).toHaveLength(1);
          const [content] = read.contents as {
            uri: string;
            mimeType?: string;
            text?: string;
            _meta?: unknown;
          }[];
          expect(content?.uri).toBe(`ui://${name}/view`);
          expect(content?.mimeType).toBe(MIME);
          expect(content?.text).toContain(`<h1>view of ${name}</h1>`);
          expect(content?._meta).toEqual({
            ui: { csp: { connectDomains: [`https://${name}.example.com`] }, prefersBorder: true },
          });
        }
        await expect(client.readResource('ui://view')).rejects.toThrow();
        await expect(client.readResource('ui://c/view')).rejects.toThrow();

        // A view calls its app-only tool through the gateway.
        expect(textOf(await client.callTool('b__refresh'))).toBe('b: refreshed');
        expect(textOf(await client.callTool('a__show'))).toBe('a: shown');
      });
    },
    30_000,
  );

  it('lists no app-only tool to a client that renders no view (both eras)', async () => {
    await withGateway({}, async (connect) => {
      for (const options of [{}, { mode: { pin: '2025-06-18' } }] as ClientOptions[]) {
        const client = await connect(options);
        const names = (await client.listTools()).map((tool) => tool.name).sort();
        expect(names).toEqual(['a__caps', 'a__show', 'b__caps', 'b__show']);
      }
    });
  }, 30_000);

  it('keeps app-only tools out of the budget and of search_tools, and serves them still', async () => {
    await withGateway({ budget: 20 }, async (connect, gateway) => {
      const client = await connect();
      const listed = await client.listTools();
      expect(listed.map((tool) => tool.name).sort()).toEqual([
        'a__refresh',
        'b__refresh',
        'search_tools',
      ]);
      // The budget counts the four tools a model may be offered, never the app-only ones.
      const status = gateway.status();
      expect(status.mode).toBe('catalogue');
      const modelTools = ['a__caps', 'a__show', 'b__caps', 'b__show'];
      const definitions = await definitionsOf(modelTools);
      expect(status.tokens.all).toBe(
        definitions.reduce((sum, tool) => sum + ESTIMATE.count(serializeTool(tool)), 0),
      );

      // A search for what only the app-only tools say finds nothing.
      const none = await client.callTool('search_tools', { query: 'refreshes button' });
      expect(textOf(none)).toBe('No tool matches "refreshes button". Try other keywords.');
      const found = await client.callTool('search_tools', { query: 'view', limit: 20 });
      expect(textOf(found)).toContain('a__show');
      expect(textOf(found)).not.toContain('refresh');
      const after = (await client.listTools()).map((tool) => tool.name).sort();
      expect(after).toEqual(['a__refresh', 'a__show', 'b__refresh', 'b__show', 'search_tools']);
      expect(textOf(await client.callTool('a__refresh'))).toBe('a: refreshed');
      // A view's own names are looked up in catalogue mode too (`refresh` is both upstreams').
      await expect(client.callTool('refresh')).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('a__refresh, b__refresh'),
      });
    });
  }, 30_000);

  describe("a view's own tool names", () => {
    const ERAS: [string, ClientOptions][] = [
      ['2026-07-28', APPS],
      ['2025-11-25', { ...APPS, mode: { pin: '2025-11-25' } }],
    ];

    it.each(ERAS)(
      'takes the unprefixed name of an app tool of one upstream, never of a model-only one (%s)',
      async (_revision, clientOptions) => {
        // Both have `refresh` (so both are prefixed): a's is app-only, b's model-only.
        const config = {
          mcpServers: {
            a: upstream({ name: 'a' }),
            b: upstream({ name: 'b', refreshVisibility: ['model'] }),
          },
        };
        await withGateway(
          {},
          async (connect) => {
            const client = await connect(clientOptions);
            const names = (await client.listTools()).map((tool) => tool.name);
            expect(names).toContain('a__refresh');
            expect(names).toContain('b__refresh');
            expect(names).not.toContain('refresh');
            expect(textOf(await client.callTool('refresh'))).toBe('a: refreshed');
            // The served names still reach each.
            expect(textOf(await client.callTool('b__refresh'))).toBe('b: refreshed');
            expect(textOf(await client.callTool('a__refresh'))).toBe('a: refreshed');
          },
          config,
        );
      },
      30_000,
    );

    it.each(ERAS)(
      'refuses a name several upstreams give app tools, naming the candidates (%s)',
      async (_revision, clientOptions) => {
        await withGateway({}, async (connect) => {
          const client = await connect(clientOptions);
          await expect(client.callTool('refresh')).rejects.toMatchObject({
            code: -32602,
            message: expect.stringMatching(/^unknown tool "refresh": .*a__refresh, b__refresh$/),
          });
          // `show` is model and app in both: as ambiguous.
          await expect(client.callTool('show')).rejects.toMatchObject({
            code: -32602,
            message: expect.stringContaining('a__show, b__show'),
          });
        });
      },
      30_000,
    );

    it('never reaches a model-only tool by its upstream name', async () => {
      const config = {
        mcpServers: {
          a: upstream({ name: 'a', refreshVisibility: ['model'] }),
          b: upstream({ name: 'b', refreshVisibility: ['model'] }),
        },
      };
      await withGateway(
        {},
        async (connect) => {
          const client = await connect();
          await expect(client.callTool('refresh')).rejects.toMatchObject({
            code: -32602,
            message: 'unknown tool "refresh"',
          });
          expect(textOf(await client.callTool('a__refresh'))).toBe('a: refreshed');
        },
        config,
      );
    }, 30_000);
  });
});

/** The definitions the gateway serves under `names`, read without a budget from a twin gateway. */
async function definitionsOf(names: readonly string[]): Promise<Tool[]> {
  let tools: Tool[] = [];
  await withGateway({}, async (connect) => {
    tools = (await (await connect()).listTools()).filter((tool) => names.includes(tool.name));
  });
  return tools;
}
