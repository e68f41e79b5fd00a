// MCP Apps between mcpkit and the official pieces, both ways, over real sockets: a server built
// with the official SDK v2 and the official ext-apps server helpers (registerAppTool,
// registerAppResource) read by mcpkit's client with appsClient(); and mcpkit's apps() server read
// by the official SDK v2 client that declares the extension, its tool and view metadata checked
// against the ext-apps package's own JSON Schema (McpUiToolMeta, McpUiResourceMeta).
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import type { NodeIncomingMessageLike } from '@modelcontextprotocol/node';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { McpServer as OfficialServer, createMcpHandler } from '@modelcontextprotocol/server';
import {
  Client as OfficialClient,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import {
  EXTENSION_ID,
  RESOURCE_MIME_TYPE,
  registerAppResource,
  registerAppTool,
} from '@modelcontextprotocol/ext-apps/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../src/client/index.js';
import { APPS_EXTENSION, APP_MIME_TYPE, apps, appsClient } from '../../src/ext/apps/index.js';
import { compileJsonSchema } from '../../src/protocol/json-schema/index.js';
import type { JsonSchema } from '../../src/protocol/json-schema/index.js';
import { McpServer } from '../../src/server/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/index.js';
import { listen } from '../../src/transports/http/node.js';
import { closedPort } from '../cli/run-cli.js';

const require = createRequire(import.meta.url);
const APPS_SCHEMA = require('@modelcontextprotocol/ext-apps/schema.json') as {
  $defs: Record<string, JsonSchema>;
};

/** A validator of one definition of the ext-apps schema. */
function validatorOf(name: string): (value: unknown) => boolean {
  const schema = { ...APPS_SCHEMA.$defs[name], $defs: APPS_SCHEMA.$defs } as JsonSchema;
  const validate = compileJsonSchema(schema);
  return (value) => validate(value).valid;
}

const VIEW = '<!doctype html><html><body><p id="time"></p></body></html>';

describe('an official SDK v2 + ext-apps server, read by mcpkit', () => {
  let url = '';
  let close: () => Promise<void>;
  const declared: unknown[] = [];

  beforeAll(async () => {
    const port = await closedPort();
    url = `http://127.0.0.1:${String(port)}/mcp`;
    const handler = createMcpHandler(() => {
      const server = new OfficialServer({ name: 'official-apps', version: '2.0.0' });
      registerAppResource(server, 'Clock', 'ui://official/clock', {}, () => ({
        contents: [
          {
            uri: 'ui://official/clock',
            mimeType: RESOURCE_MIME_TYPE,
            text: VIEW,
            _meta: { ui: { csp: { connectDomains: ['https://time.example.com'] } } },
          },
        ],
      }));
      registerAppTool(
        server,
        'get-time',
        { description: 'The time.', _meta: { ui: { resourceUri: 'ui://official/clock' } } },
        () => {
          // Deprecated for 2026-07-28 envelopes, but kept working there and the one accessor in
          // both eras (the SDK's own note).
          // eslint-disable-next-line @typescript-eslint/no-deprecated
          declared.push(server.server.getClientCapabilities());
          return { content: [{ type: 'text', text: '12:00' }] };
        },
      );
      return server;
    });
    const node = toNodeHandler(handler);
    const http = createServer((req, res) => {
      void node(req as NodeIncomingMessageLike, res);
    });
    await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
    close = async () => {
      await handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => {
        http.close(() => {
          resolve();
        });
      });
    };
  });
  afterAll(async () => {
    await close();
  });

  it('lists the app tool, loads its view, and is told the client renders Apps', async () => {
    const client = new Client({ name: 'mcpkit-host', version: '1.0.0' });
    const views = client.extend(appsClient());
    await client.connect(createStreamableHttpClientTransport(url));
    try {
      const [tool] = await client.listTools();
      expect(tool?.name).toBe('get-time');
      const view = await views.view(tool ?? {});
      expect(view).toMatchObject({
        uri: 'ui://official/clock',
        html: VIEW,
        meta: { csp: { connectDomains: ['https://time.example.com'] } },
      });
      expect(view?.csp).toContain('connect-src https://time.example.com');
      await client.callTool('get-time', {});
      const extensions = (declared.at(-1) as { extensions?: Record<string, unknown> } | undefined)
        ?.extensions;
      expect(extensions?.[EXTENSION_ID]).toEqual({ mimeTypes: [APP_MIME_TYPE] });
    } finally {
      await client.close();
    }
  });
});

describe("mcpkit's apps() server, read by the official SDK v2 client", () => {
  it("gives tool and view metadata that ext-apps' schema accepts", async () => {
    expect(APPS_EXTENSION).toBe(EXTENSION_ID);
    expect(APP_MIME_TYPE).toBe(RESOURCE_MIME_TYPE);
    const server = new McpServer({ name: 'mcpkit-apps', version: '1.0.0' });
    const ui = apps();
    server.extend(ui);
    const view = ui.view({
      uri: 'ui://mcpkit/form',
      name: 'Form',
      html: VIEW,
      csp: {
        connectDomains: ['https://api.example.com'],
        resourceDomains: ['https://cdn.example'],
      },
      permissions: { clipboardWrite: {} },
      prefersBorder: false,
      domain: 'form.example.com',
    });
    server.tool({ name: 'submit', description: 'Submits.', _meta: view.link() }, () => 'ok');
    server.tool(
      { name: 'refresh', description: 'Refreshes.', _meta: view.link({ visibility: ['app'] }) },
      () => 'ok',
    );
    const running = await listen(() => server);
    const client = new OfficialClient(
      { name: 'official-host', version: '2.0.0' },
      { capabilities: { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
    try {
      const { tools } = await client.listTools();
      const toolMeta = validatorOf('McpUiToolMeta');
      expect(tools.map((t) => t.name)).toEqual(['submit', 'refresh']);
      for (const tool of tools) expect(toolMeta(tool._meta?.['ui'])).toBe(true);
      // The schema does refuse what is wrong (the check above is not vacuous).
      expect(toolMeta({ resourceUri: 'ui://x', visibility: ['robot'] })).toBe(false);
      const read = await client.readResource({ uri: 'ui://mcpkit/form' });
      const contents = read.contents[0] as { mimeType?: string; _meta?: Record<string, unknown> };
      expect(contents.mimeType).toBe(RESOURCE_MIME_TYPE);
      expect(validatorOf('McpUiResourceMeta')(contents._meta?.['ui'])).toBe(true);
    } finally {
      await client.close();
      await running.close();
    }
  });
});
