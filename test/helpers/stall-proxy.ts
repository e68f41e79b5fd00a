// A TCP proxy on 127.0.0.1:0 in front of a real server (the shared Redis) that can be stalled:
// while stalled it accepts connections and keeps what either side sends, delivering nothing, as a
// Redis stopped with SIGSTOP does (the kernel still accepts and buffers); resumed, it delivers what
// it kept, in order. The shared Redis itself is never stopped.
import type { Server, Socket } from 'node:net';
import { connect, createServer } from 'node:net';

/** A running {@link startStallProxy}. */
export interface StallProxy {
  /** `redis://127.0.0.1:<port>` (the scheme of the target URL, the proxy's port). */
  readonly url: string;
  /** From now on, nothing passes in either direction; connections still open. */
  stall(): void;
  /** Delivers what was kept, and passes everything again. */
  resume(): void;
  close(): Promise<void>;
}

/** One direction of a connection: chunks held while stalled. */
interface Pipe {
  readonly from: Socket;
  readonly to: Socket;
  readonly held: Buffer[];
}

/** Starts a proxy to the host and port of `targetUrl` (a redis:// URL). */
export async function startStallProxy(targetUrl: string): Promise<StallProxy> {
  const target = new URL(targetUrl);
  const pipes = new Set<Pipe>();
  const sockets = new Set<Socket>();
  let stalled = false;
  const flow = (pipe: Pipe): void => {
    pipe.from.on('data', (chunk: Buffer) => {
      if (stalled) pipe.held.push(chunk);
      else pipe.to.write(chunk);
    });
  };
  const server: Server = createServer((inbound) => {
    const outbound = connect(Number(target.port || 6379), target.hostname);
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        inbound.destroy();
        outbound.destroy();
      });
    }
    const up: Pipe = { from: inbound, to: outbound, held: [] };
    const down: Pipe = { from: outbound, to: inbound, held: [] };
    pipes.add(up);
    pipes.add(down);
    inbound.on('close', () => {
      pipes.delete(up);
      pipes.delete(down);
    });
    flow(up);
    flow(down);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString().replace(/\/$/, ''),
    stall() {
      stalled = true;
    },
    resume() {
      stalled = false;
      for (const pipe of pipes) {
        for (const chunk of pipe.held.splice(0)) pipe.to.write(chunk);
      }
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
