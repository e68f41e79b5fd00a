// Upstream credentials without token pass-through (#40): a gateway that is an OAuth resource
// server for its clients presents its own credentials to three upstreams (a static secret from
// the environment; its client-credentials token, obtained through mcpkit's OAuth client after
// discovery from the upstream's 401; a token exchanged per call by RFC 8693 for the caller's
// token), never the client's token. Credentials never appear in the gateway's events, its
// gateway://status resource or its errors. Real parts: a small authorization server with token
// exchange (test/helpers/token-exchange-server.ts), upstreams that verify JWTs, HTTP on 127.0.0.1.
import process from 'node:process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJwtVerifier } from '../../src/auth/index.js';
import { Client } from '../../src/client/index.js';
import { Gateway, STATUS_URI, parseGatewayConfig } from '../../src/gateway/index.js';
import { McpServer } from '../../src/server/index.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import type { Listening } from '../../src/transports/http/server/node.js';
import { listen } from '../../src/transports/http/server/node.js';
import { freePort } from '../helpers/balancer.js';
import type { ExchangeServer } from '../helpers/token-exchange-server.js';
import { startExchangeServer } from '../helpers/token-exchange-server.js';

const info = { name: 'credentials-test', version: '1.0.0' };
const GATEWAY_CLIENT = 'mcpkit-gateway';
const GATEWAY_SECRET = 'gateway-client-secret-0123456789';
const STATIC = 'static-upstream-secret-abcdef';
const WRONG_SECRET = 'a-wrong-secret-for-the-gateway-client';

function textOf(result: unknown): string {
  const blocks = ((result as { content?: unknown }).content ?? []) as { text?: string }[];
  return blocks.map((block) => block.text ?? '').join('\n');
}

interface Upstream {
  readonly listening: Listening;
  /** The Authorization header of every request that reached the MCP server. */
  readonly seen: string[];
}

/** An upstream whose tool `name` answers with who called (its token's subject and actor). */
async function upstream(name: string, as: ExchangeServer | undefined): Promise<Upstream> {
  const server = new McpServer({ name, version: '1' });
  const seen: string[] = [];
  server.use((ctx, next) => {
    seen.push(ctx.transport?.headers?.['authorization'] ?? '');
    return next();
  });
  server.tool(
    { name, description: `Says who called ${name}.`, inputSchema: { type: 'object' } },
    (_a, ctx) => JSON.stringify({ sub: ctx.auth?.subject, act: ctx.auth?.claims['act'] }),
  );
  // A resource and a prompt that say who read them, too.
  server.resource(
    { uri: `who://${name}`, name: `who-${name}`, mimeType: 'application/json' },
    (_u, ctx) => JSON.stringify({ sub: ctx.auth?.subject, act: ctx.auth?.claims['act'] }),
  );
  server.prompt({ name: 'who' }, (_a, ctx) =>
    JSON.stringify({ sub: ctx.auth?.subject, act: ctx.auth?.claims['act'] }),
  );
  if (as === undefined) return { listening: await listen(() => server, { port: 0 }), seen };
  const port = await freePort();
  const resource = `http://127.0.0.1:${String(port)}/mcp`;
  const listening = await listen(() => server, {
    port,
    auth: {
      resource,
      authorizationServers: [as.issuer],
      verify: createJwtVerifier({
        issuer: as.issuer,
        audience: resource,
        jwksUri: `${as.issuer}/jwks`,
      }),
    },
  });
  return { listening, seen };
}

describe('upstream credentials', () => {
  let as: ExchangeServer;
  let upstreams: Record<'plain' | 'own' | 'delegated' | 'broken', Upstream>;
  let gateway: Gateway;
  let served: Listening;
  let resource: string;
  const events: Record<string, unknown>[] = [];

  beforeAll(async () => {
    as = await startExchangeServer({ [GATEWAY_CLIENT]: GATEWAY_SECRET }, ['mallory']);
    upstreams = {
      plain: await upstream('plain', undefined),
      own: await upstream('own', as),
      delegated: await upstream('delegated', as),
      broken: await upstream('broken', as),
    };
    process.env['GW_TEST_STATIC'] = STATIC;
    process.env['GW_TEST_SECRET'] = GATEWAY_SECRET;
    process.env['GW_TEST_WRONG'] = WRONG_SECRET;
    const oauth = { clientId: GATEWAY_CLIENT, clientSecretEnv: 'GW_TEST_SECRET' };
    const config = parseGatewayConfig({
      mcpServers: {
        plain: {
          url: upstreams.plain.listening.url,
          credentials: { type: 'env', env: 'GW_TEST_STATIC' },
        },
        own: {
          url: upstreams.own.listening.url,
          credentials: { type: 'client_credentials', ...oauth },
        },
        delegated: {
          url: upstreams.delegated.listening.url,
          credentials: { type: 'token_exchange', ...oauth, tokenEndpoint: `${as.issuer}/token` },
        },
        broken: {
          url: upstreams.broken.listening.url,
          credentials: {
            type: 'client_credentials',
            clientId: GATEWAY_CLIENT,
            clientSecretEnv: 'GW_TEST_WRONG',
          },
        },
      },
    });
    gateway = await Gateway.start(config, {
      timing: { pingIntervalMs: 0, backoffMs: 60_000 },
      onEvent: (event) => events.push(event),
    });
    const port = await freePort();
    resource = `http://127.0.0.1:${String(port)}/mcp`;
    served = await listen(() => gateway.server, {
      port,
      auth: {
        resource,
        authorizationServers: [as.issuer],
        verify: createJwtVerifier({
          issuer: as.issuer,
          audience: resource,
          jwksUri: `${as.issuer}/jwks`,
        }),
      },
    });
  }, 60_000);

  afterAll(async () => {
    await served.close();
    await gateway.close();
    await Promise.all(Object.values(upstreams).map((u) => u.listening.close()));
    await as.close();
  });

  async function connect(subject: string): Promise<{ client: Client; token: string }> {
    const token = await as.mint(resource, { sub: subject, client_id: 'team-app', scope: 'tools' });
    const client = new Client(info);
    await client.connect(
      createStreamableHttpClientTransport(served.url, {
        headers: { authorization: `Bearer ${token}` },
      }),
    );
    return { client, token };
  }

  it('presents each upstream its own credentials, never the caller token', async () => {
    const { client, token } = await connect('alice');
    expect((await client.listTools()).map((tool) => tool.name).sort()).toEqual([
      'delegated',
      'own',
      'plain',
    ]);
    expect(JSON.parse(textOf(await client.callTool('plain', {})))).toEqual({});
    expect(JSON.parse(textOf(await client.callTool('own', {})))).toEqual({ sub: GATEWAY_CLIENT });
    // Token exchange: the upstream sees the caller as subject, the gateway as actor.
    expect(JSON.parse(textOf(await client.callTool('delegated', {})))).toEqual({
      sub: 'alice',
      act: { sub: GATEWAY_CLIENT },
    });
    // A second call reuses the exchanged token.
    await client.callTool('delegated', {});
    const exchanges = as.requests.filter((r) => r.grant.endsWith('token-exchange'));
    expect(exchanges).toEqual([
      {
        grant: 'urn:ietf:params:oauth:grant-type:token-exchange',
        client: GATEWAY_CLIENT,
        subject: 'alice',
        resource: upstreams.delegated.listening.url,
      },
    ]);
    expect(upstreams.plain.seen.every((header) => header === `Bearer ${STATIC}`)).toBe(true);
    // (The broken upstream refuses the gateway at its gate: nothing reaches its MCP server.)
    for (const { seen } of [upstreams.plain, upstreams.own, upstreams.delegated]) {
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.some((header) => header.includes(token))).toBe(false);
    }
    await client.close();
  });

  it('reads resources and gets prompts with the token exchanged for the caller', async () => {
    const { client, token } = await connect('carol');
    const caller = { sub: 'carol', act: { sub: GATEWAY_CLIENT } };
    const read = await client.readResource('who://delegated');
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual(caller);
    const prompt = await client.getPrompt('delegated__who', {});
    expect(JSON.parse((prompt.messages[0]?.content as { text: string }).text)).toEqual(caller);
    // The other upstreams: the gateway's own credentials, as for their tools.
    const own = await client.readResource('who://own');
    expect(JSON.parse((own.contents[0] as { text: string }).text)).toEqual({
      sub: GATEWAY_CLIENT,
    });
    // One exchange for carol, whose token served the read and the prompt.
    const exchanges = as.requests.filter(
      (r) => r.grant.endsWith('token-exchange') && r.subject === 'carol',
    );
    expect(exchanges).toHaveLength(1);
    expect(upstreams.delegated.seen.some((header) => header.includes(token))).toBe(false);
    await client.close();
  });

  it('fails a read or prompt whose exchange is refused with an error naming no secret', async () => {
    const { client, token } = await connect('mallory');
    for (const attempt of [
      client.readResource('who://delegated'),
      client.getPrompt('delegated__who', {}),
    ]) {
      const error = (await attempt.catch((e: unknown) => e)) as { code?: number; message: string };
      expect(error.code).toBe(-32603);
      expect(error.message).toMatch(
        /the gateway could not obtain a token for the server "delegated" behind it: .*access_denied/,
      );
      for (const secret of [token, GATEWAY_SECRET]) expect(error.message).not.toContain(secret);
    }
    await client.close();
  });

  it('fails a call whose exchange is refused as a tool error naming no secret', async () => {
    const { client, token } = await connect('mallory');
    const result = await client.callTool('delegated', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^the gateway could not obtain a token for the server "delegated" behind it: .*access_denied/,
    );
    for (const secret of [token, GATEWAY_SECRET, STATIC])
      expect(textOf(result)).not.toContain(secret);
    await client.close();
  });

  it('keeps credentials out of the events and gateway://status', async () => {
    const { client } = await connect('bob');
    const status = await client.readResource(STATUS_URI);
    const text = JSON.stringify(status);
    const broken = gateway.status().upstreams.find((u) => u.name === 'broken');
    expect(broken?.state).toBe('down');
    expect(broken?.lastError).toContain('invalid_client');
    const shown = JSON.stringify(events) + text + JSON.stringify(gateway.status());
    for (const secret of [GATEWAY_SECRET, STATIC, WRONG_SECRET])
      expect(shown).not.toContain(secret);
    await client.close();
  });

  it('refuses a config whose secret is missing from the environment, naming the variable only', async () => {
    const config = parseGatewayConfig({
      mcpServers: {
        x: { url: 'http://127.0.0.1:9/mcp', credentials: { type: 'env', env: 'GW_TEST_UNSET' } },
      },
    });
    await expect(Gateway.start(config)).rejects.toThrow(
      'server "x": the environment variable GW_TEST_UNSET is not set',
    );
    expect(() =>
      parseGatewayConfig({
        mcpServers: { x: { command: 'node', credentials: { type: 'env', env: 'A' } } },
      }),
    ).toThrow('server "x" has "credentials" but no "url"');
  });
});
