// The connections to one origin: at most maxSockets open, idle ones reused last-in first-out and
// closed after idleTimeoutMs by one sweep timer (not a socket timeout, which node restarts at
// every read and write, nor a timer per release), requests beyond the limit waiting in order (an
// abort takes a waiter out). An idempotent request that meets a reused connection closed before
// any byte of its response is sent once more.
import { connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { Connection, StaleConnection } from './node-fetch-connection.js';
import type { FetchCancellation } from './http.js';
import type { Request1, Settings, Target } from './node-fetch-request.js';
import { abortError, fetchFailed } from './node-fetch-request.js';

/** The connections to one origin. */
export class Pool {
  readonly #target: Target;
  readonly #settings: Settings;
  readonly #idle: Connection[] = [];
  readonly #waiting: (() => void)[] = [];
  #open = 0;
  /** The sweep of idle connections, armed while there are some; unreferenced. */
  #sweeper: ReturnType<typeof setTimeout> | undefined;

  constructor(target: Target, settings: Settings) {
    this.#target = target;
    this.#settings = settings;
  }

  /**
   * Sends `request` on a connection of this pool: an idle one at once (no turn waited for it),
   * else a new one or the next one freed. An idempotent request that meets a reused connection
   * closed before any byte of its response is sent once more.
   */
  send(
    request: Request1,
    cancel: FetchCancellation | undefined,
    retried = false,
  ): Promise<Response> {
    const idle = this.#idleConnection();
    const sent =
      idle === undefined
        ? this.#acquire(cancel).then((connection) => connection.exchange(request, cancel))
        : idle.exchange(request, cancel);
    return sent.catch((error: unknown) => {
      const retry =
        error instanceof StaleConnection &&
        request.idempotent &&
        !retried &&
        cancel?.aborted !== true;
      if (retry) return this.send(request, cancel, true);
      throw error instanceof StaleConnection ? fetchFailed(error.cause) : error;
    });
  }

  closeIdle(): void {
    for (const connection of this.#idle.splice(0)) connection.destroy();
    clearTimeout(this.#sweeper);
    this.#sweeper = undefined;
  }

  /** Closes the connections idle for idleTimeoutMs (the oldest are first), then waits for the next. */
  readonly #sweep = (): void => {
    this.#sweeper = undefined;
    const idle = this.#idle;
    const timeout = this.#settings.idleTimeoutMs;
    const now = performance.now();
    let expired = 0;
    while (expired < idle.length && (idle[expired] as Connection).idleSince + timeout <= now) {
      expired++;
    }
    for (const connection of idle.splice(0, expired)) connection.destroy();
    const oldest = idle[0];
    if (oldest !== undefined) this.#armSweep(oldest.idleSince + timeout - now);
  };

  #armSweep(ms: number): void {
    // The timer may fire before the clock reaches the deadline (libuv's loop time lags).
    this.#sweeper = setTimeout(this.#sweep, Math.max(1, Math.ceil(ms)));
    this.#sweeper.unref();
  }

  /** A connection of this pool: an idle one, a new one, or the next one freed. */
  #acquire(cancel: FetchCancellation | undefined): Promise<Connection> {
    const idle = this.#idleConnection();
    if (idle !== undefined) return Promise.resolve(idle);
    if (this.#open < this.#settings.maxSockets) return Promise.resolve(this.#connect());
    if (cancel?.aborted === true) return Promise.reject(abortError(cancel.reason));
    return new Promise<Connection>((resolve, reject) => {
      const wake = (): void => {
        unfollow?.();
        this.#acquire(cancel).then(resolve, reject);
      };
      const unfollow = cancel?.follow((reason) => {
        const index = this.#waiting.indexOf(wake);
        if (index >= 0) this.#waiting.splice(index, 1);
        reject(abortError(reason));
      });
      this.#waiting.push(wake);
    });
  }

  /** The idle connection used last, if one is usable (unusable ones are dropped). */
  #idleConnection(): Connection | undefined {
    for (;;) {
      const idle = this.#idle.pop();
      if (idle === undefined || idle.usable) return idle;
    }
  }

  #connect(): Connection {
    this.#open++;
    const { hostname, port, secure } = this.#target;
    const socket = secure
      ? tlsConnect({
          ...this.#settings.tls,
          host: hostname,
          port,
          servername: isIp(hostname) ? undefined : hostname,
          ALPNProtocols: ['http/1.1'],
        })
      : netConnect({ host: hostname, port });
    socket.setNoDelay(true);
    return new Connection(socket, this.#settings, {
      release: (connection) => {
        this.#release(connection);
      },
      closed: (connection) => {
        this.#closed(connection);
      },
    });
  }

  #release(connection: Connection): void {
    const next = this.#waiting.shift();
    connection.idleSince = performance.now();
    this.#idle.push(connection);
    if (this.#sweeper === undefined) this.#armSweep(this.#settings.idleTimeoutMs);
    next?.();
  }

  #closed(connection: Connection): void {
    this.#open--;
    const index = this.#idle.indexOf(connection);
    if (index >= 0) this.#idle.splice(index, 1);
    this.#waiting.shift()?.();
  }
}

function isIp(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}
