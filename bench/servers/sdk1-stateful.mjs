// The official SDK v1 with sessions, as its examples wire it: one McpServer and one
// StreamableHTTPServerTransport per session, kept in a map by Mcp-Session-Id. JSON answers.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { PORT, ready } from './common.mjs';
import { buildSdk1, readJson } from './sdk1-common.mjs';

const transports = new Map();

const server = createServer(async (req, res) => {
  const id = req.headers['mcp-session-id'];
  const body = req.method === 'POST' ? await readJson(req) : undefined;
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
    await buildSdk1().connect(transport);
  }
  await transport.handleRequest(req, res, body);
});
server.listen(PORT, '127.0.0.1', () => {
  ready(server.address().port);
});
