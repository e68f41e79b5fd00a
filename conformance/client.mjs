// The conformance client: the suite spawns it with the scenario in MCP_CONFORMANCE_SCENARIO and
// the mock server's URL as the last argument; it exits 0 when the scenario's flow completed.
// Built only from mcpkit's public client API (Client + createStreamableHttpClientTransport).
/* eslint-disable no-console */
import { Client } from 'mcpkit/client';
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

async function main() {
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const url = process.argv.at(-1);
  if (url === undefined || !/^https?:/.test(url)) throw new Error('usage: client.mjs <url>');
  const client = new Client(INFO, { ...HANDLERS, timeoutMs: 20_000 });
  await client.connect(createStreamableHttpClientTransport(url));
  try {
    const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
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
