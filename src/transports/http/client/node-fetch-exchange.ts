// One request's response, parsed incrementally as its bytes arrive: the head (1xx heads skipped,
// at most maxHeaderBytes), then the body framed by content-length, chunked encoding or the end of
// the connection. A buffered body (at most maxBodyBytes, decoded) resolves as a BufferedResponse;
// text/event-stream resolves at once as a Response whose stream pauses the socket when full.
import { BufferedResponse, NO_BODY_STATUS } from './buffered-response.js';
import { MAX_CHUNK_LINE, chunkSize, decoded, isTrailerLine, parseHead } from './http1-syntax.js';
import type { Request1, Settings } from './node-fetch-request.js';
import { fetchFailed } from './node-fetch-request.js';

const CRLF2 = Buffer.from('\r\n\r\n');
const LF2 = Buffer.from('\n\n');
const EMPTY = Buffer.alloc(0);
type Phase = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'eof';

export type Outcome = 'more' | 'done' | 'pause';

/** One request's response, parsed as it arrives. */
export class Exchange {
  readonly #request: Request1;
  readonly #settings: Settings;
  readonly #reused: boolean;
  #resolve: ((response: Response) => void) | undefined;
  #reject: ((error: Error) => void) | undefined;
  #phase: Phase = 'head';
  #pending: Buffer = EMPTY;
  /** Where `#pending` grows: a buffer with room to spare, so a head sent byte by byte is linear. */
  #room: Buffer = EMPTY;
  /** How far `#pending` was searched already for the end of the head or line it holds. */
  #scanned = 0;
  #received = 0;
  /** Bytes of the head so far (1xx heads included), then of the trailers. */
  #headBytes = 0;
  #status = 0;
  #statusText = '';
  #headers = new Map<string, string>();
  #remaining = 0;
  #chunks: Buffer[] = [];
  #bodyBytes = 0;
  #stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  reusable = true;
  streaming = false;
  cleanup: (() => void) | undefined;
  /** Set by the connection: the reader of a stream wants more (the socket was paused). */
  onResume: (() => void) | undefined;
  /** Set by the connection: the reader cancelled the stream (the connection is dropped). */
  onCancel: (() => void) | undefined;

  constructor(
    { request, settings, reused }: { request: Request1; settings: Settings; reused: boolean },
    resolve: (response: Response) => void,
    reject: (error: Error) => void,
  ) {
    this.#request = request;
    this.#settings = settings;
    this.#reused = reused;
    this.#resolve = resolve;
    this.#reject = reject;
  }

  /** A reused connection that failed before any response byte. */
  get stale(): boolean {
    return this.#reused && this.#received === 0;
  }

  feed(chunk: Buffer): Outcome {
    this.#received += chunk.length;
    let data = this.#pending.length === 0 ? chunk : this.#append(chunk);
    this.#pending = EMPTY;
    while (data.length > 0) {
      switch (this.#phase) {
        case 'head': {
          const rest = this.#readHead(data);
          if (typeof rest === 'string') return rest;
          data = rest;
          continue;
        }
        case 'length': {
          const take = Math.min(this.#remaining, data.length);
          const out = this.#body(take === data.length ? data : data.subarray(0, take));
          this.#remaining -= take;
          data = data.subarray(take);
          if (this.#remaining === 0) return this.#complete(data);
          if (out === 'pause') return 'pause';
          continue;
        }
        case 'eof':
          return this.#body(data);
        case 'chunk-size': {
          const end = data.indexOf('\r\n', this.#scanned);
          this.#scanned = 0;
          if ((end < 0 ? data.length - 1 : end) > MAX_CHUNK_LINE) {
            throw new Error(`a chunk size line is longer than ${String(MAX_CHUNK_LINE)} bytes`);
          }
          if (end < 0) return this.#wait(data, 1);
          const size = chunkSize(data.toString('latin1', 0, end));
          data = data.subarray(end + 2);
          this.#remaining = size;
          this.#phase = size === 0 ? 'trailers' : 'chunk-data';
          this.#headBytes = 0;
          continue;
        }
        case 'chunk-data': {
          const take = Math.min(this.#remaining, data.length);
          const out = this.#body(take === data.length ? data : data.subarray(0, take));
          this.#remaining -= take;
          data = data.subarray(take);
          if (this.#remaining === 0) this.#phase = 'chunk-end';
          if (out === 'pause' && data.length === 0) return 'pause';
          continue;
        }
        case 'chunk-end': {
          if (data.length < 2) {
            this.#pending = data;
            return 'more';
          }
          if (data[0] !== 13 || data[1] !== 10) throw new Error('a chunk does not end with CRLF');
          data = data.subarray(2);
          this.#phase = 'chunk-size';
          continue;
        }
        case 'trailers': {
          const rest = this.#readTrailer(data);
          if (typeof rest === 'string') return rest;
          data = rest;
          continue;
        }
      }
    }
    return 'more';
  }

  /** Reads a head (a 1xx one, or the response's) from `data`: what follows it, or the outcome. */
  #readHead(data: Buffer): Buffer | Outcome {
    // Up to 3 bytes of a CRLFCRLF not yet whole: the cap holds however the bytes are split.
    const from = this.#scanned;
    this.#scanned = 0;
    const end = data.indexOf(CRLF2, from);
    if (this.#headBytes + (end < 0 ? data.length - 3 : end) > this.#settings.maxHeaderBytes) {
      throw new Error(
        `the response head is larger than ${String(this.#settings.maxHeaderBytes)} bytes`,
      );
    }
    if (end < 0) {
      if (data.includes(LF2, from))
        throw new Error('a line of the response head ends in a bare LF');
      return this.#wait(data, 3);
    }
    this.#headBytes += end + 4;
    const final = this.#head(data.toString('latin1', 0, end));
    const rest = data.subarray(end + 4);
    // After an informational (1xx) head, the next head follows.
    return final && this.#bodiless() ? this.#complete(rest) : rest;
  }

  /** Reads a trailer line from `data`: what follows it, or the outcome. */
  #readTrailer(data: Buffer): Buffer | Outcome {
    const end = data.indexOf('\r\n', this.#scanned);
    this.#scanned = 0;
    if (this.#headBytes + (end < 0 ? data.length - 1 : end) > this.#settings.maxHeaderBytes) {
      throw new Error(
        `the trailers are larger than ${String(this.#settings.maxHeaderBytes)} bytes`,
      );
    }
    if (end < 0) return this.#wait(data, 1);
    if (end === 0) return this.#complete(data.subarray(2));
    const line = data.toString('latin1', 0, end);
    if (!isTrailerLine(line))
      throw new Error(`an invalid trailer line ${JSON.stringify(line.slice(0, 80))}`);
    this.#headBytes += end + 2;
    return data.subarray(end + 2);
  }

  /** Keeps `data` for the next chunk; its last `overlap` bytes may begin what is searched for. */
  #wait(data: Buffer, overlap: number): Outcome {
    this.#pending = data;
    this.#scanned = Math.max(0, data.length - overlap);
    return 'more';
  }

  /** `#pending` and then `chunk`, in `#room` (grown by doubling when short). */
  #append(chunk: Buffer): Buffer {
    const pending = this.#pending;
    const length = pending.length + chunk.length;
    let at = pending.byteOffset - this.#room.byteOffset;
    if (pending.buffer !== this.#room.buffer || at + length > this.#room.length) {
      // Bytes before `at` may be views a buffered body holds: a new room, never a move.
      this.#room = Buffer.allocUnsafeSlow(Math.max(2 * length, 256));
      at = 0;
      pending.copy(this.#room);
    }
    chunk.copy(this.#room, at + pending.length);
    return this.#room.subarray(at, at + length);
  }

  /** Whether the head just parsed has no body to wait for. */
  #bodiless(): boolean {
    return this.#phase === 'length' && this.#remaining === 0;
  }

  /** The peer ended the stream. Returns whether the response completed with it. */
  endOfStream(): boolean {
    if (this.#phase !== 'eof') return false;
    try {
      this.#complete();
    } catch (error) {
      this.fail(fetchFailed(error)); // a body that does not decode
    }
    return true;
  }

  fail(error: Error): void {
    this.cleanup?.();
    if (this.#reject !== undefined) {
      const reject = this.#reject;
      this.#resolve = undefined;
      this.#reject = undefined;
      reject(error);
    } else if (this.#stream !== undefined) {
      this.#stream.error(error);
      this.#stream = undefined;
    }
  }

  /** Parses a response head; false for an informational (1xx) one, which another follows. */
  #head(text: string): boolean {
    const fields = this.#headers;
    const { http10, status, reason } = parseHead(text, fields);
    if (status < 200) {
      fields.clear(); // an informational head's fields are not the response's
      if (status === 101)
        throw new Error('the server switched protocols (101), which fetch does not do');
      return false;
    }
    this.#status = status;
    this.#statusText = reason;
    const connection = this.#headers.get('connection')?.toLowerCase() ?? '';
    if (connection.includes('close') || (http10 && !connection.includes('keep-alive'))) {
      this.reusable = false;
    }
    this.#frame();
    return true;
  }

  /** Chooses how the body is delimited, and whether it streams. */
  #frame(): void {
    const headers = this.#headers;
    const status = this.#status;
    if (this.#request.method === 'HEAD' || NO_BODY_STATUS.has(status)) {
      this.#phase = 'length';
      this.#remaining = 0;
      return;
    }
    const encoding = headers.get('transfer-encoding');
    const length = headers.get('content-length');
    if (encoding !== undefined && length !== undefined) {
      throw new Error('both transfer-encoding and content-length (RFC 9112 §6.3: an error)');
    }
    if (encoding !== undefined) {
      if (!/(?:^|,)\s*chunked\s*$/i.test(encoding)) {
        throw new Error(`an unsupported transfer-encoding ${JSON.stringify(encoding)}`);
      }
      this.#phase = 'chunk-size';
    } else if (length !== undefined) {
      if (!isDigits(length) || !Number.isSafeInteger(Number(length))) {
        throw new Error(`an invalid content-length ${JSON.stringify(length)}`);
      }
      this.#phase = 'length';
      this.#remaining = Number(length);
    } else {
      this.#phase = 'eof';
      this.reusable = false;
    }
    const type = headers.get('content-type') ?? '';
    const semicolon = type.indexOf(';'); // not split: a runtime call, thousands of instructions
    const mediaType = (semicolon < 0 ? type : type.slice(0, semicolon)).trim().toLowerCase();
    if (mediaType === 'text/event-stream' && status >= 200 && status <= 599) this.#startStream();
  }

  #startStream(): void {
    this.streaming = true;
    const encoding = this.#headers.get('content-encoding');
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
      throw new Error(`a compressed event stream (${encoding}) is not supported`);
    }
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>(
      {
        start: (c) => {
          controller = c;
        },
        pull: () => {
          this.onResume?.();
        },
        cancel: () => {
          this.#stream = undefined;
          this.reusable = false;
          this.onCancel?.();
        },
      },
      { highWaterMark: 16 },
    );
    this.#stream = controller;
    const response = new Response(body, {
      status: this.#status,
      statusText: this.#statusText,
      headers: [...this.#headers],
    });
    this.#settle(response);
  }

  #body(data: Buffer): Outcome {
    if (data.length === 0) return 'more';
    if (this.#stream !== undefined) {
      this.#stream.enqueue(new Uint8Array(data));
      return (this.#stream.desiredSize ?? 1) <= 0 ? 'pause' : 'more';
    }
    if (this.streaming) return 'more'; // cancelled: drop
    this.#bodyBytes += data.length;
    if (this.#bodyBytes > this.#settings.maxBodyBytes) {
      throw new Error(
        `the response body is larger than ${String(this.#settings.maxBodyBytes)} bytes`,
      );
    }
    this.#chunks.push(data);
    return 'more';
  }

  /** The response ended; `rest` is what followed it (unasked bytes: the connection is not reused). */
  #complete(rest: Buffer = EMPTY): Outcome {
    if (rest.length > 0) this.reusable = false;
    this.#phase = 'head';
    if (this.#stream !== undefined) {
      this.#stream.close();
      this.#stream = undefined;
    } else if (!this.streaming) {
      const chunks = this.#chunks;
      let bytes =
        chunks.length === 0
          ? EMPTY
          : chunks.length === 1
            ? (chunks[0] as Buffer)
            : Buffer.concat(chunks);
      bytes = decoded(bytes, this.#headers.get('content-encoding'), this.#settings.maxBodyBytes);
      const response = new BufferedResponse({
        status: this.#status,
        statusText: this.#statusText,
        raw: this.#headers,
        bytes,
      });
      this.#settle(response as unknown as Response);
    }
    this.cleanup?.();
    return 'done';
  }

  #settle(response: Response): void {
    const resolve = this.#resolve;
    this.#resolve = undefined;
    this.#reject = undefined;
    resolve?.(response);
  }
}

/** Whether `text` is one or more ASCII digits. */
function isDigits(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}
