// The counted process of bench/client-instructions.mjs: an mcpkit Client over createNodeFetch
// (from ROOT's dist/) connected to URL. Each SIGUSR2 runs the next batch of calls (WARM, then
// CALLS), 64 in flight, and writes "@@done@@" on fd 1 when it ends.
import { writeSync } from 'node:fs';
import process from 'node:process';

const root = process.env.ROOT;
const { Client } = await import(`${root}/dist/esm/src/client/index.js`);
const { createStreamableHttpClientTransport } = await import(
  `${root}/dist/esm/src/transports/http/index.js`
);
const { createNodeFetch } = await import(`${root}/dist/esm/src/transports/http/node.js`);
const client = new Client({ name: 'bench', version: '1' });
await client.connect(
  createStreamableHttpClientTransport(process.env.URL, { fetch: createNodeFetch() }),
);

async function run(calls) {
  let next = 0;
  const lane = async () => {
    while (next < calls) {
      next++;
      const result = await client.callTool('echo', { message: 'hello world' });
      if (result.isError === true) throw new Error('the call failed');
    }
  };
  await Promise.all(Array.from({ length: 64 }, lane));
}

const batches = [Number(process.env.WARM), Number(process.env.CALLS)];
process.on('SIGUSR2', () => {
  void run(batches.shift()).then(() => writeSync(1, '@@done@@\n'));
});
writeSync(1, '@@ready@@\n');
setInterval(() => undefined, 1 << 30); // stays up between batches
