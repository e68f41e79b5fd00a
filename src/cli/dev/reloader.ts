// The runs of the module behind `mcpkit dev`'s gateway: the gateway's one upstream gets its
// transport from here. A change starts a new run beside the serving one; once it has loaded,
// the serving run is closed and the gateway reconnects to the new one (lists again, and tells
// its clients list_changed). A run that fails to load is dropped: the last one keeps serving.
import type { Transport } from '../../jsonrpc/index.js';
import type { ChildOptions, DevChild } from './child.js';
import { LoadFailure, startChild } from './child.js';

/** What the reloader tells the person running `mcpkit dev`. */
export interface ReloadEvents {
  /** A new version failed to load; `serving`: an older one still serves. */
  failed(error: Error, serving: boolean): void;
  /** The serving run's process ended without being asked to; a new one is started. */
  exited(description: string): void;
}

/** Supplies the gateway's upstream transport from the latest run of the module that loaded. */
export class Reloader {
  readonly #options: ChildOptions;
  readonly #events: ReloadEvents;
  /** The run the gateway is connected to, or about to be. */
  #current: DevChild | undefined;
  /** A loaded run waiting for the gateway to take it. */
  #next: DevChild | undefined;
  /** The module as it is now failed to load: no new run until it changes. */
  #broken: Error | undefined;
  #reloading: Promise<void> | undefined;
  #again = false;
  #closed = false;

  constructor(options: ChildOptions, events: ReloadEvents) {
    this.#options = options;
    this.#events = events;
  }

  /** The gateway's transport factory: the waiting run, else a new one. */
  readonly transport = async (): Promise<Transport> => {
    if (this.#closed) throw new Error('mcpkit dev is stopping');
    let child = this.#next;
    this.#next = undefined;
    if (child === undefined) {
      if (this.#broken !== undefined) throw this.#broken;
      child = await this.#start();
    }
    this.#adopt(child);
    return child.transport;
  };

  /** The module changed: loads it again (changes meanwhile make one more load). */
  reload(): void {
    if (this.#reloading !== undefined) {
      this.#again = true;
      return;
    }
    this.#reloading = (async () => {
      for (let more = true; more; more = this.#moreToLoad()) {
        this.#again = false;
        await this.#reloadOnce();
      }
      this.#reloading = undefined;
    })();
  }

  /** Whether a change came during the last load (and the reloader is still open). */
  #moreToLoad(): boolean {
    return this.#again && !this.#closed;
  }

  /** Ends every run. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#reloading;
    const runs = [this.#current, this.#next];
    this.#current = this.#next = undefined;
    for (const run of runs) await run?.close();
  }

  async #reloadOnce(): Promise<void> {
    let child: DevChild;
    try {
      child = await this.#start();
    } catch {
      return;
    }
    if (this.#closed) {
      await child.close();
      return;
    }
    const stale = this.#next;
    this.#next = child;
    await stale?.close();
    const serving = this.#current;
    this.#current = undefined;
    // The gateway sees its connection close, reconnects, and takes #next.
    await serving?.close();
  }

  async #start(): Promise<DevChild> {
    try {
      const child = await startChild(this.#options);
      this.#broken = undefined;
      return child;
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      if (failure instanceof LoadFailure) this.#broken = failure;
      this.#events.failed(failure, this.#current !== undefined);
      throw failure;
    }
  }

  /** `child` is the gateway's now: when its process ends unasked, say so. */
  #adopt(child: DevChild): void {
    this.#current = child;
    void child.exit.then((exit) => {
      if (this.#current !== child || this.#closed) return;
      this.#current = undefined;
      this.#events.exited(
        exit.signal === null ? `exit code ${String(exit.code)}` : `signal ${exit.signal}`,
      );
    });
  }
}
