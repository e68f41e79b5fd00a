// Server-Sent Events (https://html.spec.whatwg.org/multipage/server-sent-events.html): encoding
// for servers and an incremental parser for clients. Pure: no I/O, no Node APIs.

/** One SSE event. `data` may hold newlines; they are split into several `data:` lines. */
export interface SseEvent {
  /** The event id, for Last-Event-ID resumption. */
  id?: string;
  /** The event type; absent means "message". */
  event?: string;
  /** The payload. */
  data: string;
  /** Reconnection delay hint in milliseconds. */
  retry?: number;
}

/** Encodes one event as text, ending with the blank line that dispatches it. */
export function encodeSseEvent(event: SseEvent): string {
  let text = '';
  if (event.id !== undefined) text += `id: ${stripNewlines(event.id)}\n`;
  if (event.event !== undefined) text += `event: ${stripNewlines(event.event)}\n`;
  if (event.retry !== undefined) text += `retry: ${String(Math.max(0, Math.floor(event.retry)))}\n`;
  for (const line of event.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return `${text}\n`;
}

/** Encodes a comment line (keep-alive); clients ignore it. */
export function encodeSseComment(comment: string): string {
  return `: ${stripNewlines(comment)}\n\n`;
}

function stripNewlines(value: string): string {
  return value.replace(/[\r\n]/g, '');
}

/**
 * SseParser turns a stream of text chunks into events. Feed it chunks as they arrive (any
 * split, including inside a line or a CRLF); it calls `onEvent` per dispatched event. The
 * last event id persists across events, as the spec says. A line longer than `maxLineLength`
 * raises an error through `onError` and is dropped.
 */
export class SseParser {
  readonly #onEvent: (event: SseEvent) => void;
  readonly #maxLineLength: number;
  readonly #onError: ((error: Error) => void) | undefined;
  #buffer = '';
  #data: string[] = [];
  #event: string | undefined;
  #lastId: string | undefined;
  #retry: number | undefined;
  #pendingCr = false;
  #lastRetry: number | undefined;

  constructor(
    onEvent: (event: SseEvent) => void,
    options: { maxLineLength?: number; onError?: (error: Error) => void } = {},
  ) {
    this.#onEvent = onEvent;
    this.#maxLineLength = options.maxLineLength ?? 64 * 1024 * 1024;
    this.#onError = options.onError;
  }

  /** The id of the last event that carried one (for Last-Event-ID). */
  get lastEventId(): string | undefined {
    return this.#lastId;
  }

  /** The last reconnection delay the server asked for, in milliseconds. */
  get retry(): number | undefined {
    return this.#lastRetry;
  }

  /** Feeds a chunk of text. */
  push(chunk: string): void {
    let text = chunk;
    if (this.#pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.#pendingCr = false;
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (ch !== 10 && ch !== 13) continue;
      this.#line(this.#buffer + text.slice(start, i));
      this.#buffer = '';
      if (ch === 13) {
        if (i + 1 < text.length) {
          if (text.charCodeAt(i + 1) === 10) i++;
        } else {
          this.#pendingCr = true;
        }
      }
      start = i + 1;
    }
    this.#buffer += text.slice(start);
    if (this.#buffer.length > this.#maxLineLength) {
      this.#buffer = '';
      this.#onError?.(
        new Error(`SSE line longer than ${String(this.#maxLineLength)} characters dropped`),
      );
    }
  }

  #line(line: string): void {
    if (line === '') {
      this.#dispatch();
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.#data.push(value);
        return;
      case 'event':
        this.#event = value;
        return;
      case 'id':
        if (!value.includes('\u0000')) this.#lastId = value;
        return;
      case 'retry':
        if (/^\d+$/.test(value)) this.#retry = Number(value);
        return;
      default:
        return;
    }
  }

  #dispatch(): void {
    const retry = this.#retry;
    this.#retry = undefined;
    if (retry !== undefined) this.#lastRetry = retry;
    if (this.#data.length === 0) {
      // No data: nothing is dispatched, but the id and retry it set still hold (SSE spec).
      this.#event = undefined;
      return;
    }
    const event: SseEvent = { data: this.#data.join('\n') };
    if (this.#event !== undefined) event.event = this.#event;
    if (this.#lastId !== undefined) event.id = this.#lastId;
    if (retry !== undefined) event.retry = retry;
    this.#data = [];
    this.#event = undefined;
    this.#onEvent(event);
  }
}
