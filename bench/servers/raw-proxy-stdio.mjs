// The ceiling of the peer-gateway rows (issue #40): node:http that writes each POST's JSON-RPC
// request, as one line, to the stdio upstream those rows front (mcpkit-stdio.mjs, common.mjs
// stdioUpstream(), spawned here), and answers with the upstream's reply line. No MCP work: the
// only change to a message is its id, swapped for one of this process's on the way in (callers
// reuse ids) and back on the way out. The upstream is initialized once, with the 2025-11-25
// handshake; 2026-07-28 requests carry their own envelope and need none.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import process from 'node:process';
import { PORT, onJsonBody, onLines, ready, stdioUpstream } from './common.mjs';

const { command, args } = stdioUpstream();
const upstream = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
process.on('exit', () => upstream.kill('SIGKILL'));
// The orchestrator stops a server with SIGTERM, whose default ends node without 'exit'.
process.on('SIGTERM', () => process.exit(0));

const waiting = new Map();
let next = 0;
onLines(upstream.stdout, (line) => {
  if (line.length > 0) settle(JSON.parse(line));
});

function settle(message) {
  const done = waiting.get(message.id);
  if (done === undefined) return;
  waiting.delete(message.id);
  done(message);
}

/** Sends `message` upstream under an id of ours; resolves with the reply, under its own id. */
function forward(message) {
  const theirs = message.id;
  const ours = ++next;
  return new Promise((resolve) => {
    waiting.set(ours, (reply) => resolve({ ...reply, id: theirs }));
    upstream.stdin.write(`${JSON.stringify({ ...message, id: ours })}\n`);
  });
}

await forward({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw-proxy-stdio', version: '1.0.0' },
  },
});
upstream.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');

const server = createServer((req, res) => {
  onJsonBody(req, res, (message) => {
    if (message.id === undefined) {
      upstream.stdin.write(`${JSON.stringify(message)}\n`);
      res.writeHead(202).end();
      return;
    }
    void forward(message).then((reply) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply));
    });
  });
});
server.listen(PORT, '127.0.0.1', () => ready(server.address().port));
