// The inspector's event streams (GET /api/events): any number of pages each hold one; every
// event goes to all of them. A comment line every 15 s keeps idle connections open, and a
// stream whose page went away is dropped at once.
import type { ServerResponse } from 'node:http';

/** The event types the page receives (see the contract of issue #26). */
export type EventType =
  | 'state'
  | 'wire'
  | 'progress'
  | 'log'
  | 'list_changed'
  | 'resource_updated'
  | 'elicit'
  | 'sample'
  | 'answered'
  | 'task';

/** How often an idle stream gets a comment line. */
export const HEARTBEAT_MS = 15_000;

/**
 * Most bytes queued for one page that does not read: beyond it the stream is ended (the page
 * reconnects and gets the state and the wire history again) rather than memory growing.
 */
export const MAX_BACKLOG_BYTES: number = 16 * 1024 * 1024;

/** The open event streams. */
export class EventHub {
  readonly #streams = new Set<ServerResponse>();
  #heartbeat: ReturnType<typeof setInterval> | undefined;

  /** How many streams are open. */
  get size(): number {
    return this.#streams.size;
  }

  /**
   * Makes `res` an event stream: writes the headers, then `first` (events for this page only),
   * then every broadcast until the page goes away or the hub closes.
   */
  open(res: ServerResponse, first: readonly (readonly [EventType, unknown])[]): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    for (const [type, data] of first) res.write(encode(type, data));
    this.#streams.add(res);
    const drop = (): void => {
      this.#streams.delete(res);
      if (this.#streams.size === 0) this.#stopHeartbeat();
    };
    res.once('close', drop);
    res.once('error', drop);
    this.#startHeartbeat();
  }

  /** Sends an event to every open stream. */
  broadcast(type: EventType, data: unknown): void {
    if (this.#streams.size === 0) return;
    const text = encode(type, data);
    for (const res of this.#streams) {
      if (res.writableEnded || res.destroyed) continue;
      if (res.writableLength > MAX_BACKLOG_BYTES) res.destroy();
      else res.write(text);
    }
  }

  /** Ends every stream. */
  close(): void {
    this.#stopHeartbeat();
    for (const res of this.#streams) res.end();
    this.#streams.clear();
  }

  #startHeartbeat(): void {
    if (this.#heartbeat !== undefined) return;
    this.#heartbeat = setInterval(() => {
      for (const res of this.#streams) res.write(': keep-alive\n\n');
    }, HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  #stopHeartbeat(): void {
    if (this.#heartbeat !== undefined) clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
  }
}

/** One event in the text/event-stream format. */
export function encode(type: EventType, data: unknown): string {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}
