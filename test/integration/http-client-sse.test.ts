// The HTTP+SSE client transport of 2024-11-05, and the Streamable HTTP client's fallback to it,
// against a fake old-style server on node:http: GET /sse streams `endpoint` then `message`
// events; POST /messages?sessionId=… answers 202 and replies on the stream.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Connection } from '../../src/jsonrpc/connection.js';
import { JsonRpcError, LocalError } from '../../src/jsonrpc/errors.js';
import type { Message } from '../../src/jsonrpc/message.js';
import { createStreamableHttpClientTransport } from '../../src/transports/http/client/transport.js';
import { HttpErrorCode } from '../../src/transports/http/client/http.js';
import { createSseClientTransport } from '../../src/transports/http/client/legacy-sse.js';
import { encodeSseEvent } from '../../src/transports/http/sse.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  json: any;
}

interface OldServer {
  url: string;
  seen: Seen[];
  /** The open SSE stream, once a client has connected. */
  stream(): ServerResponse | undefined;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface OldServerOptions {
  /** The `endpoint` event's data (null: none is sent). Default `/messages?sessionId=abc`. */
  endpoint?: string | null;
  /** Answers a POSTed request; default echoes its method. */
  answer?: (message: any) => Message | undefined;
  /** Status for POSTs to the message endpoint. Default 202. */
  postStatus?: number;
}

/** A server of the 2024-11-05 HTTP+SSE transport, which refuses POSTs to its SSE URL. */
async function oldServer(options: OldServerOptions = {}): Promise<OldServer> {
  const seen: Seen[] = [];
  let stream: ServerResponse | undefined;
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const json = body === '' ? undefined : JSON.parse(body);
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, json });
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/sse' && req.method === 'GET') {
        res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8' });
        const endpoint =
          options.endpoint === undefined ? '/messages?sessionId=abc' : options.endpoint;
        if (endpoint === null) res.flushHeaders();
        else res.write(encodeSseEvent({ event: 'endpoint', data: endpoint }));
        stream = res;
        return;
      }
      if (path === '/messages' && req.method === 'POST') {
        res.writeHead(options.postStatus ?? 202);
        res.end('Accepted');
        if ((options.postStatus ?? 202) !== 202) return;
        const answer =
          options.answer?.(json) ??
          (json.id === undefined
            ? undefined
            : { jsonrpc: '2.0', id: json.id, result: { method: json.method } });
        if (answer !== undefined)
          stream?.write(encodeSseEvent({ event: 'message', data: JSON.stringify(answer) }));
        return;
      }
      res.writeHead(path === '/sse' ? 405 : 404);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  });
  return { url: `http://127.0.0.1:${port}/sse`, seen, stream: () => stream };
}

describe('HTTP+SSE client transport', () => {
  it('waits for the endpoint, POSTs there, and reads replies from the stream', async () => {
    const server = await oldServer();
    const transport = createSseClientTransport(server.url, { headers: { 'X-Key': 'k' } });
    const connection = new Connection(transport);
    cleanups.push(() => connection.close());
    await connection.start();
    expect(transport.endpoint?.href).toBe(server.url.replace('/sse', '/messages?sessionId=abc'));
    await expect(connection.request('tools/list')).resolves.toEqual({ method: 'tools/list' });
    const post = server.seen.find((s) => s.method === 'POST');
    expect(post?.url).toBe('/messages?sessionId=abc');
    expect(post?.headers['content-type']).toBe('application/json');
    expect(server.seen.map((s) => s.headers['x-key'])).toEqual(['k', 'k']);
    expect(server.seen[0]?.headers['accept']).toBe('text/event-stream');
  });

  it('refuses an endpoint on another origin', async () => {
    const server = await oldServer({ endpoint: 'http://evil.example/messages' });
    const transport = createSseClientTransport(server.url);
    cleanups.push(() => transport.close());
    const failure = await transport
      .start({ message: () => undefined, closed: () => undefined })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(LocalError);
    expect((failure as Error).message).toMatch(/not on the origin/);
  });

  it('gives up on a stream that never names its endpoint', async () => {
    const server = await oldServer({ endpoint: null });
    const transport = createSseClientTransport(server.url, { connectTimeoutMs: 30 });
    cleanups.push(() => transport.close());
    const closes: unknown[] = [];
    const failure = await transport
      .start({ message: () => undefined, closed: (e) => closes.push(e) })
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'REQUEST_TIMEOUT' });
    await transport.close();
    expect(closes).toEqual([]); // a failed start reports no close
  });

  it('closes with an error when the server ends the stream', async () => {
    const server = await oldServer();
    const closes: (Error | undefined)[] = [];
    const transport = createSseClientTransport(server.url);
    cleanups.push(() => transport.close());
    await transport.start({ message: () => undefined, closed: (e) => closes.push(e) });
    server.stream()?.end();
    for (let i = 0; i < 100 && closes.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(closes).toHaveLength(1);
    expect(closes[0]).toMatchObject({ code: 'CONNECTION_CLOSED' });
    await transport.close();
    expect(closes).toHaveLength(1);
  });

  it('fails a request whose POST is refused', async () => {
    const server = await oldServer({ postStatus: 400 });
    const transport = createSseClientTransport(server.url);
    const connection = new Connection(transport);
    cleanups.push(() => connection.close());
    await connection.start();
    const error = await connection.request('tools/list').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({
      code: HttpErrorCode.HttpStatus,
      data: { status: 400, body: 'Accepted' },
    });
  });
});

describe('Streamable HTTP client falling back to HTTP+SSE', () => {
  it('uses HTTP+SSE when the first initialize is refused with 405', async () => {
    const server = await oldServer();
    const notes: unknown[] = [];
    const transport = createStreamableHttpClientTransport(server.url, {
      headers: { Authorization: 'Bearer z' },
    });
    const connection = new Connection(transport, { onNotification: (n) => notes.push(n) });
    cleanups.push(() => connection.close());
    await connection.start();
    const init = await connection.request('initialize', {
      protocolVersion: '2024-11-05',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    });
    expect(init).toEqual({ method: 'initialize' });
    expect(transport.mode).toBe('sse');
    await connection.notify('notifications/initialized');
    await expect(connection.request('tools/list')).resolves.toEqual({ method: 'tools/list' });
    server.stream()?.write(
      encodeSseEvent({
        event: 'message',
        data: '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}',
      }),
    );
    for (let i = 0; i < 100 && notes.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(notes).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
    expect(server.seen.map((s) => `${s.method} ${s.url} ${s.json?.method ?? ''}`.trim())).toEqual([
      'POST /sse initialize',
      'GET /sse',
      'POST /messages?sessionId=abc initialize',
      'POST /messages?sessionId=abc notifications/initialized',
      'POST /messages?sessionId=abc tools/list',
    ]);
    expect(server.seen.every((s) => s.headers['authorization'] === 'Bearer z')).toBe(true);
  });

  it('does not fall back when told not to', async () => {
    const server = await oldServer();
    const transport = createStreamableHttpClientTransport(server.url, { legacySseFallback: false });
    const connection = new Connection(transport);
    cleanups.push(() => connection.close());
    await connection.start();
    const error = await connection.request('initialize', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: HttpErrorCode.HttpStatus,
      message: 'HTTP 405 Method Not Allowed',
    });
    expect(server.seen.map((s) => s.method)).toEqual(['POST']);
  });

  it('reports the original refusal when the fallback finds no SSE stream', async () => {
    const server = await oldServer();
    const url = server.url.replace('/sse', '/nowhere');
    const transport = createStreamableHttpClientTransport(url);
    const connection = new Connection(transport);
    cleanups.push(() => connection.close());
    await connection.start();
    const error = await connection.request('initialize', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: HttpErrorCode.HttpStatus,
      message: 'HTTP 404 Not Found',
      data: { status: 404, fallback: 'cannot open the SSE stream: HTTP 404 Not Found' },
    });
    expect(transport.mode).toBe('streamable');
  });
});
