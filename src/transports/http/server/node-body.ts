// Reading a node:http request body under its limits, without a promise, closure, clock reading
// or Set entry per request: the node face's `readBody` (docs/design.md, "Synchronous where
// nothing waits").
import type { IncomingMessage } from 'node:http';
import type { BodyDone, BodyLimits } from './exchange.js';
import { BodyError } from './exchange.js';

/** Reads a request body under `limits`; `done` is called once (synchronously for a 413 on Content-Length). */
export function readBody(req: IncomingMessage, limits: BodyLimits, done: BodyDone): void {
  if (declaredLength(req.headers['content-length']) > limits.maxBytes) {
    done(new BodyError(413, `request body larger than ${String(limits.maxBytes)} bytes`));
    return;
  }
  (req as ReadingRequest)[READING] = new BodyRead(req, limits, done);
  // Shared listeners that find the read through the request (node calls them with `this` set
  // to it): no closures per request. They stay on once it settles (it is done with then). Two,
  // not three ('end' and 'error'): a request emits 'close' both after its 'end' and when it is
  // broken off, and emits 'error' only to listeners, so 'close' tells the two apart alone.
  req.on('data', onData);
  req.on('close', onClose);
}

const READING = Symbol('mcpkit body read');

/**
 * A Content-Length value as a number (NaN when there is none). node:http let it through only as
 * digits; those are added up here, which costs a tenth of `Number()` on a short string.
 */
function declaredLength(value: string | undefined): number {
  if (value === undefined) return NaN;
  if (value.length > 15) return Number(value);
  let length = 0;
  for (let i = 0; i < value.length; i++) {
    const digit = value.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return Number(value);
    length = length * 10 + digit;
  }
  return length;
}

type ReadingRequest = IncomingMessage & { [READING]?: BodyRead | undefined };

function onData(this: ReadingRequest, chunk: Buffer): void {
  this[READING]?.data(chunk);
}

/** The body is whole when the request ended ('end' was emitted) before it closed. */
function onClose(this: ReadingRequest): void {
  const read = this[READING];
  if (read === undefined) return;
  if (this.readableEnded) read.end();
  else read.fail(new BodyError(400, 'the request body could not be read'));
}

/**
 * One body being read under its limits; also its own entry in the deadline list of its
 * {@link BodyClock}. Settles once; later events are no-ops.
 */
class BodyRead {
  readonly #req: ReadingRequest;
  readonly #limits: BodyLimits;
  readonly #done: BodyDone;
  readonly #clock: BodyClock;
  #chunks: Buffer[] = [];
  #size = 0;
  #settled = false;
  /** The clock's tick count when the read began, and the neighbours in its list. */
  started = 0;
  prev: BodyRead | undefined;
  next: BodyRead | undefined;

  constructor(req: ReadingRequest, limits: BodyLimits, done: BodyDone) {
    this.#req = req;
    this.#limits = limits;
    this.#done = done;
    this.#clock = clockOf(limits.timeoutMs);
    this.#clock.add(this);
  }

  data(chunk: Buffer): void {
    if (this.#settled) return;
    this.#size += chunk.length;
    if (this.#size > this.#limits.maxBytes) {
      this.fail(
        new BodyError(413, `request body larger than ${String(this.#limits.maxBytes)} bytes`),
      );
      return;
    }
    this.#chunks.push(chunk);
  }

  end(): void {
    if (this.#settle()) return;
    const chunks = this.#chunks;
    this.#done(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, this.#size));
  }

  fail(error: BodyError): void {
    if (this.#settle()) return;
    this.#req.pause();
    this.#done(error);
  }

  /** The clock's verdict: too slow. */
  expire(): void {
    this.fail(
      new BodyError(408, `request body not received within ${String(this.#limits.timeoutMs)} ms`),
    );
  }

  /** Marks the read settled; true when it already was. */
  #settle(): boolean {
    if (this.#settled) return true;
    this.#settled = true;
    this.#clock.remove(this);
    this.#req[READING] = undefined;
    return false;
  }
}

/** Ticks per timeout length: a read expires between one and 1.25 timeouts after it began. */
const TICKS = 4;

/**
 * The deadlines of body reads with one timeout length. No clock is read and nothing is
 * allocated per read: reads join a list in the order they began, a timer ticks four times per
 * timeout length while the list is not empty, and each tick expires the reads that have seen
 * five ticks (bench/RESULTS.md: a timer, or a Set and a clock reading, per request cost
 * throughput under load). The timer is unref'd: a read in progress holds its socket open anyway.
 */
class BodyClock {
  readonly #period: number;
  #ticks = 0;
  #head: BodyRead | undefined;
  #tail: BodyRead | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(ms: number) {
    this.#period = Math.max(1, Math.ceil(ms / TICKS));
  }

  /** Starts timing `read`. */
  add(read: BodyRead): void {
    read.started = this.#ticks;
    read.prev = this.#tail;
    read.next = undefined;
    if (this.#tail === undefined) this.#head = read;
    else this.#tail.next = read;
    this.#tail = read;
    if (this.#timer === undefined) {
      this.#timer = setInterval(this.#tick, this.#period);
      this.#timer.unref();
    }
  }

  /** Stops timing `read`; idempotent. */
  remove(read: BodyRead): void {
    const { prev, next } = read;
    if (prev === undefined && this.#head !== read) return; // not in the list
    if (prev === undefined) this.#head = next;
    else prev.next = next;
    if (next === undefined) this.#tail = prev;
    else next.prev = prev;
    read.prev = undefined;
    read.next = undefined;
  }

  readonly #tick = (): void => {
    const ticks = ++this.#ticks;
    let read = this.#head;
    while (read !== undefined && ticks - read.started > TICKS) {
      const next = read.next;
      read.expire(); // removes it
      read = next;
    }
    if (this.#head === undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  };
}

const clocks = new Map<number, BodyClock>();

/** The clock of one timeout length (there are as many as configured lengths: few). */
function clockOf(ms: number): BodyClock {
  let clock = clocks.get(ms);
  if (clock === undefined) {
    clock = new BodyClock(ms);
    clocks.set(ms, clock);
  }
  return clock;
}
