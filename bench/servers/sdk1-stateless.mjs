// The official SDK v1 in its documented stateless pattern: a new McpServer and a new
// StreamableHTTPServerTransport (sessionIdGenerator: undefined) for every request, on node:http.
// JSON answers (enableJsonResponse), the cheaper of its two framings.
import { createServer } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { PORT, ready } from './common.mjs';
import { buildSdk1, readJson } from './sdk1-common.mjs';

const server = createServer(async (req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(405).end();
    return;
  }
  const body = await readJson(req);
  const mcp = buildSdk1();
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  res.on('close', () => {
    void transport.close();
    void mcp.close();
  });
  await mcp.connect(transport);
  await transport.handleRequest(req, res, body);
});
server.listen(PORT, '127.0.0.1', () => {
  ready(server.address().port);
});
