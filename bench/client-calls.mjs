// The client side of a call: mcpkit's Client (Streamable HTTP over createNodeFetch, 2026-07-28)
// against a hand-made fetch of the same request, each with 64 callers at once for a few seconds
// against one upstream (bench/servers/mcpkit-http.mjs, started here). Prints calls/s and this
// process's CPU per call (every thread): what the Client adds to a bare fetch. Needs
// `npm run build`.
//
//   node bench/client-calls.mjs [--seconds S] [--rounds N]
import process from 'node:process';
import { parseArgs } from 'node:util';
import { Client } from '../dist/esm/src/client/index.js';
import { createStreamableHttpClientTransport } from '../dist/esm/src/transports/http/index.js';
import { createNodeFetch } from '../dist/esm/src/transports/http/node.js';
import { startServer, toolCall } from './lib.mjs';

const { values: flags } = parseArgs({
  options: { seconds: { type: 'string', default: '4' }, rounds: { type: 'string', default: '2' } },
});
const CALLERS = 64;
const upstream = await startServer('mcpkit-http.mjs', { env: { PORT: '0' } });
const url = `http://127.0.0.1:${String(upstream.port)}/mcp`;
const fetch = createNodeFetch();
const client = new Client({ name: 'bench', version: '1' });
await client.connect(createStreamableHttpClientTransport(url, { fetch }));
const { headers } = toolCall('modern');
let id = 0;

const ways = {
  client: () => client.callTool('echo', { message: 'hello world' }),
  fetch: async () => {
    // The request the Client sends, made by hand (its _meta as the Client writes it).
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: ++id,
      method: 'tools/call',
      params: {
        name: 'echo',
        arguments: { message: 'hello world' },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
        },
      },
    });
    const reply = await fetch(url, { method: 'POST', headers, body });
    return (await reply.json()).result;
  },
};

/** Calls of `one` by CALLERS callers for `ms`: the count. */
async function run(one, ms) {
  let calls = 0;
  const end = Date.now() + ms;
  const caller = async () => {
    while (Date.now() < end) {
      await one();
      calls++;
    }
  };
  await Promise.all(Array.from({ length: CALLERS }, caller));
  return calls;
}

for (let round = 1; round <= Number(flags.rounds); round++) {
  for (const [name, one] of Object.entries(ways)) {
    await run(one, 1000); // warm-up
    const before = process.cpuUsage();
    const started = Date.now();
    const calls = await run(one, Number(flags.seconds) * 1000);
    const used = process.cpuUsage(before);
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `round ${String(round)} ${name.padEnd(6)} ${(calls / seconds).toFixed(0).padStart(6)} calls/s, ${((used.user + used.system) / calls).toFixed(1)} µs CPU a call`,
    );
  }
}
await client.close();
fetch.close();
upstream.child.kill('SIGTERM');
process.exit(0);
