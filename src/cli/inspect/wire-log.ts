// The inspector's wire log: every JSON-RPC message a session sends or receives (a Transport
// wrapper, the idea of --trace in ../trace.ts) and every HTTP exchange under it (a fetch wrapper
// given to the Streamable HTTP transport), numbered, timed and bounded. Secrets in HTTP headers
// are masked before they are stored.
import type { Message, Transport } from '../../jsonrpc/index.js';
import type { FetchLike } from '../../transports/http/index.js';
import { MetaKey } from '../../protocol/index.js';
import type { TracedTransport } from '../trace.js';
import { observeTransport } from '../trace.js';
import { messageOf } from '../../internal/message-of.js';

/** Client to server (`>>`) or server to client (`<<`), as in the golden transcripts. */
export type Direction = '>>' | '<<';

/** What an HTTP entry shows. */
export interface HttpView {
  method?: string;
  url?: string;
  status?: number;
  /** The headers that matter (content type, MCP headers, auth challenges); secrets masked. */
  headers: Record<string, string>;
  durationMs?: number;
  /** One event of an SSE response, as it arrived. */
  sse?: { id?: string; event?: string; retry?: number };
  /** Why the request got no response (the server could not be reached, or it was aborted). */
  error?: string;
}

/** One entry of the log. */
export type WireEntry = NewEntry & { seq: number; time: number };

/** An entry before it is numbered and timed. */
export type NewEntry =
  | {
      dir: Direction;
      kind: 'jsonrpc';
      message: object;
      method?: string;
      id?: string | number;
      revision?: string;
      /**
       * `app`: a message between the page and an MCP App's view (`>>` view to host, `<<` host to
       * view), not of the MCP connection; `view` names the view.
       */
      channel?: 'app';
      view?: string;
    }
  | { dir: Direction; kind: 'http'; http: HttpView };

/** How many entries the log keeps (the newest). */
export const WIRE_LOG_LIMIT = 2000;

/** How many bytes (of entries as JSON) the log keeps at most: big results count by size. */
export const WIRE_LOG_BYTES: number = 64 * 1024 * 1024;

/** The shown value of a secret header. */
export const MASK = '•••';

/** Whether a header (any case) carries a secret: Authorization, Cookie, or a token or key. */
export function isSecretHeader(name: string): boolean {
  return /^(?:authorization|proxy-authorization|cookie|set-cookie)$|token|key|secret|password/i.test(
    name,
  );
}

/** `headers` with the values of secret ones replaced by {@link MASK}. */
export function maskHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, isSecretHeader(name) ? MASK : value]),
  );
}

/** The header names an HTTP entry shows (lower case), besides secret ones (masked). */
const SHOWN_HEADERS = new Set([
  'content-type',
  'mcp-session-id',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'last-event-id',
  'www-authenticate',
  'retry-after',
]);

/** The headers an entry shows: the ones that matter, `mcp-param-*`, and secrets masked. */
export function shownHeaders(headers: Headers): Record<string, string> {
  const shown: Record<string, string> = {};
  headers.forEach((value, name) => {
    const lower = name.toLowerCase();
    if (isSecretHeader(lower)) shown[lower] = MASK;
    else if (SHOWN_HEADERS.has(lower) || lower.startsWith('mcp-param-')) shown[lower] = value;
  });
  return shown;
}

/** A bounded, numbered log that tells listeners of each entry. */
export class WireLog {
  readonly #entries: WireEntry[] = [];
  /** The size of each entry in #entries, as JSON. */
  readonly #sizes: number[] = [];
  readonly #limit: number;
  readonly #maxBytes: number;
  readonly #listeners = new Set<(entry: WireEntry) => void>();
  #seq = 0;
  #bytes = 0;

  /** Keeps the newest `limit` entries, fewer when they add up to more than `maxBytes`. */
  constructor(limit: number = WIRE_LOG_LIMIT, maxBytes: number = WIRE_LOG_BYTES) {
    this.#limit = limit;
    this.#maxBytes = maxBytes;
  }

  /** Numbers, times, stores and announces an entry. Returns it. */
  add(entry: NewEntry): WireEntry {
    const full = { seq: ++this.#seq, time: Date.now(), ...entry };
    const size = JSON.stringify(full).length;
    this.#entries.push(full);
    this.#sizes.push(size);
    this.#bytes += size;
    while (
      this.#entries.length > this.#limit ||
      (this.#bytes > this.#maxBytes && this.#entries.length > 1)
    ) {
      this.#entries.shift();
      this.#bytes -= this.#sizes.shift() ?? 0;
    }
    for (const listener of this.#listeners) listener(full);
    return full;
  }

  /** The newest `count` entries (all kept, by default), oldest first. */
  entries(count?: number): WireEntry[] {
    return count === undefined ? [...this.#entries] : this.#entries.slice(-count);
  }

  /** The number the next entry gets. */
  get nextSeq(): number {
    return this.#seq + 1;
  }

  /** Calls `listener` with every new entry until the returned function is called. */
  subscribe(listener: (entry: WireEntry) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/** Wraps `inner` so that every JSON-RPC message in and out is added to `log`. */
export function logTransport(inner: Transport, log: WireLog): TracedTransport {
  const labels = new Labeller();
  return observeTransport(inner, {
    message: (dir, message) => {
      const items: readonly Message[] = Array.isArray(message) ? message : [message as Message];
      for (const item of items) log.add(labels.entry(dir, item));
    },
    revision: (revision) => {
      labels.revision = revision;
    },
  });
}

/** Names the method, id and revision of each message, pairing responses with their requests. */
class Labeller {
  revision: string | undefined;
  readonly #pending = new Map<string, { method: string; revision: string | undefined }>();

  entry(dir: Direction, message: Message): NewEntry {
    const record = message as unknown as Record<string, unknown>;
    const id = record['id'];
    const hasId = typeof id === 'string' || typeof id === 'number';
    const method = record['method'];
    const params = asRecord(record['params']);
    const meta = asRecord(params?.['_meta']);
    let revision: string | undefined = this.revision;
    if (typeof meta?.[MetaKey.ProtocolVersion] === 'string') {
      revision = meta[MetaKey.ProtocolVersion] as string;
    } else if (method === 'initialize' && typeof params?.['protocolVersion'] === 'string') {
      revision = params['protocolVersion'];
    }
    const base = { dir, kind: 'jsonrpc' as const, message: message as object };
    if (typeof method === 'string') {
      if (hasId) this.#pending.set(`${dir}${String(id)}`, { method, revision });
      return { ...base, method, ...(hasId ? { id } : {}), ...optional('revision', revision) };
    }
    // A response: the method and revision of its request (which travelled the other way).
    const key = `${dir === '>>' ? '<<' : '>>'}${String(id)}`;
    const request = this.#pending.get(key);
    this.#pending.delete(key);
    const result = asRecord(record['result']);
    if (request?.method === 'initialize' && typeof result?.['protocolVersion'] === 'string') {
      this.revision = result['protocolVersion'];
      revision = this.revision;
    } else if (request !== undefined) {
      revision = request.revision ?? revision;
    }
    return {
      ...base,
      ...optional('method', request?.method),
      ...(hasId ? { id } : {}),
      ...optional('revision', revision),
    };
  }
}

/**
 * A fetch that adds each HTTP exchange to `log`: the request (`>>`: method, URL, headers), the
 * response (`<<`: status, headers, time taken) and, for an SSE response, each event's id, type
 * and retry as it arrives.
 */
export function logFetch(log: WireLog, inner: FetchLike = globalThis.fetch): FetchLike {
  return async (url, init) => {
    const method = init.method ?? 'GET';
    const started = Date.now();
    log.add({
      dir: '>>',
      kind: 'http',
      http: { method, url, headers: shownHeaders(new Headers(init.headers)) },
    });
    let response: Response;
    try {
      response = await inner(url, init);
    } catch (error) {
      log.add({
        dir: '<<',
        kind: 'http',
        http: {
          method,
          url,
          headers: {},
          durationMs: Date.now() - started,
          error: messageOf(error),
        },
      });
      throw error;
    }
    const type = response.headers.get('content-type') ?? '';
    log.add({
      dir: '<<',
      kind: 'http',
      http: {
        method,
        url,
        status: response.status,
        headers: shownHeaders(response.headers),
        durationMs: Date.now() - started,
      },
    });
    if (response.body === null || !/^text\/event-stream/i.test(type)) return response;
    const body = response.body.pipeThrough(
      sseSpy((sse) => {
        log.add({ dir: '<<', kind: 'http', http: { method, url, headers: {}, sse } });
      }),
    );
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** A pass-through stream that reports the id, event type and retry of each SSE event. */
function sseSpy(
  report: (sse: { id?: string; event?: string; retry?: number }) => void,
): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let buffer = '';
  let current: { id?: string; event?: string; retry?: number; fields: number } = { fields: 0 };
  const line = (text: string): void => {
    if (text === '') {
      if (current.fields > 0) {
        report({
          ...(current.id === undefined ? {} : { id: current.id }),
          ...(current.event === undefined ? {} : { event: current.event }),
          ...(current.retry === undefined ? {} : { retry: current.retry }),
        });
      }
      current = { fields: 0 };
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? '' : text.slice(colon + 1).replace(/^ /, '');
    current.fields++;
    if (field === 'id') current.id = value;
    else if (field === 'event') current.event = value;
    else if (field === 'retry' && /^\d+$/.test(value)) current.retry = Number(value);
  };
  return new TransformStream({
    transform(chunk, controller) {
      controller.enqueue(chunk);
      buffer += decoder.decode(chunk, { stream: true });
      let end = /\r\n|\r|\n/.exec(buffer);
      while (end !== null) {
        line(buffer.slice(0, end.index));
        buffer = buffer.slice(end.index + end[0].length);
        end = /\r\n|\r|\n/.exec(buffer);
      }
    },
  });
}

function optional<TKey extends string, TValue>(
  key: TKey,
  value: TValue | undefined,
): Partial<Record<TKey, TValue>> {
  return value === undefined ? {} : ({ [key]: value } as Record<TKey, TValue>);
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
