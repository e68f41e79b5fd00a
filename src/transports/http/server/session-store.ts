// Legacy sessions shared by processes: a SessionStore keeps what a session's `initialize`
// settled (revision, client capabilities and info, the principal), so that a process that has
// never seen a session id can resume it for the next request (behind a load balancer without
// sticky routing). What the store keeps is written before the initialize answer goes out.
import type { Message } from '../../../jsonrpc/message.js';
import type { RestoredSession } from '../../../protocol/connectable.js';

/** A session as stored: what resuming it needs, and whose it is. */
export interface SessionRecord extends RestoredSession {
  /** The principal that initialized it (authorization on); compared on every resume. */
  readonly owner: string | undefined;
}

/**
 * SessionStore: `save` at initialize (and again to refresh its expiry), `load` for a session
 * id this process does not know (undefined when unknown or expired), `delete` on DELETE.
 */
export interface SessionStore {
  save(id: string, record: SessionRecord): Promise<void>;
  load(id: string): Promise<SessionRecord | undefined>;
  delete(id: string): Promise<void>;
  /** Extends the record's expiry (a session in use); optional. */
  touch?(id: string): Promise<void>;
  /**
   * Sends a client message of session `id` to every other process (a response to a request a
   * server there sent, a `notifications/cancelled` for a request running there); optional.
   * `subscribe` receives them; both or neither.
   */
  publish?(id: string, message: Message): Promise<void>;
  subscribe?(listener: (id: string, message: Message) => void): () => void;
}

/**
 * True for a client message that may belong to another process: a response (the request it
 * answers may have been sent from there) or a cancellation (the request may run there).
 */
export function routedElsewhere(message: Message): boolean {
  if (!('method' in message)) return true;
  return message.method === 'notifications/cancelled';
}
