// The package as its users load it: every `exports` subpath imported through the name `mcpkit`
// (the package references itself), which resolves to the bundles in dist/esm/. Checks what each
// subpath exports and that classes keep one identity across subpaths, which the shared chunks
// of the single bundling run guarantee. Skipped when dist/ is missing (`npm test` builds first).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as {
  exports: Record<string, string | { types: string; default: string }>;
};
const hasDist = existsSync(fileURLToPath(new URL('dist/esm/src/index.js', ROOT)));
if (!hasDist) console.log('package-exports: skipped, dist/ is missing (npm test builds it)');

/** A few names each subpath must export, as functions (classes included). */
const EXPECTED: Record<string, string[]> = {
  '.': ['McpServer', 'Client', 'JsonRpcError'],
  './jsonrpc': ['Connection', 'JsonRpcError', 'LocalError'],
  './protocol': ['UriTemplate', 'chooseRevision'],
  './server': ['McpServer', 'JsonRpcError', 'redirectContext', 'answerRequest'],
  './client': ['Client', 'JsonRpcError', 'LocalError', 'createOAuthClient', 'AuthorizationError'],
  './transports/memory': ['createMemoryPair'],
  './transports/stdio': ['createStdioServerTransport', 'createStdioClientTransport'],
  './transports/http': ['createFetchHandler', 'createStreamableHttpClientTransport'],
  './transports/http/node': ['listen'],
  './validators/ajv': ['createAjvValidator'],
  './skills': ['skills', 'skillsClient', 'parseSkillFile', 'FrontmatterError'],
  './apps': ['apps', 'appsClient', 'viewCsp', 'toolUi', 'declaresApps'],
  './tasks': ['tasks', 'tasksClient', 'MemoryTaskStore', 'TaskLimitError'],
  './openapi': ['openApiServer', 'createOpenApiServer', 'loadDocument', 'generateTools'],
  './otel': ['serverTelemetry', 'clientTelemetry', 'instrument'],
  './auth': ['createJwtVerifier', 'AuthError'],
  './gateway': ['Gateway', 'parseGatewayConfig', 'Upstream'],
  './host': ['Host', 'createAnthropicAdapter', 'createOpenAiAdapter', 'ModelError'],
  './catalogue': ['parseServersConfig', 'createServerTransport', 'nameTools', 'searchTools'],
  './code-mode': ['runCode', 'buildCodeApi', 'runCodeTool', 'loadQuickJs'],
  './servers/pingme': ['createPingmeServer', 'registerPingme'],
  './servers/everything': ['createEverythingServer', 'registerEverything'],
  './servers/sql': ['createSqlServer', 'registerSql'],
  './servers/utilix': ['createUtilixServer', 'registerUtilix'],
  './tasks/postgres': ['createPostgresTaskStore'],
  './stores/postgres': ['createPostgresTaskStore'],
  './redis': ['createRedisTaskStore', 'createRedisEventStore'],
  './stores/redis': [
    'createRedisTaskStore',
    'createRedisEventStore',
    'createRedisSessionStore',
    'createRedisChangeBus',
    'createRedisDpopReplayStore',
    'connectRedis',
    'redisHealthCheck',
  ],
};

/** Imports `mcpkit<subpath>` at run time (a variable specifier: typecheck runs before build). */
function load(subpath: string): Promise<any> {
  const specifier = `mcpkit${subpath.slice(1)}`;
  return import(specifier);
}

describe.skipIf(!hasDist)('package exports (dist/esm through the package name)', () => {
  it('covers every JavaScript subpath of package.json, each pointing at a bundle', () => {
    const subpaths = Object.entries(pkg.exports).filter(([, target]) => typeof target !== 'string');
    expect(subpaths.map(([subpath]) => subpath).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const [, target] of subpaths) {
      expect(target).toMatchObject({ default: expect.stringMatching(/^\.\/dist\/esm\//) });
    }
  });

  for (const [subpath, names] of Object.entries(EXPECTED)) {
    it(`mcpkit${subpath.slice(1)} exports ${names.join(', ')}`, async () => {
      const module = await load(subpath);
      for (const name of names) expect(typeof module[name], name).toBe('function');
    });
  }

  it('keeps one class identity across subpaths', async () => {
    const [root, jsonrpc, server, client] = await Promise.all(
      ['.', './jsonrpc', './server', './client'].map(load),
    );
    expect(server.JsonRpcError).toBe(jsonrpc.JsonRpcError);
    expect(client.JsonRpcError).toBe(jsonrpc.JsonRpcError);
    expect(root.JsonRpcError).toBe(jsonrpc.JsonRpcError);
    expect(client.LocalError).toBe(jsonrpc.LocalError);
    expect(root.McpServer).toBe(server.McpServer);
    expect(root.Client).toBe(client.Client);
  });

  it('keeps the names that moved from mcpkit/host to mcpkit/catalogue under both subpaths', async () => {
    const [host, catalogue] = await Promise.all(['./host', './catalogue'].map(load));
    const moved = [
      'parseServersConfig',
      'createServerTransport',
      'nameTools',
      'sanitize',
      'MODEL_TOOL_NAME',
      'loadTokenizer',
      'loadTokenizerOrEstimate',
      'serializeTool',
      'ENCODING',
      'ESTIMATE',
      'searchTools',
      'SEARCH_TOOLS',
      'SEARCH_TOOLS_DEFINITION',
    ];
    for (const name of moved) {
      expect(catalogue[name], name).toBeDefined();
      expect(host[name], name).toBe(catalogue[name]);
    }
  });

  it('keeps mcpkit/redis and mcpkit/tasks/postgres as the entries of mcpkit/stores/* (issue 37)', async () => {
    for (const [before, now] of [
      ['./redis', './stores/redis'],
      ['./tasks/postgres', './stores/postgres'],
    ] as const) {
      const [old, stores] = await Promise.all([before, now].map(load));
      expect(Object.keys(old).sort()).toEqual(Object.keys(stores).sort());
      for (const name of Object.keys(stores)) expect(old[name], name).toBe(stores[name]);
    }
  });

  it('recognizes an error class of one subpath in the code of another', async () => {
    const [jsonrpc, server, client, memory] = await Promise.all(
      ['./jsonrpc', './server', './client', './transports/memory'].map(load),
    );
    const mcp = new server.McpServer({ name: 'exports', version: '1.0.0' });
    // McpServer passes a JsonRpcError through as a protocol error (any other error becomes an
    // isError result): only the same class, not a second copy of it, takes that path.
    mcp.tool({ name: 'teapot', description: 'Fails with a protocol error.' }, () => {
      throw new jsonrpc.JsonRpcError(-32042, 'I am a teapot');
    });
    const [a, b] = memory.createMemoryPair();
    await mcp.connect(b);
    const peer = new client.Client({ name: 'exports-client', version: '1.0.0' });
    await peer.connect(a);
    try {
      const error: unknown = await peer.callTool('teapot', {}).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(jsonrpc.JsonRpcError);
      expect(error).toMatchObject({ code: -32042, message: 'I am a teapot' });
    } finally {
      await peer.close();
      await mcp.close();
    }
  });
});
