// The official SDK v1 over Streamable HTTP, as its examples wire it, shared by sdk1-stateless,
// sdk1-stateful and sdk1-proxy: StreamableHTTPServerTransport on node:http with JSON answers
// (enableJsonResponse, the cheaper of its two framings), the body parsed first (what
// express.json() does in the SDK's examples). Apart from sdk1-common.mjs, so that the stdio
// server loads no HTTP transport.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { PORT, onJsonBody, ready } from './common.mjs';

/**
 * Serves the servers `makeServer()` makes (an McpServer or a low-level Server) on PORT. Stateless:
 * a new server and transport for every POST (sessionIdGenerator: undefined), the documented
 * stateless pattern. Otherwise one server and transport per session, kept by Mcp-Session-Id.
 */
export function serveSdk1(makeServer, { stateless }) {
  const transports = new Map();

  async function perRequest(req, res, body) {
    const server = makeServer();
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
      await makeServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  }

  const handle = stateless ? perRequest : inSession;
  const server = createServer((req, res) => {
    if (req.method === 'POST') onJsonBody(req, res, (body) => void handle(req, res, body));
    else if (stateless) res.writeHead(405).end();
    else void handle(req, res, undefined);
  });
  server.listen(PORT, '127.0.0.1', () => {
    ready(server.address().port);
  });
}
