// Harness of the HTTP/1.1 client's fuzz and differential tests: a server on 127.0.0.1 that answers
// the n-th request of each connection with the n-th scripted raw response, written in pieces across
// separate writes; and one way to run requests through our fetch (node-fetch.ts) or through Node's
// own client (node:http, llhttp), reducing what each gives to a comparable verdict.
import type { IncomingMessage } from 'node:http';
import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createServer } from 'node:net';
import type { NodeFetch } from '../../src/transports/http/client/node-fetch.js';

/** What the server answers on every connection. */
export interface Script {
  /** The raw bytes answering the 1st, 2nd, … request of a connection. */
  readonly responses: readonly Buffer[];
  /** Where each response is cut into separate writes (positions modulo its length). */
  readonly cuts?: readonly number[];
  /** Whether the server ends the connection after the last scripted response. Default true. */
  readonly close?: boolean;
  /** Bytes written again and again after the last scripted response, until the client hangs up. */
  readonly endless?: Buffer;
}

export interface RawServer {
  readonly url: string;
  /** How many bytes the server wrote in all. */
  written(): number;
  close(): Promise<void>;
}

/** Starts a server answering every connection with `script`. */
export async function rawServer(script: Script): Promise<RawServer> {
  const sockets = new Set<Socket>();
  let written = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffered = Buffer.alloc(0);
    let answered = 0;
    let queue = Promise.resolve();
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffered.toString('latin1', 0, end);
        const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? '0');
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.subarray(end + 4 + length);
        const index = answered++;
        queue = queue.then(() =>
          answer(socket, script, index, (n) => {
            written += n;
          }),
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}/`,
    written: () => written,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}

async function answer(
  socket: Socket,
  script: Script,
  index: number,
  count: (bytes: number) => void,
): Promise<void> {
  const response = script.responses[index];
  if (response === undefined) return;
  for (const piece of pieces(response, script.cuts ?? [])) {
    if (socket.destroyed) return;
    socket.write(piece);
    count(piece.length);
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (index !== script.responses.length - 1) return;
  if (script.endless !== undefined) await endlessly(socket, script.endless, count);
  else if (script.close !== false) socket.end();
}

/** Writes `unit` until the socket closes, at the pace the peer reads. */
async function endlessly(
  socket: Socket,
  unit: Buffer,
  count: (bytes: number) => void,
): Promise<void> {
  while (!socket.destroyed && socket.writable) {
    count(unit.length);
    if (!socket.write(unit)) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          socket.off('drain', done);
          socket.off('close', done);
          resolve();
        };
        socket.on('drain', done);
        socket.on('close', done);
      });
    } else await new Promise((resolve) => setImmediate(resolve));
  }
}

/** `bytes` cut at `cuts` (positions modulo its length). */
export function pieces(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  if (bytes.length === 0) return [bytes];
  const at = [...new Set(cuts.map((c) => c % bytes.length))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let start = 0;
  for (const cut of at) {
    if (cut > start) out.push(bytes.subarray(start, cut));
    start = Math.max(start, cut);
  }
  out.push(bytes.subarray(start));
  return out;
}

/** What a client made of one response: accepted (status, headers, body bytes) or refused. */
export type Verdict =
  | { readonly ok: true; status: number; headers: Record<string, string>; body: string }
  | { readonly ok: false; error: string };

/** A request of a test: its method. */
export type Method = 'GET' | 'HEAD' | 'POST';

/** How long a request may take before the verdict is `hang`. */
export const SETTLE_MS = 3000;

/** Runs `methods` one after another through our fetch. The body is read as latin1. */
export async function viaNodeFetch(
  fetch: NodeFetch,
  url: string,
  methods: readonly Method[],
  settleMs = SETTLE_MS,
): Promise<Verdict[]> {
  const out: Verdict[] = [];
  for (const method of methods) {
    out.push(
      await bounded(settleMs, async () => {
        const response = await fetch(url, {
          method,
          ...(method === 'POST' ? { body: '{}' } : {}),
        });
        const body = Buffer.from(await response.arrayBuffer()).toString('latin1');
        const headers: Record<string, string> = {};
        response.headers.forEach((value, name) => {
          headers[name] = value;
        });
        return { ok: true, status: response.status, headers, body };
      }),
    );
  }
  return out;
}

/** Runs `methods` one after another through node:http over one keep-alive connection at most. */
export async function viaNodeHttp(
  url: string,
  methods: readonly Method[],
  maxHeaderSize: number,
): Promise<Verdict[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const out: Verdict[] = [];
  try {
    for (const method of methods) {
      out.push(await bounded(SETTLE_MS, () => nodeHttpOnce(agent, url, method, maxHeaderSize)));
    }
  } finally {
    agent.destroy();
  }
  return out;
}

function nodeHttpOnce(
  agent: Agent,
  url: string,
  method: Method,
  maxHeaderSize: number,
): Promise<Verdict> {
  return new Promise<Verdict>((resolve, reject) => {
    const body = method === 'POST' ? '{}' : undefined;
    const req = httpRequest(url, {
      agent,
      method,
      maxHeaderSize,
      headers: body === undefined ? {} : { 'content-length': String(body.length) },
    });
    req.on('error', reject);
    req.on('response', (res: IncomingMessage) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('error', () => undefined);
      res.on('close', () => {
        if (!res.complete) {
          reject(new Error('the response was cut short'));
          return;
        }
        resolve({
          ok: true,
          status: res.statusCode ?? 0,
          headers: merged(res.rawHeaders),
          body: Buffer.concat(parts).toString('latin1'),
        });
      });
    });
    req.end(body);
  });
}

/** Raw header pairs merged as a fetch merges them: lower-case names, repeats joined with ", ". */
function merged(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    const value = raw[i + 1] as string;
    out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`;
  }
  return out;
}

/** The verdict of `run`: its result, a refusal with its error, or `hang` past `limitMs`. */
async function bounded(limitMs: number, run: () => Promise<Verdict>): Promise<Verdict> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<Verdict>((resolve) => {
    timer = setTimeout(() => {
      resolve({ ok: false, error: 'hang' });
    }, limitMs);
  });
  try {
    return await Promise.race([
      run().catch((error: unknown): Verdict => ({ ok: false, error: describe(error) })),
      hang,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
}
