// What a feature function receives for one request (the Call) and the session state it may
// change: the one type the method table, the handler runs and the built-in extensions share.
import type { MaybePromise } from '../internal/maybe.js';
import type { RequestScope } from './context.js';
import type { ServerCore } from './core.js';
import type { Snapshot } from './registry.js';
import type { LoggingLevel } from './types.js';

/**
 * What a legacy session keeps for its client, as the features that change it see it. A request
 * served without a session (2026-07-28, legacy stateless) gets {@link NO_STATE}: what it asks to
 * keep is not kept, as the spec's stateless modes say.
 */
export interface SessionState {
  /** Starts (or stops) sending `notifications/resources/updated` for `uri` (resources/subscribe). */
  subscribe(uri: string, on: boolean): void;
  /** Sets the least severe log level sent (logging/setLevel). */
  setLogLevel(level: LoggingLevel): void;
}

/** The state of a request served without a session: nothing is kept. */
export const NO_STATE: SessionState = {
  subscribe() {
    // no session to keep it in
  },
  setLogLevel() {
    // no session to keep it in
  },
};

/** What a feature function receives for one request. */
export interface Call {
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly scope: RequestScope;
  readonly snapshot: Snapshot;
  readonly state: SessionState;
  readonly core: ServerCore;
}

/** Serves one method; may throw (a JsonRpcError) instead of rejecting. */
export type Feature = (call: Call) => MaybePromise<unknown>;
