// mcp-proxy (punkpeye; issue #40, a peer of `mcpkit gateway`): its CLI, run in this process (so
// that its CPU time is this process's), serving the stdio upstream of the peer-gateway rows
// (mcpkit-stdio.mjs, common.mjs stdioUpstream()) over Streamable HTTP only:
//   mcp-proxy --port PORT --host 127.0.0.1 --server stream --upstreamProtocol auto -- sh -c CMD
// One upstream connection carries every caller's calls; 2026-07-28 requests are served per
// request, legacy ones in sessions. `--upstreamProtocol auto` lets it speak 2026-07-28 to the
// upstream when the upstream does, as mcpkit's gateway does (its default is the 2025 handshake).
import { createRequire } from 'node:module';
import process from 'node:process';
import { PORT, listening, ready, stdioUpstream } from './common.mjs';

const port = PORT === 0 ? 8080 : PORT;
const bin = createRequire(import.meta.url).resolve('mcp-proxy/dist/bin/mcp-proxy.mjs');
const upstream = stdioUpstream();
const protocol = process.env['BENCH_MCP_PROXY_UPSTREAM'] ?? 'auto';
process.argv = [
  process.execPath,
  bin,
  ...['--port', String(port), '--host', '127.0.0.1', '--server', 'stream'],
  ...['--upstreamProtocol', protocol, '--', upstream.command, ...upstream.args],
];
await import(bin);
await listening(port);
ready(port);
