// A proxy on the official SDK v1 (issue #40, a peer of `mcpkit gateway`), the documented
// pattern: one Client connected over stdio to the upstream of the peer-gateway rows
// (mcpkit-stdio.mjs, common.mjs stdioUpstream()), and a low-level Server whose tools/list
// answers the upstream's list and whose tools/call forwards through the Client. Served with
// StreamableHTTPServerTransport on node:http, JSON answers, like the sdk1 rows: one Server and
// transport per session (kept by Mcp-Session-Id), or with BENCH_SDK1_PROXY_STATELESS=1 a new
// Server and transport per request (sessionIdGenerator: undefined). Every one shares the Client.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import process from 'node:process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  isInitializeRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { PORT, ready, stdioUpstream } from './common.mjs';
import { readJson } from './sdk1-common.mjs';

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

const stateless = process.env['BENCH_SDK1_PROXY_STATELESS'] === '1';
const transports = new Map();

async function perRequest(req, res, body) {
  const server = proxyServer();
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

async function inSession(req, res, body) {
  const id = req.headers['mcp-session-id'];
  let transport = typeof id === 'string' ? transports.get(id) : undefined;
  if (transport === undefined) {
    if (id !== undefined || !isInitializeRequest(body)) {
      res.writeHead(400).end();
      return;
    }
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (sessionId) => {
        transports.set(sessionId, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
    };
    await proxyServer().connect(transport);
  }
  await transport.handleRequest(req, res, body);
}

const server = createServer(async (req, res) => {
  const body = req.method === 'POST' ? await readJson(req) : undefined;
  if (stateless) {
    if (req.method !== 'POST') res.writeHead(405).end();
    else await perRequest(req, res, body);
    return;
  }
  await inSession(req, res, body);
});
server.listen(PORT, '127.0.0.1', () => {
  ready(server.address().port);
});
