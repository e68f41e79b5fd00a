// A TCP proxy in front of a database that can stop answering, for the tests of a hung database
// (hung-database.test.ts on PostgreSQL, mysql.test.ts on MySQL).
import type { AddressInfo, Server, Socket } from 'node:net';
import { connect, createServer } from 'node:net';

/** A proxy listening on 127.0.0.1 `port`. */
export interface FreezingProxy {
  readonly port: number;
  /** Cuts every connection; new ones are accepted and never answered. */
  freeze(): void;
  /** Cuts every connection and stops listening. */
  close(): Promise<void>;
}

/**
 * A TCP proxy to `target` (its port, else `defaultPort`), or to nothing when `target` is
 * undefined: then every connection is accepted and never answered from the start.
 */
export async function freezingProxy(
  target: URL | undefined,
  defaultPort: number,
): Promise<FreezingProxy> {
  let frozen = target === undefined;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (frozen || target === undefined) return; // accepted, never answered
    const upstream = connect(Number(target.port || defaultPort), target.hostname);
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    freeze() {
      frozen = true;
      for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}
