// The conformance client: the suite spawns it with the scenario in MCP_CONFORMANCE_SCENARIO and
// the mock server's URL as the last argument; it exits 0 when the scenario's flow completed.
// Built only from mcpkit's public client API (Client + createStreamableHttpClientTransport, and
// the skills extension of mcpkit/skills).
/* eslint-disable no-console */
import { Client, LocalError, createOAuthClient } from 'mcpkit/client';
import { tasksClient } from 'mcpkit/tasks';
import { skillsClient } from 'mcpkit/skills';
import { createStreamableHttpClientTransport } from 'mcpkit/transports/http';

const INFO = { name: 'mcpkit-conformance-client', version: '1.0.0' };

/** Answers every kind of server question; shared by the scenarios that need one. */
const HANDLERS = {
  onElicit: () => ({ action: 'accept', content: {} }),
  elicitation: { applyDefaults: true },
  onSample: () => ({
    role: 'assistant',
    content: { type: 'text', text: 'This is a test response from the client' },
    model: 'test-model',
    stopReason: 'endTurn',
  }),
  onRoots: () => [{ uri: 'file:///conformance/root', name: 'Conformance root' }],
};

/** Calls every listed tool once, with arguments its input schema asks for. */
async function callEveryTool(client) {
  for (const tool of await client.listTools()) {
    await client.callTool(tool.name, argumentsFor(tool.inputSchema));
  }
}

/** Makes the calls the scenario's context names (`toolCalls`: name and arguments), in order. */
async function callFromContext(client, toolCalls) {
  await client.listTools();
  for (const call of toolCalls) await client.callTool(call.name, call.arguments ?? {});
}

/**
 * Loads the first listed skill as a host would when the model asks for it: SKILL.md, verified,
 * then each other file, verified. The server of these scenarios tampers with SKILL.md, so the
 * load must be refused (PROTOCOL_VIOLATION) before any other file is read.
 */
async function loadTamperedSkill(client) {
  const skills = client.extend(skillsClient());
  const [entry] = await skills.list();
  if (entry === undefined) throw new Error('skills/list listed no skill');
  try {
    await skills.read(entry.uri);
    for (const file of entry.resources) {
      if (file.uri !== entry.uri) await skills.readFile(entry.uri, file.uri);
    }
  } catch (error) {
    if (error instanceof LocalError && error.code === 'PROTOCOL_VIOLATION') {
      console.error(`refused as expected: ${error.message}`);
      return;
    }
    throw error;
  }
  throw new Error(`the tampered skill ${entry.uri} was accepted`);
}

/**
 * Scenario name → what the client does once connected. Unlisted scenarios make the calls their
 * context names, or else call every tool.
 */
const SCENARIOS = {
  initialize: async () => undefined,
  tools_call: (client) => client.callTool('add_numbers', { a: 2, b: 3 }),
  'elicitation-sep1034-client-defaults': (client) =>
    client.callTool('test_client_elicitation_defaults', {}),
  'sse-retry': (client) => client.callTool('test_reconnection', {}),
  // Lists the tool whose schema has a network $ref; must not fetch it (SEP-2106).
  'json-schema-ref-no-deref': (client) => client.listTools(),
  // Sends the focal tool's inputSchema back, as received, through the echo tool.
  'json-schema-2020-12-preservation': async (client) => {
    const tools = await client.listTools();
    const focal = tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
    if (focal === undefined) throw new Error('json_schema_2020_12_tool is not listed');
    await client.callTool('json_schema_echo', { schema: focal.inputSchema });
  },
  // Skills (SEP-2640): list, and fetch nothing until a skill is loaded.
  'sep-2640-client-no-prefetch': (client) => client.extend(skillsClient()).list(),
  'sep-2640-client-verify-digest': loadTamperedSkill,
  'sep-2640-client-verify-size': loadTamperedSkill,
  'sep-2640-client-verify-frontmatter': loadTamperedSkill,
};

/** Example arguments for a JSON Schema object: each required property gets a value of its type. */
function argumentsFor(schema) {
  const args = {};
  const properties = schema?.properties ?? {};
  for (const name of schema?.required ?? []) args[name] = exampleOf(properties[name]);
  return args;
}

function exampleOf(schema) {
  if (schema?.enum !== undefined) return schema.enum[0];
  if (schema?.const !== undefined) return schema.const;
  switch (schema?.type) {
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return argumentsFor(schema);
    default:
      return 'test';
  }
}

/** The Client ID Metadata Document URL the auth scenarios expect (SEP-991). */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';

/**
 * A headless user: the suite's authorization endpoint redirects at once, so "the browser step"
 * is one GET whose Location is the redirect back (a real app opens a browser here).
 */
const HEADLESS = {
  redirectUri: () => 'http://localhost:3000/callback',
  authorize: async (url) => {
    const response = await fetch(url, { redirect: 'manual' });
    const location = response.headers.get('location');
    if (location === null)
      throw new Error(`the authorization endpoint answered ${response.status}`);
    return location;
  },
};

/** The OAuth client of an `auth/*` scenario: credentials and grant from its context. */
function oauthFor(scenario, url, context) {
  if (!scenario.startsWith('auth/')) return undefined;
  const base = {
    serverUrl: url,
    provider: HEADLESS,
    clientMetadataUrl: CIMD_URL,
    clientMetadata: { client_name: INFO.name },
  };
  const secretClient = { client_id: context.client_id, client_secret: context.client_secret };
  switch (scenario) {
    case 'auth/pre-registration':
      return createOAuthClient({ ...base, client: secretClient });
    case 'auth/client-credentials-basic':
      return createOAuthClient({
        ...base,
        grant: { type: 'client_credentials' },
        client: secretClient,
      });
    case 'auth/client-credentials-jwt':
      return createOAuthClient({
        ...base,
        grant: { type: 'client_credentials' },
        client: {
          client_id: context.client_id,
          private_key: context.private_key_pem,
          signing_algorithm: context.signing_algorithm ?? 'ES256',
        },
      });
    case 'auth/cross-app-access-complete-flow':
    case 'auth/enterprise-managed-authorization':
      return createOAuthClient({
        ...base,
        client: secretClient,
        grant: {
          type: 'token_exchange',
          idp: {
            tokenEndpoint: context.idp_token_endpoint,
            clientId: context.idp_client_id,
            idToken: () => context.idp_id_token,
          },
        },
      });
    case 'auth/wif-jwt-bearer':
      return createOAuthClient({
        ...base,
        client: { client_id: context.client_id, token_endpoint_auth_method: 'none' },
        grant: { type: 'jwt_bearer', assertion: () => context.valid_jwt },
      });
    default:
      return createOAuthClient(base);
  }
}

async function main() {
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const url = process.argv.at(-1);
  if (url === undefined || !/^https?:/.test(url)) throw new Error('usage: client.mjs <url>');
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
  const auth = oauthFor(scenario, url, context);
  const client = new Client(INFO, { ...HANDLERS, timeoutMs: 20_000 });
  // Tool calls that become tasks are driven to their result (the tasks extension).
  client.extend(tasksClient());
  await client.connect(
    createStreamableHttpClientTransport(url, auth === undefined ? {} : { auth }),
  );
  try {
    const fallback = Array.isArray(context.toolCalls)
      ? (c) => callFromContext(c, context.toolCalls)
      : callEveryTool;
    await (SCENARIOS[scenario] ?? fallback)(client);
  } finally {
    await client.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(`conformance client (${process.env.MCP_CONFORMANCE_SCENARIO}):`, error);
    process.exit(1);
  },
);
