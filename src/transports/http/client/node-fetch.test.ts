import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo, Server as NetServer, Socket } from 'node:net';
import { createServer as createNetServer } from 'node:net';
import { deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { LazySignal } from '../../../internal/abort.js';
import { FETCH_CANCELLATION } from './http.js';
import type { NodeFetch } from './node-fetch.js';
import { createNodeFetch } from './node-fetch.js';

const servers: (Server | NetServer)[] = [];
const fetches: NodeFetch[] = [];

afterEach(async () => {
  for (const f of fetches.splice(0)) f.close();
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          if ('closeAllConnections' in s) s.closeAllConnections();
          s.close(() => {
            resolve();
          });
        }),
    ),
  );
});

function fetcher(options?: Parameters<typeof createNodeFetch>[0]): NodeFetch {
  const f = createNodeFetch(options);
  fetches.push(f);
  return f;
}

async function httpServer(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      handler(req, res, body);
    });
  });
  server.on('connection', () => connections++);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${String(port)}/mcp?x=1`, connections: () => connections };
}

/** Resolves once `done()` holds (checked every few milliseconds). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** A server that answers every request with the raw bytes `reply(requestHead)` gives. */
async function rawServer(reply: (head: string, socket: Socket) => void): Promise<string> {
  const server = createNetServer((socket) => {
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffered.slice(0, end);
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? '0');
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.slice(end + 4 + length);
        reply(head, socket);
      }
    });
    socket.on('error', () => undefined);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/`;
}

describe('createNodeFetch', () => {
  it('sends method, path, headers and body, and reads a JSON reply', async () => {
    let seen: {
      method?: string | undefined;
      url?: string | undefined;
      headers?: IncomingMessage['headers'];
      body?: string;
    } = {};
    const { url } = await httpServer((req, res, body) => {
      seen = { method: req.method, url: req.url, headers: req.headers, body };
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'abc' });
      res.end('{"ok":true}');
    });
    const response = await fetcher()(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Mcp-Method': 'tools/call' },
      body: '{"a":"é"}',
    });
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.headers.get('Mcp-Session-Id')).toBe('abc');
    expect(await response.json()).toEqual({ ok: true });
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/mcp?x=1');
    expect(seen.headers?.['mcp-method']).toBe('tools/call');
    expect(seen.headers?.['content-length']).toBe(String(Buffer.byteLength('{"a":"é"}')));
    expect(seen.body).toBe('{"a":"é"}');
  });

  it('keeps one connection alive across sequential requests', async () => {
    const server = await httpServer((_req, res) => res.end('x'));
    const f = fetcher();
    for (let i = 0; i < 5; i++) expect(await (await f(server.url)).text()).toBe('x');
    expect(server.connections()).toBe(1);
  });

  it('closes a connection left idle for idleTimeoutMs, and not one in use', async () => {
    let closed = 0;
    const server = await httpServer((req, res) => {
      req.socket.once('close', () => closed++);
      if (req.url?.endsWith('slow') === true) setTimeout(() => res.end('slow'), 120);
      else res.end('ok');
    });
    const f = fetcher({ idleTimeoutMs: 40 });
    expect(await (await f(server.url)).text()).toBe('ok');
    await until(() => closed === 1);
    // Busy for three idle timeouts: kept, then closed once idle.
    expect(await (await f(`${server.url}&slow`)).text()).toBe('slow');
    expect(closed).toBe(1);
    await until(() => closed === 2);
    expect(server.connections()).toBe(2);
  });

  it('opens at most maxSockets connections and queues the rest', async () => {
    const held: ServerResponse[] = [];
    const server = await httpServer((_req, res) => {
      held.push(res);
      if (held.length === 2) for (const r of held.splice(0)) r.end('done');
    });
    const f = fetcher({ maxSockets: 2 });
    const replies = await Promise.all([1, 2, 3, 4].map(() => f(server.url).then((r) => r.text())));
    expect(replies).toEqual(['done', 'done', 'done', 'done']);
    expect(server.connections()).toBe(2);
  });

  it('reads chunked bodies, bodies ended by close, and no body for 204', async () => {
    const server = await httpServer((req, res) => {
      if (req.url === '/chunked') {
        res.write('hel');
        setImmediate(() => res.end('lo'));
      } else res.writeHead(204).end();
    });
    const base = server.url.replace('/mcp?x=1', '');
    const f = fetcher();
    expect(await (await f(`${base}/chunked`)).text()).toBe('hello');
    const empty = await f(`${base}/none`);
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe('');
    const raw = await rawServer((_head, socket) => {
      socket.end('HTTP/1.0 200 OK\r\ncontent-type: text/plain\r\n\r\nuntil close');
    });
    expect(await (await f(raw)).text()).toBe('until close');
  });

  it('skips an informational response and decodes a gzip body', async () => {
    const raw = await rawServer((_head, socket) => {
      const body = gzipSync('{"zipped":1}');
      socket.write('HTTP/1.1 100 Continue\r\n\r\n');
      socket.write(
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\ncontent-length: ${String(body.length)}\r\n\r\n`,
      );
      socket.write(body);
    });
    expect(await (await fetcher()(raw)).json()).toEqual({ zipped: 1 });
  });

  it('streams text/event-stream as it arrives, and cancelling closes the connection', async () => {
    let closed = false;
    const server = await httpServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      req.socket.on('close', () => (closed = true));
    });
    const response = await fetcher()(server.url);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: one\n\n');
    await reader.cancel();
    await expect.poll(() => closed).toBe(true);
  });

  it('rejects with the abort reason, before and during a request', async () => {
    const server = await httpServer(() => undefined); // never answers
    const f = fetcher();
    const early = new AbortController();
    early.abort(new Error('early'));
    await expect(f(server.url, { signal: early.signal })).rejects.toThrow('early');
    const late = new AbortController();
    const pending = f(server.url, { signal: late.signal });
    setImmediate(() => {
      late.abort(new Error('late'));
    });
    await expect(pending).rejects.toThrow('late');
  });

  it('takes a cancellation that is not a signal (FETCH_CANCELLATION): before, queued and during a request', async () => {
    const held: ServerResponse[] = [];
    const server = await httpServer((_req, res) => {
      held.push(res);
    });
    const f = fetcher({ maxSockets: 1 });
    expect(f[FETCH_CANCELLATION]).toBe(true);
    const cancelled = (): LazySignal => new LazySignal(() => []);
    const early = cancelled();
    early.abort(new Error('early'));
    await expect(f(server.url, { [FETCH_CANCELLATION]: early } as RequestInit)).rejects.toThrow(
      'early',
    );
    const during = cancelled();
    const queued = cancelled();
    const first = f(server.url, { [FETCH_CANCELLATION]: during } as RequestInit);
    const second = f(server.url, { [FETCH_CANCELLATION]: queued } as RequestInit);
    await until(() => held.length === 1);
    queued.abort('gone'); // not an Error: an AbortError
    await expect(second).rejects.toThrow('This operation was aborted');
    during.abort(new Error('late'));
    await expect(first).rejects.toThrow('late');
    // A cancellation left unused after its response is not followed any more.
    const kept = cancelled();
    const third = f(server.url, { [FETCH_CANCELLATION]: kept } as RequestInit);
    await until(() => held.length === 2);
    held[1]?.end('ok');
    expect(await (await third).text()).toBe('ok');
    kept.abort(new Error('after'));
    const fourth = f(server.url);
    await until(() => held.length === 3);
    held[2]?.end('again');
    expect(await (await fourth).text()).toBe('again');
    expect(server.connections()).toBe(2); // the first was dropped by its cancellation
  });

  it('keeps the connection of a request cancelled before it was sent, and leaves no listener behind', async () => {
    const server = await httpServer((_req, res) => {
      res.end('ok');
    });
    const f = fetcher({ maxSockets: 1 });
    // A cancellation that counts its listeners.
    let listening = 0;
    const counted = {
      aborted: false,
      reason: undefined as unknown,
      follow(): () => void {
        listening++;
        let on = true;
        return () => {
          if (on) listening--;
          on = false;
        };
      },
    };
    const init = { [FETCH_CANCELLATION]: counted } as RequestInit;
    expect(await (await f(server.url, init)).text()).toBe('ok'); // answered
    expect(listening).toBe(0);
    // Found aborted once a connection is at hand (it aborted after the fetch began, before its
    // request was written): rejected with the reason, and the connection serves the next one.
    let reads = 0;
    const soon = {
      get aborted(): boolean {
        return ++reads > 1; // not yet when the fetch begins
      },
      reason: new Error('soon'),
      follow: () => () => undefined,
    };
    await expect(f(server.url, { [FETCH_CANCELLATION]: soon } as RequestInit)).rejects.toThrow(
      'soon',
    );
    expect(await (await f(server.url, init)).text()).toBe('ok');
    expect(server.connections()).toBe(1);
    expect(listening).toBe(0);
    // Failed (the server dropped the connection): no listener left either.
    const gone = await httpServer((req) => {
      req.socket.destroy();
    });
    await expect(f(gone.url, init)).rejects.toThrow('fetch failed');
    expect(listening).toBe(0);
  });

  it('errors a stream when aborted mid-way', async () => {
    const server = await httpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': open\n\n');
    });
    const controller = new AbortController();
    const response = await fetcher()(server.url, { signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort(new Error('stop'));
    await expect(reader.read()).rejects.toThrow('stop');
  });

  it('fails like fetch on a refused connection, a reset, and a malformed reply', async () => {
    const f = fetcher();
    const refused = createNetServer();
    await new Promise<void>((resolve) => refused.listen(0, '127.0.0.1', resolve));
    const port = (refused.address() as AddressInfo).port;
    await new Promise<void>((resolve) =>
      refused.close(() => {
        resolve();
      }),
    );
    await expect(f(`http://127.0.0.1:${String(port)}/`)).rejects.toThrow(TypeError);
    const reset = await rawServer((_head, socket) => socket.destroy());
    await expect(f(reset)).rejects.toThrow('fetch failed');
    const garbage = await rawServer((_head, socket) => socket.end('SMTP ready\r\n\r\n'));
    const error = await f(garbage).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(String((error as TypeError).cause)).toMatch(/not an HTTP\/1\.x response/);
    const cut = await rawServer((_head, socket) =>
      socket.end('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc'),
    );
    await expect(f(cut)).rejects.toThrow('fetch failed');
  });

  it('refuses header injection, bad URLs and bodies it cannot send', async () => {
    const f = fetcher();
    await expect(f('http://127.0.0.1:1/', { headers: { 'x-a': 'b\r\nevil: 1' } })).rejects.toThrow(
      /CR, LF or NUL/,
    );
    await expect(f('http://127.0.0.1:1/', { headers: { 'bad name': 'x' } })).rejects.toThrow(
      /invalid header name/,
    );
    await expect(f('ftp://127.0.0.1/')).rejects.toThrow(/unsupported protocol/);
    await expect(f('not a url')).rejects.toThrow(/invalid URL/);
    await expect(
      f('http://127.0.0.1:1/', { method: 'POST', body: new Blob(['x']) }),
    ).rejects.toThrow(/string, bytes or URLSearchParams/);
    expect(() => createNodeFetch({ maxSockets: 0 })).toThrow(RangeError);
  });

  it('caps the response head and a buffered body', async () => {
    const f = fetcher({ maxHeaderBytes: 1024, maxBodyBytes: 10 });
    const big = await rawServer((_head, socket) =>
      socket.end(`HTTP/1.1 200 OK\r\nx-big: ${'a'.repeat(4000)}\r\n\r\n`),
    );
    await expect(f(big)).rejects.toThrow('fetch failed');
    const long = await rawServer((_head, socket) =>
      socket.end('HTTP/1.1 200 OK\r\ncontent-length: 20\r\n\r\n01234567890123456789'),
    );
    await expect(f(long)).rejects.toThrow('fetch failed');
  });

  it('rejects a compressed body ended by close that does not decode, without an uncaught throw', async () => {
    // The decoding ran in the socket's 'end' listener, where its throw crashed the process.
    const uncaught: unknown[] = [];
    const record = (error: unknown): number => uncaught.push(error);
    process.on('uncaughtException', record);
    try {
      const raw = await rawServer((_head, socket) =>
        socket.end('HTTP/1.1 200 OK\r\ncontent-encoding: gzip\r\n\r\nnot gzip at all'),
      );
      const error = await fetcher()(raw).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect(String((error as TypeError).cause)).toMatch(/incorrect header check/);
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', record);
    }
  });

  it('caps a compressed body at maxBodyBytes once decoded', async () => {
    const zipped = [gzipSync(Buffer.alloc(100_000)), deflateSync(Buffer.alloc(100_000))];
    const raw = await rawServer((head, socket) => {
      const deflate = head.startsWith('GET /deflate');
      const body = zipped[deflate ? 1 : 0] as Buffer;
      const coding = deflate ? 'deflate' : 'gzip';
      socket.write(
        `HTTP/1.1 200 OK\r\ncontent-encoding: ${coding}\r\ncontent-length: ${String(body.length)}\r\n\r\n`,
      );
      socket.write(body);
    });
    const f = fetcher({ maxBodyBytes: 10_000 });
    for (const path of ['gzip', 'deflate']) {
      const error = await f(`${raw}${path}`).catch((e: unknown) => e);
      expect(String((error as TypeError).cause)).toMatch(
        /decoded response body is larger than 10000/,
      );
    }
    expect(await (await fetcher({ maxBodyBytes: 100_000 })(raw)).arrayBuffer()).toHaveProperty(
      'byteLength',
      100_000,
    );
  });

  it('refuses a field name that is not a token, which a Response cannot carry', async () => {
    // Accepted before, its `body` and `clone()` then threw a TypeError from the Headers of a Response.
    const raw = await rawServer((_head, socket) =>
      socket.write('HTTP/1.1 200 OK\r\nx bad: 1\r\ncontent-length: 2\r\n\r\nhi'),
    );
    const error = await fetcher()(raw).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(String((error as TypeError).cause)).toMatch(/invalid response header line "x bad: 1"/);
  });

  it('refuses both transfer-encoding and content-length, and unfolds an obs-fold', async () => {
    const raw = await rawServer((head, socket) =>
      socket.write(
        head.startsWith('GET /both')
          ? 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\ncontent-length: 3\r\n\r\n2\r\nhi\r\n0\r\n\r\n'
          : 'HTTP/1.1 200 OK\r\nx-a: one\r\n x-b: two\r\ncontent-length: 2\r\n\r\nhi',
      ),
    );
    const f = fetcher();
    await expect(f(`${raw}both`)).rejects.toThrow('fetch failed');
    const folded = await f(`${raw}folded`);
    expect(folded.headers.get('x-a')).toBe('one x-b: two');
    expect(folded.headers.has('x-b')).toBe(false);
  });

  it('reads a head sent a byte at a time with work linear in its size', async () => {
    // Each byte used to copy and search all the bytes before it: 120 KB read a byte at a time
    // touched some 10^10 bytes. Counted, not timed: the bytes that Buffer searches, copies and
    // decodes touch while the response is read (whatever else runs in this process counts too).
    const size = 120_000;
    const url = await rawServer((_head, socket) => {
      socket.setNoDelay(true);
      void (async () => {
        socket.write('HTTP/1.1 200 OK\r\n');
        for (let i = 0; i < size && !socket.destroyed; i++) {
          socket.write('x');
          await new Promise((resolve) => setImmediate(resolve));
        }
        socket.end(': 1\r\ncontent-length: 0\r\n\r\n');
      })();
    });
    const f = fetcher({ maxHeaderBytes: 131_072 });
    const work = await bytesTouched(async () => {
      expect((await f(url)).status).toBe(200);
    });
    // A linear reader touches each byte a few times (searched for the blank line with up to 3
    // bytes before it again, copied once or twice, decoded once), however the bytes are split;
    // the head decoded once at least shows that the count sees the reader's work.
    expect(work).toBeGreaterThan(size);
    expect(work).toBeLessThan(32 * size);
  });

  it('sends URLSearchParams as a form, and a fresh connection after the server closed one', async () => {
    const seen: string[] = [];
    const server = await httpServer((req, res, body) => {
      seen.push(`${String(req.headers['content-type'])} ${body}`);
      res.setHeader('connection', 'close');
      res.end('ok');
    });
    const f = fetcher();
    await (await f(server.url, { method: 'POST', body: new URLSearchParams({ a: '1 2' }) })).text();
    await (await f(server.url)).text();
    expect(seen[0]).toBe('application/x-www-form-urlencoded;charset=UTF-8 a=1+2');
    expect(server.connections()).toBe(2);
  });
});

/**
 * Runs `run` and returns how many bytes Buffer's searches (indexOf and lastIndexOf; includes
 * calls indexOf), copies (copy, set, Buffer.concat) and decodings (toString) touched meanwhile.
 */
async function bytesTouched(run: () => Promise<void>): Promise<number> {
  let touched = 0;
  const restores: (() => void)[] = [];
  const count = (
    owner: object,
    name: string,
    bytes: (self: Buffer, args: unknown[], result: unknown) => number,
  ): void => {
    const descriptor = Object.getOwnPropertyDescriptor(owner, name);
    const original = Reflect.get(owner, name) as (...args: unknown[]) => unknown;
    Object.defineProperty(owner, name, {
      configurable: true,
      writable: true,
      value: function (this: Buffer, ...args: unknown[]): unknown {
        const result = original.apply(this, args);
        touched += bytes(this, args, result);
        return result;
      },
    });
    restores.push(() => {
      if (descriptor === undefined) Reflect.deleteProperty(owner, name);
      else Object.defineProperty(owner, name, descriptor);
    });
  };
  const at = (value: unknown, length: number, fallback: number): number =>
    typeof value !== 'number' ? fallback : value < 0 ? Math.max(0, length + value) : value;
  const needle = (value: unknown): number =>
    typeof value === 'number'
      ? 1
      : typeof value === 'string'
        ? Buffer.byteLength(value)
        : (value as Uint8Array).length;
  const proto = Buffer.prototype;
  count(proto, 'indexOf', (self, [value, from], found) => {
    const end = (found as number) < 0 ? self.length : (found as number) + needle(value);
    return Math.max(0, end - at(from, self.length, 0));
  });
  count(proto, 'lastIndexOf', (self, [, from], found) =>
    Math.max(0, Math.min(at(from, self.length, self.length), self.length) - (found as number)),
  );
  count(proto, 'copy', (_self, _args, copied) => copied as number);
  count(proto, 'set', (_self, [source]) => (source as ArrayLike<number>).length);
  count(proto, 'toString', (self, [, start, end]) =>
    Math.max(
      0,
      Math.min(at(end, self.length, self.length), self.length) - at(start, self.length, 0),
    ),
  );
  count(Buffer, 'concat', (_self, _args, joined) => (joined as Buffer).length);
  try {
    await run();
  } finally {
    for (const restore of restores.reverse()) restore();
  }
  return touched;
}
