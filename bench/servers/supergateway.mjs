// supergateway (issue #40, a peer of `mcpkit gateway`): its CLI, run in this process (so that its
// CPU time is this process's), turning the stdio upstream of the peer-gateway rows
// (mcpkit-stdio.mjs, common.mjs stdioUpstream()) into Streamable HTTP:
//   supergateway --stdio CMD --outputTransport streamableHttp --stateful --port PORT
// With --stateful one legacy session owns one child; without it, and for every 2026-07-28
// request in either mode, supergateway spawns a new child per request (see bench/RESULTS.md,
// "Issue 40: peer gateways"). Logging off (--logLevel none), as the gateway row runs --quiet.
import { createRequire } from 'node:module';
import process from 'node:process';
import { PORT, listening, ready, stdioUpstream } from './common.mjs';

const port = PORT === 0 ? 8000 : PORT;
const bin = createRequire(import.meta.url).resolve('supergateway/dist/index.js');
const mode = process.env['BENCH_SUPERGATEWAY_STATELESS'] === '1' ? [] : ['--stateful'];
process.argv = [
  process.execPath,
  bin,
  ...['--stdio', stdioUpstream().line, '--outputTransport', 'streamableHttp', ...mode],
  ...['--port', String(port), '--logLevel', 'none'],
];
await import(bin);
await listening(port);
ready(port);
