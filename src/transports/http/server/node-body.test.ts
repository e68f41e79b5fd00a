import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { BodyLimits } from './exchange.js';
import { BodyError } from './exchange.js';
import { readBody } from './node-body.js';

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(resolve);
        }),
    ),
  );
});

/**
 * A server on 127.0.0.1 that reads each request's body under `limits` and answers the read's
 * outcome; `read` resolves with the first outcome.
 */
async function bodyServer(limits: BodyLimits): Promise<{
  port: number;
  read: Promise<Uint8Array | BodyError>;
}> {
  let settle: (outcome: Uint8Array | BodyError) => void = () => undefined;
  const read = new Promise<Uint8Array | BodyError>((resolve) => {
    settle = resolve;
  });
  const server = createServer((req, res) => {
    readBody(req, limits, (outcome) => {
      settle(outcome);
      if (outcome instanceof BodyError) res.writeHead(outcome.status);
      res.end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, read };
}

/** Writes `text` to a new connection to `port`; the connection is destroyed after `after` ms. */
function send(port: number, text: string, after?: number): void {
  const socket = connect(port, '127.0.0.1', () => {
    socket.write(text);
    if (after !== undefined) setTimeout(() => socket.destroy(), after);
  });
  socket.on('error', () => undefined);
  socket.resume();
}

const head = (length: number | string): string =>
  `POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: ${String(length)}\r\n\r\n`;

const LIMITS: BodyLimits = { maxBytes: 1024, timeoutMs: 60_000 };

describe('readBody (node:http)', () => {
  it('gives the whole body once it has ended, in as many chunks as it came', async () => {
    const { port, read } = await bodyServer(LIMITS);
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`${head(11)}hello`);
      setTimeout(() => socket.write(' world'), 20);
    });
    socket.resume();
    const body = await read;
    socket.destroy();
    expect(body).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(body as Uint8Array).toString()).toBe('hello world');
  });

  it('fails at once (400) when the client breaks the body off, long before the deadline', async () => {
    const { port, read } = await bodyServer(LIMITS);
    // The deadline is a minute: only the request's 'close' can settle the read within the test.
    send(port, `${head(100)}{"jsonrpc":`, 20);
    const outcome = await read;
    expect(outcome).toBeInstanceOf(BodyError);
    expect((outcome as BodyError).status).toBe(400);
  });

  it('refuses a declared length over the cap (413) without reading, leading zeros and all', async () => {
    for (const length of ['1025', '0000001025', '10000000000000000']) {
      const { port, read } = await bodyServer(LIMITS);
      send(port, head(length));
      const outcome = await read;
      expect(outcome, length).toBeInstanceOf(BodyError);
      expect((outcome as BodyError).status, length).toBe(413);
    }
  });

  it('reads a declared length at the cap, leading zeros and all', async () => {
    const { port, read } = await bodyServer({ maxBytes: 5, timeoutMs: 60_000 });
    send(port, `${head('005')}hello`);
    const body = await read;
    expect(Buffer.from(body as Uint8Array).toString()).toBe('hello');
  });
});
