// The gateway row's ceiling: node:http that forwards each POST's body, as is, to the upstream
// (mcpkit-http.mjs, started here as a child, the "mcpkit 2026-07-28" server) over
// createNodeFetch, and writes the upstream's status, content type and body back. No MCP at all:
// what two hops cost on this machine with no work but the forwarding.
import { createServer } from 'node:http';
import process from 'node:process';
import { createNodeFetch } from '../../dist/esm/src/transports/http/node.js';
import { startServer } from '../lib.mjs';
import { PORT, ready } from './common.mjs';

const upstream = await startServer('mcpkit-http.mjs', { env: { PORT: '0' } });
process.on('exit', () => upstream.child.kill('SIGKILL'));
// The orchestrator stops a server with SIGTERM, whose default ends node without 'exit'.
process.on('SIGTERM', () => process.exit(0));
const url = `http://127.0.0.1:${String(upstream.port)}/mcp`;
const fetch = createNodeFetch();
const FORWARDED = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-method', 'mcp-name'];

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const headers = {};
    for (const name of FORWARDED) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    fetch(url, { method: 'POST', headers, body: Buffer.concat(chunks) })
      .then(async (reply) => {
        const body = await reply.text();
        res.writeHead(reply.status, { 'content-type': reply.headers.get('content-type') ?? '' });
        res.end(body);
      })
      .catch((error) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
  });
});
server.listen(PORT, '127.0.0.1', () => ready(server.address().port));
