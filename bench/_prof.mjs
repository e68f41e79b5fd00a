// The gateway's own cost per call, without the cross-process wake-ups of the HTTP section: a
// client, `mcpkit gateway`'s Gateway and an upstream McpServer in this one process, over real
// HTTP on 127.0.0.1, 64 callers at once. Prints CPU per call for client -> upstream directly and
// client -> gateway -> upstream; the difference is what the gateway adds. Needs `npm run build`.
//
//   node bench/gateway-inprocess.mjs
import { Client } from '../dist/esm/src/client/index.js';
import { Gateway, parseGatewayConfig } from '../dist/esm/src/gateway/index.js';
import { McpServer } from '../dist/esm/src/server/index.js';
import { createStreamableHttpClientTransport } from '../dist/esm/src/transports/http/index.js';
import { createNodeFetch, listen } from '../dist/esm/src/transports/http/node.js';

const CALLERS = 64;
const CALLS = 100;

const server = new McpServer({ name: 'upstream', version: '1' });
server.tool(
  {
    name: 'echo',
    description: 'Echoes the message.',
    inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
  },
  (args) => String(args.message),
);
const upstream = await listen(() => server, { port: 0 });
const gateway = await Gateway.start(
  parseGatewayConfig({ mcpServers: { upstream: { url: upstream.url } } }),
  {},
);
const served = await listen(() => gateway.server, { port: 0 });

/** CPU µs per call of CALLERS concurrent callers making CALLS calls each to `url`. */
async function measure(url) {
  const fetch = createNodeFetch();
  const client = new Client({ name: 'probe', version: '1' });
  await client.connect(createStreamableHttpClientTransport(url, { fetch }));
  const run = async (n) => {
    for (let i = 0; i < n; i++) await client.callTool('echo', { message: 'hello world' });
  };
  await Promise.all(Array.from({ length: CALLERS }, () => run(30))); // warm-up
  const before = process.cpuUsage();
  await Promise.all(Array.from({ length: CALLERS }, () => run(CALLS)));
  const used = process.cpuUsage(before);
  await client.close();
  fetch.close();
  return (used.user + used.system) / (CALLERS * CALLS);
}

const MODE = process.env.MODE ?? "through"; for (let round = 1; round <= 4; round++) { if (MODE === "direct") { console.log(await measure(upstream.url)); continue; } if (MODE === "through") { console.log(await measure(served.url)); continue; }
  const direct = await measure(upstream.url);
  const through = await measure(served.url);
  console.log(
    `round ${String(round)}: direct ${direct.toFixed(1)} µs/call, through the gateway ${through.toFixed(1)} µs/call, the gateway adds ${(through - direct).toFixed(1)} µs`,
  );
}
await served.close();
await gateway.close();
await upstream.close();
