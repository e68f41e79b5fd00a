// The stdio ceiling: reads a line, parses it and writes a hand-built reply. It answers
// initialize and tools/call (like echo) and ignores notifications.
import process from 'node:process';
import { onLines, ready } from './common.mjs';

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

onLines(process.stdin, serve);
ready(0);
