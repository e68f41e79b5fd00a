import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../../../server/server.js';
import type { Listening } from './node.js';
import { listen } from './node.js';

const running: Listening[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

/**
 * Posts a chunked body of `total` bytes over a raw socket, one 64 KiB chunk per turn, until the
 * body is sent or the connection ends; resolves with what the client read and any socket error.
 */
async function postChunked(port: number, total: number) {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let text = '';
  let error: string | undefined;
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (text += chunk));
  socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code));
  const closed = new Promise((resolve) => socket.once('close', resolve));
  socket.write(
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${String(port)}\r\ncontent-type: application/json\r\n` +
      'accept: application/json, text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n',
  );
  const chunk = Buffer.alloc(65536, 32);
  for (let sent = 0; sent < total && socket.writable; sent += chunk.length) {
    socket.write(`10000\r\n`);
    socket.write(chunk);
    socket.write('\r\n');
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (socket.writable) socket.end('0\r\n\r\n');
  await closed;
  return { status: text.split('\r\n')[0], error };
}

describe('lingering close', () => {
  it('lets a client still sending an oversized body read the 413', async () => {
    const server = new McpServer({ name: 'linger', version: '1.0.0' });
    const listening = await listen(() => server, { port: 0, maxBodyBytes: 1024 * 1024 });
    running.push(listening);
    for (let i = 0; i < 3; i++) {
      const { status, error } = await postChunked(listening.port, 4 * 1024 * 1024);
      expect(error).toBeUndefined();
      expect(status).toBe('HTTP/1.1 413 Payload Too Large');
    }
  });
});
