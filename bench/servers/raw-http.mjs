// The ceiling: node:http doing the minimum a JSON-RPC reply needs. It reads the body, parses it
// and writes a hand-built reply. It knows just enough MCP for the fresh-session measurement
// (initialize, notifications, tools/list) and answers every tools/call like echo. A 2026-07-28
// tools/call (its `_meta` names the revision) gets what that revision's result needs: the
// `resultType` it requires and the serverInfo `_meta` it asks servers to send on every result.
import { createServer } from 'node:http';
import { PORT, onJsonBody, ready } from './common.mjs';

let sessions = 0;
const INIT =
  '{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"raw","version":"1.0.0"}}';
const LIST =
  '{"tools":[{"name":"echo","inputSchema":{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}},' +
  '{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}}]}';

function reply(res, { id, result, headers }) {
  const body = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`;
  res.writeHead(200, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}

const MODERN_TAIL =
  ',"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"raw","version":"1.0.0"}}}';

const server = createServer((req, res) => {
  onJsonBody(req, res, (message) => {
    switch (message.method) {
      case 'tools/call': {
        const text = JSON.stringify(String(message.params.arguments.message));
        const modern = message.params._meta?.['io.modelcontextprotocol/protocolVersion'];
        const tail = modern === undefined ? '}' : MODERN_TAIL;
        reply(res, {
          id: message.id,
          result: `{"content":[{"type":"text","text":${text}}]${tail}`,
        });
        return;
      }
      case 'initialize':
        reply(res, {
          id: message.id,
          result: INIT,
          headers: { 'mcp-session-id': String(++sessions) },
        });
        return;
      case 'tools/list':
        reply(res, { id: message.id, result: LIST });
        return;
      default:
        res.writeHead(202).end();
    }
  });
});
server.listen(PORT, '127.0.0.1', () => {
  ready(server.address().port);
});
