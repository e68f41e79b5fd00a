// A parser for text/event-stream (HTML Living Standard, "Server-sent events", the parsing rules):
// the page reads /api/events with fetch, since EventSource cannot send the token header.

/** One dispatched event: its type (`message` when none was named) and its data lines joined. */
export interface SseMessage {
  event: string;
  data: string;
}

/**
 * Turns chunks of an event stream into events. Chunks may split lines and events anywhere;
 * comment lines (`:`) and fields other than `event` and `data` are ignored. Not reentrant.
 */
export class SseParser {
  #buffer = '';
  #event = '';
  #data: string[] = [];

  /** Feeds one chunk of text and returns the events it completed, in order. */
  push(chunk: string): SseMessage[] {
    this.#buffer += chunk;
    const out: SseMessage[] = [];
    for (;;) {
      const end = /\r\n|\r|\n/.exec(this.#buffer);
      // A lone \r at the end may be the first half of \r\n: wait for the next chunk.
      if (end === null || (end[0] === '\r' && end.index === this.#buffer.length - 1)) break;
      const line = this.#buffer.slice(0, end.index);
      this.#buffer = this.#buffer.slice(end.index + end[0].length);
      const message = this.#line(line);
      if (message !== undefined) out.push(message);
    }
    return out;
  }

  #line(line: string): SseMessage | undefined {
    if (line === '') {
      const message =
        this.#data.length === 0
          ? undefined
          : { event: this.#event === '' ? 'message' : this.#event, data: this.#data.join('\n') };
      this.#event = '';
      this.#data = [];
      return message;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.#event = value;
    else if (field === 'data') this.#data.push(value);
    return undefined;
  }
}
