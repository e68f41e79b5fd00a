// --trace: a Transport wrapper that prints every JSON-RPC message as it crosses the wire, one
// line each: `trace <time> <dir> <revision> <what> <json>`. `>>` is client to server, `<<` server
// to client (the arrows of the golden transcripts). <what> is the method, with `#id` for
// requests, and `<method> result #id` or `<method> error #id` for responses.
import type { Message, Receiver, Transport } from '../jsonrpc/index.js';
import { MetaKey } from '../protocol/index.js';
import type { TextSink } from './io.js';
import type { Style } from './output.js';

/** A Transport that may be told the negotiated revision (HTTP). */
interface VersionedTransport extends Transport {
  setProtocolVersion?(revision: string | undefined): void;
}

/** The wrapped transport: also forwards `setProtocolVersion`, which the Client calls when present. */
export interface TracedTransport extends Transport {
  setProtocolVersion(revision: string | undefined): void;
}

/** What {@link observeTransport} tells of the messages crossing a transport. */
export interface TransportObserver {
  /** A message (or batch) sent (`>>`) or received (`<<`), before it goes on. */
  message(direction: '>>' | '<<', message: Message | readonly Message[]): void;
  /** The transport closed. */
  closed?(error: Error | undefined): void;
  /** The Client told the transport the negotiated revision. */
  revision?(revision: string): void;
}

/**
 * Wraps `inner` so that `observer` sees every message in and out, unchanged and in order; also
 * forwards `setProtocolVersion`, which the Client calls when present. The one wrapper of
 * `--trace` and of the inspector's wire log.
 */
export function observeTransport(inner: Transport, observer: TransportObserver): TracedTransport {
  const versioned = inner as VersionedTransport;
  return {
    start(receiver: Receiver) {
      return inner.start({
        message(message, info) {
          observer.message('<<', message);
          receiver.message(message, info);
        },
        ...(receiver.batch === undefined
          ? {}
          : {
              batch(items, info) {
                for (const item of items) {
                  observer.message('<<', 'message' in item ? item.message : item.invalid);
                }
                receiver.batch?.(items, info);
              },
            }),
        closed(error) {
          observer.closed?.(error);
          receiver.closed(error);
        },
      });
    },
    send(message, sendOptions) {
      observer.message('>>', message);
      return inner.send(message, sendOptions);
    },
    close() {
      return inner.close();
    },
    cancel(requestId, reason) {
      return inner.cancel?.(requestId, reason) ?? false;
    },
    setProtocolVersion(revision) {
      if (revision !== undefined) observer.revision?.(revision);
      versioned.setProtocolVersion?.call(inner, revision);
    },
  };
}

/** Wraps `inner` so that every message in and out is written to `sink`. */
export function traceTransport(
  inner: Transport,
  sink: TextSink,
  options: { style: Style; now?: () => Date },
): TracedTransport {
  const tracer = new Tracer(sink, options.style, options.now ?? (() => new Date()));
  return observeTransport(inner, {
    message: (direction, message) => {
      tracer.write(direction, message);
    },
    closed: (error) => {
      tracer.closed(error);
    },
    revision: (revision) => {
      tracer.revision = revision;
    },
  });
}

class Tracer {
  /** The revision messages are spoken in, once known. */
  revision = '-';
  readonly #sink: TextSink;
  readonly #style: Style;
  readonly #now: () => Date;
  /** Requests in flight, by direction and id: their method and revision, for their responses. */
  readonly #pending = new Map<string, { method: string; revision: string }>();

  constructor(sink: TextSink, style: Style, now: () => Date) {
    this.#sink = sink;
    this.#style = style;
    this.#now = now;
  }

  write(direction: '>>' | '<<', message: Message | readonly Message[]): void {
    if (isBatch(message)) {
      for (const item of message) this.write(direction, item);
      return;
    }
    const record = message as unknown as Record<string, unknown>;
    const revision = this.#revisionOf(direction, record);
    const what = this.#label(direction, record, revision);
    const style = this.#style;
    const arrow = direction === '>>' ? style.cyan('>>') : style.green('<<');
    const line = `${style.dim('trace')} ${clock(this.#now())} ${arrow} ${revision} ${style.bold(what)} ${JSON.stringify(message)}`;
    this.#sink.write(`${line}\n`);
  }

  closed(error: Error | undefined): void {
    const reason = error === undefined ? '' : `: ${error.message}`;
    this.#sink.write(
      `${this.#style.dim('trace')} ${clock(this.#now())} -- transport closed${reason}\n`,
    );
  }

  #revisionOf(direction: '>>' | '<<', message: Record<string, unknown>): string {
    const params = asRecord(message['params']);
    const meta = asRecord(params?.['_meta']);
    const stated = meta?.[MetaKey.ProtocolVersion];
    if (typeof stated === 'string') return stated;
    if (message['method'] === 'initialize' && typeof params?.['protocolVersion'] === 'string') {
      return params['protocolVersion'];
    }
    if (message['method'] !== undefined) return this.revision;
    // A response speaks the revision of its request; an initialize result sets the connection's.
    const request = this.#pending.get(requestKey(direction, message['id']));
    const result = asRecord(message['result']);
    if (request?.method === 'initialize' && typeof result?.['protocolVersion'] === 'string') {
      this.revision = result['protocolVersion'];
      return this.revision;
    }
    return request?.revision ?? this.revision;
  }

  #label(direction: '>>' | '<<', message: Record<string, unknown>, revision: string): string {
    const method = message['method'];
    const id = message['id'];
    const hasId = typeof id === 'string' || typeof id === 'number';
    if (typeof method === 'string') {
      if (!hasId) return method;
      this.#pending.set(`${direction}${String(id)}`, { method, revision });
      return `${method} #${String(id)}`;
    }
    const key = requestKey(direction, id);
    const requested = this.#pending.get(key)?.method ?? 'response';
    this.#pending.delete(key);
    const kind = message['error'] === undefined ? 'result' : 'error';
    return `${requested} ${kind}${hasId ? ` #${String(id)}` : ''}`;
  }
}

/** The pending-map key of the request a response (travelling in `direction`) answers. */
function requestKey(direction: '>>' | '<<', id: unknown): string {
  return `${direction === '>>' ? '<<' : '>>'}${String(id)}`;
}

function isBatch(message: Message | readonly Message[]): message is readonly Message[] {
  return Array.isArray(message);
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** HH:MM:SS.mmm, local time. */
function clock(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const ms = String(date.getMilliseconds()).padStart(3, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${ms}`;
}
