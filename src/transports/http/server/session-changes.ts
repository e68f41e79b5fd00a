// What the copies of a shared legacy session (one per process) tell each other of the session's
// state: the client requests that change what it keeps, and the notifications every process
// sends its own copies.
import type { SessionChange } from './session-store.js';

/** What every process tells its own copies of a session, through the server's change bus. */
export const BROADCAST: ReadonlySet<string> = new Set([
  'notifications/tools/list_changed',
  'notifications/resources/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/updated',
]);

/** The change a client request makes to what its session keeps, if any. */
export function changeOf(method: string, params: unknown): SessionChange | undefined {
  const fields = (typeof params === 'object' && params !== null ? params : {}) as Record<
    string,
    unknown
  >;
  switch (method) {
    case 'logging/setLevel':
      return typeof fields['level'] === 'string' ? { logLevel: fields['level'] } : undefined;
    case 'resources/subscribe':
      return typeof fields['uri'] === 'string' ? { subscribe: fields['uri'] } : undefined;
    case 'resources/unsubscribe':
      return typeof fields['uri'] === 'string' ? { unsubscribe: fields['uri'] } : undefined;
    default:
      return undefined;
  }
}

/** The request that makes `change` (the inverse of {@link changeOf}). */
export function requestOf(change: SessionChange): {
  method: string;
  params: Record<string, string>;
} {
  if ('logLevel' in change)
    return { method: 'logging/setLevel', params: { level: change.logLevel } };
  if ('subscribe' in change)
    return { method: 'resources/subscribe', params: { uri: change.subscribe } };
  return { method: 'resources/unsubscribe', params: { uri: change.unsubscribe } };
}
