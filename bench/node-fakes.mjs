// Stand-ins for node:http's IncomingMessage and ServerResponse, for driving a node-face handler
// in process (no sockets), and the raw ceiling they are measured against: bench/inprocess.mjs
// and bench/alloc-probe.mjs.
import { EventEmitter } from 'node:events';

/* global queueMicrotask */

/**
 * A stand-in IncomingMessage: the body arrives once the reader listens for 'end' or 'close' (the
 * node face listens for 'close'), then 'end' and 'close' follow, as node:http emits them.
 */
export class FakeRequest extends EventEmitter {
  constructor(headers, body) {
    super();
    this.method = 'POST';
    this.url = '/mcp';
    this.headers = { host: '127.0.0.1', 'content-length': String(body.length), ...headers };
    this.body = body;
    this.readableEnded = false;
    this.sent = false;
  }

  on(name, listener) {
    super.on(name, listener);
    if ((name === 'end' || name === 'close') && !this.sent) {
      this.sent = true;
      queueMicrotask(() => {
        this.emit('data', this.body);
        this.readableEnded = true;
        this.emit('end');
        this.emit('close');
      });
    }
    return this;
  }

  pause() {
    return this;
  }
}

/**
 * A stand-in ServerResponse that resolves with `{ status, headers, body }` once `end` is called.
 * The headers given to `writeHead` are copied into `headers` only when that object is passed.
 */
export function fakeResponse(resolve, headers) {
  return {
    headersSent: false,
    destroyed: false,
    writableFinished: false,
    statusCode: 0,
    writeHead(status, given) {
      this.statusCode = status;
      this.headersSent = true;
      if (headers === undefined || given === undefined) return this;
      // As node:http takes them: an object, or a flat list of names and values.
      if (!Array.isArray(given)) Object.assign(headers, given);
      else for (let i = 0; i < given.length; i += 2) headers[given[i]] = given[i + 1];
      return this;
    },
    write() {
      return true;
    },
    flushHeaders() {},
    end(body) {
      this.writableFinished = true;
      resolve({ status: this.statusCode, headers, body: body === undefined ? '' : String(body) });
    },
    once() {
      return this;
    },
    on() {
      return this;
    },
    off() {
      return this;
    },
    destroy() {},
  };
}

const MODERN_TAIL =
  ',"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"raw","version":"1.0.0"}}}';

/** The ceiling of the node face, as bench/servers/raw-http.mjs does it. */
export function rawNode(req, res) {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const message = JSON.parse(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    const text = JSON.stringify(String(message.params.arguments.message));
    // A 2026-07-28 request gets what that revision's result needs, as in servers/raw-http.mjs.
    const modern = message.params._meta?.['io.modelcontextprotocol/protocolVersion'];
    const tail = modern === undefined ? '}' : MODERN_TAIL;
    const body = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"content":[{"type":"text","text":${text}}]${tail}}`;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
}
