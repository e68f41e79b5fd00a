// One socket of a pool and the exchange on it: requests one at a time (no pipelining), the
// response fed to its Exchange as bytes arrive, the socket released to the pool when a response
// ends on a reusable connection and destroyed otherwise (error, abort, unasked bytes).
import type { Socket } from 'node:net';
import type { Outcome } from './node-fetch-exchange.js';
import { Exchange } from './node-fetch-exchange.js';
import type { FetchCancellation } from './http.js';
import type { Request1, Settings } from './node-fetch-request.js';
import { abortError, fetchFailed } from './node-fetch-request.js';

/** A reused connection closed before any byte of the response: the request may be sent again. */
export class StaleConnection extends Error {}

export interface PoolHooks {
  release(connection: Connection): void;
  closed(connection: Connection): void;
}

/**
 * One socket and the exchange on it. Requests go one at a time (no pipelining); the response
 * parser is incremental. Listeners stay on the socket for its whole life.
 */
export class Connection {
  readonly #socket: Socket;
  readonly #settings: Settings;
  readonly #hooks: PoolHooks;
  #used = false;
  /** When it was last released idle, on performance.now()'s clock (the pool's idle sweep reads it). */
  idleSince = 0;
  #dead = false;
  #exchange: Exchange | undefined;
  /** What each exchange calls to read on, or to give the connection up: made once per socket. */
  readonly #resume = (): void => {
    this.#socket.resume();
  };
  readonly #cancel = (): void => {
    this.destroy();
  };

  constructor(socket: Socket, settings: Settings, hooks: PoolHooks) {
    this.#socket = socket;
    this.#settings = settings;
    this.#hooks = hooks;
    socket.on('data', (chunk: Buffer) => {
      this.#data(chunk);
    });
    socket.on('end', () => {
      this.#end();
    });
    socket.on('error', (error) => {
      this.#fail(error);
    });
    socket.on('close', () => {
      this.#close();
    });
  }

  /** Whether it can carry a request now. */
  get usable(): boolean {
    return !this.#dead && this.#exchange === undefined && this.#socket.readyState === 'open';
  }

  destroy(error?: Error): void {
    this.#dead = true;
    this.#socket.destroy(error);
  }

  exchange(request: Request1, cancel: FetchCancellation | undefined): Promise<Response> {
    if (cancel?.aborted === true && this.usable) {
      // Cancelled while the connection was found: nothing was sent, so the connection stays.
      this.#hooks.release(this);
      return Promise.reject(abortError(cancel.reason));
    }
    const reused = this.#used;
    this.#used = true;
    this.#socket.ref();
    return new Promise<Response>((resolve, reject) => {
      const exchange = new Exchange({ request, settings: this.#settings, reused }, resolve, reject);
      // No function literal is assigned to the exchange: V8 would make it in the old generation,
      // keeping the request alive past scavenges (issue #44; mcpkit/no-member-closure).
      exchange.onResume = this.#resume;
      exchange.onCancel = this.#cancel;
      this.#exchange = exchange;
      if (cancel !== undefined) {
        exchange.cleanup = cancel.follow((reason) => {
          exchange.fail(abortError(reason));
          this.destroy();
        });
        // Cancelled already: the listener failed the exchange and dropped the connection.
        if (cancel.aborted) return;
      }
      this.#write(request);
    });
  }

  #write(request: Request1): void {
    const { head, body } = request;
    if (body === undefined) this.#socket.write(head, 'latin1');
    else if (typeof body === 'string') this.#socket.write(head + body);
    else {
      this.#socket.cork();
      this.#socket.write(head, 'latin1');
      this.#socket.write(body);
      this.#socket.uncork();
    }
  }

  #data(chunk: Buffer): void {
    const exchange = this.#exchange;
    if (exchange === undefined) {
      this.destroy(); // bytes nobody asked for: the connection cannot be trusted any more
      return;
    }
    let outcome: Outcome;
    try {
      outcome = exchange.feed(chunk);
    } catch (error) {
      exchange.fail(fetchFailed(error));
      this.#exchange = undefined;
      this.destroy();
      return;
    }
    if (outcome === 'done') this.#finish(exchange.reusable);
    else if (outcome === 'pause') this.#socket.pause();
  }

  #end(): void {
    const exchange = this.#exchange;
    if (exchange === undefined) return;
    if (exchange.endOfStream()) this.#finish(false);
  }

  #fail(error: Error): void {
    const exchange = this.#exchange;
    this.#dead = true;
    if (exchange === undefined) return;
    exchange.fail(
      exchange.stale ? new StaleConnection('closed', { cause: error }) : fetchFailed(error),
    );
    this.#exchange = undefined;
  }

  #close(): void {
    this.#dead = true;
    const exchange = this.#exchange;
    if (exchange !== undefined) {
      const cause = new Error('the server closed the connection before the response ended');
      if (!exchange.endOfStream()) {
        exchange.fail(
          exchange.stale ? new StaleConnection('closed', { cause }) : fetchFailed(cause),
        );
      }
      this.#exchange = undefined;
    }
    this.#hooks.closed(this);
  }

  #finish(reusable: boolean): void {
    this.#exchange?.cleanup?.();
    this.#exchange = undefined;
    if (!reusable || this.#dead) {
      this.destroy();
      return;
    }
    this.#socket.unref();
    this.#hooks.release(this);
  }
}
