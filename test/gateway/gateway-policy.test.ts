// mcpkit gateway for a team (#40 points 1, 2, 5, 7): the gateway as an OAuth resource server
// (tokens from oidc-provider, client credentials of two clients with different scopes), policies
// by scope, two endpoints (`/mcp` and `/mcp/docs`) over shared upstreams, and the audit log read
// back. Downstream: the official SDK v1 client (2025-11-25), the v2 client in both eras
// (legacy and 2026-07-28) and mcpkit's client in both eras, over Streamable HTTP.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableHttpV2,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJwtVerifier } from '../../src/auth/index.js';
import { Client } from '../../src/client/index.js';
import type { AuditRecord, Gateway } from '../../src/gateway/index.js';
import {
  Gateway as GatewayClass,
  argumentsHash,
  parseGatewayConfig,
  routeEndpoints,
} from '../../src/gateway/index.js';
import { McpServer } from '../../src/server/index.js';
import { createStreamableHttpHandler } from '../../src/transports/http/index.js';
import { createMemoryPair } from '../../src/transports/memory.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import type { Listening } from '../../src/transports/http/server/node.js';
import { listen } from '../../src/transports/http/server/node.js';
import { closedPort } from '../cli/run-cli.js';
import type { AuthorizationServer } from '../helpers/oidc.js';
import { startAuthorizationServer } from '../helpers/oidc.js';
import { codeOf } from './harness.js';

const info = { name: 'gateway-policy-test', version: '1.0.0' };

/** The team config of docs/gateway.md (the JSON block after `<!-- team-config -->`). */
function teamConfig(): unknown {
  const doc = readFileSync(
    fileURLToPath(new URL('../../docs/gateway.md', import.meta.url)),
    'utf8',
  );
  const block = /<!-- team-config -->\s*```json\n([\s\S]*?)\n```/.exec(doc)?.[1];
  if (block === undefined) throw new Error('docs/gateway.md has no team config block');
  return JSON.parse(block);
}

/** An upstream of tools that say who they are. */
function upstream(name: string, tools: readonly string[]): McpServer {
  const server = new McpServer({ name, version: '1' });
  for (const tool of tools) {
    server.tool(
      {
        name: tool,
        description: `${tool} of ${name}.`,
        inputSchema: { type: 'object', properties: { repo: { type: 'string' } } },
      },
      (args) => `${name}/${tool} ${JSON.stringify(args)}`,
    );
  }
  if (name === 'docs') {
    server.prompt({ name: 'explain', arguments: [{ name: 'topic' }] }, () => 'explained');
    server.resource({ uri: 'docs://index', name: 'index', mimeType: 'text/plain' }, () => 'idx');
  } else {
    server.resource({ uri: 'github://repos', name: 'repos', mimeType: 'text/plain' }, () => 'r');
  }
  return server;
}

let as: AuthorizationServer;
let gateway: Gateway;
let served: Listening;
const audit: AuditRecord[] = [];
let base = '';

beforeAll(async () => {
  as = await startAuthorizationServer(['docs:read', 'repo:write', 'tickets'], {
    clients: [
      { id: 'writer', scopes: ['docs:read', 'repo:write'] },
      { id: 'reader', scopes: ['docs:read'] },
      { id: 'agent', scopes: ['docs:read', 'tickets'] },
    ],
  });
  const upstreams = {
    github: upstream('github', ['get_issue', 'create_issue', 'delete_repo']),
    docs: upstream('docs', ['search_docs']),
    tickets: upstream('tickets', ['open_ticket', 'close_ticket']),
  };
  const config = parseGatewayConfig(teamConfig());
  const servers = Object.fromEntries(
    Object.entries(upstreams).map(([name, server]) => [
      name,
      {
        transport: async () => {
          const [client, side] = createMemoryPair();
          await server.connect(side);
          return client;
        },
      },
    ]),
  );
  gateway = await GatewayClass.start(
    { ...config, servers },
    { audit: (record) => audit.push(record), timing: { pingIntervalMs: 0 } },
  );
  const port = await closedPort();
  base = `http://127.0.0.1:${String(port)}/mcp`;
  const handler = (server: McpServer, path: string) => {
    const resource = `http://127.0.0.1:${String(port)}${path}`;
    return createStreamableHttpHandler(() => server, {
      path,
      auth: {
        resource,
        authorizationServers: [as.issuer],
        verify: createJwtVerifier({ issuer: as.issuer, audience: resource }),
      },
    });
  };
  const named = [...gateway.endpoints].map(([name, endpoint]) =>
    handler(endpoint.server, `/mcp/${name}`),
  );
  expect(named.map((h) => h.options.path)).toEqual(['/mcp/docs', '/mcp/support']);
  served = await listen(routeEndpoints(handler(gateway.server, '/mcp'), named), { port });
}, 30_000);

afterAll(async () => {
  await served.close();
  await gateway.close();
  await as.close();
});

/** What each kind of client does: list tools, call one, and say how a call failed. */
interface Peer {
  listTools(): Promise<string[]>;
  call(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  close(): Promise<void>;
}

type Connect = (url: string, token: string) => Promise<Peer>;

function textOf(result: unknown): { text: string; isError: boolean } {
  const { content = [], isError } = result as {
    content?: { text?: string }[];
    isError?: boolean;
  };
  return { text: content.map((block) => block.text ?? '').join('\n'), isError: isError === true };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const clients: Record<string, Connect> = {
  'SDK v1, 2025-11-25': async (url, token) => {
    const client = new ClientV1(info);
    await client.connect(
      new StreamableHttpV1(new URL(url), { requestInit: { headers: bearer(token) } }),
    );
    return {
      listTools: async () => (await client.listTools()).tools.map((tool) => tool.name),
      call: async (name, args) => textOf(await client.callTool({ name, arguments: args })),
      close: () => client.close(),
    };
  },
  'SDK v2, legacy': (url, token) => connectV2(url, token, false),
  'SDK v2, 2026-07-28': (url, token) => connectV2(url, token, true),
  'mcpkit, 2026-07-28': async (url, token) => {
    const client = new Client(info, { mode: { pin: '2026-07-28' } });
    await client.connect(createStreamableHttpClientTransport(url, { headers: bearer(token) }));
    return {
      listTools: async () => (await client.listTools()).map((tool) => tool.name),
      call: async (name, args) => textOf(await client.callTool(name, args)),
      close: () => client.close(),
    };
  },
};

async function connectV2(url: string, token: string, modern: boolean): Promise<Peer> {
  const client = new ClientV2(info, modern ? { versionNegotiation: { mode: 'auto' } } : {});
  await client.connect(
    new StreamableHttpV2(new URL(url), { requestInit: { headers: bearer(token) } }),
  );
  expect(client.getProtocolEra()).toBe(modern ? 'modern' : 'legacy');
  return {
    listTools: async () => (await client.listTools()).tools.map((tool) => tool.name),
    call: async (name, args) => textOf(await client.callTool({ name, arguments: args })),
    close: () => client.close(),
  };
}

describe('mcpkit gateway: identity, policies, endpoints, audit', () => {
  for (const [kind, connect] of Object.entries(clients)) {
    it(`two principals see and call different tools (${kind})`, async () => {
      const writerToken = await as.tokenFor('writer', base, 'docs:read repo:write');
      const readerToken = await as.tokenFor('reader', base, 'docs:read');
      const writer = await connect(base, writerToken);
      const reader = await connect(base, readerToken);
      try {
        expect((await writer.listTools()).sort()).toEqual([
          'create_issue',
          'get_issue',
          'search_docs',
        ]);
        expect(await reader.listTools()).toEqual(['search_docs']);

        const from = audit.length;
        expect((await writer.call('get_issue', { repo: 'acme/site' })).text).toContain(
          'github/get_issue',
        );
        // A hidden tool is the unknown-tool error, for the reader and (denied) for the writer.
        expect(await codeOf(reader.call('get_issue', { repo: 'acme/site' }))).toBe(-32602);
        expect(await codeOf(writer.call('delete_repo', {}))).toBe(-32602);
        // Arguments outside the policy: a tool error the model can read.
        const refused = await writer.call('create_issue', { repo: 'other/site' });
        expect(refused.isError).toBe(true);
        expect(refused.text).toContain('"repo"');
        expect((await writer.call('create_issue', { repo: 'acme/site' })).isError).toBe(false);
        expect((await reader.call('search_docs', { repo: 'x' })).text).toContain('docs/');

        const records = audit.slice(from);
        expect(
          records.map((r) => [r.principal.clientId, r.tool, r.decision, r.reason, r.outcome]),
        ).toEqual([
          ['writer', 'get_issue', 'allow', undefined, 'ok'],
          ['reader', 'get_issue', 'deny', 'hidden', 'error'],
          ['writer', 'delete_repo', 'deny', 'hidden', 'error'],
          ['writer', 'create_issue', 'deny', 'arguments', 'refused'],
          ['writer', 'create_issue', 'allow', undefined, 'ok'],
          ['reader', 'search_docs', 'allow', undefined, 'ok'],
        ]);
        for (const record of records) {
          expect(record.endpoint).toBe('default');
          expect(record.principal.source).toBe('token');
          expect(record.method).toBe('tools/call');
          expect(record.durationMs).toBeGreaterThanOrEqual(0);
          expect(Number.isNaN(Date.parse(record.time))).toBe(false);
          expect(record.arguments).toBeUndefined();
        }
        expect(records[0]?.argumentsHash).toBe(argumentsHash({ repo: 'acme/site' }));
        expect(records[0]?.upstream).toBe('github');
        expect(records[1]?.rules).toEqual(['readers']);
      } finally {
        await writer.close();
        await reader.close();
      }
    }, 30_000);
  }

  it('an endpoint serves its own upstreams, and a token for another endpoint is refused', async () => {
    const url = `${base}/docs`;
    const writer = await clients['mcpkit, 2026-07-28']?.(
      url,
      await as.tokenFor('writer', url, 'docs:read repo:write'),
    );
    try {
      // The developers' rule applies on the default endpoint only; github is not served here.
      expect(await writer?.listTools()).toEqual(['search_docs']);
      expect(await codeOf(writer?.call('get_issue', {}) ?? Promise.resolve())).toBe(-32602);
    } finally {
      await writer?.close();
    }
    const wrongAudience = await as.tokenFor('writer', base, 'docs:read');
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...bearer(wrongAudience), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(401);
    const record = audit.at(-1);
    expect(record).toMatchObject({ endpoint: 'docs', decision: 'unknown', outcome: 'error' });
  }, 30_000);

  it('an endpoint curates its servers on top of their own curation, and its rules apply', async () => {
    const url = `${base}/support`;
    const agent = await clients['SDK v2, 2026-07-28']?.(
      url,
      await as.tokenFor('agent', url, 'docs:read tickets'),
    );
    try {
      expect((await agent?.listTools())?.sort()).toEqual(['open_ticket', 'search_docs']);
    } finally {
      await agent?.close();
    }
    // The support rule is kept to its endpoint: on /mcp the agent sees the docs only.
    const onDefault = await clients['SDK v1, 2025-11-25']?.(
      base,
      await as.tokenFor('agent', base, 'docs:read tickets'),
    );
    try {
      expect(await onDefault?.listTools()).toEqual(['search_docs']);
    } finally {
      await onDefault?.close();
    }
  }, 30_000);

  it('prompts and resources follow the policy in lists and reads', async () => {
    const client = new Client(info, { mode: { pin: '2025-11-25' } });
    const token = await as.tokenFor('reader', base, 'docs:read');
    await client.connect(createStreamableHttpClientTransport(base, { headers: bearer(token) }));
    try {
      expect((await client.listPrompts()).map((p) => p.name)).toEqual(['explain']);
      const uris = (await client.listResources()).map((r) => r.uri);
      expect(uris).toContain('docs://index');
      expect(uris).not.toContain('github://repos');
      await expect(client.readResource('github://repos')).rejects.toMatchObject({
        code: -32002,
      });
      const read = await client.readResource('docs://index');
      expect(JSON.stringify(read.contents)).toContain('idx');
      const last = audit.at(-1);
      expect(last).toMatchObject({ method: 'resources/read', resource: 'docs://index' });
    } finally {
      await client.close();
    }
  }, 30_000);
});
