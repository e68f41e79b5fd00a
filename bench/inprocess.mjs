// In-process cost of one tools/call, without sockets: mcpkit through its fetch face
// (`createFetchHandler`, a real Request in, a Response read to the end) and through its node face
// (`createNodeHandler` with a stand-in IncomingMessage and ServerResponse), with 2 tools and with
// 52 (2 + 50 ten-field tools), in both eras; and the official SDK v2's `createMcpHandler().fetch`
// the same way. Calls run one after another; the figure is the mean time per call. `npm run
// bench` runs each case in a process of its own (`--case NAME`), so that no case runs on code
// the JIT shaped for another.
//
//   node bench/inprocess.mjs [--quick] [--json] [--only mcpkit|sdk2] [--case NAME]
//
// Run it under `node --cpu-prof` to profile one case (see bench/README.md).
import process from 'node:process';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { McpServer } from '../dist/esm/src/server/index.js';
import { createFetchHandler } from '../dist/esm/src/transports/http/index.js';
import { createNodeHandler } from '../dist/esm/src/transports/http/node.js';
import { FakeRequest, fakeResponse, rawNode } from './node-fakes.mjs';
import { ADD_SCHEMA, ECHO_SCHEMA, WIDE_SCHEMA, answer } from './servers/common.mjs';
import { median, toolCall } from './lib.mjs';

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    only: { type: 'string' },
    case: { type: 'string' },
    list: { type: 'boolean', default: false },
    rounds: { type: 'string' },
  },
});

const URL_ = 'http://127.0.0.1/mcp';
const wideNames = Array.from({ length: 50 }, (_, i) => `wide_${String(i).padStart(2, '0')}`);

function mcpkitServer(tools) {
  const server = new McpServer({ name: 'bench-mcpkit', version: '1.0.0' });
  server.tool({ name: 'echo', inputSchema: ECHO_SCHEMA }, answer.echo);
  server.tool({ name: 'add', inputSchema: ADD_SCHEMA }, answer.add);
  if (tools > 2) {
    for (const name of wideNames) server.tool({ name, inputSchema: WIDE_SCHEMA }, answer.wide);
  }
  return server;
}

function viaFetch(fetchLike, era) {
  const { body, headers } = toolCall(era);
  return async () => {
    const response = await fetchLike(new Request(URL_, { method: 'POST', headers, body }));
    return { status: response.status, body: await response.text() };
  };
}

function viaNode(handler, era) {
  const { body, headers } = toolCall(era);
  const bytes = Buffer.from(body);
  return () =>
    new Promise((resolve) => {
      handler(new FakeRequest(headers, bytes), fakeResponse(resolve));
    });
}

async function sdk2Handler(tools) {
  const { McpServer: Sdk2Server, createMcpHandler } = await import('@modelcontextprotocol/server');
  const { z } = await import('zod');
  const { zodShapes } = await import('./servers/common.mjs');
  const shapes = zodShapes(z);
  const text = (value) => ({ content: [{ type: 'text', text: value }] });
  const handler = createMcpHandler(() => {
    const server = new Sdk2Server({ name: 'bench-sdk2', version: '1.0.0' });
    server.registerTool('echo', { inputSchema: z.object(shapes.echo) }, (a) =>
      text(answer.echo(a)),
    );
    server.registerTool('add', { inputSchema: z.object(shapes.add) }, (a) => text(answer.add(a)));
    if (tools > 2) {
      for (const name of wideNames) {
        server.registerTool(name, { inputSchema: z.object(shapes.wide) }, (a) =>
          text(answer.wide(a)),
        );
      }
    }
    return server;
  });
  return handler.fetch;
}

/** The ceiling of the fetch face: parse the body, answer a hand-built reply. */
async function rawFetch(request) {
  const message = JSON.parse(await request.text());
  const text = JSON.stringify(String(message.params.arguments.message));
  const body = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"content":[{"type":"text","text":${text}}]}}`;
  return new Response(body, { headers: { 'content-type': 'application/json' } });
}

/** The cases: name → () => Promise<call>. */
function cases() {
  const list = [
    {
      name: 'raw fetch (ceiling)',
      peer: 'raw',
      face: 'fetch',
      era: 'legacy',
      tools: 2,
      make: () => Promise.resolve(viaFetch(rawFetch, 'legacy')),
    },
    {
      name: 'raw node (ceiling)',
      peer: 'raw',
      face: 'node',
      era: 'legacy',
      tools: 2,
      make: () => Promise.resolve(viaNode(rawNode, 'legacy')),
    },
  ];
  for (const tools of [2, 52]) {
    for (const era of ['modern', 'legacy']) {
      const options = { sessions: era === 'modern' };
      list.push({
        name: `mcpkit fetch ${era} ${String(tools)} tools`,
        peer: 'mcpkit',
        face: 'fetch',
        era,
        tools,
        make: () => Promise.resolve(viaFetch(createFetchHandler(shared(tools), options), era)),
      });
      list.push({
        name: `mcpkit node ${era} ${String(tools)} tools`,
        peer: 'mcpkit',
        face: 'node',
        era,
        tools,
        make: () => Promise.resolve(viaNode(createNodeHandler(shared(tools), options), era)),
      });
      list.push({
        name: `sdk2 fetch ${era} ${String(tools)} tools`,
        peer: 'sdk2',
        face: 'fetch',
        era,
        tools,
        make: async () => viaFetch(await sdk2Handler(tools), era),
      });
    }
  }
  return list;
}

const servers = new Map();
/** One McpServer per tool count, shared by every request (mcpkit's intended use). */
function shared(tools) {
  if (!servers.has(tools)) servers.set(tools, mcpkitServer(tools));
  const server = servers.get(tools);
  return () => server;
}

/**
 * Runs `call` one after another for about `ms` milliseconds (whole batches of 50): wall-clock and
 * CPU (user + system) µs per call.
 */
async function measure(call, ms) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  let calls = 0;
  do {
    for (let i = 0; i < 50; i++) await call();
    calls += 50;
  } while (performance.now() - start < ms);
  const wall = ((performance.now() - start) * 1000) / calls;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / calls, calls };
}

async function main() {
  const rounds = Number(flags.rounds ?? (flags.quick ? 1 : 3));
  let selected = cases().filter((c) => flags.only === undefined || c.peer === flags.only);
  if (flags.case !== undefined) {
    const exact = selected.filter((c) => c.name === flags.case);
    selected = exact.length > 0 ? exact : selected.filter((c) => c.name.includes(flags.case));
  }
  if (flags.list) {
    process.stdout.write(`${JSON.stringify(selected.map((c) => c.name))}\n`);
    return;
  }
  const results = [];
  for (const c of selected) {
    const call = await c.make();
    const check = await call();
    if (check.status !== 200 || !check.body.includes('hello world')) {
      throw new Error(`${c.name}: unexpected reply ${String(check.status)} ${check.body}`);
    }
    // Warm-up: long enough for the JIT and for the heap of start-up (52 tools compiled) to settle,
    // since `npm run bench` runs each case in a fresh process once per round.
    await measure(call, flags.quick ? 200 : 1000);
    const ms = flags.quick ? 300 : 1500; // per round
    const perRound = [];
    for (let r = 0; r < rounds; r++) perRound.push(await measure(call, ms));
    const us = median(perRound.map((m) => m.wall));
    const cpuUs = median(perRound.map((m) => m.cpu));
    results.push({ ...c, make: undefined, us, cpuUs, rounds: perRound });
    if (!flags.json) {
      const figures = `${us.toFixed(1).padStart(8)} µs/call  (CPU ${cpuUs.toFixed(1)} µs)`;
      console.log(`${c.name.padEnd(32)} ${figures}`);
    }
  }
  if (flags.json) process.stdout.write(`${JSON.stringify(results)}\n`);
}

await main();
