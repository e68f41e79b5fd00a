// The official SDK v2: @modelcontextprotocol/server's createMcpHandler (both eras: 2026-07-28
// requests, and the stateless fallback for 2025-era requests), mounted on node:http with
// @modelcontextprotocol/node's toNodeHandler. The factory builds a server per request, as the
// SDK's entry requires.
import { createServer } from 'node:http';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { PORT, ready } from './common.mjs';
import { buildSdk2 } from './sdk2-common.mjs';

const handler = toNodeHandler(createMcpHandler(buildSdk2));
const server = createServer((req, res) => {
  void handler(req, res);
});
server.listen(PORT, '127.0.0.1', () => {
  ready(server.address().port);
});
