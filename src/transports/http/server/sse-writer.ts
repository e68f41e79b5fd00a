// SseWriter: the body of one SSE reply. The transport pushes encoded events; the face pulls them
// as an async iterable and writes them out, honouring its own backpressure. Quiet streams get
// comment keep-alives (spec 2026-07-28 transports: for long-lived streams).
import type { SseChunk } from './exchange.js';
import { encodeSseComment } from '../sse.js';

const KEEP_ALIVE = encodeSseComment('keep-alive');

/** The most text (in characters, or bytes) joined into one write. */
const COALESCE_MOST = 65_536;

/**
 * SseWriter is a push-to-pull queue of SSE text, each chunk a string or its UTF-8 bytes (a large
 * message's escaped text, issue #44). It ends when `end()` is called (after the queued text is
 * consumed), when the client goes away (`signal` aborts) or when the consumer stops iterating;
 * `onClose` then runs once, told whether the client went away first. Single consumer.
 */
export class SseWriter implements AsyncIterable<SseChunk> {
  #queue: SseChunk[] = [];
  /** The length of the text queued (characters and bytes). */
  #queued = 0;
  /** How many of the queued chunks are bytes (never joined with the others). */
  #bytes = 0;
  #wake: ((result: IteratorResult<SseChunk>) => void) | undefined;
  #ending = false;
  #closed = false;
  #timer: ReturnType<typeof setInterval> | undefined;
  #quiet = true;
  readonly #onClose: ((lost: boolean) => void) | undefined;
  readonly #signal: AbortSignal;
  readonly #onAbort = (): void => {
    this.#close(true);
  };

  constructor(signal: AbortSignal, keepAliveMs: number, onClose?: (lost: boolean) => void) {
    this.#signal = signal;
    this.#onClose = onClose;
    if (signal.aborted) {
      this.#closed = true;
      queueMicrotask(() => onClose?.(true));
      return;
    }
    signal.addEventListener('abort', this.#onAbort, { once: true });
    if (keepAliveMs > 0 && Number.isFinite(keepAliveMs)) {
      this.#timer = setInterval(() => {
        if (!this.#quiet) this.#quiet = true;
        else this.write(KEEP_ALIVE);
      }, keepAliveMs);
      // Never keep a Node process alive just for keep-alives.
      (this.#timer as { unref?: () => void }).unref?.();
    }
  }

  /** True once the stream ended or the client went away: writes are dropped. */
  get closed(): boolean {
    return this.#closed || this.#ending;
  }

  /** Queues text (or its UTF-8 bytes); false when the stream is closed and it was dropped. */
  write(text: SseChunk): boolean {
    if (this.#closed || this.#ending) return false;
    this.#quiet = false;
    const wake = this.#wake;
    if (wake !== undefined) {
      this.#wake = undefined;
      wake({ done: false, value: text });
    } else {
      this.#queue.push(text);
      this.#queued += text.length;
      if (typeof text !== 'string') this.#bytes++;
    }
    return true;
  }

  /** Ends the stream once the queued text is consumed. Idempotent. */
  end(): void {
    if (this.#closed || this.#ending) return;
    this.#ending = true;
    if (this.#queue.length === 0) this.#close(false);
  }

  [Symbol.asyncIterator](): AsyncIterator<SseChunk> {
    return {
      next: () => this.#next(),
      return: () => {
        this.#close(true);
        return Promise.resolve({ done: true, value: undefined });
      },
    };
  }

  #next(): Promise<IteratorResult<SseChunk>> {
    if (this.#queue.length > 0) {
      // Coalesce what piled up into one write, unless that copies much text or bytes are queued:
      // then one at a time (a large message's pieces are written as they are, issue #44).
      const queue = this.#queue;
      if (queue.length > 1 && (this.#queued > COALESCE_MOST || this.#bytes > 0)) {
        const value = queue.shift() ?? '';
        this.#queued -= value.length;
        if (typeof value !== 'string') this.#bytes--;
        return Promise.resolve({ done: false, value });
      }
      const value = queue.length === 1 ? (queue[0] ?? '') : (queue as string[]).join('');
      this.#queue = [];
      this.#queued = 0;
      this.#bytes = 0;
      return Promise.resolve({ done: false, value });
    }
    if (this.#ending) this.#close(false);
    if (this.#closed) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve) => {
      this.#wake = resolve;
    });
  }

  #close(lost: boolean): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#queue = [];
    this.#queued = 0;
    this.#bytes = 0;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#signal.removeEventListener('abort', this.#onAbort);
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.({ done: true, value: undefined });
    this.#onClose?.(lost && !this.#ending);
  }
}
