// Resource subscriptions with one API for both eras: legacy `resources/subscribe` and
// `resources/unsubscribe`; in 2026-07-28 one `subscriptions/listen` stream carrying every
// subscribed URI (`resourceSubscriptions`), reopened whenever the set changes (Spec 2026-07-28
// basic/utilities/subscriptions, which replaced `resources/subscribe`).
import { noop } from '../internal/noop.js';
import type { ClientSession } from './session.js';
import type { CallOptions } from './types.js';

/** A subscription change: subscribe (`on`) or unsubscribe. */
export interface SubscriptionChange {
  on: boolean;
  options: CallOptions | undefined;
}

/**
 * Subscribes to or unsubscribes from `uri`. Changes of one session run one after another, so
 * streams are replaced in order; a failed change leaves the set as it was.
 */
export function changeSubscription(
  session: ClientSession,
  uri: string,
  change: SubscriptionChange,
): Promise<void> {
  const run = (): Promise<void> =>
    session.caller.era === 'legacy'
      ? changeLegacy(session, uri, change)
      : changeModern(session, uri, change.on);
  const next = session.queue.then(run, run);
  session.queue = next.catch(noop);
  return next;
}

async function changeLegacy(
  session: ClientSession,
  uri: string,
  change: SubscriptionChange,
): Promise<void> {
  const method = change.on ? 'resources/subscribe' : 'resources/unsubscribe';
  await session.caller.request(method, { uri }, change.options);
  toggle(session.uris, uri, change.on);
}

async function changeModern(session: ClientSession, uri: string, on: boolean): Promise<void> {
  if (session.uris.has(uri) === on) return;
  toggle(session.uris, uri, on);
  try {
    await reopen(session);
  } catch (error) {
    toggle(session.uris, uri, !on);
    throw error;
  }
}

/** Opens the stream for the subscribed URIs, then closes the one it replaces. */
async function reopen(session: ClientSession): Promise<void> {
  const previous = session.resourceStream;
  const uris = [...session.uris];
  const next =
    uris.length === 0 ? undefined : session.listens.open({ resourceSubscriptions: uris });
  if (next !== undefined) {
    try {
      await next.acknowledged;
    } catch (error) {
      await next.close();
      throw error;
    }
  }
  session.resourceStream = next;
  await previous?.close();
}

function toggle(set: Set<string>, value: string, on: boolean): void {
  if (on) set.add(value);
  else set.delete(value);
}
