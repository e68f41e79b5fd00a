// Hostile HTTP peers on 127.0.0.1 for the tests of what a client does with them: a server that
// accepts connections and never answers, and a body far larger than any sane document, written
// with backpressure so that the test learns how much the client actually took before it hung up.
import type { ServerResponse } from 'node:http';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createServer as createNetServer } from 'node:net';

/** A listening peer: its base URL, and `close` that drops every connection. */
export interface Peer {
  readonly url: string;
  readonly connections: () => number;
  close(): Promise<void>;
}

/** A TCP server on 127.0.0.1 that accepts every connection, reads it, and never answers. */
export async function startSilentServer(): Promise<Peer> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createNetServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`,
    connections: () => accepted,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** How much of a huge body was written before the client hung up. */
export interface Flood {
  /** Bytes written to the socket. */
  readonly written: () => number;
  /** Resolves true when the whole body went out, false when the client closed first. */
  readonly finished: Promise<boolean>;
}

/**
 * Answers `res` 200 with a JSON-looking body of `totalBytes` (no Content-Length: chunked, as an
 * endless stream would be), a chunk at a time as the client takes it.
 */
export function floodBody(res: ServerResponse, totalBytes: number): Flood {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let written = 0;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"padding":"');
  written += 12;
  const finished = new Promise<boolean>((resolve) => {
    res.on('close', () => {
      resolve(res.writableFinished);
    });
    const pump = (): void => {
      while (written < totalBytes && !res.destroyed) {
        written += chunk.byteLength;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
      if (!res.destroyed) res.end('"}');
    };
    pump();
  });
  return { written: () => written, finished };
}

/** An HTTP server on 127.0.0.1 with `handle` for every request; `close` drops every connection. */
export async function startHttpPeer(
  handle: (path: string, res: ServerResponse, method: string) => void,
): Promise<Peer> {
  let accepted = 0;
  const server = createHttpServer((req, res) => {
    req.resume();
    handle(new URL(req.url ?? '/', 'http://x').pathname, res, req.method ?? 'GET');
  });
  server.on('connection', () => accepted++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`,
    connections: () => accepted,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}
