// What a legacy Streamable HTTP session (SessionTransport) is given by its handler: the settings
// every session of the handler shares, and the hooks of a session shared with other processes.
import type { Message } from '../../../jsonrpc/message.js';
import type { EventStore } from './event-store.js';
import type { SessionChange, SessionRecord } from './session-store.js';

/** What the hooks of a shared session see of the session whose client changed what it keeps. */
export interface SharedSessionView {
  readonly id: string;
  /** The stored record, with the change applied (a session store is set). */
  readonly record: SessionRecord | undefined;
}

/**
 * What a session shared with other processes (a session store with a bus) tells them; the
 * handler publishes it.
 */
export interface SharedSessionHooks {
  /**
   * A server message for the GET stream, which this process does not hold, to its holder; or,
   * with `streamId`, for a POST stream another process took over. False when there is no bus.
   */
  forward(id: string, message: Message | readonly Message[], streamId?: string): boolean;
  /**
   * This process now holds the session's GET stream (or, with `streamId`, that POST stream): the
   * others let theirs go.
   */
  holding(id: string, streamId?: string): void;
  /** The client changed what the session keeps (a request answered with success here). */
  changed(session: SharedSessionView, change: SessionChange): void;
}

/** Settings shared by every session of one handler. */
export interface SessionSettings {
  readonly store: EventStore | undefined;
  /** Set when sessions are shared with other processes through a session store's bus. */
  readonly shared?: SharedSessionHooks | undefined;
  readonly retryMs: number;
  readonly keepAliveMs: number;
  readonly report: (error: unknown, where: string) => void;
  /** A stream of the session closed (the session may now be idle). */
  readonly touched: (id: string) => void;
  /**
   * The session may have gone idle without a use: a request of it ended (its client may be
   * away), or it closed.
   */
  readonly settled?: (id: string) => void;
}
