// Legacy sessions shared by processes: a SessionStore keeps what a session's `initialize`
// settled (revision, client capabilities and info, the principal) and what the client asked it to
// keep since (log level, resource subscriptions), so that a process that has
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
 * What one process tells the others about a session through the store's bus:
 * - `client`: a client message for the process that awaits it (a response to a request a server
 *   there sent, a `notifications/cancelled` for a request running there);
 * - `server`: a server message for the session's GET stream, to the process that holds it (with
 *   `streamId`: for a POST stream that process took over);
 * - `stream`: the publisher now holds the session's GET stream (with `streamId`: that POST
 *   stream, resumed there): the others let theirs go;
 * - `state`: the client changed what the session keeps (log level, resource subscriptions);
 * - `ended`: the session ended (DELETE): every process drops its copy.
 */
export type SessionEvent =
  | { readonly type: 'client'; readonly message: Message }
  | {
      readonly type: 'server';
      readonly message: Message | readonly Message[];
      readonly streamId?: string;
    }
  | { readonly type: 'stream'; readonly streamId?: string }
  | { readonly type: 'state'; readonly change: SessionChange }
  | { readonly type: 'ended' };

/** A change of what a session keeps: `logging/setLevel`, `resources/subscribe` or `unsubscribe`. */
export type SessionChange =
  { readonly logLevel: string } | { readonly subscribe: string } | { readonly unsubscribe: string };

/**
 * SessionStore: `save` at initialize (and again when what the session keeps changes), `load`
 * for a session id this process does not know (undefined when unknown or expired), `delete` on
 * DELETE.
 */
export interface SessionStore {
  /**
   * How long an unused record is kept, in milliseconds, when known: a process extends a
   * session's expiry at most every half of it (and at most once a minute).
   */
  readonly ttlMs?: number;
  save(id: string, record: SessionRecord): Promise<void>;
  load(id: string): Promise<SessionRecord | undefined>;
  delete(id: string): Promise<void>;
  /**
   * Extends the record's expiry (a session in use); optional. Resolves `false` when the record
   * is gone (expired or deleted): the process then drops its copy of the session.
   */
  touch?(id: string): Promise<boolean | undefined>;
  /**
   * Sends an event of session `id` to every other process (not to this one); optional.
   * `subscribe` receives the events the others publish; both or neither.
   */
  publish?(id: string, event: SessionEvent): Promise<void>;
  subscribe?(listener: (id: string, event: SessionEvent) => void): () => void;
}

/**
 * True for a client message that may belong to another process: a response (the request it
 * answers may have been sent from there), a cancellation (the request may run there), or
 * `notifications/initialized` (the process that answered initialize waits for it).
 */
export function routedElsewhere(message: Message): boolean {
  if (!('method' in message)) return true;
  return (
    message.method === 'notifications/cancelled' || message.method === 'notifications/initialized'
  );
}

/** The record with `change` applied (a new object; the record is not changed). */
export function withChange(record: SessionRecord, change: SessionChange): SessionRecord {
  if ('logLevel' in change) return { ...record, logLevel: change.logLevel };
  const uris = new Set(record.subscriptions);
  if ('subscribe' in change) uris.add(change.subscribe);
  else uris.delete(change.unsubscribe);
  return { ...record, subscriptions: [...uris] };
}
