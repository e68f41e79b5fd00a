// A probe, not part of `npm run bench`: the CPU time of one `tools/list` in process (the node
// face with stand-ins for the request and response, no sockets, bench/node-fakes.mjs), for a
// server of 10, 1,000 and 5,000 tools (each a described tool with the 10-field input of the
// scaling case), in both eras: a 2025-11-25 request without a session (`sessions: false`) and a
// 2026-07-28 one. The figure is CPU µs per listing, the mean over a round of listings (enough for
// about half a second), the least of the rounds. With `--gateway` it also lists a Gateway's tools
// (an upstream of 500 tools over HTTP on 127.0.0.1, the gateway in this process). Beside each
// figure: the listing's size and a hash of its text, to compare two builds' bytes
// (issue #44: the text is made once per snapshot, revision and page).
//
//   node bench/list-cost.mjs [--root DIR] [--tools 10,1000,5000] [--rounds R] [--gateway]
//
// DIR is a checkout with dist/ (default this one), as bench/instructions.mjs takes it.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { FakeRequest, fakeResponse } from './node-fakes.mjs';
import { WIDE_SCHEMA } from './servers/common.mjs';
import { ROOT, headersFor, rpc } from './lib.mjs';

const { values: flags } = parseArgs({
  options: {
    root: { type: 'string', default: ROOT },
    tools: { type: 'string', default: '10,1000,5000' },
    rounds: { type: 'string', default: '5' },
    gateway: { type: 'boolean', default: false },
  },
});
const load = (path) => import(pathToFileURL(join(flags.root, 'dist/esm/src', path)).href);
const { McpServer } = await load('server/index.js');
const { createNodeHandler, listen } = await load('transports/http/node.js');

/** A server of `count` tools, each described, with the scaling case's 10-field input. */
function serverOf(count) {
  const server = new McpServer({ name: 'list-cost', version: '1.0.0' });
  for (let i = 0; i < count; i++) {
    const name = `tool_${String(i).padStart(5, '0')}`;
    server.tool(
      { name, description: `Tool number ${String(i)}: does one thing.`, inputSchema: WIDE_SCHEMA },
      () => 'ok',
    );
  }
  return server;
}

/** A function that lists `server`'s tools once in `era` and resolves with the reply. */
function lister(server, era) {
  const handler = createNodeHandler(() => server, { sessions: false });
  const body = Buffer.from(JSON.stringify(rpc(era, { method: 'tools/list' })));
  const headers = headersFor(era, { method: 'tools/list' });
  return () =>
    new Promise((resolve) => {
      handler(new FakeRequest(headers, body), collecting(fakeResponse(resolve)));
    });
}

/** The stand-in response, keeping what is written before `end` (a body written in pieces). */
function collecting(res) {
  const written = [];
  const end = res.end;
  res.write = (chunk) => written.push(String(chunk)) > 0;
  res.end = function (chunk) {
    if (written.length === 0) return end.call(this, chunk);
    if (chunk !== undefined) written.push(String(chunk));
    return end.call(this, written.join(''));
  };
  return res;
}

/** CPU µs per listing (least of the rounds' means), the reply's length and its text's hash. */
async function measure(list, expected) {
  const first = await list();
  if (first.status !== 200) throw new Error(`tools/list: ${first.status} ${first.body}`);
  // The id is the same in every request; the text must be too.
  const hash = createHash('sha256').update(first.body).digest('hex').slice(0, 12);
  if (!first.body.includes(expected)) throw new Error(`tools/list lacks ${expected}`);
  const once = process.cpuUsage();
  for (let i = 0; i < 20; i++) await list();
  const warm = process.cpuUsage(once);
  const perRound = Math.max(20, Math.round(500_000 / ((warm.user + warm.system) / 20 + 1)));
  let best = Infinity;
  for (let r = 0; r < Number(flags.rounds); r++) {
    const cpu = process.cpuUsage();
    for (let i = 0; i < perRound; i++) await list();
    const used = process.cpuUsage(cpu);
    best = Math.min(best, (used.user + used.system) / perRound);
  }
  return { us: best, bytes: Buffer.byteLength(first.body), hash };
}

function row(label, { us, bytes, hash }) {
  const size = `${(bytes / 1024).toFixed(0)} KiB`.padStart(9);
  console.log(`${label.padEnd(28)} ${us.toFixed(1).padStart(9)} µs CPU/listing  ${size}  ${hash}`);
}

for (const count of flags.tools.split(',').map(Number)) {
  const server = serverOf(count);
  const last = `tool_${String(count - 1).padStart(5, '0')}`;
  for (const era of ['legacy', 'modern']) {
    row(`tools/list ${String(count)} tools ${era}`, await measure(lister(server, era), last));
  }
}

if (flags.gateway) {
  const { Gateway, parseGatewayConfig } = await load('gateway/index.js');
  const upstream = await listen(() => serverOf(500), { port: 0 });
  const gateway = await Gateway.start(
    parseGatewayConfig({ mcpServers: { up: { url: upstream.url } } }),
    {},
  );
  for (const era of ['legacy', 'modern']) {
    row(`gateway tools/list 500 ${era}`, await measure(lister(gateway.server, era), 'tool_00499'));
  }
  await gateway.close();
  await upstream.close();
}
