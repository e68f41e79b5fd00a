// The stdio ceiling: reads a line, parses it and writes a hand-built reply. It answers
// initialize and tools/call (like echo) and ignores notifications.
import process from 'node:process';
import { ready } from './common.mjs';

const INIT =
  '{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"raw","version":"1.0.0"}}';

function serve(line) {
  if (line.length === 0) return;
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  const id = JSON.stringify(message.id);
  if (message.method === 'tools/call') {
    const text = JSON.stringify(String(message.params.arguments.message));
    process.stdout.write(
      `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":${text}}]}}\n`,
    );
  } else if (message.method === 'initialize') {
    process.stdout.write(`{"jsonrpc":"2.0","id":${id},"result":${INIT}}\n`);
  } else {
    process.stdout.write(`{"jsonrpc":"2.0","id":${id},"result":{}}\n`);
  }
}

let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  let end;
  while ((end = buffered.indexOf('\n')) !== -1) {
    serve(buffered.slice(0, end));
    buffered = buffered.slice(end + 1);
  }
});
ready(0);
