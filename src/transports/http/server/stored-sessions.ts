// Sessions kept in a session store (`sessionStore` option), as middleware in front of the verbs:
// a request naming a session this process does not hold resumes it from the store; a held one
// has its record's expiry extended (at most once a minute); a held session whose record expired
// is dropped here and on every other process.
import { ErrorCode } from '../../../jsonrpc/errors.js';
import type { HttpContext } from './context.js';
import type { HttpReply } from './exchange.js';
import { errorReply, joined, pathOf } from './exchange.js';
import { onSessionEvent, resumeSession } from './legacy-session.js';
import type { HttpMiddleware } from './middleware.js';
import type { SessionStore } from './session-store.js';

/**
 * The answer when the session store cannot be reached: 503 with a JSON-RPC error that says so,
 * at once (the client may retry; the process recovers when the store does).
 */
export function storeUnavailable(): HttpReply {
  return errorReply(503, {
    code: ErrorCode.InternalError,
    message: 'the session store is unavailable; try again shortly',
    id: null,
  });
}

/** Serves the sessions of a store for the handler whose context it is given. */
export class StoredSessions {
  readonly #ctx: HttpContext;
  readonly #store: SessionStore;
  /** When each stored session's expiry was last extended. */
  readonly #refreshed = new Map<string, number>();
  readonly #refreshMs: number;
  readonly #expiryCheck: ReturnType<typeof setInterval>;
  readonly #unsubscribe: (() => void) | undefined;

  constructor(ctx: HttpContext, store: SessionStore) {
    this.#ctx = ctx;
    this.#store = store;
    this.#refreshMs = Math.min(60_000, (store.ttlMs ?? 120_000) / 2);
    // A held session may see no request while its record expires (its only activity an open
    // GET stream): every refreshMs, those not extended since are looked up and dropped when
    // gone. Unref'd: it keeps no process alive.
    this.#expiryCheck = setInterval(() => {
      void this.#dropExpired();
    }, this.#refreshMs).unref();
    // What other processes publish about sessions held here (see onSessionEvent).
    this.#unsubscribe = store.subscribe?.((id, event) => {
      onSessionEvent(ctx, id, event);
    });
  }

  /**
   * The middleware in front of the verbs: resumes a session this process does not hold (503
   * when the store cannot be reached), or extends a held one's expiry when due.
   */
  readonly middleware: HttpMiddleware = (exchange, answer, next) => {
    const id = joined(exchange.headers['mcp-session-id']);
    if (id === undefined) {
      next(exchange, answer);
      return;
    }
    const ctx = this.#ctx;
    if (pathOf(exchange.url) === ctx.options.path && !ctx.sessions.knows(id)) {
      resumeSession(ctx, exchange, id).then(
        () => {
          next(exchange, answer);
        },
        (error: unknown) => {
          ctx.options.onError(error, 'session store');
          answer(storeUnavailable());
        },
      );
      return;
    }
    let refreshing: Promise<void> | undefined;
    try {
      refreshing = this.#refresh(id);
    } catch (error) {
      refreshing = undefined; // a store that throws is one that failed: as below
      ctx.options.onError(error, 'session store');
    }
    if (refreshing === undefined) {
      next(exchange, answer);
      return;
    }
    const go = (): void => {
      next(exchange, answer);
    };
    refreshing.then(go, (error: unknown) => {
      // The store is unreachable: the copy held here still serves.
      ctx.options.onError(error, 'session store');
      go();
    });
  };

  /** Stops the subscription and the expiry checks (on close). */
  stop(): void {
    this.#unsubscribe?.();
    clearInterval(this.#expiryCheck);
  }

  /**
   * Extends the expiry of held session `id` when due (every refreshMs): a promise then, after
   * which a session whose record is gone (expired, deleted) is no longer held here.
   */
  #refresh(id: string): Promise<void> | undefined {
    const store = this.#store;
    const now = Date.now();
    const refreshed = this.#refreshed;
    if (store.touch === undefined || now - (refreshed.get(id) ?? 0) < this.#refreshMs) {
      return undefined;
    }
    if (!this.#ctx.sessions.knows(id)) return undefined;
    if (refreshed.size > this.#ctx.options.maxSessions) refreshed.clear();
    refreshed.set(id, now);
    return store.touch(id).then((alive) => {
      if (alive === false) this.#gone(id);
    });
  }

  /** Drops stored session `id`, whose record is gone, here and on every other process. */
  #gone(id: string): void {
    this.#refreshed.delete(id);
    this.#ctx.sessions.delete(id);
    this.#store.publish?.(id, { type: 'ended' }).catch((error: unknown) => {
      this.#ctx.options.onError(error, 'session store');
    });
  }

  async #dropExpired(): Promise<void> {
    const { sessions } = this.#ctx;
    const now = Date.now();
    const due = [...sessions.ids()].filter(
      (id) => now - (this.#refreshed.get(id) ?? 0) >= this.#refreshMs,
    );
    for (const id of due) {
      try {
        if ((await this.#store.load(id)) === undefined && sessions.knows(id)) this.#gone(id);
      } catch (error) {
        // The store is unreachable: the copies held here still serve.
        this.#ctx.options.onError(error, 'session store');
        return;
      }
    }
  }
}
