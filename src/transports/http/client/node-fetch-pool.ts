// The connections to one origin: at most maxSockets open, idle ones reused last-in first-out,
// requests beyond the limit waiting in order (an abort takes a waiter out). An idempotent request
// that meets a reused connection closed before any byte of its response is sent once more.
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

  constructor(target: Target, settings: Settings) {
    this.#target = target;
    this.#settings = settings;
  }

  async send(request: Request1, cancel: FetchCancellation | undefined): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const connection = await this.#acquire(cancel);
      try {
        return await connection.exchange(request, cancel);
      } catch (error) {
        const retry =
          error instanceof StaleConnection &&
          request.idempotent &&
          attempt === 0 &&
          cancel?.aborted !== true;
        if (!retry) throw error instanceof StaleConnection ? fetchFailed(error.cause) : error;
      }
    }
  }

  closeIdle(): void {
    for (const connection of this.#idle.splice(0)) connection.destroy();
  }

  /** A connection of this pool: an idle one, a new one, or the next one freed. */
  #acquire(cancel: FetchCancellation | undefined): Promise<Connection> {
    for (;;) {
      const idle = this.#idle.pop();
      if (idle === undefined) break;
      if (idle.usable) return Promise.resolve(idle);
    }
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
    this.#idle.push(connection);
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
