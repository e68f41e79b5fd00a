// A proxy on the official SDK v1 (issue #40, a peer of `mcpkit gateway`), the documented
// pattern: one Client connected over stdio to the upstream of the peer-gateway rows
// (mcpkit-stdio.mjs, common.mjs stdioUpstream()), and a low-level Server whose tools/list
// answers the upstream's list and whose tools/call forwards through the Client. Served as the
// sdk1 rows are (sdk1-serve.mjs): one Server and transport per session, or with
// BENCH_SDK1_PROXY_STATELESS=1 a new Server and transport per request. Every one shares the Client.
import process from 'node:process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { stdioUpstream } from './common.mjs';
import { serveSdk1 } from './sdk1-serve.mjs';

const { command, args } = stdioUpstream();
const client = new Client({ name: 'bench-sdk1-proxy', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command, args, env: process.env }));

/** A Server that serves the upstream's tools through the shared Client. */
function proxyServer() {
  const server = new Server(
    { name: 'bench-sdk1-proxy', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, (request) => client.listTools(request.params));
  server.setRequestHandler(CallToolRequestSchema, (request) => client.callTool(request.params));
  return server;
}

serveSdk1(proxyServer, { stateless: process.env['BENCH_SDK1_PROXY_STATELESS'] === '1' });
